#include "chunk_cache.hpp"

#include <algorithm>

namespace bagscope::session::detail {

ChunkCache::Chunk ChunkCache::touch(std::unordered_map<Key, Entry>::iterator it) {
  lru_.splice(lru_.begin(), lru_, it->second.age);
  return it->second.chunk;
}

Result<ChunkCache::Chunk> ChunkCache::get(Key key, const Loader& load) {
  std::unique_lock lock(mutex_);
  // Another thread loading this chunk: wait for it rather than load it twice.
  loaded_.wait(lock, [&] { return !loading_.contains(key); });
  if (auto it = entries_.find(key); it != entries_.end()) {
    ++stats_.hits;
    return touch(it);
  }
  ++stats_.misses;
  loading_.insert(key);
  lock.unlock();
  Result<Chunk> chunk = load();
  lock.lock();
  loading_.erase(key);
  if (chunk) keep(key, *chunk);
  lock.unlock();
  loaded_.notify_all();
  return chunk;
}

ChunkCache::Chunk ChunkCache::find(Key key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  ++stats_.hits;
  return touch(it);
}

bool ChunkCache::contains(Key key) {
  std::lock_guard lock(mutex_);
  return entries_.contains(key) || loading_.contains(key);
}

bool ChunkCache::makeRoom(std::size_t wanted) {
  if (wanted > stats_.budgetBytes) return false;
  // From the least recently used end; pinned chunks (used outside) stay.
  for (auto age = lru_.end(); age != lru_.begin() && stats_.residentBytes + wanted > stats_.budgetBytes;) {
    --age;
    auto it = entries_.find(*age);
    if (it->second.chunk.use_count() > 1) continue;
    stats_.residentBytes -= it->second.bytes;
    ++stats_.evictions;
    entries_.erase(it);
    age = lru_.erase(age);
  }
  return stats_.residentBytes + wanted <= stats_.budgetBytes;
}

void ChunkCache::keep(Key key, const Chunk& chunk) {
  std::size_t bytes = chunk->memoryBytes();
  if (!makeRoom(bytes)) {
    ++stats_.uncached;
    return;
  }
  lru_.push_front(key);
  entries_[key] = Entry{chunk, bytes, lru_.begin()};
  stats_.residentBytes += bytes;
  stats_.peakBytes = std::max(stats_.peakBytes, stats_.residentBytes);
}

void ChunkCache::setBudget(std::size_t budgetBytes) {
  std::lock_guard lock(mutex_);
  stats_.budgetBytes = budgetBytes;
  makeRoom(0);
}

CacheStats ChunkCache::stats() {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace bagscope::session::detail
