// `kestrel capture -w FILE` and `-r FILE` through the binary: a file written
// during a live capture reads back as the live capture printed the same
// events; damage is reported by byte offset; rotation keeps N files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "capture_test_support.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

namespace fs = std::filesystem;

// A child that opens <dir>/f0, <dir>/f1 ... (which do not exist) until
// killed, so every openat record names its own call.
class NumberedOpener {
 public:
  explicit NumberedOpener(std::string dir) : dir_(std::move(dir)) {
    pid_ = fork();
    if (pid_ == 0) {
      for (long i = 0;; ++i) {
        const std::string path = dir_ + "/f" + std::to_string(i);
        open(path.c_str(), O_RDONLY | O_CLOEXEC);
        usleep(500);
      }
    }
  }
  ~NumberedOpener() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  std::string dir_;
  pid_t pid_ = -1;
};

// The JSON lines naming `dir`, keyed by path, without the fields two
// probes see differently: the timestamp, and (until capture files carry
// the snapshot of the processes at start) the name of a process that
// predates the capture.
std::map<std::string, std::string> OpensByPathIgnoringComm(const std::string& out,
                                                           const std::string& dir) {
  static const std::regex ts(R"("ts":[0-9]+,"comm":"[^"]*",)");
  static const std::regex path(R"re("path":"([^"]*)")re");
  std::map<std::string, std::string> found;
  for (const std::string& line : TerminatedLines(out)) {
    if (line.find(dir) == std::string::npos) continue;
    std::smatch m;
    if (!std::regex_search(line, m, path)) continue;
    found[m[1]] = std::regex_replace(line, ts, "");
  }
  return found;
}

// A child writing 4 KiB of random bytes to /dev/null until killed: records
// that do not compress.
class RandomWriter {
 public:
  RandomWriter() {
    pid_ = fork();
    if (pid_ == 0) {
      std::vector<char> random(1 << 20);
      std::ifstream("/dev/urandom", std::ios::binary).read(random.data(), random.size());
      const int out = open("/dev/null", O_WRONLY | O_CLOEXEC);
      for (size_t i = 0;; ++i) {
        if (write(out, random.data() + (i * 4099) % (random.size() - 4096), 4096) < 0) _exit(1);
        if (i % 64 == 0) usleep(1000);
      }
    }
  }
  ~RandomWriter() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

class CaptureFileTest : public CaptureDirTest {
 protected:
  CaptureFileTest() : CaptureDirTest("capfile") {}
};

TEST_F(CaptureFileTest, AFileReadsBackAsTheSimultaneousLiveCapturePrinted) {
  const std::string file = dir_ + "/opens.kcap";
  const std::string missing = dir_ + "/missing";  // the opened names, never created
  NumberedOpener child(missing);
  const std::string pid = std::to_string(child.pid());
  // The live capture runs from before the write starts until after it
  // ended, and its output is read meanwhile, so it never waits on a full
  // pipe (and drops nothing).
  KestrelProcess live({"capture", "--json", "--syscalls", "openat", "--pid", pid});
  ASSERT_TRUE(live.WaitForLine(missing, std::chrono::seconds(30)));
  CliResult write;
  std::atomic<bool> written{false};
  std::thread writer([&] {
    write = RunKestrel(
        {"capture", "-w", file, "--syscalls", "openat", "--pid", pid, "--duration", "2"});
    written = true;
  });
  while (!written) live.ReadLine(std::chrono::milliseconds(100));
  writer.join();
  ASSERT_EQ(write.exit_code, 0) << write.err;
  EXPECT_NE(write.err.find("capture file " + file + ": "), std::string::npos) << write.err;
  live.Signal(SIGINT);
  const CliResult shown = live.Wait(std::chrono::seconds(30));
  ASSERT_EQ(shown.exit_code, 0) << shown.err;

  const CliResult read = RunKestrel({"capture", "-r", file, "--json", "--syscalls", "openat"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  const std::map<std::string, std::string> from_file = OpensByPathIgnoringComm(read.out, missing);
  const std::map<std::string, std::string> from_live = OpensByPathIgnoringComm(shown.out, missing);
  size_t common = 0;
  for (const auto& [path, line] : from_file) {
    auto it = from_live.find(path);
    if (it == from_live.end()) continue;
    ++common;
    EXPECT_EQ(line, it->second) << path;
  }
  // The write ran inside the live capture: every event in the file was
  // printed live.
  EXPECT_GE(common, 100u);
  EXPECT_EQ(common, from_file.size());
  // Each printed line is the open of a missing file, by the child.
  for (const auto& [path, line] : from_file) {
    EXPECT_NE(line.find("\"params\":{\"fd\":-2,"), std::string::npos) << line;
    EXPECT_NE(line.find("\"tid\":" + pid + ",\"pid\":" + pid), std::string::npos) << line;
  }
}

TEST_F(CaptureFileTest, ADamagedFileIsReadUpToTheDamageAndSaysWhere) {
  const std::string file = dir_ + "/all.kcap";
  const CliResult write = RunKestrel({"capture", "-w", file, "--duration", "1"});
  ASSERT_EQ(write.exit_code, 0) << write.err;
  const CliResult whole = RunKestrel({"capture", "-r", file});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  ASSERT_GT(TerminatedLines(whole.out).size(), 10u);

  const auto size = fs::file_size(file);
  fs::resize_file(file, size - 10);
  const CliResult cut = RunKestrel({"capture", "-r", file});
  EXPECT_EQ(cut.exit_code, 1);
  EXPECT_NE(cut.err.find(" is damaged: the block at byte "), std::string::npos) << cut.err;
  EXPECT_NE(cut.err.find(" is cut short ("), std::string::npos) << cut.err;
  // Every line before the damaged block is still printed, exactly.
  const std::vector<std::string> before = TerminatedLines(cut.out);
  const std::vector<std::string> all = TerminatedLines(whole.out);
  ASSERT_LE(before.size(), all.size());
  EXPECT_TRUE(std::equal(before.begin(), before.end(), all.begin()));
}

TEST_F(CaptureFileTest, RotationKeepsTheCurrentFileAndNOlderOnes) {
  const std::string file = dir_ + "/rot.kcap";
  RandomWriter load;  // 4 KiB of random data a record: a few MB a second
  const CliResult write =
      RunKestrel({"capture", "-w", file, "--syscalls", "write", "--pid", std::to_string(load.pid()),
                  "--io-data", "--snaplen", "4096", "--rotate-size", "1", "--rotate-keep", "2",
                  "--duration", "3"});
  ASSERT_EQ(write.exit_code, 0) << write.err;
  ASSERT_TRUE(fs::exists(file));
  ASSERT_TRUE(fs::exists(file + ".1")) << write.err;
  ASSERT_TRUE(fs::exists(file + ".2")) << write.err;
  EXPECT_FALSE(fs::exists(file + ".3"));
  for (const std::string& f : {file, file + ".1", file + ".2"}) {
    const CliResult read = RunKestrel({"capture", "-r", f, "--count", "1"});
    EXPECT_EQ(read.exit_code, 0) << f << ": " << read.err;
  }
}

TEST_F(CaptureFileTest, FileFlagsRefuseWhatCannotGoWithThem) {
  const std::string file = dir_ + "/x.kcap";
  EXPECT_EQ(RunKestrel({"capture", "-w", file, "--json"}).exit_code, 2);
  EXPECT_EQ(RunKestrel({"capture", "-r", "/etc/hostname", "--pid", "1"}).exit_code, 2);
  EXPECT_EQ(RunKestrel({"capture", "--rotate-size", "1"}).exit_code, 2);
  const CliResult not_capture = RunKestrel({"capture", "-r", "/etc/hostname"});
  EXPECT_EQ(not_capture.exit_code, 1);
  EXPECT_NE(not_capture.err.find("/etc/hostname is not a Kestrel capture file"), std::string::npos)
      << not_capture.err;
  const CliResult cannot = RunKestrel({"capture", "-w", dir_ + "/no/such/dir/f.kcap"});
  EXPECT_EQ(cannot.exit_code, 1);
  EXPECT_NE(cannot.err.find("cannot create"), std::string::npos) << cannot.err;
}

}  // namespace
}  // namespace kestrel::e2e
