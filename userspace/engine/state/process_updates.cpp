// Credentials, working and root directory, capabilities, session and
// process group, from the records of the syscalls that change them. Only a
// successful call changes anything.
#include <cstdint>
#include <optional>

#include "fd_table.h"
#include "path_resolution.h"
#include "state_updates.h"

namespace kestrel::engine {
namespace {

constexpr uint64_t kCapSetgid = uint64_t{1} << 6;
constexpr uint64_t kCapSetuid = uint64_t{1} << 7;
// An id argument of -1 leaves that id as it is (setreuid, setresuid ...).
constexpr int64_t kUnchanged = UINT32_MAX;

// The id parameter `name` as uint32, or nullopt when absent or -1.
std::optional<uint32_t> IdParam(const DecodedEvent& event, std::string_view name) {
  std::optional<int64_t> v = event.Int(name);
  if (!v || (*v & 0xffffffff) == kUnchanged) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

// setuid(2): with CAP_SETUID every id changes, without only the effective.
void SetUid(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<uint32_t> uid = IdParam(e, "uid");
  if (!Succeeded(e) || !uid) return;
  if (t.cap_effective & kCapSetuid) t.uid = *uid;
  t.euid = *uid;
}

void SetGid(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<uint32_t> gid = IdParam(e, "gid");
  if (!Succeeded(e) || !gid) return;
  if (t.cap_effective & kCapSetgid) t.gid = *gid;
  t.egid = *gid;
}

// setreuid, setresuid: the saved id is not kept.
void SetRealEffectiveUid(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  if (!Succeeded(e)) return;
  if (std::optional<uint32_t> r = IdParam(e, "ruid")) t.uid = *r;
  if (std::optional<uint32_t> eu = IdParam(e, "euid")) t.euid = *eu;
}

void SetRealEffectiveGid(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  if (!Succeeded(e)) return;
  if (std::optional<uint32_t> r = IdParam(e, "rgid")) t.gid = *r;
  if (std::optional<uint32_t> eg = IdParam(e, "egid")) t.egid = *eg;
}

void Chdir(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<std::string> path = e.String("path");
  if (!Succeeded(e) || !path) return;
  std::string cwd = ResolvePath(t.cwd, *path);
  if (!cwd.empty()) t.cwd = std::move(cwd);
}

void Fchdir(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> fd = e.Int("fd");
  if (!Succeeded(e) || !fd) return;
  const FdInfo* dir = t.fds->Find(*fd);
  if (dir && !dir->name.empty()) t.cwd = dir->name;
}

void Chroot(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<std::string> path = e.String("path");
  if (!Succeeded(e) || !path) return;
  std::string root = ResolvePath(t.cwd, *path);
  if (!root.empty()) t.root = std::move(root);
}

// The record carries the sets as the kernel holds them after the call.
void Capset(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  if (!Succeeded(e)) return;
  if (std::optional<int64_t> v = e.Int("cap_effective"))
    t.cap_effective = static_cast<uint64_t>(*v);
  if (std::optional<int64_t> v = e.Int("cap_permitted"))
    t.cap_permitted = static_cast<uint64_t>(*v);
  if (std::optional<int64_t> v = e.Int("cap_inheritable")) {
    t.cap_inheritable = static_cast<uint64_t>(*v);
  }
}

// setsid returns the new session id, which is also the process group.
void Setsid(ThreadInfo& t, const DecodedEvent& e, OtherThreads&) {
  std::optional<int64_t> sid = e.Return();
  if (!sid || *sid <= 0) return;
  t.sid = static_cast<uint32_t>(*sid);
  t.pgid = static_cast<uint32_t>(*sid);
}

// setpgid(pid, pgid): pid 0 is the caller, pgid 0 makes pid a group leader.
void Setpgid(ThreadInfo& t, const DecodedEvent& e, OtherThreads& others) {
  if (!Succeeded(e)) return;
  const int64_t pid = e.Int("pid").value_or(0);
  const int64_t pgid = e.Int("pgid").value_or(0);
  ThreadInfo* target = pid == 0 ? &t : others.FindThread(static_cast<uint32_t>(pid));
  if (target == nullptr) return;
  target->pgid = pgid == 0 ? target->tgid : static_cast<uint32_t>(pgid);
}

constexpr StateUpdateEntry kProcessUpdates[] = {
    {"setuid", SetUid},
    {"setgid", SetGid},
    {"setreuid", SetRealEffectiveUid},
    {"setresuid", SetRealEffectiveUid},
    {"setregid", SetRealEffectiveGid},
    {"setresgid", SetRealEffectiveGid},
    {"chdir", Chdir},
    {"fchdir", Fchdir},
    {"chroot", Chroot},
    {"capset", Capset},
    {"setsid", Setsid},
    {"setpgid", Setpgid},
};

}  // namespace

std::span<const StateUpdateEntry> ProcessStateUpdates() { return kProcessUpdates; }

}  // namespace kestrel::engine
