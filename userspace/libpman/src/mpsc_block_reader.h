// Reads an MPSC ring of blocks (shared/mpsc_ring_format.h, "Blocks"), the
// kind several CPUs share. Each CPU's records are in timestamp order in the
// ring, and the CPUs' blocks interleave; the reader follows one lane per CPU
// through its blocks and hands out the oldest head, as RingMerger does
// across rings, in place. Ring space is given back up to the oldest block
// not yet read to its end.
//
// Ordering guarantee: that of RingMerger, with "ring" read as "CPU".
#ifndef KESTREL_LIBPMAN_MPSC_BLOCK_READER_H_
#define KESTREL_LIBPMAN_MPSC_BLOCK_READER_H_

#include <cstdint>
#include <vector>

#include "shared/mpsc_ring_format.h"
#include "shared/record_format.h"

namespace kestrel::pman {

class MpscBlockReader {
 public:
  struct Ring {
    kestrel_mpsc_head* head = nullptr;
    uint8_t* data = nullptr;  // `size` bytes, writable: closing a block writes a pad
    uint64_t size = 0;
    uint32_t stamp_key = 0;
    uint32_t block_shift = 0;
    kestrel_mpsc_lane* lanes = nullptr;  // one per possible CPU
    uint32_t n_cpus = 0;
  };

  // A block left open by a CPU that wrote nothing into it for this long,
  // while the reader had nothing else to read, is closed by the reader; at
  // once if a quarter of the ring was read past it.
  static constexpr uint64_t kIdleCloseNs = 1'000'000;

  explicit MpscBlockReader(const Ring& ring);

  // As RingReader's.
  const kestrel_record_header* Peek();
  void Release();
  void PublishConsumerPosition();

  // As RingReader's, from the oldest block not read to its end.
  uint64_t UnreadBytes() const;

 private:
  static constexpr uint32_t kNoCpu = UINT32_MAX;
  static constexpr uint64_t kNoBlock = UINT64_MAX;

  struct Block {
    uint64_t end = 0;
    uint64_t cursor = 0;              // the CPU's next record in this block
    uint64_t next_of_cpu = kNoBlock;  // the CPU's next block (sequence number)
    uint32_t cpu = kNoCpu;            // kNoCpu: a pad at the top level
    bool done = false;                // read to its end
  };

  // A CPU's records: its blocks, oldest unread first.
  struct Lane {
    uint64_t head = kNoBlock;  // its oldest unread block (sequence number)
    uint64_t tail = kNoBlock;  // its newest block
    // Its head record found by an earlier Peek and not yet released, which
    // stays where it is until then; nullptr when it has to be looked for.
    const kestrel_record_header* record = nullptr;
    uint32_t record_len = 0;
    bool seen = false;  // in cpus_
  };

  Block& At(uint64_t seq) { return blocks_[seq & blocks_mask_]; }
  // The header word at `pos` if written for that position, else 0.
  uint64_t HeaderAt(uint64_t pos) const;
  // Learns the next block (or top-level pad: `cpu` kNoCpu) written past
  // the last one known; false when there is none yet.
  bool ScanOne(uint32_t* cpu);
  void Append(const Block& block);
  // Finds the lane's oldest unread record; false when it has none committed.
  bool FindRecord(Lane& lane);
  // Moves the consumer position past the blocks read to their end.
  void DropReadBlocks();
  // Closes the oldest block if its CPU left it open and quiet; true if so.
  bool CloseQuietFront();

  Ring ring_;
  uint64_t mask_;
  std::vector<Block> blocks_;   // circular, indexed by sequence number
  uint64_t blocks_mask_ = 0;    // its size, a power of two, - 1
  uint64_t first_ = 0;          // sequence number of the oldest block kept
  uint64_t end_ = 0;            // one past the newest
  std::vector<Lane> lanes_;     // per possible CPU
  std::vector<uint32_t> cpus_;  // CPUs seen in this ring, in order seen
  std::vector<Lane*> stalled_;  // scratch: lanes without a record in a Peek
  bool blocks_read_ = false;    // a block was read to its end since the last drop
  uint64_t position_ = 0;       // consumer position: start of the oldest kept block
  uint64_t published_position_ = 0;
  uint64_t scan_ = 0;            // top-level position after the newest block known
  uint64_t newest_open_ts_ = 0;  // timestamp of the newest known block's first record
  uint64_t cached_producer_ = 0;
  uint64_t publish_batch_ = 0;
  uint64_t open_blocks_bytes_ = 0;  // a block per CPU: the most still being filled
  const kestrel_record_header* peeked_ = nullptr;
  Lane* peeked_lane_ = nullptr;
  // The oldest block's stall as first seen: where, and when.
  uint64_t stall_at_ = UINT64_MAX;
  uint64_t stall_since_ns_ = 0;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_MPSC_BLOCK_READER_H_
