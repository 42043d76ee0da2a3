#include "mpsc_rings.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>

#include "absl/strings/str_format.h"
#include "errno_status.h"
#include "map_memlock.h"
#include "page_round.h"

namespace kestrel::pman {

uint32_t MpscChunkShift(uint64_t ring_bytes) {
  return std::min<uint32_t>(std::countr_zero(ring_bytes), KESTREL_MPSC_MAX_CHUNK_SHIFT);
}

uint32_t MpscBlockShift(const RingLayout& layout) {
  if (layout.CpusPerRing() < 2) return 0;
  // 4 KiB: ~30 generic records per reservation on the shared line. A ring
  // keeps at least 64 blocks, so the blocks its CPUs hold open are a small
  // part of it, and at most 65536, the reader's table of them.
  const uint64_t block =
      std::max(std::clamp<uint64_t>(layout.ring_bytes / 64, 256, 4096), layout.ring_bytes >> 16);
  return static_cast<uint32_t>(std::countr_zero(block));
}

absl::StatusOr<std::unique_ptr<MpscRings>> MpscRings::Configure(ProbeObject& object,
                                                                const RingLayout& layout) {
  // The key only has to be unknown to traced processes, whose bytes may sit
  // where a header will go (shared/mpsc_ring_format.h).
  uint32_t key = 0;
  if (getrandom(&key, sizeof(key), 0) != static_cast<ssize_t>(sizeof(key))) {
    return ErrnoStatus(errno, "drawing the MPSC rings' stamp key");
  }
  const uint32_t shift = MpscChunkShift(layout.ring_bytes);
  const uint64_t chunks_per_ring = layout.ring_bytes >> shift;
  bpf_map__set_max_entries(object.mpsc_ring_of_cpu(), layout.n_cpus);
  bpf_map__set_max_entries(object.mpsc_lanes(), layout.n_cpus);
  bpf_map__set_max_entries(object.mpsc_heads(), layout.n_rings);
  bpf_map__set_value_size(object.mpsc_chunks(), 1U << shift);
  bpf_map__set_max_entries(object.mpsc_chunks(),
                           static_cast<uint32_t>(layout.n_rings * chunks_per_ring));
  const uint32_t block_shift = MpscBlockShift(layout);
  object.SetMpscRings(shift, layout.ring_bytes, key, block_shift);
  return std::unique_ptr<MpscRings>(new MpscRings(layout, key, block_shift));
}

absl::Status MpscRings::Connect(const ProbeObject& object) {
  const RingLayout& layout = layout_;
  const int heads_fd = bpf_map__fd(object.mpsc_heads());
  const int chunks_fd = bpf_map__fd(object.mpsc_chunks());
  heads_bytes_ = PageRound(layout.n_rings * sizeof(kestrel_mpsc_head));
  void* heads = mmap(nullptr, heads_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, heads_fd, 0);
  if (heads == MAP_FAILED) return ErrnoStatus(errno, "mapping the MPSC ring heads");
  heads_ = static_cast<kestrel_mpsc_head*>(heads);
  const int lanes_fd = bpf_map__fd(object.mpsc_lanes());
  // Only a reader of blocks uses the lanes, to close a quiet CPU's block.
  if (block_shift_ != 0) {
    lanes_bytes_ = PageRound(layout.n_cpus * sizeof(kestrel_mpsc_lane));
    void* lanes = mmap(nullptr, lanes_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, lanes_fd, 0);
    if (lanes == MAP_FAILED) return ErrnoStatus(errno, "mapping the MPSC ring lanes");
    lanes_ = static_cast<kestrel_mpsc_lane*>(lanes);
  }
  // Chunks are whole pages, so the kernel lays them out back to back and
  // each ring is one contiguous run of the mapping. The reader writes only
  // to close a block (a pad header).
  data_bytes_ = layout.n_rings * layout.ring_bytes;
  const int prot = block_shift_ != 0 ? PROT_READ | PROT_WRITE : PROT_READ;
  void* data = mmap(nullptr, data_bytes_, prot, MAP_SHARED, chunks_fd, 0);
  if (data == MAP_FAILED) return ErrnoStatus(errno, "mapping the MPSC ring bytes");
  data_ = static_cast<uint8_t*>(data);

  const uint32_t shift = MpscChunkShift(layout.ring_bytes);
  for (uint32_t r = 0; r < layout.n_rings; ++r) {
    heads_[r].first_chunk = static_cast<uint32_t>(r * (layout.ring_bytes >> shift));
  }
  const int ring_of_cpu_fd = bpf_map__fd(object.mpsc_ring_of_cpu());
  for (uint32_t cpu = 0; cpu < layout.n_cpus; ++cpu) {
    const uint32_t ring = layout.RingOfCpu(cpu);
    if (ring == RingLayout::kNoRing) continue;
    if (bpf_map_update_elem(ring_of_cpu_fd, &cpu, &ring, BPF_ANY) != 0) {
      return ErrnoStatus(errno, absl::StrFormat("pointing CPU %u at its MPSC ring", cpu));
    }
  }
  for (int fd : {heads_fd, chunks_fd, lanes_fd}) {
    absl::StatusOr<uint64_t> memlock = MapMemlockBytes(fd);
    if (!memlock.ok()) return memlock.status();
    locked_bytes_ += *memlock;
  }
  return absl::OkStatus();
}

MpscRings::~MpscRings() {
  if (heads_ != nullptr) munmap(heads_, heads_bytes_);
  if (lanes_ != nullptr) munmap(lanes_, lanes_bytes_);
  if (data_ != nullptr) munmap(data_, data_bytes_);
}

RingReader MpscRings::Reader(uint32_t ring) const {
  if (block_shift_ != 0) {
    return RingReader::ForMpscBlocks({.head = &heads_[ring],
                                      .data = data_ + ring * layout_.ring_bytes,
                                      .size = layout_.ring_bytes,
                                      .stamp_key = stamp_key_,
                                      .block_shift = block_shift_,
                                      .lanes = lanes_,
                                      .n_cpus = layout_.n_cpus});
  }
  return RingReader::ForMpsc(&heads_[ring], data_ + ring * layout_.ring_bytes, layout_.ring_bytes,
                             stamp_key_);
}

}  // namespace kestrel::pman
