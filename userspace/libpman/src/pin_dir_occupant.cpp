#include "pin_dir_occupant.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "custom_fillers.h"
#include "errno_status.h"
#include "pin_dir.h"
#include "shared/control_block.h"

namespace kestrel::pman {
namespace {

// Whether a loaded BPF program other than a custom filler uses the map with
// id `map_id`. Fillers do not count: a killed capture's pinned prog array
// (maps/custom_fillers) keeps its fillers loaded until the pins go.
absl::StatusOr<bool> MapUsedByAProgram(uint32_t map_id) {
  for (uint32_t id = 0; bpf_prog_get_next_id(id, &id) == 0;) {
    const int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0) continue;  // freed since: it uses nothing any more
    std::vector<uint32_t> map_ids(64);
    bpf_prog_info info{};
    info.nr_map_ids = static_cast<uint32_t>(map_ids.size());
    info.map_ids = reinterpret_cast<uint64_t>(map_ids.data());
    uint32_t len = sizeof info;
    const int rc = bpf_obj_get_info_by_fd(fd, &info, &len);
    close(fd);
    if (rc != 0) return ErrnoStatus(errno, absl::StrFormat("reading BPF program %u", id));
    if (IsFillerName(info.name)) continue;
    const auto end = map_ids.begin() + std::min<uint32_t>(info.nr_map_ids, map_ids.size());
    if (std::find(map_ids.begin(), end, map_id) != end) return true;
  }
  return false;
}

// The names in `dir` besides . and ..; none when it cannot be read.
std::vector<std::string> EntriesOrNone(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string_view name = e->d_name;
      if (name != "." && name != "..") names.emplace_back(name);
    }
    closedir(d);
  }
  return names;
}

}  // namespace

absl::StatusOr<PinDirOccupant> ClassifyPinDir(const std::string& dir) {
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return ErrnoStatus(errno, absl::StrCat("reading ", dir));
  if (st.st_uid != geteuid()) return PinDirOccupant::kOtherOwner;
  const std::vector<std::string> names = EntriesOrNone(dir);
  if (names.empty()) return PinDirOccupant::kEmpty;
  for (const std::string& name : names) {
    if (name != kPinProbeMaps &&
        std::find(std::begin(kPinNames), std::end(kPinNames), name) == std::end(kPinNames)) {
      return PinDirOccupant::kSomethingElse;
    }
  }
  const int fd = bpf_obj_get(absl::StrCat(dir, "/", kPinControl).c_str());
  if (fd < 0) return PinDirOccupant::kSomethingElse;
  bpf_map_info info{};
  uint32_t len = sizeof info;
  const int rc = bpf_obj_get_info_by_fd(fd, &info, &len);
  close(fd);
  if (rc != 0 || info.value_size != sizeof(kestrel_control_block)) {
    return PinDirOccupant::kSomethingElse;
  }
  constexpr int kLooks = 20;
  for (int i = 0; i < kLooks; ++i) {
    absl::StatusOr<bool> used = MapUsedByAProgram(info.id);
    if (!used.ok()) return used.status();
    if (!*used) return PinDirOccupant::kDeadCapture;
    usleep(50'000);
  }
  return PinDirOccupant::kLiveCapture;
}

std::string PinDirRefusal(const std::string& dir, PinDirOccupant occupant) {
  switch (occupant) {
    case PinDirOccupant::kLiveCapture:
      return absl::StrFormat(
          "%s: a running capture is pinned there (stop it, or pick another --pin-dir)", dir);
    case PinDirOccupant::kOtherOwner: {
      struct stat st {};
      stat(dir.c_str(), &st);
      return absl::StrFormat(
          "%s belongs to uid %u, not to this user: whoever owns it could swap the pins, so "
          "Kestrel does not pin there (remove it, or pick another --pin-dir)",
          dir, st.st_uid);
    }
    case PinDirOccupant::kSomethingElse:
    case PinDirOccupant::kEmpty:
    case PinDirOccupant::kDeadCapture:
      break;
  }
  return absl::StrFormat(
      "%s holds something that is not a Kestrel capture's pins (remove it, or pick another "
      "--pin-dir)",
      dir);
}

}  // namespace kestrel::pman
