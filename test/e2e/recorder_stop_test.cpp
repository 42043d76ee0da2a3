// `kestrel recorder stop` removes only a recorder it can prove is Kestrel's,
// and leaves no empty folder behind.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "absl/strings/str_format.h"
#include "recorder_pin_root.h"
#include "shared/recorder_format.h"

namespace kestrel::e2e {
namespace {

// Rewrites the version a running recorder's info map says it is, as a
// recorder of another Kestrel release would have it.
void SetRecorderVersion(const RecorderPinRoot& root, uint32_t version) {
  const int fd = bpf_obj_get((root.dir() + "/info").c_str());
  ASSERT_GE(fd, 0);
  kestrel_recorder_info info{};
  const uint32_t zero = 0;
  ASSERT_EQ(bpf_map_lookup_elem(fd, &zero, &info), 0);
  info.version = version;
  ASSERT_EQ(bpf_map_update_elem(fd, &zero, &info, BPF_ANY), 0);
  close(fd);
}

constexpr const char* kForeignMaps[] = {"info", "control", "slots", "heads", "counters"};

// Ordinary maps under the recorder's pin names, as issue #14 item 4 made.
void CreateForeignRecorderLookalike(const RecorderPinRoot& root) {
  ASSERT_EQ(mkdir(root.dir().c_str(), 0700), 0);
  CreateForeignMap(root.dir() + "/info", "hash", 8, 4, "info");
  for (const char* name : {"control", "slots", "heads", "counters"}) {
    CreateForeignMap(root.dir() + "/" + name, "array", 8, 4, name);
  }
}

TEST(RecorderStopTest, RefusesOrdinaryMapsNamedLikeARecorderAndRemovesNothing) {
  RecorderPinRoot root;
  CreateForeignRecorderLookalike(root);
  const CliResult r = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(LinesWith(r.err, {"kestrel recorder stop: "}).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("is not a Kestrel recorder's"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing was removed"), std::string::npos) << r.err;
  for (const char* name : kForeignMaps) {
    EXPECT_TRUE(Exists(root.dir() + "/" + name)) << name << " was deleted";
  }
}

TEST(RecorderStopTest, DumpSaysWhatIsWrongWithAHashMapPinnedAsInfo) {
  RecorderPinRoot root;
  CreateForeignRecorderLookalike(root);
  const CliResult r = RunKestrel(root.Args({"dump"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("kestrel dump: " + root.dir() +
                       "/info is not a Kestrel recorder's info map (hash map \"info\""),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("expected array map \"recorder_info\""), std::string::npos) << r.err;
}

TEST(RecorderStopTest, RefusesARecorderFolderHoldingAnUnrelatedPinAndKeepsTheRecorder) {
  RecorderPinRoot root;
  const CliResult start = RunKestrel(root.Args({"recorder", "start"}, {"--size", "64K"}));
  ASSERT_EQ(start.exit_code, 0) << start.err;
  CreateForeignMap(root.dir() + "/extra", "array", 8, 1, "extra");

  const CliResult r = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(root.dir() + "/extra is not part of a Kestrel recorder"), std::string::npos)
      << r.err;
  for (const char* pin : {"link", "fork_link", "exit_link", "slots", "heads", "info", "counters",
                          "fillers", "control", "extra"}) {
    EXPECT_TRUE(Exists(root.dir() + "/" + pin)) << pin << " was deleted";
  }
  // dump names the stranger too rather than read around it.
  const CliResult dump = RunKestrel(root.Args({"dump"}, {"--last", "1"}));
  EXPECT_EQ(dump.exit_code, 1);
  EXPECT_NE(dump.err.find(root.dir() + "/extra is not part of a Kestrel recorder"),
            std::string::npos)
      << dump.err;

  ASSERT_EQ(unlink((root.dir() + "/extra").c_str()), 0);
  const CliResult stop = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_EQ(stop.out, "recorder rec stopped\n");
}

TEST(RecorderStopTest, LeavesNoFolderOfItsOwnBehind) {
  RecorderPinRoot root;
  ASSERT_EQ(RunKestrel(root.Args({"recorder", "start"}, {"--size", "64K"})).exit_code, 0);
  const CliResult stop = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_FALSE(Exists(root.dir()));
  // A root that is not the default one is the user's: it stays.
  EXPECT_TRUE(Exists(root.path()));
}

TEST(RecorderStopTest, RemovesTheDefaultRootOnceItIsEmpty) {
  const std::string kDefaultRoot = "/sys/fs/bpf/kestrel";
  std::error_code ignored;
  const bool root_held_others =
      Exists(kDefaultRoot) && !std::filesystem::is_empty(kDefaultRoot, ignored);
  const std::string name = "e2e-default-root-" + std::to_string(getpid());
  const CliResult start = RunKestrel({"recorder", "start", "--name", name, "--size", "64K"});
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const CliResult stop = RunKestrel({"recorder", "stop", "--name", name});
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_FALSE(Exists(kDefaultRoot + "/" + name));
  // Gone once empty; kept while it holds anything else.
  EXPECT_EQ(Exists(kDefaultRoot), root_held_others);
}

TEST(RecorderStopTest, NoRecorderExits1) {
  RecorderPinRoot root;
  const CliResult r = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "kestrel recorder stop: no recorder is pinned at " + root.dir() + "\n");
}

// Issue 21: a pinned recorder of another format version is neither read
// nor removed; one line names the version found and the one expected.
TEST(RecorderStopTest, ARecorderOfAnotherVersionIsNamedInOneLineAndKept) {
  RecorderPinRoot root;
  ASSERT_EQ(RunKestrel(root.Args({"recorder", "start"}, {"--size", "64K"})).exit_code, 0);
  SetRecorderVersion(root, KESTREL_RECORDER_VERSION + 1);
  const std::string found = absl::StrFormat(
      "version %u, expected %#llx version %u", KESTREL_RECORDER_VERSION + 1,
      static_cast<unsigned long long>(KESTREL_RECORDER_MAGIC), KESTREL_RECORDER_VERSION);
  for (const std::vector<std::string>& verb :
       std::vector<std::vector<std::string>>{{"dump"}, {"recorder", "stop"}}) {
    const CliResult r = RunKestrel(root.Args(verb));
    EXPECT_EQ(r.exit_code, 1) << verb.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(LinesWith(r.err, {root.dir() + "/info is not a Kestrel recorder's info map of this "
                                             "version",
                                found})
                  .size(),
              1u)
        << r.err;
  }
  EXPECT_TRUE(Exists(root.dir() + "/info")) << "another version's recorder was removed";
  SetRecorderVersion(root, KESTREL_RECORDER_VERSION);
  EXPECT_EQ(RunKestrel(root.Args({"recorder", "stop"})).exit_code, 0);
}

}  // namespace
}  // namespace kestrel::e2e
