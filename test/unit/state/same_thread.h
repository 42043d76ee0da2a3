// Field-by-field equality of thread table entries and their descriptors,
// for tests that build one table two ways.
#ifndef KESTREL_TEST_UNIT_STATE_SAME_THREAD_H_
#define KESTREL_TEST_UNIT_STATE_SAME_THREAD_H_

#include <gtest/gtest.h>

#include <string>

#include "engine/state/fd_table.h"
#include "engine/state/thread_info.h"

namespace kestrel::engine {

inline void ExpectSameAddress(const SocketAddress& a, const SocketAddress& b) {
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(a.address, b.address);
  EXPECT_EQ(a.port, b.port);
}

inline void ExpectSameFd(const FdInfo& a, const FdInfo& b) {
  SCOPED_TRACE("fd " + std::to_string(a.fd) + " " + a.name);
  EXPECT_EQ(a.fd, b.fd);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.nameraw, b.nameraw);
  EXPECT_EQ(a.open_flags, b.open_flags);
  EXPECT_EQ(a.dev, b.dev);
  EXPECT_EQ(a.ino, b.ino);
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(a.l4proto, b.l4proto);
  EXPECT_EQ(a.sock_type, b.sock_type);
  ExpectSameAddress(a.local, b.local);
  ExpectSameAddress(a.remote, b.remote);
  EXPECT_EQ(a.connected, b.connected);
  EXPECT_EQ(a.is_server, b.is_server);
  EXPECT_EQ(a.overlay_upper, b.overlay_upper);
  EXPECT_EQ(a.overlay_lower, b.overlay_lower);
}

// Every field, and every descriptor of the tables the two entries hold.
inline void ExpectSameThread(const ThreadInfo& a, const ThreadInfo& b) {
  SCOPED_TRACE("tid " + std::to_string(a.tid) + " " + a.comm);
  EXPECT_EQ(a.tid, b.tid);
  EXPECT_EQ(a.tgid, b.tgid);
  EXPECT_EQ(a.ppid, b.ppid);
  EXPECT_EQ(a.vtid, b.vtid);
  EXPECT_EQ(a.vpid, b.vpid);
  EXPECT_EQ(a.sid, b.sid);
  EXPECT_EQ(a.pgid, b.pgid);
  EXPECT_EQ(a.tty, b.tty);
  EXPECT_EQ(a.comm, b.comm);
  EXPECT_EQ(a.exe, b.exe);
  EXPECT_EQ(a.exepath, b.exepath);
  EXPECT_EQ(a.args, b.args);
  EXPECT_EQ(a.env, b.env);
  EXPECT_EQ(a.cwd, b.cwd);
  EXPECT_EQ(a.root, b.root);
  EXPECT_EQ(a.uid, b.uid);
  EXPECT_EQ(a.gid, b.gid);
  EXPECT_EQ(a.euid, b.euid);
  EXPECT_EQ(a.egid, b.egid);
  EXPECT_EQ(a.loginuid, b.loginuid);
  EXPECT_EQ(a.cap_effective, b.cap_effective);
  EXPECT_EQ(a.cap_permitted, b.cap_permitted);
  EXPECT_EQ(a.cap_inheritable, b.cap_inheritable);
  EXPECT_EQ(a.cgroup, b.cgroup);
  EXPECT_EQ(a.cgroups, b.cgroups);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.exe_ino, b.exe_ino);
  EXPECT_EQ(a.exe_ctime_ns, b.exe_ctime_ns);
  EXPECT_EQ(a.exe_mtime_ns, b.exe_mtime_ns);
  EXPECT_EQ(a.exe_writable, b.exe_writable);
  EXPECT_EQ(a.exe_from_memfd, b.exe_from_memfd);
  EXPECT_EQ(a.exe_upper_layer, b.exe_upper_layer);
  EXPECT_EQ(a.exe_lower_layer, b.exe_lower_layer);
  EXPECT_EQ(a.pidns_init_start_ns, b.pidns_init_start_ns);
  EXPECT_EQ(a.exited, b.exited);
  ASSERT_EQ(a.fds == nullptr, b.fds == nullptr);
  if (a.fds == nullptr) return;
  ASSERT_EQ(a.fds->size(), b.fds->size());
  for (const auto& [fd, info] : a.fds->entries()) {
    const FdInfo* other = b.fds->Find(fd);
    ASSERT_NE(other, nullptr) << "fd " << fd;
    ExpectSameFd(info, *other);
  }
}

}  // namespace kestrel::engine

#endif  // KESTREL_TEST_UNIT_STATE_SAME_THREAD_H_
