#include "filler_loader.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "custom_fillers.h"
#include "errno_status.h"
#include "probe_object.h"
#include "syscall_fillers.h"

namespace kestrel::pman {
namespace {

bool Intersects(const std::vector<uint32_t>& a, const std::vector<uint32_t>& sorted_b) {
  return std::any_of(a.begin(), a.end(), [&](uint32_t x) {
    return std::binary_search(sorted_b.begin(), sorted_b.end(), x);
  });
}

// Loads only the fillers serving `empty` (sorted): returns the programs
// chosen, or none when no program of the object serves those slots.
absl::StatusOr<std::vector<bpf_program*>> ChooseFillers(bpf_object* obj,
                                                        const std::vector<uint32_t>& empty) {
  std::vector<bpf_program*> chosen;
  bpf_program* prog;
  bpf_object__for_each_program(prog, obj) {
    bool load = false;
    if (IsFiller(prog)) {
      absl::StatusOr<std::vector<uint32_t>> slots = FillerSlots(prog);
      if (!slots.ok()) return slots.status();
      load = Intersects(*slots, empty);
    }
    bpf_program__set_autoattach(prog, false);
    bpf_program__set_autoload(prog, load);
    if (load) chosen.push_back(prog);
  }
  return chosen;
}

absl::Status ReuseMaps(bpf_object* obj, const FillerLoadTarget& target) {
  bpf_map* map;
  bpf_object__for_each_map(map, obj) {
    absl::StatusOr<int> fd = target.map_fd(bpf_map__name(map));
    if (absl::IsNotFound(fd.status())) {
      bpf_map__set_autocreate(map, false);
      continue;
    }
    if (!fd.ok()) return fd.status();
    const int err = bpf_map__reuse_fd(map, *fd);
    close(*fd);
    if (err != 0) {
      return ErrnoStatus(-err, absl::StrFormat("reusing the probe's map %s", bpf_map__name(map)));
    }
  }
  return absl::OkStatus();
}

std::string NamesOf(const std::vector<bpf_program*>& progs) {
  return absl::StrJoin(progs, ", ", [](std::string* out, const bpf_program* p) {
    out->append(bpf_program__name(p));
  });
}

}  // namespace

std::vector<uint32_t> SyscallIdsOf(const uint8_t* interesting, size_t n) {
  std::vector<uint32_t> ids;
  for (size_t id = 0; id < n; ++id) {
    if (interesting[id] != 0) ids.push_back(static_cast<uint32_t>(id));
  }
  return ids;
}

absl::StatusOr<std::vector<ProgramLoadStats>> LoadMissingFillers(const FillerLoadTarget& target,
                                                                 const std::vector<uint32_t>& ids) {
  absl::StatusOr<std::vector<uint32_t>> empty =
      EmptySlots(target.prog_array_fd, FillerSlotsOfSyscalls(ids));
  if (!empty.ok()) return empty.status();
  if (empty->empty()) return std::vector<ProgramLoadStats>{};

  absl::StatusOr<std::unique_ptr<ProbeObject>> object = ProbeObject::Open(target.storage);
  if (!object.ok()) return object.status();
  bpf_object* obj = (*object)->object();
  absl::StatusOr<std::vector<bpf_program*>> chosen = ChooseFillers(obj, *empty);
  if (!chosen.ok()) return chosen.status();
  // An event with custom parameters and no filler in this build records
  // PARAMS_MISSING, as it always has: nothing to load for it.
  if (chosen->empty()) return std::vector<ProgramLoadStats>{};
  if (absl::Status s = ReuseMaps(obj, target); !s.ok()) return s;

  VerifierStatsLogs logs =
      target.fail_load ? VerifierStatsLogs::Overflowing(obj) : VerifierStatsLogs(obj);
  if (const int err = bpf_object__load(obj); err != 0) {
    return ErrnoStatus(-err, absl::StrFormat("loading filler program(s) %s (see the libbpf log)",
                                             NamesOf(*chosen)));
  }
  for (bpf_program* prog : *chosen) {
    absl::StatusOr<std::vector<uint32_t>> slots = FillerSlots(prog);
    if (!slots.ok()) return slots.status();
    const int fd = bpf_program__fd(prog);
    for (const uint32_t slot : *slots) {
      if (bpf_map_update_elem(target.prog_array_fd, &slot, &fd, BPF_ANY) != 0) {
        return ErrnoStatus(errno,
                           absl::StrFormat("registering filler %s", bpf_program__name(prog)));
      }
    }
  }
  return logs.Collect();
}

}  // namespace kestrel::pman
