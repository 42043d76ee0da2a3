#include "recorder_reader.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <tuple>
#include <vector>

#include "absl/strings/str_format.h"
#include "counter_sum.h"
#include "errno_status.h"
#include "page_round.h"
#include "recorder_inspect.h"
#include "recorder_pins.h"

namespace kestrel::pman {
namespace {

absl::StatusOr<int> OpenPin(const std::string& path, bool read_only) {
  LIBBPF_OPTS(bpf_obj_get_opts, opts);
  opts.file_flags = read_only ? BPF_F_RDONLY : 0;
  const int fd = bpf_obj_get_opts(path.c_str(), &opts);
  if (fd < 0) {
    if (errno == ENOENT) {
      return absl::NotFoundError(
          absl::StrFormat("no recorder at %s (start one with `kestrel recorder start`)", path));
    }
    return ErrnoStatus(errno, absl::StrFormat("opening %s", path));
  }
  return fd;
}

// Checks that a pinned map is the one `info` describes, so a stale or
// foreign pin is never mapped with the wrong geometry.
absl::Status CheckMap(int fd, const std::string& path, uint32_t value_size, uint32_t entries) {
  bpf_map_info map{};
  uint32_t len = sizeof(map);
  if (bpf_obj_get_info_by_fd(fd, &map, &len) != 0) {
    return ErrnoStatus(errno, absl::StrFormat("inspecting %s", path));
  }
  if (map.value_size != value_size || map.max_entries != entries ||
      !(map.map_flags & BPF_F_MMAPABLE)) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s does not match its recorder info (value %u x %u, expected %u x %u)",
                        path, map.value_size, map.max_entries, value_size, entries));
  }
  return absl::OkStatus();
}

absl::StatusOr<const void*> MapReadOnly(int fd, size_t bytes, const std::string& path) {
  void* p = mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return ErrnoStatus(errno, absl::StrFormat("mapping %s", path));
  return p;
}

}  // namespace

absl::StatusOr<std::unique_ptr<RecorderReader>> RecorderReader::Open(
    const pman_recorder_options& options) {
  absl::StatusOr<RecorderPins> pins = RecorderPinsFor(options);
  if (!pins.ok()) return pins.status();
  std::unique_ptr<RecorderReader> r(new RecorderReader(Logger(options.log_fn, options.log_ctx)));

  // Judged first, so a foreign or half-made directory is named as such
  // rather than failing on the first pin that does not fit.
  absl::StatusOr<RecorderInspection> found = InspectRecorder(*pins);
  if (!found.ok()) return found.status();
  if (found->state == RecorderState::kAbsent) {
    return absl::NotFoundError(
        absl::StrFormat("no recorder at %s (start one with `kestrel recorder start`)", pins->dir));
  }
  if (found->state == RecorderState::kHalfMade) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s holds a half-made recorder (%zu of %zu pins: its start was interrupted or is still "
        "running); remove it with `%s`",
        pins->dir, found->present.size(), pins->Files().size(), StopCommandFor(*pins)));
  }
  r->info_ = found->info;
  const kestrel_recorder_info& info = r->info_;

  // The kernel refuses a shared mapping of a map fd opened read-only (mmap
  // drops VM_SHARED for such files), so the rings are opened read-write and
  // mapped PROT_READ: this process still can never write into them.
  for (auto [path, fd, read_only] : {std::tuple{&pins->slots, &r->slots_fd_, false},
                                     std::tuple{&pins->heads, &r->heads_fd_, false},
                                     std::tuple{&pins->counters, &r->counters_fd_, true}}) {
    absl::StatusOr<int> opened = OpenPin(*path, read_only);
    if (!opened.ok()) return opened.status();
    *fd = *opened;
  }
  const uint32_t total = info.n_rings * info.slots_per_ring;
  if (absl::Status s = CheckMap(r->slots_fd_, pins->slots, sizeof(kestrel_recorder_slot), total);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckMap(r->heads_fd_, pins->heads, sizeof(kestrel_recorder_head), info.n_rings);
      !s.ok()) {
    return s;
  }
  r->slots_bytes_ = PageRound(size_t{total} * sizeof(kestrel_recorder_slot));
  absl::StatusOr<const void*> slots = MapReadOnly(r->slots_fd_, r->slots_bytes_, pins->slots);
  if (!slots.ok()) return slots.status();
  r->slots_ = static_cast<const kestrel_recorder_slot*>(*slots);
  r->heads_bytes_ = PageRound(size_t{info.n_rings} * sizeof(kestrel_recorder_head));
  absl::StatusOr<const void*> heads = MapReadOnly(r->heads_fd_, r->heads_bytes_, pins->heads);
  if (!heads.ok()) return heads.status();
  r->heads_ = static_cast<const kestrel_recorder_head*>(*heads);
  return r;
}

RecorderReader::~RecorderReader() {
  if (slots_ != nullptr) munmap(const_cast<kestrel_recorder_slot*>(slots_), slots_bytes_);
  if (heads_ != nullptr) munmap(const_cast<kestrel_recorder_head*>(heads_), heads_bytes_);
  for (int fd : {slots_fd_, heads_fd_, counters_fd_}) {
    if (fd >= 0) close(fd);
  }
}

absl::StatusOr<pman_recorder_status> RecorderReader::Status() const {
  pman_recorder_status status{};
  status.n_rings = info_.n_rings;
  status.slots_per_ring = info_.slots_per_ring;
  status.size_bytes = uint64_t{info_.n_rings} * info_.slots_per_ring * info_.slot_bytes;
  status.cgroup_id = info_.cgroup_id;
  status.boot_time_ns = info_.boot_time_ns;
  status.started_boot_ns = info_.started_boot_ns;
  for (uint32_t ring = 0; ring < info_.n_rings; ++ring) {
    status.slots_reserved += __atomic_load_n(&heads_[ring].next, __ATOMIC_ACQUIRE);
  }
  const int n_cpus = libbpf_num_possible_cpus();
  if (n_cpus <= 0) return ErrnoStatus(-n_cpus, "counting the possible CPUs");
  std::vector<kestrel_cpu_counters> per_cpu(static_cast<size_t>(n_cpus));
  const uint32_t zero = 0;
  if (bpf_map_lookup_elem(counters_fd_, &zero, per_cpu.data()) != 0) {
    return ErrnoStatus(errno, "reading the recorder's counters");
  }
  for (const kestrel_cpu_counters& c : per_cpu) AddCounters(status.counters, c);
  return status;
}

RecorderScan RecorderReader::Scan() const {
  RecorderScan scan;
  for (uint32_t ring = 0; ring < info_.n_rings; ++ring) {
    ScanRing(slots_ + size_t{ring} * info_.slots_per_ring, info_.slots_per_ring, &heads_[ring].next,
             ring, scan);
  }
  return scan;
}

}  // namespace kestrel::pman
