#include "live_probe.h"

#include <bpf/bpf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "errno_status.h"

namespace kestrel::pman {
namespace {

// The ids of the maps program `prog_fd` uses.
std::vector<uint32_t> MapIdsOf(int prog_fd) {
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) != 0 || info.nr_map_ids == 0) return {};
  std::vector<uint32_t> ids(info.nr_map_ids);
  const uint32_t n = info.nr_map_ids;
  info = {};
  info.nr_map_ids = n;
  info.map_ids = reinterpret_cast<uint64_t>(ids.data());
  len = sizeof(info);
  if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) != 0) return {};
  ids.resize(std::min(n, info.nr_map_ids));
  return ids;
}

// A descriptor of the map `id` when it is a prog array named `name`.
int OpenProgArray(uint32_t id, const char* name) {
  const int fd = bpf_map_get_fd_by_id(id);
  if (fd < 0) return -1;
  bpf_map_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && info.type == BPF_MAP_TYPE_PROG_ARRAY &&
      std::strncmp(info.name, name, sizeof(info.name)) == 0) {
    return fd;
  }
  close(fd);
  return -1;
}

// The id of the map `fd`.
absl::StatusOr<uint32_t> MapIdOf(int fd) {
  bpf_map_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(fd, &info, &len) != 0) {
    return ErrnoStatus(errno, "reading the control map's info");
  }
  return info.id;
}

// Calls `fn` with the map ids of each loaded program that uses map `id`
// until it returns a descriptor (>= 0), which is returned; -1 when none
// did. Every loaded program is visited: a host runs tens to a few
// thousand, and this runs once per command from another process.
template <typename Fn>
int FirstProgramUsing(uint32_t id, Fn fn) {
  for (uint32_t prog_id = 0; bpf_prog_get_next_id(prog_id, &prog_id) == 0;) {
    const int prog = bpf_prog_get_fd_by_id(prog_id);
    if (prog < 0) continue;  // unloaded meanwhile
    const std::vector<uint32_t> maps = MapIdsOf(prog);
    close(prog);
    if (std::find(maps.begin(), maps.end(), id) == maps.end()) continue;
    if (const int fd = fn(maps); fd >= 0) return fd;
  }
  return -1;
}

}  // namespace

absl::Status RequireLiveProbe(int control_map_fd, const char* dir) {
  absl::StatusOr<uint32_t> id = MapIdOf(control_map_fd);
  if (!id.ok()) return id.status();
  if (FirstProgramUsing(*id, [](const std::vector<uint32_t>&) { return 0; }) >= 0) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(
      absl::StrFormat("the capture pinned at %s is gone (no loaded program uses its pins, it "
                      "was killed): nothing to control; the next capture started there "
                      "replaces the pins",
                      dir));
}

absl::StatusOr<int> OpenLiveProgArray(int control_map_fd, const char* prog_array_name) {
  absl::StatusOr<uint32_t> id = MapIdOf(control_map_fd);
  if (!id.ok()) return id.status();
  const int fd = FirstProgramUsing(*id, [&](const std::vector<uint32_t>& maps) {
    for (uint32_t map_id : maps) {
      if (const int array = OpenProgArray(map_id, prog_array_name); array >= 0) return array;
    }
    return -1;
  });
  if (fd >= 0) return fd;
  return absl::NotFoundError(
      absl::StrFormat("no loaded program uses the pinned control map (id %u) together with a "
                      "prog array \"%s\": the capture that pinned it is gone",
                      *id, prog_array_name));
}

}  // namespace kestrel::pman
