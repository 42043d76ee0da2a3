// The probe's embedded BPF object in one of its two settings storage modes
// (README, "Settings storage modes"). Each mode is its own generated
// skeleton; this interface is all Probe sees of either, so probe.cpp names
// no skeleton type.
#ifndef KESTREL_LIBPMAN_PROBE_OBJECT_H_
#define KESTREL_LIBPMAN_PROBE_OBJECT_H_

#include <bpf/libbpf.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "shared/control_block.h"

namespace kestrel::pman {

class ProbeObject {
 public:
  // Opens the embedded object of `storage`'s mode (not loaded yet).
  static absl::StatusOr<std::unique_ptr<ProbeObject>> Open(kestrel_settings_storage storage);
  virtual ~ProbeObject() = default;

  // Return 0 or a negative errno, as libbpf does.
  virtual int Load() = 0;
  virtual int Attach() = 0;
  virtual void Detach() = 0;
  // The sys_exit dispatcher's link alone, after Attach: the scheduler
  // hooks stay as they are.
  virtual int AttachDispatcher() = 0;
  virtual void DetachDispatcher() = 0;
  virtual bool DispatcherAttached() const = 0;

  virtual bpf_object* object() const = 0;
  virtual bpf_map* ring_maps() const = 0;
  virtual bpf_map* scratch_maps() const = 0;
  virtual bpf_map* custom_fillers() const = 0;
  virtual bpf_map* cpu_counters() const = 0;
  virtual bpf_map* mpsc_ring_of_cpu() const = 0;
  virtual bpf_map* mpsc_heads() const = 0;
  virtual bpf_map* mpsc_chunks() const = 0;
  virtual bpf_map* mpsc_lanes() const = 0;
  // The map whose single value is the control block: .bss or the array.
  virtual bpf_map* control_map() const = 0;
  virtual bpf_program* sys_exit_program() const = 0;
  // Load-time constant; call before Load.
  virtual void SetRingWakeupThreshold(uint64_t bytes) = 0;
  // Load-time constants: records go to MPSC rings of `ring_bytes` made of
  // 2^`chunk_shift`-byte chunks, headers stamped with `stamp_key`, reserved
  // in blocks of 2^`block_shift` bytes (0: one by one), not to BPF ring
  // buffers.
  virtual void SetMpscRings(uint32_t chunk_shift, uint64_t ring_bytes, uint32_t stamp_key,
                            uint32_t block_shift) = 0;
  // Load-time constant; false leaves the ia32 test out of the fast path.
  virtual void SetIa32SyscallsPossible(bool possible) = 0;
  // This process's writable mapping of the control block, from Load on.
  virtual kestrel_control_block* control_block() const = 0;

  kestrel_settings_storage storage() const { return storage_; }

 protected:
  explicit ProbeObject(kestrel_settings_storage storage) : storage_(storage) {}

 private:
  kestrel_settings_storage storage_;
};

// Bytes of the control map's value in `storage`'s mode; the block sits at
// offset 0 of it in both modes.
size_t ControlMapValueSize(kestrel_settings_storage storage);

// Bytes to mmap for the control map (a whole page multiple).
size_t ControlMmapSize(kestrel_settings_storage storage);

// "bss" / "array", for messages and the CLI.
const char* StorageName(kestrel_settings_storage storage);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PROBE_OBJECT_H_
