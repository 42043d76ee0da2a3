// A small traced system for the fields tests: a process lineage
// (systemd > sshd > bash > cat), its descriptors, /etc/passwd and
// /etc/group fixtures, and records of events those processes made.
#ifndef KESTREL_TEST_UNIT_FIELDS_SYNTHETIC_SYSTEM_H_
#define KESTREL_TEST_UNIT_FIELDS_SYNTHETIC_SYSTEM_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/decode/event_decoder.h"
#include "engine/fields/event_context.h"
#include "engine/fields/field_extractor.h"
#include "engine/fields/field_registry.h"
#include "engine/state/fd_table.h"
#include "engine/state/thread_table.h"
#include "engine/state/user_directory.h"
#include "event_record_builder.h"

namespace kestrel::testing {

inline constexpr uint64_t kBootTimeNs = 1'700'000'000'000'000'000;  // 2023-11-14T22:13:20Z
inline constexpr uint32_t kCatPid = 300;

// The name the schema gives `type`'s return value ("res", "fd" ...).
inline std::string ReturnName(uint16_t type) {
  const engine::EventInfo* info = engine::FindEvent(type);
  return std::string(info->params[info->return_index].name);
}

// The record of `type` made by cat at boot + 1 s.
inline std::vector<uint8_t> CatRecord(uint16_t type, const std::map<std::string, int64_t>& ints,
                                      const std::map<std::string, ParamBytes>& bytes = {}) {
  return EventRecord(type, {.tid = kCatPid, .tgid = kCatPid, .ts_ns = 1'000'000'000}, ints, bytes);
}

class SyntheticSystem {
 public:
  SyntheticSystem()
      : threads_(engine::ThreadTableOptions{.proc_fallback = false}),
        dir_(MakeDir()),
        users_(dir_ + "/passwd", dir_ + "/group"),
        extractor_(registry_, &users_) {
    AddThread(1, 0, "systemd", "/sbin/init", "/usr/lib/systemd/systemd", {}, "/");
    AddThread(100, 1, "sshd", "sshd", "/usr/sbin/sshd", {"-D"}, "/");
    AddThread(200, 100, "bash", "-bash", "/usr/bin/bash", {}, "/home/alice");
    engine::ThreadInfo& cat =
        AddThread(kCatPid, 200, "cat", "cat", "/usr/bin/cat", {"passwd", "-n"}, "/etc");
    cat.sid = 200;
    cat.vpid = cat.vtid = kCatPid;
    cat.tty = 34816;
    cat.uid = cat.euid = 1000;
    cat.gid = cat.egid = 1000;
    cat.loginuid = 1000;
    cat.cap_effective = (1ULL << 0) | (1ULL << 21);  // CAP_CHOWN CAP_SYS_ADMIN
    cat.cap_permitted = 1ULL << 7;                   // CAP_SETUID
    cat.env = {"HOME=/home/alice", "LANG=C"};
    cat.start_ns = kBootTimeNs + 500'000'000;
    cat.exe_ino = 1234;
    cat.exe_ctime_ns = kBootTimeNs - 2'000'000'000;
    cat.exe_mtime_ns = kBootTimeNs - 3'000'000'000;
    cat.exe_upper_layer = true;
    cat.cgroup = "/user.slice/user-1000.slice/session-2.scope";

    auto fds = std::make_shared<engine::FdTable>();
    engine::FdInfo file;
    file.fd = 3;
    file.type = engine::FdType::kFile;
    file.name = "/etc/passwd";
    file.nameraw = "passwd";
    file.open_flags = O_RDONLY | O_CLOEXEC;
    fds->Set(file);
    engine::FdInfo sock;
    sock.fd = 4;
    sock.type = engine::FdType::kIpv4Socket;
    sock.name = "10.0.0.5:40000->127.0.0.1:8080";
    sock.family = KESTREL_AF_INET;
    sock.l4proto = IPPROTO_TCP;
    sock.sock_type = SOCK_STREAM;
    sock.local = {KESTREL_AF_INET, "10.0.0.5", 40000};
    sock.remote = {KESTREL_AF_INET, "127.0.0.1", 8080};
    sock.connected = true;
    fds->Set(sock);
    engine::FdInfo accepted = sock;  // the server's side of another connection
    accepted.fd = 5;
    accepted.local = {KESTREL_AF_INET, "192.168.1.2", 22};
    accepted.remote = {KESTREL_AF_INET, "192.168.1.9", 51000};
    accepted.is_server = true;
    fds->Set(accepted);
    engine::FdInfo unix_sock;
    unix_sock.fd = 6;
    unix_sock.type = engine::FdType::kUnixSocket;
    unix_sock.family = KESTREL_AF_UNIX;
    unix_sock.name = "/run/x.sock";
    fds->Set(unix_sock);
    engine::FdInfo sock6 = sock;  // a client over IPv6
    sock6.fd = 7;
    sock6.type = engine::FdType::kIpv6Socket;
    sock6.family = KESTREL_AF_INET6;
    sock6.name = "fd00::5:40001->::1:443";
    sock6.local = {KESTREL_AF_INET6, "fd00::5", 40001};
    sock6.remote = {KESTREL_AF_INET6, "::1", 443};
    fds->Set(sock6);
    cat.fds = fds;
    threads_.Insert(cat);
  }

  ~SyntheticSystem() {
    unlink((dir_ + "/passwd").c_str());
    unlink((dir_ + "/group").c_str());
    rmdir(dir_.c_str());
  }

  engine::ThreadInfo& AddThread(uint32_t pid, uint32_t ppid, std::string comm, std::string exe,
                                std::string exepath, std::vector<std::string> args,
                                std::string cwd) {
    engine::ThreadInfo t;
    t.tid = t.tgid = pid;
    t.ppid = ppid;
    t.comm = std::move(comm);
    t.exe = std::move(exe);
    t.exepath = std::move(exepath);
    t.args = std::move(args);
    t.cwd = std::move(cwd);
    t.uid = t.euid = t.gid = t.egid = 0;
    threads_.Insert(t);
    staged_ = t;
    return staged_;
  }

  // Decodes `record` (kept alive by the system) and makes it the current
  // event of the extractor.
  void SetEvent(std::vector<uint8_t> record, uint64_t num = 7) {
    records_.push_back(std::move(record));
    const std::vector<uint8_t>& bytes = records_.back();
    auto view = engine::RecordView::Parse(bytes.data(), bytes.size());
    ASSERT_TRUE(view.ok()) << view.status();
    auto event = engine::DecodedEvent::Decode(*view);
    ASSERT_TRUE(event.ok()) << event.status();
    events_.push_back(std::make_unique<engine::DecodedEvent>(*event));
    extractor_.SetEvent(
        engine::fields::MakeEventContext(*events_.back(), threads_, num, kBootTimeNs));
  }

  engine::ThreadTable& threads() { return threads_; }
  engine::fields::FieldRegistry& registry() { return registry_; }
  engine::fields::FieldExtractor& extractor() { return extractor_; }

 private:
  static std::string MakeDir() {
    char tmpl[] = "/tmp/kestrel-fields-XXXXXX";
    const std::string dir = mkdtemp(tmpl);
    std::ofstream(dir + "/passwd") << "root:x:0:0:root:/root:/bin/bash\n"
                                      "alice:x:1000:1000::/home/alice:/bin/bash\n";
    std::ofstream(dir + "/group") << "root:x:0:\nstaff:x:1000:\n";
    return dir;
  }

  engine::ThreadTable threads_;
  engine::ThreadInfo staged_;
  std::string dir_;
  engine::state::UserDirectory users_;
  engine::fields::FieldRegistry registry_;
  engine::fields::FieldExtractor extractor_;
  std::vector<std::vector<uint8_t>> records_;
  std::vector<std::unique_ptr<engine::DecodedEvent>> events_;
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_UNIT_FIELDS_SYNTHETIC_SYSTEM_H_
