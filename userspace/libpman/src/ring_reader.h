// Reads one ring through its mmapped pages, without libbpf's ring API:
// records are handed out in place and the consumer position is published in
// batches, so a record costs a few loads, not a syscall. The ring is a BPF
// ring buffer or an MPSC ring (shared/mpsc_ring_format.h), which frames
// records the same way.
#ifndef KESTREL_LIBPMAN_RING_READER_H_
#define KESTREL_LIBPMAN_RING_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "mpsc_block_reader.h"
#include "shared/mpsc_ring_format.h"
#include "shared/record_format.h"

namespace kestrel::pman {

// The header framing each record in either kind of ring (ring_reader.cpp
// asserts an MPSC ring's equals a BPF ring buffer's).
inline constexpr uint32_t kRecordHeaderBytes = KESTREL_MPSC_HDR_BYTES;

// BPF ring buffer space a record of `len` bytes takes: the ring's own
// header, then the record, rounded up to 8 bytes. (An MPSC ring rounds to
// KESTREL_MPSC_ALIGN: KESTREL_MPSC_ROUND.)
uint64_t RoundedRecordBytes(uint32_t len);

class RingReader {
 public:
  // Maps the ring behind `fd` (a BPF_MAP_TYPE_RINGBUF of `size` bytes). The
  // reader does not own `fd`.
  static absl::StatusOr<RingReader> Map(int fd, uint64_t size);

  // Reads the MPSC ring of `head` whose `size` bytes start at `data`, its
  // headers stamped with `stamp_key`; both stay mapped by the caller for
  // the reader's life.
  static RingReader ForMpsc(kestrel_mpsc_head* head, const uint8_t* data, uint64_t size,
                            uint32_t stamp_key);

  // Reads an MPSC ring of blocks, the kind CPUs share (MpscBlockReader).
  static RingReader ForMpscBlocks(const MpscBlockReader::Ring& ring);

  RingReader(RingReader&& other) noexcept;
  RingReader& operator=(RingReader&& other) noexcept;
  RingReader(const RingReader&) = delete;
  RingReader& operator=(const RingReader&) = delete;
  ~RingReader();

  // Returns the oldest committed record, or nullptr when there is none (or
  // the next one is still being written). Stable until Release().
  const kestrel_record_header* Peek() {
    if (peeked_ != nullptr) return peeked_;
    if (blocks_ != nullptr) return blocks_->Peek();
    // Drained, and its space already given back: the common case of the
    // rings a merger looks at besides the one it reads, in one load.
    if (position_ == cached_producer_ && position_ == published_position_) {
      cached_producer_ = __atomic_load_n(producer_pos_, __ATOMIC_ACQUIRE);
      if (position_ == cached_producer_) return nullptr;
    }
    return PeekUncached();
  }

  // Moves past the record returned by Peek().
  void Release() {
    if (peeked_ == nullptr) {
      if (blocks_ != nullptr) blocks_->Release();
      return;
    }
    Advance(peeked_len_);
    peeked_ = nullptr;
    if (position_ - published_position_ >= publish_batch_) PublishConsumerPosition();
  }

  // Tells the kernel how far we have read, freeing that space for producers.
  void PublishConsumerPosition();

  int fd() const { return fd_; }

  // Bytes the producers wrote that this reader has not read yet. (The
  // space given back lags by up to an eighth of the ring: the batch
  // PublishConsumerPosition waits for.)
  uint64_t UnreadBytes() const;

 private:
  // Starts at the consumer position; the factories add what their kind
  // needs.
  RingReader(uint64_t* consumer_pos, const uint64_t* producer_pos, const uint8_t* data,
             uint64_t size);
  void Unmap();
  // Peek() when no record is held and the ring may hold one: reads on.
  const kestrel_record_header* PeekUncached();
  // Moves past a record of `len` bytes.
  void Advance(uint32_t len) {
    position_ += (len + kRecordHeaderBytes + align_mask_) & ~align_mask_;
  }

  int fd_ = -1;
  uint64_t mask_ = 0;
  void* consumer_page_ = nullptr;
  void* producer_pages_ = nullptr;
  uint64_t* consumer_pos_ = nullptr;
  const uint64_t* producer_pos_ = nullptr;
  const uint8_t* data_ = nullptr;
  bool mpsc_ = false;  // headers carry KESTREL_MPSC_STAMP
  uint32_t stamp_key_ = 0;
  uint64_t align_mask_ = 7;          // records are rounded to this + 1 bytes
  uint64_t position_ = 0;            // local consumer position
  uint64_t published_position_ = 0;  // last value stored to consumer_pos_
  uint64_t cached_producer_ = 0;     // last producer position seen
  uint64_t publish_batch_ = 0;       // bytes read before publishing
  const kestrel_record_header* peeked_ = nullptr;
  uint32_t peeked_len_ = 0;
  // Set for a ring of blocks, which it reads instead of the above.
  std::unique_ptr<MpscBlockReader> blocks_;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RING_READER_H_
