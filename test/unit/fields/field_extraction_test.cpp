// Each field family read from synthetic threads, descriptors and records:
// every value checked exactly, and fields with no value for an event read
// as absent.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <string>

#include "record_test_builder.h"
#include "synthetic_system.h"

namespace kestrel::engine::fields {
namespace {

using testing::CatRecord;
using testing::ReturnName;
using testing::Str;

class FieldExtractionTest : public ::testing::Test {
 protected:
  filter::FieldSpec Spec(std::string_view text) {
    filter::FieldRef ref;
    const size_t bracket = text.find('[');
    ref.name = std::string(text.substr(0, bracket));
    if (bracket != std::string_view::npos) {
      ref.index = std::string(text.substr(bracket + 1, text.size() - bracket - 2));
    }
    absl::StatusOr<filter::FieldSpec> spec = sys_.registry().Resolve(ref);
    EXPECT_TRUE(spec.ok()) << text << ": " << spec.status();
    return spec.ok() ? *spec : filter::FieldSpec{};
  }

  // The field as text, or "<none>" when it has no value.
  std::string Text(std::string_view field) {
    std::string out;
    return sys_.extractor().ReadText(Spec(field), out) ? out : "<none>";
  }

  void OpenEtcPasswd(int64_t ret = 3) {
    sys_.SetEvent(CatRecord(KESTREL_EVT_OPENAT,
                            {{ReturnName(KESTREL_EVT_OPENAT), ret},
                             {"dirfd", AT_FDCWD},
                             {"flags", O_RDONLY | O_CLOEXEC},
                             {"mode", 0}},
                            {{"path", Str("/etc/passwd")}}));
  }

  testing::SyntheticSystem sys_;
};

TEST_F(FieldExtractionTest, EventFields) {
  OpenEtcPasswd();
  EXPECT_EQ(Text("evt.type"), "openat");
  EXPECT_EQ(Text("evt.dir"), "<");
  EXPECT_EQ(Text("evt.num"), "7");
  EXPECT_EQ(Text("evt.rawtime"), "1700000001000000000");
  EXPECT_EQ(Text("evt.time.iso8601"), "2023-11-14T22:13:21.000000000Z");
  EXPECT_EQ(Text("evt.res"), "SUCCESS");
  EXPECT_EQ(Text("evt.rawres"), "3");
  EXPECT_EQ(Text("evt.failed"), "false");
  EXPECT_EQ(Text("evt.is_open_read"), "true");
  EXPECT_EQ(Text("evt.is_open_write"), "false");
  EXPECT_EQ(Text("evt.is_open_exec"), "false");
  EXPECT_EQ(Text("evt.arg.flags"), "O_RDONLY|O_CLOEXEC");
  EXPECT_EQ(Text("evt.rawarg.flags"), std::to_string(O_RDONLY | O_CLOEXEC));
  EXPECT_EQ(Text("evt.arg.dirfd"), "AT_FDCWD");
  EXPECT_EQ(Text("evt.arg.path"), "/etc/passwd");
  EXPECT_EQ(Text("evt.arg[0]"), "3") << "schema order until the Falco table lands";
  EXPECT_EQ(Text("evt.arg.oldpath"), "<none>") << "a parameter of other events";
  EXPECT_EQ(Text("evt.count"), "1");
  EXPECT_EQ(Text("evt.category"), "file");
  EXPECT_EQ(Text("evt.buffer"), "<none>");
  const std::string args = Text("evt.args");
  EXPECT_NE(args.find("flags=O_RDONLY|O_CLOEXEC"), std::string::npos) << args;
  EXPECT_NE(args.find("path=/etc/passwd"), std::string::npos) << args;
  EXPECT_EQ(Text("evt.time.s").size(), 8u);
  EXPECT_EQ(Text("evt.time").size(), 18u);
  EXPECT_EQ(Text("evt.datetime").size(), 29u);
}

TEST_F(FieldExtractionTest, FailedOpenHasErrnoAndNoDescriptor) {
  OpenEtcPasswd(-2);
  EXPECT_EQ(Text("evt.res"), "ENOENT");
  EXPECT_EQ(Text("evt.rawres"), "-2");
  EXPECT_EQ(Text("evt.failed"), "true");
  EXPECT_EQ(Text("fd.num"), "<none>");
  EXPECT_EQ(Text("fd.name"), "<none>");  // no name argument to name it by
}

// As Falco: a failed open made no descriptor, and fd.name is the file it
// asked for, made absolute (cat's working directory is /etc).
TEST_F(FieldExtractionTest, FailedOpenIsNamedByWhatItAskedFor) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_OPENAT,
                          {{ReturnName(KESTREL_EVT_OPENAT), -13},
                           {"dirfd", AT_FDCWD},
                           {"flags", O_RDONLY},
                           {"mode", 0}},
                          {{"name", Str("shadow")}}));
  EXPECT_EQ(Text("evt.res"), "EACCES");
  EXPECT_EQ(Text("fd.num"), "<none>");
  EXPECT_EQ(Text("fd.name"), "/etc/shadow");
  EXPECT_EQ(Text("fd.nameraw"), "shadow");
  EXPECT_EQ(Text("fd.directory"), "/etc");
  EXPECT_EQ(Text("fd.typechar"), "<none>");
  EXPECT_EQ(Text("fd.filename"), "<none>");
}

TEST_F(FieldExtractionTest, OpenForWritingAndExecutableCreation) {
  sys_.SetEvent(CatRecord(
      KESTREL_EVT_OPENAT,
      {{ReturnName(KESTREL_EVT_OPENAT), 3}, {"flags", O_RDWR | O_CREAT}, {"mode", 0755}}));
  EXPECT_EQ(Text("evt.is_open_read"), "true");
  EXPECT_EQ(Text("evt.is_open_write"), "true");
  EXPECT_EQ(Text("evt.is_open_exec"), "true");
  EXPECT_EQ(Text("evt.arg.mode"), "0755");
}

TEST_F(FieldExtractionTest, ProcessFields) {
  OpenEtcPasswd();
  EXPECT_EQ(Text("proc.name"), "cat");
  EXPECT_EQ(Text("proc.pid"), "300");
  EXPECT_EQ(Text("proc.ppid"), "200");
  EXPECT_EQ(Text("proc.pname"), "bash");
  EXPECT_EQ(Text("proc.pcmdline"), "bash");
  EXPECT_EQ(Text("proc.exe"), "cat");
  EXPECT_EQ(Text("proc.exepath"), "/usr/bin/cat");
  EXPECT_EQ(Text("proc.pexe"), "-bash");
  EXPECT_EQ(Text("proc.pexepath"), "/usr/bin/bash");
  EXPECT_EQ(Text("proc.cmdline"), "cat passwd -n");
  EXPECT_EQ(Text("proc.exeline"), "cat passwd -n");
  EXPECT_EQ(Text("proc.args"), "passwd -n");
  EXPECT_EQ(Text("proc.cwd"), "/etc/");
  EXPECT_EQ(Text("proc.tty"), "34816");
  EXPECT_EQ(Text("proc.sid"), "200");
  EXPECT_EQ(Text("proc.sname"), "bash");
  EXPECT_EQ(Text("proc.vpid"), "300");
  EXPECT_EQ(Text("proc.loginuid"), "1000");
  EXPECT_EQ(Text("proc.aname[0]"), "cat");
  EXPECT_EQ(Text("proc.aname[1]"), "bash");
  EXPECT_EQ(Text("proc.aname[2]"), "sshd");
  EXPECT_EQ(Text("proc.aname[3]"), "systemd");
  EXPECT_EQ(Text("proc.aname[4]"), "<none>");
  EXPECT_EQ(Text("proc.aname"), "bash sshd systemd");
  EXPECT_EQ(Text("proc.apid[2]"), "100");
  EXPECT_EQ(Text("proc.aexepath[3]"), "/usr/lib/systemd/systemd");
  EXPECT_EQ(Text("proc.duration"), "500000000");
  EXPECT_EQ(Text("proc.is_exe_writable"), "false");
  EXPECT_EQ(Text("proc.is_exe_from_memfd"), "false");
  EXPECT_EQ(Text("proc.is_exe_upper_layer"), "true");
  EXPECT_EQ(Text("proc.exe_ino"), "1234");
  EXPECT_EQ(Text("proc.exe_ino.ctime"), "1699999998000000000");
  EXPECT_EQ(Text("proc.exe_ino.mtime"), "1699999997000000000");
  EXPECT_EQ(Text("proc.exe_ino.ctime_duration_proc_start"), "2500000000");
  EXPECT_EQ(Text("proc.env"), "HOME=/home/alice LANG=C");
  EXPECT_EQ(Text("proc.env[HOME]"), "/home/alice");
  EXPECT_EQ(Text("proc.env[PATH]"), "<none>");
  EXPECT_EQ(Text("proc.is_container_healthcheck"), "false");
  EXPECT_EQ(Text("thread.tid"), "300");
  EXPECT_EQ(Text("thread.vtid"), "300");
  EXPECT_EQ(Text("thread.cap_effective"), "CAP_CHOWN CAP_SYS_ADMIN");
  EXPECT_EQ(Text("thread.cap_permitted"), "CAP_SETUID");
}

TEST_F(FieldExtractionTest, UserAndGroupFields) {
  OpenEtcPasswd();
  EXPECT_EQ(Text("user.uid"), "1000");
  EXPECT_EQ(Text("user.name"), "alice");
  EXPECT_EQ(Text("user.loginuid"), "1000");
  EXPECT_EQ(Text("user.loginname"), "alice");
  EXPECT_EQ(Text("group.gid"), "1000");
  EXPECT_EQ(Text("group.name"), "staff");
}

TEST_F(FieldExtractionTest, FileDescriptorFields) {
  OpenEtcPasswd();
  EXPECT_EQ(Text("fd.num"), "3");
  EXPECT_EQ(Text("fd.type"), "file");
  EXPECT_EQ(Text("fd.typechar"), "f");
  EXPECT_EQ(Text("fd.name"), "/etc/passwd");
  EXPECT_EQ(Text("fd.nameraw"), "passwd");
  EXPECT_EQ(Text("fd.directory"), "/etc");
  EXPECT_EQ(Text("fd.filename"), "passwd");
  EXPECT_EQ(Text("fd.name_changed"), "false");
  EXPECT_EQ(Text("fd.sip"), "<none>") << "not a socket";
  EXPECT_EQ(Text("fd.l4proto"), "<none>");
}

TEST_F(FieldExtractionTest, ClientSocketFields) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_WRITE, {{ReturnName(KESTREL_EVT_WRITE), 5}, {"fd", 4}},
                          {{"data", testing::ParamBytes{'h', 'e', 'l', 'l', 'o'}}}));
  EXPECT_EQ(Text("evt.category"), "net");
  EXPECT_EQ(Text("evt.buffer"), "hello");
  EXPECT_EQ(Text("fd.num"), "4");
  EXPECT_EQ(Text("fd.type"), "ipv4");
  EXPECT_EQ(Text("fd.typechar"), "4");
  EXPECT_EQ(Text("fd.name"), "10.0.0.5:40000->127.0.0.1:8080");
  EXPECT_EQ(Text("fd.cip"), "10.0.0.5");
  EXPECT_EQ(Text("fd.sip"), "127.0.0.1");
  EXPECT_EQ(Text("fd.lip"), "10.0.0.5");
  EXPECT_EQ(Text("fd.rip"), "127.0.0.1");
  EXPECT_EQ(Text("fd.cport"), "40000");
  EXPECT_EQ(Text("fd.sport"), "8080");
  EXPECT_EQ(Text("fd.lport"), "40000");
  EXPECT_EQ(Text("fd.rport"), "8080");
  EXPECT_EQ(Text("fd.ip"), "10.0.0.5 127.0.0.1");
  EXPECT_EQ(Text("fd.port"), "40000 8080");
  EXPECT_EQ(Text("fd.snet"), "127.0.0.1");
  EXPECT_EQ(Text("fd.cnet"), "10.0.0.5");
  EXPECT_EQ(Text("fd.l4proto"), "tcp");
  EXPECT_EQ(Text("fd.sockfamily"), "ip");
  EXPECT_EQ(Text("fd.connected"), "true");
  EXPECT_EQ(Text("fd.is_server"), "false");
  // No resolver (dns::AddressNames): absent, never an empty stand-in.
  EXPECT_EQ(Text("fd.sip.name"), "<none>");
  EXPECT_EQ(Text("fd.cip.name"), "<none>");
  EXPECT_EQ(Text("fd.lip.name"), "<none>");
  EXPECT_EQ(Text("fd.rip.name"), "<none>");
  EXPECT_EQ(Text("fd.directory"), "<none>");
}

TEST_F(FieldExtractionTest, ServerSocketSwapsClientAndServer) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_READ, {{ReturnName(KESTREL_EVT_READ), 0}, {"fd", 5}}));
  EXPECT_EQ(Text("fd.cip"), "192.168.1.9");
  EXPECT_EQ(Text("fd.sip"), "192.168.1.2");
  EXPECT_EQ(Text("fd.cport"), "51000");
  EXPECT_EQ(Text("fd.sport"), "22");
  EXPECT_EQ(Text("fd.lport"), "22");
  EXPECT_EQ(Text("fd.is_server"), "true");
}

TEST_F(FieldExtractionTest, UnixSocketFields) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_READ, {{ReturnName(KESTREL_EVT_READ), 0}, {"fd", 6}}));
  EXPECT_EQ(Text("fd.type"), "unix");
  EXPECT_EQ(Text("fd.typechar"), "u");
  EXPECT_EQ(Text("fd.sockfamily"), "unix");
  EXPECT_EQ(Text("fd.name"), "/run/x.sock");
  EXPECT_EQ(Text("fd.sip"), "<none>");
}

TEST_F(FieldExtractionTest, FsPathFieldsResolveAgainstTheWorkingDirectory) {
  sys_.SetEvent(CatRecord(
      KESTREL_EVT_RENAMEAT,
      {{ReturnName(KESTREL_EVT_RENAMEAT), 0}, {"olddirfd", AT_FDCWD}, {"newdirfd", AT_FDCWD}},
      {{"oldpath", Str("a.txt")}, {"newpath", Str("/tmp/b.txt")}}));
  EXPECT_EQ(Text("fs.path.source"), "/etc/a.txt");
  EXPECT_EQ(Text("fs.path.target"), "/tmp/b.txt");
  EXPECT_EQ(Text("evt.type"), "renameat");
}

TEST_F(FieldExtractionTest, ContainerFieldsOnTheHost) {
  OpenEtcPasswd();
  EXPECT_EQ(Text("container.id"), "host");
  EXPECT_EQ(Text("container.name"), "host");
  EXPECT_EQ(Text("container.type"), "host");
  EXPECT_EQ(Text("container.start_ts"), "<none>");  // the table's init has no start
  // What a runtime or Kubernetes would say is absent, not a stand-in.
  for (const char* absent :
       {"container.image", "container.image.repository", "container.image.tag",
        "container.privileged", "container.mounts", "k8s.ns.name", "k8s.pod.name"}) {
    EXPECT_EQ(Text(absent), "<none>") << absent;
  }
}

TEST_F(FieldExtractionTest, ContainerIdFromTheCgroup) {
  engine::ThreadInfo t = *sys_.threads().Find(testing::kCatPid);
  t.cgroup = "/system.slice/docker-" + std::string(64, 'a') + ".scope";
  sys_.threads().Insert(t);
  OpenEtcPasswd();
  EXPECT_EQ(Text("container.id"), std::string(12, 'a'));
}

// Fields Falco's public rules name: an ancestor's proc.exe, the process
// group leader, and container mounts (none known: <NA>, as Falco prints).
TEST_F(FieldExtractionTest, AncestorExeGroupLeaderAndMountDest) {
  engine::ThreadInfo t = *sys_.threads().Find(testing::kCatPid);
  t.pgid = t.tgid;
  sys_.threads().Insert(t);
  OpenEtcPasswd();
  EXPECT_EQ(Text("proc.aexe[0]"), "cat");
  EXPECT_EQ(Text("proc.aexe[1]"), "-bash");
  EXPECT_EQ(Text("proc.aexe[4]"), "<none>");
  EXPECT_EQ(Text("proc.is_vpgid_leader"), "true");
  EXPECT_EQ(Text("container.mount.dest[/etc*]"), "<none>");  // from a runtime: absent
  t.pgid = 200;
  sys_.threads().Insert(t);
  OpenEtcPasswd();
  EXPECT_EQ(Text("proc.is_vpgid_leader"), "false");
  filter::FieldRef bare;
  bare.name = "container.mount.dest";
  EXPECT_FALSE(sys_.registry().Resolve(bare).ok());
  filter::FieldRef no_index;
  no_index.name = "proc.aexe";
  EXPECT_FALSE(sys_.registry().Resolve(no_index).ok());
}

TEST_F(FieldExtractionTest, UnknownThreadHasNoProcessFields) {
  sys_.SetEvent(testing::EventRecord(KESTREL_EVT_CLOSE, {.tid = 999, .tgid = 999},
                                     {{ReturnName(KESTREL_EVT_CLOSE), 0}, {"fd", 3}}));
  EXPECT_EQ(Text("evt.type"), "close");
  EXPECT_EQ(Text("proc.name"), "<none>");
  EXPECT_EQ(Text("proc.aname[1]"), "<none>");
  EXPECT_EQ(Text("fd.num"), "3");
  EXPECT_EQ(Text("fd.name"), "<none>");
  EXPECT_EQ(Text("user.name"), "<none>");
  EXPECT_EQ(Text("container.id"), "<none>");
}

TEST_F(FieldExtractionTest, GenericSyscallFields) {
  const uint64_t args[6] = {1, 2, 3, 4, 5, 6};
  const std::vector<uint8_t> bytes = testing::GenericRecord(39 /* getpid */, args, 300, 300, 300);
  auto view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok());
  auto syscall = DecodeGenericSyscall(*view);
  ASSERT_TRUE(syscall.ok());
  sys_.extractor().SetEvent(
      MakeGenericContext(view->header(), *syscall, sys_.threads(), 1, testing::kBootTimeNs));
  EXPECT_EQ(Text("evt.type"), "getpid");
  EXPECT_EQ(Text("evt.rawres"), "300");
  EXPECT_EQ(Text("evt.category"), "process");
  EXPECT_EQ(Text("proc.name"), "cat");
  EXPECT_EQ(Text("evt.arg.flags"), "<none>");
}

// Reading string fields reuses the extractor's buffers: a second event
// reading the same fields leaves earlier events' views to be overwritten,
// and values stay right.
TEST_F(FieldExtractionTest, ScratchBuffersAreReusedAcrossEvents) {
  for (int i = 0; i < 3; ++i) {
    OpenEtcPasswd();
    EXPECT_EQ(Text("proc.cmdline"), "cat passwd -n");
    EXPECT_EQ(Text("proc.pcmdline"), "bash");
    EXPECT_EQ(Text("evt.arg.flags"), "O_RDONLY|O_CLOEXEC");
  }
}

}  // namespace
}  // namespace kestrel::engine::fields
