// `kestrel completion bash`: the script is valid bash and completes what
// the verbs define, checked by running bash's own completion machinery.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

class CompletionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const CliResult r = RunKestrel({"completion", "bash"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(r.err, "");
    script_ = "/tmp/kestrel-e2e-completion-" + std::to_string(getpid()) + ".bash";
    std::ofstream(script_) << r.out;
  }
  void TearDown() override { std::remove(script_.c_str()); }

  // Sources the script and asks the function `complete -p kestrel` names to
  // complete `line` (its last word being completed); returns COMPREPLY.
  std::string Complete(const std::string& line) {
    const std::string program = "source '" + script_ +
                                "'\n"
                                "fn=$(complete -p kestrel | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')\n"
                                "COMP_LINE='" +
                                line +
                                "'\n"
                                "read -r -a COMP_WORDS <<< \"$COMP_LINE\"\n"
                                "[[ \"$COMP_LINE\" == *' ' ]] && COMP_WORDS+=('')\n"
                                "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
                                "\"$fn\"\n"
                                "echo \"${COMPREPLY[*]}\"\n";
    const std::string path = script_ + ".run";
    std::ofstream(path) << program;
    std::string out;
    if (FILE* p = popen(("bash " + path).c_str(), "r")) {
      char buf[4096];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
      pclose(p);
    }
    std::remove(path.c_str());
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }

  std::string script_;
};

TEST_F(CompletionTest, ScriptIsValidBash) {
  EXPECT_EQ(std::system(("bash -n '" + script_ + "'").c_str()), 0);
}

TEST_F(CompletionTest, CompletesFlagsOfAVerb) {
  EXPECT_EQ(Complete("kestrel capture --sys"), "--syscalls");
  EXPECT_EQ(Complete("kestrel capture --pin"), "--pin --pin-dir");
  EXPECT_EQ(Complete("kestrel stats --cpus"), "--cpus-per-buffer");
}

TEST_F(CompletionTest, CompletesTheRecorderDumpAndBenchVerbs) {
  EXPECT_EQ(Complete("kestrel recorder st"), "start stop");
  EXPECT_EQ(Complete("kestrel recorder start --per"), "--per-cpu");
  EXPECT_EQ(Complete("kestrel dump --la"), "--last");
  EXPECT_EQ(Complete("kestrel bench --rep"), "--repetitions");
}

TEST_F(CompletionTest, CompletesVerbsAndSubVerbs) {
  EXPECT_EQ(Complete("kestrel cap"), "capture");
  EXPECT_EQ(Complete("kestrel syscalls d"), "disable drop-class");
  EXPECT_EQ(Complete("kestrel settings "), "get set --help -h");
  EXPECT_EQ(Complete("kestrel syscalls enable --p"), "--pin-dir");
  EXPECT_EQ(Complete("kestrel help sta"), "stats");
}

TEST_F(CompletionTest, CompletesRulesDescribeAndRunsFalcoFlags) {
  EXPECT_EQ(Complete("kestrel rules d"), "describe");
  EXPECT_EQ(Complete("kestrel rules describe --js"), "--json");
  EXPECT_EQ(Complete("kestrel run --unb"), "--unbuffered");
  EXPECT_EQ(Complete("kestrel run --sup"), "--support");
  EXPECT_EQ(Complete("kestrel run --list-"), "--list-rules");
}

TEST_F(CompletionTest, CompletesChoicesOfAValue) {
  EXPECT_EQ(Complete("kestrel capture --settings-storage "), "bss array");
  EXPECT_EQ(Complete("kestrel capture --buffer-bytes s"), "small");
  EXPECT_EQ(Complete("kestrel syscalls drop-class n"), "never");
}

}  // namespace
}  // namespace kestrel::e2e
