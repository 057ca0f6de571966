#pragma once
// What the session's units share (session.cpp: opening and the index; reads.cpp; decoders.cpp;
// extraction.cpp; jobs.cpp): its State. Included by those units only.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <map>
#include <mutex>
#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/chunk_cache.hpp"
#include "core/session/detail/worker_pool.hpp"
#include "core/session/session.hpp"

namespace bagscope::session {
using storage::Source;

inline Error cancelled() { return fileError(ErrorCode::Cancelled, "stopped on request"); }

using Clock = std::chrono::steady_clock;

// Codec contexts and read buffers, lent to one chunk load at a time and kept for the next.
// Not thread_local: MinGW frees a thread's thread_local storage before it runs their
// destructors, so every worker crashed on exit in the Windows build.
class LoadContexts {
public:
  class Lease {
  public:
    Lease(LoadContexts& owner, std::unique_ptr<storage::LoadContext> context)
        : owner_(owner), context_(std::move(context)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      std::lock_guard lock(owner_.mutex_);
      owner_.idle_.push_back(std::move(context_));
    }
    operator storage::LoadContext&() { return *context_; }

  private:
    LoadContexts& owner_;
    std::unique_ptr<storage::LoadContext> context_;
  };
  Lease borrow() {
    std::lock_guard lock(mutex_);
    if (idle_.empty()) return Lease(*this, std::make_unique<storage::LoadContext>());
    auto context = std::move(idle_.back());
    idle_.pop_back();
    return Lease(*this, std::move(context));
  }

private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<storage::LoadContext>> idle_;  // at most one per thread that loaded at once
};

// ---------------------------------------------------------------------------------------
// State

struct Session::State {
  explicit State(const SessionOptions& o) : options(o), cache(o.cacheBytes), pool(o.workers) {}

  SessionOptions options;
  std::vector<std::unique_ptr<Source>> sources;
  // For the one-thread-at-a-time calls; recursive: a forEach callback may read() the same file.
  std::vector<std::unique_ptr<std::recursive_mutex>> sourceMutex;
  Result<void> readInBatches(std::uint32_t source, storage::ReadFilter filter, const storage::MessageFn& deliver,
                             const storage::ProblemFn& onProblem) const;
  // Session::forEach over topics of one file (its reader's own merge) or of several (the
  // topics' index arrays merged, read through the cache).
  using MessageCallback = std::function<bool(const Message&)>;
  Result<void> forEachInFile(std::uint32_t source, const std::vector<TopicId>& wanted, const Selection& selection,
                             const MessageCallback& onMessage, const storage::ProblemFn& onProblem,
                             StopToken stop) const;
  Result<void> forEachMerged(const std::vector<TopicId>& wanted, const Selection& selection,
                             const MessageCallback& onMessage, const storage::ProblemFn& onProblem,
                             StopToken stop) const;
  std::vector<std::vector<TopicId>> topicOf;  // [source][connection index]
  std::vector<Topic> topics;
  std::vector<std::vector<MessageRef>> index;  // [topic]
  std::vector<std::int64_t> shift;             // [source]: added to its log times
  std::vector<std::string> problems;
  std::vector<std::string> ownProblems;  // of problems: the session's own
  std::vector<OpenFailure> failures;
  std::int64_t startNs = 0, endNs = 0;
  std::uint64_t messageCount = 0;

  mutable detail::ChunkCache cache;
  mutable LoadContexts loadContexts;  // before the pool: its workers are gone before it is
  mutable detail::WorkerPool pool;
  mutable std::mutex decoderMutex;
  mutable std::map<const storage::Connection*, Result<std::shared_ptr<const decode::Decoder>>> decoders;
  mutable std::vector<std::string> decodeNotes;  // guarded by decoderMutex
  // Definitions any open file (or a recording given in msgPaths) stores, by normal type name:
  // they decode the same type in files that lack one, or whose own does not fit.
  std::vector<std::unique_ptr<Source>> definitionSources;
  std::multimap<std::string, const storage::Connection*> definitionsByType;
  std::vector<std::filesystem::path> msgFolders;  // msgPaths that are folders of .msg files

  Result<std::shared_ptr<const decode::Decoder>> resolveDecoder(const storage::Connection& c) const;
  // The first message of connection `c` (to check a definition on), if it has one.
  std::optional<Message> firstMessageOf(const storage::Connection& c) const;
  std::string originOf(const storage::Connection& c) const;
  mutable std::atomic<int> prefetching{0};

  using Key = detail::ChunkCache::Key;
  static Key keyOf(const MessageRef& r) { return (Key{r.source} << 32) | r.location.chunk; }

  Result<void> build();
  Result<detail::ChunkCache::Chunk> chunk(std::uint32_t source, std::uint32_t number) const;
  // The message at `ref`. `hint` remembers the last chunk used, to skip the cache's lock
  // for messages of the same chunk. A bulk hint (a pass over a whole topic) takes chunks
  // from the cache when they are there but does not fill it: it loads into a buffer of its
  // own, reused from chunk to chunk unless a message still pins it.
  struct Hint {
    bool bulk = false;
    Key key = ~Key{0};
    detail::ChunkCache::Chunk chunk;
    std::shared_ptr<storage::LoadedChunk> own;
  };
  Result<Message> read(TopicId topic, const MessageRef& ref, Hint& hint) const;
  void prefetchChunk(std::uint32_t source, std::uint32_t number) const;
  // Positions [first, last) of the topic's messages logged in [fromNs, toNs].
  std::pair<std::size_t, std::size_t> range(TopicId topic, std::int64_t fromNs, std::int64_t toNs) const;
};

}  // namespace bagscope::session
