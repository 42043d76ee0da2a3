// Falco conditions compiled against the fields layer's resolver and
// evaluated on synthetic events, the way rules will use them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "condition_test.h"

namespace kestrel::engine::fields {
namespace {

using testing::CatRecord;
using testing::ReturnName;

using FieldConditionsTest = testing::ConditionTest;

// proc.fdusage is Falco's one double: ordered and `in` comparisons with
// decimal literals, and a literal that is no number refused at compile time.
TEST_F(FieldConditionsTest, ADoubleFieldComparesAsANumber) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("kestrel-fdusage-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / std::to_string(testing::kCatPid));
  std::ofstream(dir / std::to_string(testing::kCatPid) / "limits")
      << "Max open files            " << sys_.threads().Find(testing::kCatPid)->fds->size() * 8
      << "                 524288               files     \n";
  sys_.extractor().SetProcDir(dir.string());
  OpenEtcPasswd();
  // cat's descriptors are an eighth of its limit: 12.5%.
  EXPECT_TRUE(Eval("proc.fdusage = 12.5"));
  EXPECT_TRUE(Eval("proc.fdusage > 12"));
  EXPECT_TRUE(Eval("proc.fdusage <= 12.5"));
  EXPECT_FALSE(Eval("proc.fdusage >= 12.51"));
  EXPECT_TRUE(Eval("proc.fdusage in (1, 12.5)"));
  EXPECT_FALSE(Eval("proc.fdusage in (12, 13)"));
  EXPECT_TRUE(Eval("proc.fdusage != 0"));
  EXPECT_EQ(CompileError("proc.fdusage > high"),
            "line 1, column 16: 'high' is not a number (proc.fdusage is a decimal number)");
  EXPECT_EQ(
      CompileError("proc.fdusage contains 1"),
      "line 1, column 1: 'contains' does not apply to proc.fdusage, which is a decimal number");
  std::filesystem::remove_all(dir);
}

TEST_F(FieldConditionsTest, FalcoFileConditions) {
  OpenEtcPasswd();
  EXPECT_TRUE(
      Eval("evt.type in (open, openat) and fd.name startswith /etc and not proc.name "
           "in (sshd, sudo)"));
  EXPECT_TRUE(
      Eval("evt.type in (open, openat, openat2) and evt.is_open_read=true and "
           "fd.typechar=f and fd.num>=0"));
  EXPECT_TRUE(Eval("fd.directory in (/etc, /usr/bin) and fd.filename = passwd"));
  EXPECT_TRUE(Eval("fd.name pmatch (/etc, /root)"));
  EXPECT_TRUE(Eval("evt.arg.flags contains O_RDONLY and evt.rawres >= 0"));
  EXPECT_TRUE(Eval("evt.rawarg.flags = 524288"));
  EXPECT_FALSE(Eval("evt.is_open_write = true"));
  EXPECT_FALSE(Eval("proc.name in (sshd, sudo)"));
}

TEST_F(FieldConditionsTest, FalcoProcessConditions) {
  OpenEtcPasswd();
  EXPECT_TRUE(Eval("proc.aname[2] = sshd"));
  EXPECT_TRUE(Eval("proc.aname[1] = bash and proc.pname = bash"));
  // Without an index, proc.aname is any ancestor's (ancestor_conditions_test).
  EXPECT_TRUE(Eval("proc.aname intersects (sshd, zsh)"));
  EXPECT_TRUE(Eval("proc.aname in (bash, sshd, systemd)"));
  EXPECT_FALSE(Eval("proc.aname intersects (cat)")) << "proc.aname alone is the ancestors only";
  EXPECT_TRUE(Eval("proc.cmdline contains \"passwd -n\""));
  EXPECT_TRUE(Eval("proc.args contains \"-n\""));
  EXPECT_TRUE(Eval("user.name = alice and user.loginuid = 1000 and group.name = staff"));
  EXPECT_TRUE(Eval("container.id = host and not container.image.repository exists"));
  EXPECT_TRUE(Eval("proc.is_container_healthcheck = false"));
  EXPECT_TRUE(Eval("thread.cap_effective contains CAP_SYS_ADMIN"));
  EXPECT_TRUE(Eval("proc.env[HOME] = /home/alice"));
  EXPECT_TRUE(Eval("proc.exepath = /usr/bin/cat and proc.pexepath endswith /bash"));
  EXPECT_TRUE(Eval("proc.apid[1] = 200 and proc.pid = 300"));
  EXPECT_TRUE(Eval("proc.sname = val(proc.pname)"));
}

TEST_F(FieldConditionsTest, FalcoNetworkConditions) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_WRITE, {{ReturnName(KESTREL_EVT_WRITE), 5}, {"fd", 4}}));
  EXPECT_TRUE(Eval("fd.sip = 127.0.0.1 and fd.sport = 8080"));
  EXPECT_TRUE(Eval("fd.l4proto = tcp and fd.sockfamily = ip and fd.connected = true"));
  EXPECT_TRUE(Eval("fd.ip intersects (127.0.0.1)"));
  EXPECT_TRUE(Eval("fd.port intersects (8080, 443)"));
  EXPECT_TRUE(Eval("fd.typechar in (4, 6) and not fd.is_server = true"));
  EXPECT_FALSE(Eval("fd.sport in (22, 443)"));
}

// On a host, container.id and container.name are host (as Falco's container
// plugin names the host), a process is no health check and the start is the
// host init's; what comes from a runtime or Kubernetes is absent, never a
// stand-in value: a comparison on it is false.
TEST_F(FieldConditionsTest, ContainerFieldsHaveHostValues) {
  ThreadInfo init = *sys_.threads().Find(1);
  init.start_ns = testing::kBootTimeNs + 100'000'000;
  sys_.threads().Insert(init);
  OpenEtcPasswd();
  EXPECT_TRUE(Eval("container.id = host and container.name = host"));
  for (const char* absent :
       {"container.image", "container.image.repository", "container.image.tag", "container.mounts",
        "container.mount.dest[/etc]", "k8s.ns.name", "k8s.pod.name"}) {
    EXPECT_FALSE(Eval(std::string(absent) + " exists")) << absent;
    EXPECT_FALSE(Eval(std::string(absent) + " != abc")) << absent;
  }
  EXPECT_FALSE(Eval("container.privileged exists or container.privileged = false"));
  EXPECT_TRUE(Eval("container.type = host"));
  EXPECT_TRUE(Eval("container.start_ts = " + std::to_string(init.start_ns)));
  EXPECT_TRUE(Eval("proc.is_container_healthcheck = false"));
}

// container.start_ts is the start of the pid namespace's init: known for the
// host's namespace only, and missing (as <NA>) while init's start is unknown.
TEST_F(FieldConditionsTest, ContainerStartIsThePidNamespaceInitStart) {
  OpenEtcPasswd();
  EXPECT_FALSE(Eval("container.start_ts exists"));  // the table's init has no start
  ThreadInfo init = *sys_.threads().Find(1);
  init.start_ns = testing::kBootTimeNs + 100'000'000;
  sys_.threads().Insert(init);
  OpenEtcPasswd();
  EXPECT_TRUE(Eval("container.start_ts exists"));
  ThreadInfo cat = *sys_.threads().Find(testing::kCatPid);
  cat.vpid = 7;  // pid 7 of a namespace of its own
  sys_.threads().Insert(cat);
  OpenEtcPasswd();
  EXPECT_FALSE(Eval("container.start_ts exists"));
}

TEST_F(FieldConditionsTest, FieldsWithoutValueMatchNothing) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_CLOSE, {{ReturnName(KESTREL_EVT_CLOSE), 0}, {"fd", 99}}));
  EXPECT_FALSE(Eval("fd.name startswith /"));
  EXPECT_FALSE(Eval("fd.name exists"));
  EXPECT_TRUE(Eval("fd.num exists and fd.num = 99"));
  EXPECT_FALSE(Eval("evt.arg.path exists")) << "close has no path";
}

TEST_F(FieldConditionsTest, CompileErrorsNameTheField) {
  EXPECT_NE(CompileError("proc.nmae = bash").find("field 'proc.nmae'"), std::string::npos);
  EXPECT_NE(CompileError("proc.nmae = bash").find("does not exist"), std::string::npos);
  EXPECT_NE(CompileError("evt.arg.no_such_param = 1").find("no_such_param"), std::string::npos);
  EXPECT_EQ(CompileError("proc.apid = 1"), "compiled") << "any ancestor's pid";
  EXPECT_NE(CompileError("proc.name[1] = x").find("takes no argument"), std::string::npos);
  EXPECT_NE(CompileError("proc.aname[x] = x").find("needs a number"), std::string::npos);
  EXPECT_NE(CompileError("evt.rawarg = 1").find("needs a parameter name"), std::string::npos);
  EXPECT_NE(CompileError("proc.aname[65] = x").find("up to 64"), std::string::npos);
  EXPECT_EQ(CompileError("k8s.ns.name = default"), "compiled");
}

// The same field named by two conditions is one spec: the program reads it
// once per event.
TEST_F(FieldConditionsTest, OneSpecPerField) {
  filter::FieldRef a;
  a.name = "evt.arg.flags";
  filter::FieldRef b = a;
  auto sa = sys_.registry().Resolve(a);
  auto sb = sys_.registry().Resolve(b);
  ASSERT_TRUE(sa.ok() && sb.ok());
  EXPECT_EQ(sa->id, sb->id);
  filter::FieldRef c;
  c.name = "proc.aname";
  c.index = "2";
  filter::FieldRef d = c;
  d.index = "3";
  EXPECT_NE(sys_.registry().Resolve(c)->id, sys_.registry().Resolve(d)->id);
}

}  // namespace
}  // namespace kestrel::engine::fields
