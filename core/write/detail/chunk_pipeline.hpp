#pragma once
// Chunks compressed on other threads while the next one fills, handed back in the order they
// were given: compression (zstd, bz2) runs on every core and the file stays in order.

#include <algorithm>
#include <deque>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "core/base/byte_buffer.hpp"
#include "core/base/digest.hpp"
#include "core/base/result.hpp"
#include "core/compress/decompress.hpp"
#include "wire.hpp"

namespace bagscope::write::detail {

template <typename Meta>
class ChunkPipeline {
public:
  struct Chunk {
    Meta meta;
    std::string raw;              ///< the records as written, uncompressed
    ByteBuffer packed;            ///< `raw` compressed (empty for Codec::None: write `raw`)
    std::uint32_t crc = 0;        ///< CRC-32 of `raw`, when asked for
    std::uint32_t packedCrc = 0;  ///< CRC-32 of `packed` (of `raw` when not compressed), when asked for
    Result<void> status;
  };
  /// `sink` writes a finished chunk to the file (on the thread that calls push and drain).
  ChunkPipeline(compress::Codec codec, bool withCrc, std::function<Result<void>(Chunk&)> sink)
      : codec_(codec),
        withCrc_(withCrc),
        sink_(std::move(sink)),
        depth_(std::max(1u, std::thread::hardware_concurrency())) {}
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;
  ~ChunkPipeline() {
    for (auto& f : pending_) f.wait();
  }

  /// Queues a chunk; writes the oldest ones out while more than a core's worth are in flight.
  Result<void> push(Meta meta, std::string raw) {
    auto work = [codec = codec_, crc = withCrc_](Meta m, std::string r, ByteBuffer packed) {
      Chunk c{std::move(m), std::move(r), std::move(packed), 0, 0, {}};
      if (crc) c.crc = c.packedCrc = crc32(bytesOf(c.raw));
      if (codec != compress::Codec::None) {
        c.status = compress::compress(codec, bytesOf(c.raw), c.packed);
        if (crc) c.packedCrc = crc32(c.packed.span());
      }
      return c;
    };
    ByteBuffer packed = takeSpare(sparePacked_);
    packed.clear();
    if (codec_ == compress::Codec::None && !withCrc_) {  // nothing worth a thread
      auto c = work(std::move(meta), std::move(raw), std::move(packed));
      return written(c);
    }
    pending_.push_back(std::async(std::launch::async, work, std::move(meta), std::move(raw), std::move(packed)));
    while (pending_.size() > depth_)
      if (auto r = popOne(); !r) return r;
    return {};
  }
  /// Queues the chunk being filled, if it has anything, and leaves `meta` and `raw` empty for
  /// the next one.
  Result<void> flush(Meta& meta, std::string& raw) {
    if (raw.empty()) return {};
    std::string taken;
    taken.swap(raw);
    raw = takeSpare(spareRaw_);
    raw.clear();
    Meta m = std::move(meta);
    meta = {};
    return push(std::move(m), std::move(taken));
  }
  /// Writes out every queued chunk.
  Result<void> drain() {
    while (!pending_.empty())
      if (auto r = popOne(); !r) return r;
    return {};
  }

private:
  Result<void> popOne() {
    Chunk c = pending_.front().get();
    pending_.pop_front();
    if (!c.status) return c.status;
    return written(c);
  }
  // A written chunk's buffers are kept for the next ones: memory new to the process costs a
  // page fault (and the kernel's zeroing) for every 4 KB, more than filling it.
  Result<void> written(Chunk& c) {
    auto r = sink_(c);
    if (spareRaw_.size() <= depth_) spareRaw_.push_back(std::move(c.raw));
    if (sparePacked_.size() <= depth_) sparePacked_.push_back(std::move(c.packed));
    return r;
  }
  template <typename Buffer>
  static Buffer takeSpare(std::vector<Buffer>& spares) {
    if (spares.empty()) return {};
    Buffer b = std::move(spares.back());
    spares.pop_back();
    return b;
  }

  compress::Codec codec_;
  bool withCrc_;
  std::function<Result<void>(Chunk&)> sink_;
  std::size_t depth_;
  std::deque<std::future<Chunk>> pending_;
  std::vector<std::string> spareRaw_;
  std::vector<ByteBuffer> sparePacked_;
};

}  // namespace bagscope::write::detail
