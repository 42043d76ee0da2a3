#include "ring_layout.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "libpman.h"

namespace kestrel::pman {

uint32_t RingLayout::CpusWithRing() const {
  uint32_t n = 0;
  for (uint32_t ring : ring_of_cpu) n += ring != kNoRing;
  return n;
}

uint32_t AutoCpusPerBuffer(uint32_t /*n_cpus*/) {
  // Pairs of CPUs share a ring. Measured with `kestrel bench rings` on two
  // CPUs: sharing halves the memory, cuts the consumer's CPU per record (no
  // merge) and keeps the pair's records in reservation order, while the cost
  // of two producers contending on one ring stayed within this VM's noise.
  // Sharing among more CPUs could not be measured here, and its contention
  // grows with every CPU added, so auto never goes past what was measured.
  // On a two-CPU machine this is one shared ring.
  return 2;
}

absl::StatusOr<RingLayout> PlanRingLayout(uint32_t n_cpus, uint32_t cpus_per_buffer,
                                          uint64_t ring_bytes, const std::vector<bool>* online,
                                          bool ringbuf) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (n_cpus == 0) return absl::InvalidArgumentError("no possible CPUs reported");
  if (ring_bytes < page || (ring_bytes & (ring_bytes - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("buffer size %u bytes: must be a power of two and at least one page (%u)",
                        ring_bytes, page));
  }
  // The kernel caps a ringbuf's data area below 4 GiB on 64-bit.
  if (ring_bytes > (1ULL << 31)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("buffer size %u bytes: larger than the 2 GiB a ring can hold", ring_bytes));
  }
  if (online != nullptr && online->size() != n_cpus) {
    return absl::InvalidArgumentError(
        absl::StrFormat("online CPU map has %u entries for %u CPUs", online->size(), n_cpus));
  }
  if (cpus_per_buffer == PMAN_CPUS_PER_BUFFER_AUTO) cpus_per_buffer = AutoCpusPerBuffer(n_cpus);
  RingLayout layout;
  layout.n_cpus = n_cpus;
  layout.cpus_per_buffer = cpus_per_buffer >= n_cpus ? 0 : cpus_per_buffer;
  layout.ring_bytes = ring_bytes;
  layout.ring_of_cpu.assign(n_cpus, RingLayout::kNoRing);
  const uint32_t group = layout.CpusPerRing();
  layout.mpsc = !ringbuf;
  // Ring ids are dense over the groups that get a ring.
  for (uint32_t first = 0; first < n_cpus; first += group) {
    const uint32_t end = std::min(n_cpus, first + group);
    bool any_online = online == nullptr;
    for (uint32_t cpu = first; cpu < end && !any_online; ++cpu) any_online = (*online)[cpu];
    if (!any_online) continue;
    for (uint32_t cpu = first; cpu < end; ++cpu) layout.ring_of_cpu[cpu] = layout.n_rings;
    ++layout.n_rings;
  }
  if (layout.n_rings == 0) return absl::InvalidArgumentError("no online CPU to give a ring to");
  return layout;
}

absl::StatusOr<std::vector<bool>> ParseCpuList(std::string_view list, uint32_t n_cpus) {
  std::vector<bool> cpus(n_cpus, false);
  while (!list.empty() && (list.back() == '\n' || list.back() == ' ')) list.remove_suffix(1);
  if (list.empty()) return absl::InvalidArgumentError("empty CPU list");
  // This abseil's string_view is its own type, not std's.
  for (absl::string_view item : absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    std::pair<absl::string_view, absl::string_view> range = absl::StrSplit(item, '-');
    uint32_t lo = 0, hi = 0;
    if (!absl::SimpleAtoi(range.first, &lo) ||
        !absl::SimpleAtoi(range.second.empty() ? range.first : range.second, &hi) || hi < lo) {
      return absl::InvalidArgumentError(
          absl::StrFormat("bad CPU list entry \"%s\"", std::string(item)));
    }
    if (hi >= n_cpus) {
      return absl::InvalidArgumentError(
          absl::StrFormat("CPU %u is beyond the %u possible CPUs", hi, n_cpus));
    }
    for (uint32_t cpu = lo; cpu <= hi; ++cpu) cpus[cpu] = true;
  }
  return cpus;
}

absl::StatusOr<std::vector<bool>> ReadOnlineCpus(uint32_t n_cpus) {
  constexpr char kPath[] = "/sys/devices/system/cpu/online";
  std::ifstream in(kPath);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return absl::NotFoundError(absl::StrFormat("cannot read %s", kPath));
  return ParseCpuList(text.str(), n_cpus);
}

}  // namespace kestrel::pman
