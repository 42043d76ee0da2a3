#include "bench/raw_ring_producer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "kestrel_bench_producer.skel.h"

namespace kestrel::bench {
namespace {

absl::Status Errno(int error, const std::string& what) {
  return absl::ErrnoToStatus(error, absl::StrFormat("bench producer: %s", what));
}

}  // namespace

absl::StatusOr<std::unique_ptr<RawRingProducer>> RawRingProducer::Start(bool per_cpu,
                                                                        uint64_t ring_bytes,
                                                                        uint32_t batch) {
  std::unique_ptr<RawRingProducer> p(new RawRingProducer());
  const int n_cpus = libbpf_num_possible_cpus();
  if (n_cpus <= 0) return Errno(-n_cpus, "counting CPUs");
  p->skel_ = kestrel_bench_producer__open();
  if (p->skel_ == nullptr) return Errno(errno, "opening the object");
  p->skel_->rodata->bench_tgid = static_cast<uint32_t>(getpid());
  p->skel_->rodata->bench_syscall_id = SYS_getppid;
  p->skel_->rodata->bench_batch = batch;
  const int n_rings = per_cpu ? n_cpus : 1;
  for (int i = 0; i < n_rings; ++i) {
    const int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "kestrel_bench", 0, 0,
                                  static_cast<uint32_t>(ring_bytes), nullptr);
    if (fd < 0) return Errno(errno, "creating a ring");
    p->ring_fds_.push_back(fd);
  }
  bpf_map__set_max_entries(p->skel_->maps.bench_rings, n_cpus);
  bpf_map__set_inner_map_fd(p->skel_->maps.bench_rings, p->ring_fds_[0]);
  if (const int err = kestrel_bench_producer__load(p->skel_); err != 0) {
    return Errno(-err, "loading");
  }
  const int outer = bpf_map__fd(p->skel_->maps.bench_rings);
  for (uint32_t cpu = 0; cpu < static_cast<uint32_t>(n_cpus); ++cpu) {
    const int fd = p->ring_fds_[per_cpu ? cpu : 0];
    if (bpf_map_update_elem(outer, &cpu, &fd, BPF_ANY) != 0) return Errno(errno, "mapping a CPU");
  }
  for (int fd : p->ring_fds_) {
    pman_bench_ring_reader* reader = nullptr;
    if (int rc = pman_bench_ring_reader_open(fd, ring_bytes, nullptr, nullptr, &reader); rc != 0) {
      return Errno(-rc, "mapping a ring");
    }
    p->readers_.push_back(reader);
    uint64_t memlock = 0;
    if (int rc = pman_bench_map_memlock_bytes(fd, nullptr, nullptr, &memlock); rc != 0) {
      return Errno(-rc, "reading a ring's locked memory");
    }
    p->memory_bytes_ += memlock;
  }
  if (const int err = kestrel_bench_producer__attach(p->skel_); err != 0) {
    return Errno(-err, "attaching");
  }
  return p;
}

RawRingProducer::~RawRingProducer() {
  if (skel_ != nullptr) kestrel_bench_producer__destroy(skel_);
  for (pman_bench_ring_reader* reader : readers_) pman_bench_ring_reader_close(reader);
  for (int fd : ring_fds_) close(fd);
}

uint64_t RawRingProducer::Drain() {
  uint64_t n = 0;
  for (pman_bench_ring_reader* reader : readers_) n += pman_bench_ring_reader_drain(reader);
  return n;
}

absl::StatusOr<uint64_t> RawRingProducer::Dropped() const {
  struct Counters {
    uint64_t written, dropped;
  };
  std::vector<Counters> values(libbpf_num_possible_cpus());
  const uint32_t zero = 0;
  if (bpf_map_lookup_elem(bpf_map__fd(skel_->maps.bench_counters), &zero, values.data()) != 0) {
    return Errno(errno, "reading the counters");
  }
  uint64_t dropped = 0;
  for (const Counters& c : values) dropped += c.dropped;
  return dropped;
}

}  // namespace kestrel::bench
