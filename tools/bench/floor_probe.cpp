#include "bench/floor_probe.h"

#include <bpf/libbpf.h>

#include <cerrno>

#include "kestrel_bench_floor.skel.h"

namespace kestrel::bench {

absl::StatusOr<std::unique_ptr<FloorProbe>> FloorProbe::Load() {
  std::unique_ptr<FloorProbe> probe(new FloorProbe());
  probe->skel_ = kestrel_bench_floor__open_and_load();
  if (probe->skel_ == nullptr) return absl::ErrnoToStatus(errno, "loading the bench floor object");
  probe->ring_ = ring_buffer__new(bpf_map__fd(probe->skel_->maps.floor_ring), &FloorProbe::OnRecord,
                                  probe.get(), nullptr);
  if (probe->ring_ == nullptr) return absl::ErrnoToStatus(errno, "mapping the floor ring");
  return probe;
}

FloorProbe::~FloorProbe() {
  StopDrain();
  Detach();
  if (ring_ != nullptr) ring_buffer__free(ring_);
  if (skel_ != nullptr) kestrel_bench_floor__destroy(skel_);
}

int FloorProbe::OnRecord(void* ctx, void*, size_t) {
  static_cast<FloorProbe*>(ctx)->consumed_.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

absl::Status FloorProbe::AttachProgram(bool record) {
  Detach();
  bpf_program* prog = record ? skel_->progs.bench_record_exit : skel_->progs.bench_empty_exit;
  bpf_link* link = bpf_program__attach(prog);
  if (link == nullptr) return absl::ErrnoToStatus(errno, "attaching a bench floor program");
  links_.push_back(link);
  return absl::OkStatus();
}

absl::Status FloorProbe::AttachEmptyHook() { return AttachProgram(false); }

absl::Status FloorProbe::AttachRecordHook(uint32_t tid) {
  skel_->bss->record_tid = tid;
  return AttachProgram(true);
}

absl::Status FloorProbe::AttachSyscallExitTracepoints(const std::vector<std::string>& names) {
  Detach();
  for (const std::string& name : names) {
    const std::string tracepoint = "sys_exit_" + name;
    bpf_link* link = bpf_program__attach_tracepoint(skel_->progs.bench_empty_syscall_exit,
                                                    "syscalls", tracepoint.c_str());
    if (link == nullptr) {
      const int err = errno;
      Detach();
      return absl::ErrnoToStatus(err, "attaching to syscalls:" + tracepoint);
    }
    links_.push_back(link);
  }
  return absl::OkStatus();
}

void FloorProbe::Detach() {
  for (bpf_link* link : links_) bpf_link__destroy(link);
  links_.clear();
}

void FloorProbe::StartDrain(DrainPlacement placement) {
  StopDrain();
  // The floor producer commits without wakeups, like the probe, so the
  // consumer drains on a timer.
  drain_ = std::make_unique<DrainThread>(
      [this] {
        if (ring_buffer__consume(ring_) <= 0) ring_buffer__poll(ring_, kIdleWaitMs);
      },
      placement);
}

void FloorProbe::StopDrain() { drain_.reset(); }

}  // namespace kestrel::bench
