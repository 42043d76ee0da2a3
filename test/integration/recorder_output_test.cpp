// The recorder's multi-slot writer (sink_output in helpers/sink/recorder_writer.h)
// run in the kernel through a test-only program, read back by the real
// reader: records of every length up to the bound come back byte for byte,
// longer ones are refused, and wrapping drops whole records only.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

// The skeleton names the types of the probe's globals: they come first.
#include "shared/capture_settings.h"

#include "kestrel_recorder_output_test.skel.h"
#include "probe_session.h"
#include "recorder_scan.h"

namespace kestrel::testing {
namespace {

// Must match TEST_BYTE in bpf/recorder_output.bpf.c.
uint8_t TestByte(uint8_t seed, size_t i) { return static_cast<uint8_t>(seed + i * 7); }

// The test program loaded over a one-ring recorder of `n_slots` slots.
class OutputRing {
 public:
  static std::unique_ptr<OutputRing> Create(uint32_t n_slots) {
    std::unique_ptr<OutputRing> r(new OutputRing(n_slots));
    r->skel_ = kestrel_recorder_output_test__open();
    if (r->skel_ == nullptr) return nullptr;
    auto* maps = &r->skel_->maps;
    bpf_map__set_autocreate(maps->ringbuf_maps, false);
    bpf_map__set_autocreate(maps->scratch_maps, false);
    bpf_map__set_max_entries(maps->recorder_slots, n_slots);
    bpf_map__set_max_entries(maps->recorder_heads, 1);
    r->skel_->rodata->recorder_slot_mask = n_slots - 1;
    r->skel_->rodata->recorder_ring_mask = 0;
    if (kestrel_recorder_output_test__load(r->skel_) != 0) return nullptr;
    r->slots_bytes_ = n_slots * sizeof(kestrel_recorder_slot);
    void* slots =
        mmap(nullptr, r->slots_bytes_, PROT_READ, MAP_SHARED, bpf_map__fd(maps->recorder_slots), 0);
    void* heads = mmap(nullptr, 4096, PROT_READ, MAP_SHARED, bpf_map__fd(maps->recorder_heads), 0);
    if (slots == MAP_FAILED || heads == MAP_FAILED) return nullptr;
    r->slots_ = static_cast<const kestrel_recorder_slot*>(slots);
    r->heads_ = static_cast<const kestrel_recorder_head*>(heads);
    return r;
  }

  ~OutputRing() {
    if (slots_ != nullptr) munmap(const_cast<kestrel_recorder_slot*>(slots_), slots_bytes_);
    if (heads_ != nullptr) munmap(const_cast<kestrel_recorder_head*>(heads_), 4096);
    kestrel_recorder_output_test__destroy(skel_);
  }

  // The program's return value: 0 written, 4 refused by sink_output.
  int Write(uint32_t len, uint8_t seed) {
    uint64_t args[2] = {len, seed};
    LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
    if (bpf_prog_test_run_opts(bpf_program__fd(skel_->progs.recorder_output), &opts) != 0) {
      return -errno;
    }
    return static_cast<int>(opts.retval);
  }

  pman::RecorderScan Scan() const {
    pman::RecorderScan scan;
    pman::ScanRing(slots_, n_slots_, &heads_[0].next, 0, scan);
    return scan;
  }

 private:
  explicit OutputRing(uint32_t n_slots) : n_slots_(n_slots) {}
  uint32_t n_slots_;
  kestrel_recorder_output_test* skel_ = nullptr;
  const kestrel_recorder_slot* slots_ = nullptr;
  size_t slots_bytes_ = 0;
  const kestrel_recorder_head* heads_ = nullptr;
};

// Checks record `r` of `scan` is `len` bytes made with `seed`.
void ExpectRecord(const pman::RecorderScan& scan, const pman::ScannedRecord& r, uint32_t len,
                  uint8_t seed) {
  ASSERT_EQ(r.length, len);
  kestrel_record_header h{};
  std::memcpy(&h, scan.bytes.data() + r.offset, sizeof(h));
  EXPECT_EQ(h.len, len);
  for (size_t i = sizeof(h); i < len; ++i) {
    ASSERT_EQ(scan.bytes[r.offset + i], TestByte(seed, i)) << "len " << len << " byte " << i;
  }
}

TEST(RecorderOutputTest, RecordsOfEveryLengthUpToTheBoundComeBackWhole) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  std::unique_ptr<OutputRing> ring = OutputRing::Create(1024);
  ASSERT_NE(ring, nullptr);
  const std::vector<uint32_t> lengths = {
      32, 111, 112, 113, 224, 225, 300, 1000, KESTREL_RECORDER_MAX_RECORD_BYTES};
  for (size_t i = 0; i < lengths.size(); ++i) {
    ASSERT_EQ(ring->Write(lengths[i], static_cast<uint8_t>(i + 1)), 0) << lengths[i];
  }
  EXPECT_EQ(ring->Write(KESTREL_RECORDER_MAX_RECORD_BYTES + 1, 99), 4);

  const pman::RecorderScan scan = ring->Scan();
  ASSERT_EQ(scan.records.size(), lengths.size());
  for (size_t i = 0; i < lengths.size(); ++i) {
    ExpectRecord(scan, scan.records[i], lengths[i], static_cast<uint8_t>(i + 1));
  }
  EXPECT_EQ(scan.stats.torn + scan.stats.in_flight + scan.stats.lost_slots, 0u);
}

TEST(RecorderOutputTest, WrappingDropsOnlyWholeRecords) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  std::unique_ptr<OutputRing> ring = OutputRing::Create(64);
  ASSERT_NE(ring, nullptr);
  // 100 records of three slots each: 300 slots through a 64-slot ring.
  for (uint8_t seed = 0; seed < 100; ++seed) ASSERT_EQ(ring->Write(300, seed), 0);

  // The window is slots 236..299: the last part of record 78, then 79..99.
  const pman::RecorderScan scan = ring->Scan();
  ASSERT_EQ(scan.records.size(), 21u);
  for (size_t i = 0; i < scan.records.size(); ++i) {
    ExpectRecord(scan, scan.records[i], 300, static_cast<uint8_t>(79 + i));
  }
  EXPECT_EQ(scan.stats.lost_slots, 1u);
  EXPECT_EQ(scan.stats.torn, 0u);
}

}  // namespace
}  // namespace kestrel::testing
