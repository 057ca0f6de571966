#pragma once
// Chunks compressed on other threads while the next one fills, handed back in the order they
// were given: compression (zstd, bz2) runs on every core and the file stays in order.

#include <algorithm>
#include <deque>
#include <functional>
#include <future>
#include <string>
#include <thread>

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
    auto work = [codec = codec_, crc = withCrc_](Meta m, std::string r) {
      Chunk c{std::move(m), std::move(r), {}, 0, 0, {}};
      if (crc) c.crc = c.packedCrc = crc32(bytesOf(c.raw));
      if (codec != compress::Codec::None) {
        c.status = compress::compress(codec, bytesOf(c.raw), c.packed);
        if (crc) c.packedCrc = crc32(c.packed.span());
      }
      return c;
    };
    if (codec_ == compress::Codec::None && !withCrc_) {  // nothing worth a thread
      auto c = work(std::move(meta), std::move(raw));
      return sink_(c);
    }
    pending_.push_back(std::async(std::launch::async, work, std::move(meta), std::move(raw)));
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
    return sink_(c);
  }
  compress::Codec codec_;
  bool withCrc_;
  std::function<Result<void>(Chunk&)> sink_;
  std::size_t depth_;
  std::deque<std::future<Chunk>> pending_;
};

}  // namespace bagscope::write::detail
