// A table that only grows, whose elements never move: one thread appends
// (a reload compiling new rules) while others read the elements already
// handed out (the consumer evaluating the running rules). An element is
// read only through an index the appender published after writing it
// (the compiled rules handed over under a lock), so readers need no lock.
#ifndef KESTREL_ENGINE_FIELDS_APPEND_ONLY_SLOTS_H_
#define KESTREL_ENGINE_FIELDS_APPEND_ONLY_SLOTS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

namespace kestrel::engine::fields {

template <typename T, uint32_t kCapacity>
class AppendOnlySlots {
 public:
  static constexpr uint32_t kChunk = 256;

  const T& operator[](uint32_t i) const { return chunks_[i / kChunk][i % kChunk]; }
  uint32_t size() const { return size_; }

  // The new element's index, or nullopt when the table is full. Only one
  // thread at a time may append.
  std::optional<uint32_t> Append(T value) {
    if (size_ >= kCapacity) return std::nullopt;
    std::unique_ptr<T[]>& chunk = chunks_[size_ / kChunk];
    if (!chunk) chunk = std::make_unique<T[]>(kChunk);
    chunk[size_ % kChunk] = std::move(value);
    return size_++;
  }

 private:
  // Chunks are allocated as needed and never freed or moved: growing
  // writes a chunk pointer no reader is looking at.
  std::array<std::unique_ptr<T[]>, (kCapacity + kChunk - 1) / kChunk> chunks_;
  uint32_t size_ = 0;
};

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_APPEND_ONLY_SLOTS_H_
