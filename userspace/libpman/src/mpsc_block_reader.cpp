#include "mpsc_block_reader.h"

#include <time.h>

#include <algorithm>
#include <bit>

#include "read_ahead.h"

namespace kestrel::pman {
namespace {

constexpr uint32_t kLengthBits = ~(KESTREL_MPSC_BUSY_BIT | KESTREL_MPSC_PAD_BIT);

uint64_t RoundedBytes(uint32_t len) { return KESTREL_MPSC_ROUND(len); }

uint64_t MonotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000 + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

MpscBlockReader::MpscBlockReader(const Ring& ring)
    : ring_(ring),
      mask_(ring.size - 1),
      lanes_(ring.n_cpus),
      stalled_(ring.n_cpus, nullptr),
      publish_batch_(ring.size / 8),
      open_blocks_bytes_(uint64_t{ring.n_cpus} << ring.block_shift) {
  // The blocks of one lap at most, and a top-level pad per chunk (only a
  // block larger than the block size leaves one).
  const uint64_t block = uint64_t{1} << ring.block_shift;
  blocks_.resize(
      std::bit_ceil(ring.size / block + (ring.size >> KESTREL_MPSC_MAX_CHUNK_SHIFT) + 2));
  blocks_mask_ = blocks_.size() - 1;
  cpus_.reserve(ring.n_cpus);
  position_ = __atomic_load_n(&ring_.head->consumer, __ATOMIC_ACQUIRE);
  published_position_ = position_;
  scan_ = position_;
  cached_producer_ = position_;
}

uint64_t MpscBlockReader::HeaderAt(uint64_t pos) const {
  const uint64_t header = __atomic_load_n(
      reinterpret_cast<const uint64_t*>(ring_.data + (pos & mask_)), __ATOMIC_ACQUIRE);
  // Zeroes never written, or an earlier lap's bytes: not this position's.
  return KESTREL_MPSC_HEADER_IS_FOR(header, pos, ring_.stamp_key) ? header : 0;
}

bool MpscBlockReader::ScanOne(uint32_t* cpu) {
  if (end_ - first_ == blocks_.size()) return false;
  if (scan_ == cached_producer_) {
    cached_producer_ = __atomic_load_n(&ring_.head->producer, __ATOMIC_ACQUIRE);
    if (scan_ == cached_producer_) return false;
  }
  const uint64_t header = HeaderAt(scan_);
  const uint32_t len_word = static_cast<uint32_t>(header);
  // Reserved, its header not written yet. (Blocks are never busy.)
  if (header == 0 || (len_word & KESTREL_MPSC_BUSY_BIT)) return false;
  Block b;
  b.end = scan_ + RoundedBytes(len_word & kLengthBits);
  b.cursor = b.end;
  b.done = true;  // a pad at a chunk's end
  const auto* bh = reinterpret_cast<const kestrel_mpsc_block_header*>(ring_.data + (scan_ & mask_));
  // A CPU out of range, or a block with no room for a record, cannot come
  // from the probe; such a block is skipped.
  if (!(len_word & KESTREL_MPSC_PAD_BIT) && bh->cpu < ring_.n_cpus &&
      b.end - scan_ > KESTREL_MPSC_BLOCK_HDR_BYTES) {
    b.cpu = bh->cpu;
    b.cursor = scan_ + KESTREL_MPSC_BLOCK_HDR_BYTES;
    b.done = false;
    // The block's first record was placed with the block: until it is
    // written, the block's time is unknown, and so is that of every block
    // after it.
    const uint64_t first = HeaderAt(b.cursor);
    if (first == 0 || (static_cast<uint32_t>(first) & KESTREL_MPSC_BUSY_BIT)) return false;
    // (A pad there is a record whose copy failed: no time, so the bound
    // stays the previous block's.)
    if (!(static_cast<uint32_t>(first) & KESTREL_MPSC_PAD_BIT)) {
      newest_open_ts_ = reinterpret_cast<const kestrel_record_header*>(
                            ring_.data + (b.cursor & mask_) + KESTREL_MPSC_HDR_BYTES)
                            ->ts_ns;
    }
  }
  scan_ = b.end;
  *cpu = b.cpu;
  Append(b);
  return true;
}

void MpscBlockReader::Append(const Block& block) {
  if (block.done && first_ == end_) {
    position_ = block.end;
    return;
  }
  const uint64_t seq = end_++;
  At(seq) = block;
  blocks_read_ |= block.done;
  if (block.cpu == kNoCpu) return;
  Lane& lane = lanes_[block.cpu];
  if (!lane.seen) {
    lane.seen = true;
    cpus_.push_back(block.cpu);
  }
  if (lane.tail == kNoBlock) {
    lane.head = seq;
  } else {
    At(lane.tail).next_of_cpu = seq;
  }
  lane.tail = seq;
}

bool MpscBlockReader::FindRecord(Lane& lane) {
  while (lane.head != kNoBlock) {
    Block& b = At(lane.head);
    while (b.cursor < b.end) {
      // Past the open blocks, the lines ahead are the producers' no more.
      ReadAhead(ring_.data, mask_, b.cursor,
                cached_producer_ > open_blocks_bytes_ ? cached_producer_ - open_blocks_bytes_ : 0);
      const uint64_t header = HeaderAt(b.cursor);
      const uint32_t len_word = static_cast<uint32_t>(header);
      if (header == 0 || (len_word & KESTREL_MPSC_BUSY_BIT)) return false;  // being written
      const uint32_t n = len_word & kLengthBits;
      // Past the block's end: not the probe's framing; the rest is skipped.
      if (b.cursor + RoundedBytes(n) > b.end) break;
      if (len_word & KESTREL_MPSC_PAD_BIT) {
        b.cursor += RoundedBytes(n);
        continue;
      }
      lane.record = reinterpret_cast<const kestrel_record_header*>(ring_.data + (b.cursor & mask_) +
                                                                   KESTREL_MPSC_HDR_BYTES);
      lane.record_len = n;
      return true;
    }
    b.cursor = b.end;
    b.done = true;
    blocks_read_ = true;
    lane.head = b.next_of_cpu;
    if (lane.head == kNoBlock) lane.tail = kNoBlock;
  }
  return false;
}

void MpscBlockReader::DropReadBlocks() {
  blocks_read_ = false;
  while (first_ != end_ && At(first_).done) {
    position_ = At(first_).end;
    ++first_;
  }
}

const kestrel_record_header* MpscBlockReader::Peek() {
  if (peeked_ != nullptr) return peeked_;
  for (bool closed = false;; closed = true) {
    Lane* best = nullptr;
    size_t n_stalled = 0;
    for (const uint32_t cpu : cpus_) {
      Lane& lane = lanes_[cpu];
      if (lane.record == nullptr && !FindRecord(lane)) {
        stalled_[n_stalled++] = &lane;
      } else if (best == nullptr || lane.record->ts_ns < best->record->ts_ns) {
        best = &lane;
      }
    }
    // Blocks are learned only until one opened after the best record: the
    // records of every later block are newer (a block opens with its first
    // record, whose timestamp was read before the block was reserved).
    uint32_t cpu = kNoCpu;
    while ((best == nullptr || newest_open_ts_ <= best->record->ts_ns) && ScanOne(&cpu)) {
      if (cpu == kNoCpu) continue;
      Lane& lane = lanes_[cpu];
      if ((lane.record != nullptr || FindRecord(lane)) &&
          (best == nullptr || lane.record->ts_ns < best->record->ts_ns)) {
        best = &lane;
      }
    }
    if (blocks_read_) DropReadBlocks();
    if (best != nullptr) {
      // As in RingMerger: a record committed since its CPU was looked at
      // goes first if older.
      for (size_t k = 0; k < n_stalled; ++k) {
        Lane& lane = *stalled_[k];
        if (FindRecord(lane) && lane.record->ts_ns < best->record->ts_ns) best = &lane;
      }
      peeked_lane_ = best;
      peeked_ = best->record;
      return peeked_;
    }
    if (closed || !CloseQuietFront()) break;
  }
  // Drained: give the space back before we go idle.
  PublishConsumerPosition();
  return nullptr;
}

void MpscBlockReader::Release() {
  if (peeked_ == nullptr) return;
  At(peeked_lane_->head).cursor += RoundedBytes(peeked_lane_->record_len);
  peeked_lane_->record = nullptr;
  peeked_ = nullptr;
  if (position_ - published_position_ >= publish_batch_) PublishConsumerPosition();
}

bool MpscBlockReader::CloseQuietFront() {
  if (first_ == end_) return false;
  // Every CPU is stalled, so the oldest kept block is its CPU's oldest
  // unread one, stalled at its cursor.
  const Block& front = At(first_);
  const uint64_t now = MonotonicNs();
  if (front.cursor != stall_at_) {
    stall_at_ = front.cursor;
    stall_since_ns_ = now;
  }
  // Quiet for a while, or holding back a quarter of the ring that was
  // already read past it.
  if (now - stall_since_ns_ < kIdleCloseNs && scan_ - position_ < ring_.size / 4) return false;
  // Only a lane whose next record would go right where the block stalls: a
  // record claimed before that is still being written, and will be read.
  __u64 expected = front.cursor;
  if (!__atomic_compare_exchange_n(&ring_.lanes[front.cpu].next, &expected, front.end, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    return false;
  }
  const uint64_t pad = KESTREL_MPSC_HEADER(
      front.cursor, ring_.stamp_key,
      (front.end - front.cursor - KESTREL_MPSC_HDR_BYTES) | KESTREL_MPSC_PAD_BIT);
  __atomic_store_n(reinterpret_cast<uint64_t*>(ring_.data + (front.cursor & mask_)), pad,
                   __ATOMIC_RELEASE);
  return true;
}

void MpscBlockReader::PublishConsumerPosition() {
  if (position_ == published_position_) return;
  __atomic_store_n(&ring_.head->consumer, position_, __ATOMIC_RELEASE);
  published_position_ = position_;
}

uint64_t MpscBlockReader::UnreadBytes() const {
  return __atomic_load_n(&ring_.head->producer, __ATOMIC_ACQUIRE) - position_;
}

}  // namespace kestrel::pman
