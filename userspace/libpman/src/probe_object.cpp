#include "probe_object.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <type_traits>

#include "embedded_object.h"
#include "errno_status.h"
#include "kestrel_probe.skel.h"
#include "kestrel_probe_array.skel.h"
#include "page_round.h"

namespace kestrel::pman {
namespace {

// The generated functions of each skeleton, so one template serves both.
template <typename Skel>
struct SkeletonFns;

#define KESTREL_SKELETON_FNS(skel)                   \
  template <>                                        \
  struct SkeletonFns<skel> {                         \
    static constexpr auto open = skel##__open_opts;  \
    static constexpr auto load = skel##__load;       \
    static constexpr auto attach = skel##__attach;   \
    static constexpr auto detach = skel##__detach;   \
    static constexpr auto destroy = skel##__destroy; \
  }

KESTREL_SKELETON_FNS(kestrel_probe);
KESTREL_SKELETON_FNS(kestrel_probe_array);
#undef KESTREL_SKELETON_FNS

// The skeleton nests the .bss layout inside struct kestrel_probe in C++.
using Bss = std::remove_pointer_t<decltype(kestrel_probe::bss)>;
static_assert(offsetof(Bss, kestrel_control_bss) == 0 &&
                  sizeof(Bss) == sizeof(kestrel_control_block),
              "the .bss must hold the control block alone: user space maps it at offset 0");

template <typename Skel>
class SkeletonObject final : public ProbeObject {
 public:
  using Fns = SkeletonFns<Skel>;
  static constexpr bool kInArray = std::is_same_v<Skel, kestrel_probe_array>;

  explicit SkeletonObject(Skel* skel)
      : ProbeObject(kInArray ? KESTREL_STORAGE_ARRAY : KESTREL_STORAGE_BSS), skel_(skel) {}
  ~SkeletonObject() override {
    if constexpr (kInArray) {
      if (block_ != nullptr) munmap(block_, ControlMmapSize(storage()));
    }
    Fns::destroy(skel_);
  }

  int Load() override {
    if (const int err = Fns::load(skel_); err != 0) return err;
    if constexpr (kInArray) {
      // libbpf maps only its own global-data maps; this one is ours to map.
      void* mem = mmap(nullptr, ControlMmapSize(storage()), PROT_READ | PROT_WRITE, MAP_SHARED,
                       bpf_map__fd(skel_->maps.kestrel_control), 0);
      if (mem == MAP_FAILED) return -errno;
      block_ = static_cast<kestrel_control_block*>(mem);
    } else {
      block_ = &skel_->bss->kestrel_control_bss;
    }
    return 0;
  }
  int Attach() override { return Fns::attach(skel_); }
  void Detach() override { Fns::detach(skel_); }
  int AttachDispatcher() override {
    if (skel_->links.kestrel_sys_exit != nullptr) return 0;
    bpf_link* link = bpf_program__attach(skel_->progs.kestrel_sys_exit);
    if (link == nullptr) return -errno;
    skel_->links.kestrel_sys_exit = link;
    return 0;
  }
  void DetachDispatcher() override {
    bpf_link__destroy(skel_->links.kestrel_sys_exit);
    skel_->links.kestrel_sys_exit = nullptr;
  }
  bool DispatcherAttached() const override { return skel_->links.kestrel_sys_exit != nullptr; }

  bpf_object* object() const override { return skel_->obj; }
  bpf_map* ring_maps() const override { return skel_->maps.ringbuf_maps; }
  bpf_map* scratch_maps() const override { return skel_->maps.scratch_maps; }
  bpf_map* custom_fillers() const override { return skel_->maps.custom_fillers; }
  bpf_map* cpu_counters() const override { return skel_->maps.cpu_counters; }
  bpf_map* mpsc_ring_of_cpu() const override { return skel_->maps.mpsc_ring_of_cpu; }
  bpf_map* mpsc_heads() const override { return skel_->maps.mpsc_heads; }
  bpf_map* mpsc_chunks() const override { return skel_->maps.mpsc_chunks; }
  bpf_map* mpsc_lanes() const override { return skel_->maps.mpsc_lanes; }
  bpf_map* control_map() const override {
    if constexpr (kInArray) {
      return skel_->maps.kestrel_control;
    } else {
      return skel_->maps.bss;
    }
  }
  bpf_program* sys_exit_program() const override { return skel_->progs.kestrel_sys_exit; }
  void SetRingWakeupThreshold(uint64_t bytes) override {
    skel_->rodata->ring_wakeup_threshold_bytes = bytes;
  }
  void SetMpscRings(uint32_t chunk_shift, uint64_t ring_bytes, uint32_t stamp_key,
                    uint32_t block_shift) override {
    skel_->rodata->mpsc_rings = 1;
    skel_->rodata->mpsc_chunk_shift = chunk_shift;
    skel_->rodata->mpsc_chunk_index_mask = static_cast<uint32_t>((ring_bytes >> chunk_shift) - 1);
    skel_->rodata->mpsc_ring_bytes = ring_bytes;
    skel_->rodata->mpsc_stamp_key = stamp_key;
    skel_->rodata->mpsc_block_shift = block_shift;
  }
  void SetIa32SyscallsPossible(bool possible) override {
    skel_->rodata->ia32_syscalls_possible = possible;
  }
  kestrel_control_block* control_block() const override { return block_; }

 private:
  Skel* skel_;
  kestrel_control_block* block_ = nullptr;
};

template <typename Skel>
absl::StatusOr<std::unique_ptr<ProbeObject>> OpenSkeleton() {
  Skel* skel = OpenEmbeddedSkeleton(SkeletonFns<Skel>::open, kestrel_probe__elf_bytes,
                                    kestrel_probe_array__elf_bytes);
  if (skel == nullptr) return ErrnoStatus(errno, "opening the embedded BPF object");
  return std::unique_ptr<ProbeObject>(new SkeletonObject<Skel>(skel));
}

}  // namespace

absl::StatusOr<std::unique_ptr<ProbeObject>> ProbeObject::Open(kestrel_settings_storage storage) {
  switch (storage) {
    case KESTREL_STORAGE_BSS:
      return OpenSkeleton<kestrel_probe>();
    case KESTREL_STORAGE_ARRAY:
      return OpenSkeleton<kestrel_probe_array>();
  }
  return absl::InvalidArgumentError("unknown settings storage mode");
}

size_t ControlMapValueSize(kestrel_settings_storage storage) {
  return storage == KESTREL_STORAGE_BSS ? sizeof(Bss) : sizeof(kestrel_control_block);
}

size_t ControlMmapSize(kestrel_settings_storage storage) {
  // The kernel rounds each array element up to 8 bytes.
  return PageRound((ControlMapValueSize(storage) + 7) & ~size_t{7});
}

const char* StorageName(kestrel_settings_storage storage) {
  return storage == KESTREL_STORAGE_ARRAY ? "array" : "bss";
}

}  // namespace kestrel::pman
