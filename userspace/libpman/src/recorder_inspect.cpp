#include "recorder_inspect.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "shared/counters.h"

namespace kestrel::pman {
namespace {

// What a pin of ours must be. Names are the kernel's, cut to 15 characters
// as the kernel keeps them.
struct MapSignature {
  const char* what;  // for messages: "info map"
  bpf_map_type type;
  uint32_t value_size;  // 0 = any
  uint32_t entries;     // 0 = checked against the info map, or any
  bool mmapable;
  const char* name;  // exact, or a suffix when it starts with '.'
};

struct FdCloser {
  void operator()(int* fd) const {
    if (*fd >= 0) close(*fd);
    delete fd;
  }
};
using OwnedFd = std::unique_ptr<int, FdCloser>;

OwnedFd Own(int fd) { return OwnedFd(new int(fd)); }

absl::Status NotOurs(const std::string& path, const std::string& what, const std::string& why) {
  return absl::FailedPreconditionError(
      absl::StrFormat("%s is not a Kestrel recorder's %s (%s)", path, what, why));
}

std::string MapTypeName(uint32_t type) {
  const char* name = libbpf_bpf_map_type_str(static_cast<bpf_map_type>(type));
  return name != nullptr ? std::string(name) : absl::StrFormat("type %u", type);
}

// "bpf-map", "bpf-link", "bpf-prog": the kind of object a bpf fd refers to.
std::string ObjectKind(int fd) {
  char target[64] = {};
  const std::string link = absl::StrFormat("/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link.c_str(), target, sizeof(target) - 1);
  if (n <= 0) return "unknown";
  std::string kind(target, static_cast<size_t>(n));
  constexpr char kPrefix[] = "anon_inode:";
  if (absl::StartsWith(kind, kPrefix)) kind.erase(0, sizeof(kPrefix) - 1);
  return kind;
}

std::string KindForMessage(const std::string& kind) {
  if (kind == "bpf-map") return "BPF map";
  if (kind == "bpf-link" || kind == "bpf_link") return "BPF link";
  if (kind == "bpf-prog") return "BPF program";
  return kind;
}

absl::StatusOr<OwnedFd> OpenObject(const std::string& path, const std::string& what) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0)
    return ErrnoStatus(errno, absl::StrFormat("looking at %s", path));
  if (S_ISDIR(st.st_mode)) return NotOurs(path, what, "a directory");
  const int fd = bpf_obj_get(path.c_str());
  if (fd < 0) return ErrnoStatus(errno, absl::StrFormat("opening %s", path));
  return Own(fd);
}

bool NameMatches(const char* kernel_name, const char* expected) {
  const std::string got(kernel_name);
  if (expected[0] == '.') return absl::EndsWith(got, expected);
  return got == std::string(expected).substr(0, BPF_OBJ_NAME_LEN - 1);
}

absl::StatusOr<bpf_map_info> CheckMap(const std::string& path, const MapSignature& sig,
                                      uint32_t expected_entries) {
  absl::StatusOr<OwnedFd> fd = OpenObject(path, sig.what);
  if (!fd.ok()) return fd.status();
  const std::string kind = ObjectKind(**fd);
  if (kind != "bpf-map") return NotOurs(path, sig.what, "a " + KindForMessage(kind));
  bpf_map_info map{};
  uint32_t len = sizeof(map);
  if (bpf_obj_get_info_by_fd(**fd, &map, &len) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("inspecting %s", path));
  }
  const uint32_t entries = sig.entries != 0 ? sig.entries : expected_entries;
  const bool fits = map.type == static_cast<uint32_t>(sig.type) && map.key_size == 4 &&
                    (sig.value_size == 0 || map.value_size == sig.value_size) &&
                    (entries == 0 || map.max_entries == entries) &&
                    (!sig.mmapable || (map.map_flags & BPF_F_MMAPABLE)) &&
                    NameMatches(map.name, sig.name);
  if (!fits) {
    return NotOurs(
        path, sig.what,
        absl::StrFormat("%s map \"%s\" of %u x %u-byte values, expected %s%s map \"%s\" of %s x "
                        "%s-byte values",
                        MapTypeName(map.type), map.name, map.max_entries, map.value_size,
                        sig.mmapable ? "mmapable " : "", MapTypeName(sig.type), sig.name,
                        entries == 0 ? "N" : absl::StrCat(entries),
                        sig.value_size == 0 ? "N" : absl::StrCat(sig.value_size)));
  }
  return map;
}

absl::StatusOr<kestrel_recorder_info> CheckInfo(const std::string& path) {
  const MapSignature sig{"info map", BPF_MAP_TYPE_ARRAY, sizeof(kestrel_recorder_info), 1,
                         false,      "recorder_info"};
  if (absl::StatusOr<bpf_map_info> map = CheckMap(path, sig, 0); !map.ok()) return map.status();
  absl::StatusOr<OwnedFd> fd = OpenObject(path, sig.what);
  if (!fd.ok()) return fd.status();
  kestrel_recorder_info info{};
  const uint32_t zero = 0;
  if (bpf_map_lookup_elem(**fd, &zero, &info) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("reading %s", path));
  }
  if (info.magic != KESTREL_RECORDER_MAGIC || info.version != KESTREL_RECORDER_VERSION ||
      info.slot_bytes != KESTREL_RECORDER_SLOT_BYTES || info.n_rings == 0 ||
      info.n_rings > KESTREL_RECORDER_MAX_RINGS || info.slots_per_ring == 0 ||
      (info.slots_per_ring & (info.slots_per_ring - 1)) != 0) {
    return NotOurs(path, "info map of this version",
                   absl::StrFormat("magic %#llx version %u, expected %#llx version %u",
                                   static_cast<unsigned long long>(info.magic), info.version,
                                   static_cast<unsigned long long>(KESTREL_RECORDER_MAGIC),
                                   KESTREL_RECORDER_VERSION));
  }
  return info;
}

// A link is ours when its program has our name and, when the heads map is
// known, uses that very map.
absl::Status CheckLink(const std::string& path, const char* prog_name,
                       std::optional<uint32_t> heads_id) {
  absl::StatusOr<OwnedFd> fd = OpenObject(path, "link");
  if (!fd.ok()) return fd.status();
  const std::string kind = ObjectKind(**fd);
  if (kind != "bpf-link" && kind != "bpf_link") {
    return NotOurs(path, "link", "a " + KindForMessage(kind));
  }
  bpf_link_info link{};
  uint32_t len = sizeof(link);
  if (bpf_obj_get_info_by_fd(**fd, &link, &len) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("inspecting %s", path));
  }
  const int prog_fd = bpf_prog_get_fd_by_id(link.prog_id);
  if (prog_fd < 0) return ErrnoStatus(errno, absl::StrFormat("opening the program of %s", path));
  OwnedFd prog = Own(prog_fd);
  uint32_t map_ids[64] = {};
  bpf_prog_info info{};
  info.nr_map_ids = 64;
  info.map_ids = reinterpret_cast<uint64_t>(map_ids);
  len = sizeof(info);
  if (bpf_obj_get_info_by_fd(*prog, &info, &len) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("inspecting the program of %s", path));
  }
  if (!NameMatches(info.name, prog_name)) {
    return NotOurs(
        path, "link",
        absl::StrFormat("it runs program \"%s\", expected \"%s\"", info.name, prog_name));
  }
  const uint32_t n = std::min<uint32_t>(info.nr_map_ids, 64);
  if (heads_id && std::find(map_ids, map_ids + n, *heads_id) == map_ids + n) {
    return NotOurs(path, "link", "its program does not write this recorder's heads map");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> Entries(const std::string& dir) {
  std::unique_ptr<DIR, int (*)(DIR*)> d(opendir(dir.c_str()), closedir);
  if (!d) return ErrnoStatus(errno, absl::StrFormat("listing %s", dir));
  std::vector<std::string> names;
  while (const dirent* e = readdir(d.get())) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  return names;
}

std::string Basename(const std::string& path) { return path.substr(path.rfind('/') + 1); }

}  // namespace

std::string StopCommandFor(const RecorderPins& pins) {
  return absl::StrFormat("kestrel recorder stop --name %s --pin-root %s", pins.name, pins.root);
}

absl::StatusOr<RecorderInspection> InspectRecorder(const RecorderPins& pins) {
  RecorderInspection r;
  struct stat st {};
  if (lstat(pins.dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return r;
    return ErrnoStatus(errno, absl::StrFormat("looking at %s", pins.dir));
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s is not a directory, so not a Kestrel recorder", pins.dir));
  }
  absl::StatusOr<std::vector<std::string>> entries = Entries(pins.dir);
  if (!entries.ok()) return entries.status();
  const std::vector<std::string> ours = pins.Files();
  for (const std::string& entry : *entries) {
    if (std::none_of(ours.begin(), ours.end(),
                     [&](const std::string& f) { return Basename(f) == entry; })) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "%s/%s is not part of a Kestrel recorder (the recorder pins only %s)", pins.dir, entry,
          "link, fork_link, exit_link, slots, heads, info, counters, fillers and control"));
    }
  }
  auto exists = [&](const std::string& path) {
    return std::find(entries->begin(), entries->end(), Basename(path)) != entries->end();
  };

  // The info map first: it gives the geometry the rings must have.
  if (exists(pins.info)) {
    absl::StatusOr<kestrel_recorder_info> info = CheckInfo(pins.info);
    if (!info.ok()) return info.status();
    r.has_info = true;
    r.info = *info;
  }
  const uint32_t rings = r.has_info ? r.info.n_rings : 0;
  const uint32_t slots = r.has_info ? r.info.n_rings * r.info.slots_per_ring : 0;
  const struct {
    const std::string* path;
    MapSignature sig;
    uint32_t entries;
  } maps[] = {
      {&pins.slots,
       {"slots map", BPF_MAP_TYPE_ARRAY, sizeof(kestrel_recorder_slot), 0, true, "recorder_slots"},
       slots},
      {&pins.heads,
       {"heads map", BPF_MAP_TYPE_ARRAY, sizeof(kestrel_recorder_head), 0, true, "recorder_heads"},
       rings},
      {&pins.counters,
       {"counters map", BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(kestrel_cpu_counters), 1, false,
        "cpu_counters"},
       0},
      {&pins.fillers, {"fillers map", BPF_MAP_TYPE_PROG_ARRAY, 4, 0, false, "custom_fillers"}, 0},
      {&pins.control, {"control map", BPF_MAP_TYPE_ARRAY, 0, 1, true, ".bss"}, 0},
  };
  std::optional<uint32_t> heads_id;
  for (const auto& m : maps) {
    if (!exists(*m.path)) continue;
    absl::StatusOr<bpf_map_info> map = CheckMap(*m.path, m.sig, m.entries);
    if (!map.ok()) return map.status();
    if (m.path == &pins.heads) heads_id = map->id;
  }
  const struct {
    const std::string* path;
    const char* prog;
  } links[] = {{&pins.link, "kestrel_sys_exit"},
               {&pins.fork_link, "kestrel_sched_process_fork"},
               {&pins.exit_link, "kestrel_sched_process_exit"}};
  for (const auto& l : links) {
    if (!exists(*l.path)) continue;
    if (absl::Status s = CheckLink(*l.path, l.prog, heads_id); !s.ok()) return s;
  }

  for (const std::string& f : ours) {
    if (exists(f)) r.present.push_back(f);
  }
  r.state = r.present.size() == ours.size() ? RecorderState::kComplete : RecorderState::kHalfMade;
  return r;
}

}  // namespace kestrel::pman
