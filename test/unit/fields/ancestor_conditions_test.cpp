// proc.aname, proc.apid and proc.aexepath without an index: any ancestor's
// value, as in Falco (every comparison, `!=` included, holds when it holds
// for some ancestor; the process itself is not its own ancestor). The
// synthetic lineage: systemd (1) > sshd (100) > bash (200) > cat (300).
#include <gtest/gtest.h>

#include <string>

#include "condition_test.h"

namespace kestrel::engine::fields {
namespace {

using testing::CatRecord;
using testing::ReturnName;

class AncestorConditionsTest : public testing::ConditionTest {
 protected:
  void SetUp() override { OpenEtcPasswd(); }

  std::string Text(const std::string& name) {
    filter::FieldRef ref;
    ref.name = name;
    absl::StatusOr<filter::FieldSpec> spec = sys_.registry().Resolve(ref);
    EXPECT_TRUE(spec.ok()) << spec.status();
    std::string text;
    return spec.ok() && sys_.extractor().ReadText(*spec, text) ? text : "<none>";
  }
};

TEST_F(AncestorConditionsTest, AnameIsAnyAncestorsName) {
  EXPECT_TRUE(Eval("proc.aname = sshd"));
  EXPECT_TRUE(Eval("proc.aname = bash"));
  EXPECT_TRUE(Eval("proc.aname = systemd"));
  EXPECT_FALSE(Eval("proc.aname = cat")) << "the process is not its own ancestor";
  EXPECT_TRUE(Eval("proc.aname in (sshd, sh)"));
  EXPECT_FALSE(Eval("proc.aname in (sh, zsh, cat)"));
  EXPECT_TRUE(Eval("proc.aname contains ssh"));
  EXPECT_TRUE(Eval("proc.aname startswith sys"));
  EXPECT_TRUE(Eval("proc.aname endswith sh"));
  EXPECT_TRUE(Eval("proc.aname glob 's*d'"));
  EXPECT_TRUE(Eval("proc.aname regex '^ba.h$'"));
  EXPECT_TRUE(Eval("proc.aname icontains SSH"));
  EXPECT_FALSE(Eval("proc.aname contains zsh"));
  // Falco compares each ancestor with the operator: some ancestor is not bash.
  EXPECT_TRUE(Eval("proc.aname != bash"));
  EXPECT_FALSE(Eval("not proc.aname = bash"));
  EXPECT_TRUE(Eval("proc.aname exists"));
  EXPECT_EQ(Text("proc.aname"), "bash sshd systemd");
}

TEST_F(AncestorConditionsTest, ApidAndAexepathAreAnyAncestors) {
  EXPECT_TRUE(Eval("proc.apid = 100"));
  EXPECT_TRUE(Eval("proc.apid = 1"));
  EXPECT_FALSE(Eval("proc.apid = 300"));
  EXPECT_TRUE(Eval("proc.apid in (7, 200)"));
  EXPECT_TRUE(Eval("proc.apid > 150"));
  EXPECT_FALSE(Eval("proc.apid > 250"));
  EXPECT_EQ(Text("proc.apid"), "200 100 1");
  EXPECT_TRUE(Eval("proc.aexepath = /usr/sbin/sshd"));
  EXPECT_TRUE(Eval("proc.aexepath endswith /systemd"));
  EXPECT_TRUE(Eval("proc.aexepath pmatch (/usr/lib)"));
  EXPECT_FALSE(Eval("proc.aexepath = /usr/bin/cat"));
  EXPECT_EQ(Text("proc.aexepath"), "/usr/bin/bash /usr/sbin/sshd /usr/lib/systemd/systemd");
  // With an index, one ancestor as before.
  EXPECT_TRUE(
      Eval("proc.aname[2] = sshd and proc.apid[1] = 200 and proc.aexepath[0] endswith cat"));
}

TEST_F(AncestorConditionsTest, NoAncestorsMatchNothing) {
  sys_.SetEvent(testing::EventRecord(KESTREL_EVT_CLOSE, {.tid = 1, .tgid = 1, .ts_ns = 1},
                                     {{ReturnName(KESTREL_EVT_CLOSE), 0}, {"fd", 3}}));
  EXPECT_TRUE(Eval("proc.name = systemd"));
  EXPECT_FALSE(Eval("proc.aname exists"));
  EXPECT_FALSE(Eval("proc.aname != bash"));
  EXPECT_FALSE(Eval("proc.apid > 0"));
  EXPECT_EQ(Text("proc.aname"), "");
}

TEST_F(AncestorConditionsTest, SeveralValuesRefuseTransformersAndRightSides) {
  EXPECT_NE(CompileError("tolower(proc.aname) = bash").find("several values"), std::string::npos);
  EXPECT_NE(CompileError("proc.name = val(proc.aname)").find("several values"), std::string::npos);
  EXPECT_EQ(CompileError("proc.aname = val(proc.name)"), "compiled");
}

}  // namespace
}  // namespace kestrel::engine::fields
