#pragma once
// ByteBuffer: a growable byte array that does not zero what it allocates (chunks are filled
// by a read or a decompressor right away, and zeroing a gigabyte costs as much as reading it).

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>

namespace bagscope {

class ByteBuffer {
public:
  ByteBuffer() = default;
  explicit ByteBuffer(std::size_t size) { resize(size); }
  ByteBuffer(ByteBuffer&&) noexcept = default;
  ByteBuffer& operator=(ByteBuffer&&) noexcept = default;
  ByteBuffer(const ByteBuffer&) = delete;
  ByteBuffer& operator=(const ByteBuffer&) = delete;
  ~ByteBuffer() = default;

  /// Keeps the first min(size, old size) bytes; new bytes are uninitialised.
  void resize(std::size_t size) {
    if (size > capacity_) {
      std::size_t grown = capacity_ + capacity_ / 2;
      std::size_t cap = size > grown ? size : grown;
      auto fresh = std::make_unique_for_overwrite<std::byte[]>(cap);
      if (size_ > 0) std::memcpy(fresh.get(), data_.get(), size_);
      data_ = std::move(fresh);
      capacity_ = cap;
    }
    size_ = size;
  }
  void clear() noexcept { size_ = 0; }

  std::byte* data() noexcept { return data_.get(); }
  const std::byte* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  std::span<const std::byte> span() const noexcept { return {data_.get(), size_}; }
  std::span<std::byte> span() noexcept { return {data_.get(), size_}; }

private:
  std::unique_ptr<std::byte[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace bagscope
