#include "ring_reader.h"

#include <linux/bpf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "read_ahead.h"

namespace kestrel::pman {

static_assert(kRecordHeaderBytes == BPF_RINGBUF_HDR_SZ &&
                  KESTREL_MPSC_BUSY_BIT == BPF_RINGBUF_BUSY_BIT &&
                  KESTREL_MPSC_PAD_BIT == BPF_RINGBUF_DISCARD_BIT,
              "an MPSC ring frames records as a BPF ring buffer does");

uint64_t RoundedRecordBytes(uint32_t len) { return (len + kRecordHeaderBytes + 7) & ~7ULL; }

absl::StatusOr<RingReader> RingReader::Map(int fd, uint64_t size) {
  const long page = sysconf(_SC_PAGESIZE);
  void* consumer = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (consumer == MAP_FAILED) {
    return absl::ErrnoToStatus(errno, "mapping the ring's consumer page");
  }
  // The kernel maps the data area twice in a row, so a record that wraps
  // around the end is still contiguous here.
  void* producer = mmap(nullptr, page + 2 * size, PROT_READ, MAP_SHARED, fd, page);
  if (producer == MAP_FAILED) {
    const int err = errno;
    munmap(consumer, page);
    return absl::ErrnoToStatus(err, "mapping the ring's data pages");
  }
  RingReader r(static_cast<uint64_t*>(consumer), static_cast<const uint64_t*>(producer),
               static_cast<const uint8_t*>(producer) + page, size);
  r.fd_ = fd;
  r.consumer_page_ = consumer;
  r.producer_pages_ = producer;
  return r;
}

RingReader RingReader::ForMpsc(kestrel_mpsc_head* head, const uint8_t* data, uint64_t size,
                               uint32_t stamp_key) {
  // __u64 is unsigned long long, uint64_t unsigned long: same 64 bits.
  RingReader r(reinterpret_cast<uint64_t*>(&head->consumer),
               reinterpret_cast<const uint64_t*>(&head->producer), data, size);
  r.mpsc_ = true;
  r.stamp_key_ = stamp_key;
  r.align_mask_ = KESTREL_MPSC_ALIGN - 1;
  return r;
}

RingReader RingReader::ForMpscBlocks(const MpscBlockReader::Ring& ring) {
  // The positions are the block reader's to use; these are not read.
  RingReader r(reinterpret_cast<uint64_t*>(&ring.head->consumer),
               reinterpret_cast<const uint64_t*>(&ring.head->producer), ring.data, ring.size);
  r.blocks_ = std::make_unique<MpscBlockReader>(ring);
  return r;
}

RingReader::RingReader(uint64_t* consumer_pos, const uint64_t* producer_pos, const uint8_t* data,
                       uint64_t size)
    : mask_(size - 1),
      consumer_pos_(consumer_pos),
      producer_pos_(producer_pos),
      data_(data),
      // An eighth of the ring: producers rarely see a ring fuller than it
      // is, and we store to the shared page once per many records.
      publish_batch_(size / 8) {
  position_ = __atomic_load_n(consumer_pos_, __ATOMIC_ACQUIRE);
  published_position_ = position_;
  cached_producer_ = position_;
}

RingReader::RingReader(RingReader&& other) noexcept { *this = std::move(other); }

RingReader& RingReader::operator=(RingReader&& other) noexcept {
  if (this == &other) return *this;
  Unmap();
  fd_ = std::exchange(other.fd_, -1);
  mask_ = other.mask_;
  consumer_page_ = std::exchange(other.consumer_page_, nullptr);
  producer_pages_ = std::exchange(other.producer_pages_, nullptr);
  consumer_pos_ = other.consumer_pos_;
  producer_pos_ = other.producer_pos_;
  data_ = other.data_;
  mpsc_ = std::exchange(other.mpsc_, false);  // a moved-from reader publishes nothing
  stamp_key_ = other.stamp_key_;
  align_mask_ = other.align_mask_;
  position_ = other.position_;
  published_position_ = other.published_position_;
  cached_producer_ = other.cached_producer_;
  publish_batch_ = other.publish_batch_;
  peeked_ = std::exchange(other.peeked_, nullptr);
  peeked_len_ = other.peeked_len_;
  blocks_ = std::move(other.blocks_);
  return *this;
}

RingReader::~RingReader() { Unmap(); }

void RingReader::Unmap() {
  const long page = sysconf(_SC_PAGESIZE);
  if (mpsc_ || blocks_ != nullptr) PublishConsumerPosition();
  if (consumer_page_ != nullptr) {
    PublishConsumerPosition();
    munmap(consumer_page_, page);
  }
  if (producer_pages_ != nullptr) munmap(producer_pages_, page + 2 * (mask_ + 1));
  consumer_page_ = nullptr;
  producer_pages_ = nullptr;
}

const kestrel_record_header* RingReader::PeekUncached() {
  for (;;) {
    ReadAhead(data_, mask_, position_, cached_producer_);
    if (position_ == cached_producer_) {
      cached_producer_ = __atomic_load_n(producer_pos_, __ATOMIC_ACQUIRE);
      if (position_ == cached_producer_) {
        // Drained: give the space back before we go idle.
        PublishConsumerPosition();
        return nullptr;
      }
    }
    const uint8_t* slot = data_ + (position_ & mask_);
    const uint64_t header =
        __atomic_load_n(reinterpret_cast<const uint64_t*>(slot), __ATOMIC_ACQUIRE);
    const uint32_t len_word = static_cast<uint32_t>(header);
    if (len_word & BPF_RINGBUF_BUSY_BIT) return nullptr;
    // A stamp of another position (or never-written zeroes, whose stamp may
    // match): an MPSC ring's producer reserved this but has not written its
    // header yet; what is here is an earlier lap's.
    if (mpsc_ && !KESTREL_MPSC_HEADER_IS_FOR(header, position_, stamp_key_)) return nullptr;
    const uint32_t len = len_word & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
    if (len_word & BPF_RINGBUF_DISCARD_BIT) {
      Advance(len);
      continue;
    }
    peeked_ = reinterpret_cast<const kestrel_record_header*>(slot + kRecordHeaderBytes);
    peeked_len_ = len;
    return peeked_;
  }
}

void RingReader::PublishConsumerPosition() {
  if (blocks_ != nullptr) return blocks_->PublishConsumerPosition();
  if (position_ == published_position_) return;
  __atomic_store_n(consumer_pos_, position_, __ATOMIC_RELEASE);
  published_position_ = position_;
}

uint64_t RingReader::UnreadBytes() const {
  if (blocks_ != nullptr) return blocks_->UnreadBytes();
  return __atomic_load_n(producer_pos_, __ATOMIC_ACQUIRE) - position_;
}

}  // namespace kestrel::pman
