#pragma once
// Shared by the chunked readers (ROS 1, MCAP): a chunk's messages once loaded, and the
// k-way merge that yields messages of many chunks in log-time order while holding only the
// chunks that overlap in time.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/storage/source.hpp"

namespace bagscope::storage::detail {

/// Sorts by log time, keeping file order for equal times (cheap when already sorted).
void sortByLogTime(std::vector<ChunkMessage>& messages);

/// Sorts every connection's entries by log time, keeping file order for equal times.
void sortIndex(MessageIndex& index);

/// Asks for every cache line `bytes` touches ahead of its use: a hint, and nothing where the
/// compiler has no prefetch.
inline void prefetchLines(std::span<const std::byte> bytes) {
#if defined(__GNUC__) || defined(__clang__)
  if (bytes.empty()) return;
  for (std::size_t i = 0; i < bytes.size(); i += 64) __builtin_prefetch(bytes.data() + i);
  __builtin_prefetch(bytes.data() + bytes.size() - 1);  // the last line, when the first is not at a line's start
#else
  (void)bytes;
#endif
}

/// Remembers the chunk of the last random read, so that reads within one chunk load it once.
class ChunkReadCache {
public:
  /// The message whose record starts at `entry.location.offset` in chunk
  /// `entry.location.chunk`, loading that chunk with `load` unless it is the cached one.
  /// The view pins the chunk. Errors name `file`.
  Result<MessageView> read(const IndexEntry& entry, std::span<const Connection> connections,
                           const std::function<Result<void>(LoadedChunk&)>& load, const std::string& file);

private:
  std::shared_ptr<LoadedChunk> chunk_;
  std::uint32_t index_ = ~0u;
};

/// What is known of a chunk before it is loaded.
struct ChunkSpan {
  std::int64_t startNs = 0, endNs = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> counts;  ///< connection index, messages
};

/// Loads chunk `index` into `out`. Called from several threads at once, each with its own
/// context. An error is reported as a problem; the chunk's readable messages (if any were
/// put in `out`) are still delivered.
using ChunkLoader = std::function<Result<void>(std::uint32_t index, LoadedChunk& out, LoadContext& ctx)>;

/// Delivers the messages of `chunks` that pass `filter` in log-time order (ties: earlier
/// chunk, then position in the chunk). `wanted[i]` says whether connection i passes.
/// `onMessage` runs on the calling thread; chunks are loaded ahead of it on one worker per
/// core, whatever their compression: copying an uncompressed chunk out of the page cache is
/// work too (#38: the 630,000-message signals bag scans in 0.048 s so, 0.068 s inline; its
/// zstd MCAP in 0.078 s, 0.13 s inline). `file`, mapped, is checked at the end: cut while its
/// chunks were read, messages read from the part now gone may hold zeros, and that is said.
Result<void> mergeChunks(const std::vector<const ChunkSpan*>& chunks, std::span<const Connection> connections,
                         const std::vector<bool>& wanted, const ReadFilter& filter, const ChunkLoader& load,
                         const MessageFn& onMessage, const ProblemFn& onProblem, const ByteSource& file);

/// What one chunk's index records say of a connection in it.
struct ChunkConnectionTimes {
  std::uint32_t connIndex = 0;
  std::uint64_t count = 0;
  std::int64_t firstNs = 0, lastNs = 0;
};
/// Reads the index records of chunk `index`: per connection in it, its messages there. An
/// error when they are missing or malformed.
using ChunkTimesReader = std::function<Result<std::vector<ChunkConnectionTimes>>(std::uint32_t index)>;

/// Source::connectionSpans() from a summary: counts from `connections` (the file's
/// statistics), first and last times from the index records of only the chunks whose time
/// range can hold them (for a recording written in time order, each connection's first and
/// last chunk). When `exactCounts`, chunks' counts are per-chunk message counts (ROS 1),
/// checked against what the records say; otherwise they only say which connections a chunk
/// holds (MCAP). An error when a chunk read disagrees with the summary: the caller builds
/// the full index instead.
Result<std::vector<ConnectionSpan>> spansFromChunkIndexes(const std::vector<const ChunkSpan*>& chunks,
                                                          std::span<const Connection> connections, bool exactCounts,
                                                          const ChunkTimesReader& readTimes);

}  // namespace bagscope::storage::detail
