#pragma once
// Decompressed chunks shared between readers, within a memory budget. A chunk in use (its
// shared_ptr held outside the cache) is pinned: never evicted while used. The cache holds at
// most `budget` bytes by its own accounting: a chunk that does not fit, even after evicting
// every unpinned chunk, is handed out without being kept.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "core/base/result.hpp"
#include "core/storage/source.hpp"

namespace bagscope::session {

struct CacheStats {
  std::size_t budgetBytes = 0;
  std::size_t residentBytes = 0;  ///< chunks held now
  std::size_t peakBytes = 0;      ///< the most ever held at once
  std::uint64_t hits = 0, misses = 0, evictions = 0;
  std::uint64_t uncached = 0;  ///< loaded chunks that did not fit and were not kept
};

namespace detail {

class ChunkCache {
public:
  using Key = std::uint64_t;  ///< source << 32 | chunk
  using Chunk = std::shared_ptr<const storage::LoadedChunk>;
  using Loader = std::function<Result<Chunk>()>;

  explicit ChunkCache(std::size_t budgetBytes) { stats_.budgetBytes = budgetBytes; }

  /// The chunk for `key`: from the cache, or from `load` (once, however many threads ask at
  /// the same time), then kept if it fits.
  Result<Chunk> get(Key key, const Loader& load);
  /// The chunk if cached (no load).
  Chunk find(Key key);
  bool contains(Key key);

  /// Evicts unpinned chunks until the cache holds at most `budgetBytes`.
  void setBudget(std::size_t budgetBytes);
  CacheStats stats();

private:
  struct Entry {
    Chunk chunk;
    std::size_t bytes = 0;
    std::list<Key>::iterator age;
  };
  Chunk touch(std::unordered_map<Key, Entry>::iterator it);
  // Evicts least recently used unpinned chunks until `wanted` more bytes fit. False if they cannot.
  bool makeRoom(std::size_t wanted);
  void keep(Key key, const Chunk& chunk);

  std::mutex mutex_;
  std::condition_variable loaded_;
  std::unordered_map<Key, Entry> entries_;
  std::list<Key> lru_;  ///< most recently used first
  std::unordered_set<Key> loading_;
  CacheStats stats_;
};

}  // namespace detail
}  // namespace bagscope::session
