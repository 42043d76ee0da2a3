#include "ring_reader.h"

#include <linux/bpf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace kestrel::pman {
namespace {

constexpr uint32_t kRecordHeaderBytes = BPF_RINGBUF_HDR_SZ;

}  // namespace

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
  return RingReader(fd, size, consumer, producer);
}

RingReader::RingReader(int fd, uint64_t size, void* consumer_page, void* producer_pages)
    : fd_(fd),
      mask_(size - 1),
      consumer_page_(consumer_page),
      producer_pages_(producer_pages),
      consumer_pos_(static_cast<uint64_t*>(consumer_page)),
      producer_pos_(static_cast<const uint64_t*>(producer_pages)),
      data_(static_cast<const uint8_t*>(producer_pages) + sysconf(_SC_PAGESIZE)),
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
  position_ = other.position_;
  published_position_ = other.published_position_;
  cached_producer_ = other.cached_producer_;
  publish_batch_ = other.publish_batch_;
  peeked_ = std::exchange(other.peeked_, nullptr);
  peeked_len_ = other.peeked_len_;
  return *this;
}

RingReader::~RingReader() { Unmap(); }

void RingReader::Unmap() {
  const long page = sysconf(_SC_PAGESIZE);
  if (consumer_page_ != nullptr) {
    PublishConsumerPosition();
    munmap(consumer_page_, page);
  }
  if (producer_pages_ != nullptr) munmap(producer_pages_, page + 2 * (mask_ + 1));
  consumer_page_ = nullptr;
  producer_pages_ = nullptr;
}

const kestrel_record_header* RingReader::Peek() {
  if (peeked_ != nullptr) return peeked_;
  for (;;) {
    if (position_ == cached_producer_) {
      cached_producer_ = __atomic_load_n(producer_pos_, __ATOMIC_ACQUIRE);
      if (position_ == cached_producer_) {
        // Drained: give the space back before we go idle.
        PublishConsumerPosition();
        return nullptr;
      }
    }
    const uint8_t* slot = data_ + (position_ & mask_);
    const uint32_t len_word =
        __atomic_load_n(reinterpret_cast<const uint32_t*>(slot), __ATOMIC_ACQUIRE);
    if (len_word & BPF_RINGBUF_BUSY_BIT) return nullptr;
    const uint32_t len = len_word & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
    if (len_word & BPF_RINGBUF_DISCARD_BIT) {
      position_ += RoundedRecordBytes(len);
      continue;
    }
    peeked_ = reinterpret_cast<const kestrel_record_header*>(slot + kRecordHeaderBytes);
    peeked_len_ = len;
    return peeked_;
  }
}

void RingReader::Release() {
  if (peeked_ == nullptr) return;
  position_ += RoundedRecordBytes(peeked_len_);
  peeked_ = nullptr;
  if (position_ - published_position_ >= publish_batch_) PublishConsumerPosition();
}

void RingReader::PublishConsumerPosition() {
  if (position_ == published_position_) return;
  __atomic_store_n(consumer_pos_, position_, __ATOMIC_RELEASE);
  published_position_ = position_;
}

}  // namespace kestrel::pman
