#include "chunk_merge.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "core/base/job.hpp"

namespace bagscope::storage::detail {
namespace {

// Hands over the chunks of `order` strictly in order. With workers, loads them ahead in
// parallel, at most `window` ahead of what has been taken (twice that while chunks are
// decompressed, see mergeInOrder); with none, loads each on take().
class Prefetcher {
public:
  Prefetcher(const std::vector<std::uint32_t>& order, const ChunkLoader& load, unsigned threads, std::size_t window)
      : order_(order), load_(load), window_(window), slots_(2 * window) {
    for (unsigned t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
  }
  ~Prefetcher() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }
  Prefetcher(const Prefetcher&) = delete;
  Prefetcher& operator=(const Prefetcher&) = delete;

  std::shared_ptr<LoadedChunk> take(std::size_t i, Result<void>& status) {
    if (workers_.empty()) {
      // One buffer goes round and round: it stays in the cache, which is what bounds
      // memory-bound reading.
      auto chunk = spareOrNew();
      status = load_(order_[i], *chunk, inlineContext_);
      return chunk;
    }
    std::unique_lock lock(mutex_);
    Slot& slot = slots_[i % slots_.size()];
    done_.wait(lock, [&] { return slot.ready && slot.position == i; });
    slot.ready = false;
    status = std::move(slot.status);
    auto chunk = std::move(slot.chunk);  // before unlocking: a worker may refill this slot next
    taken_ = i + 1;
    lock.unlock();
    wake_.notify_one();  // room for one more load: waking every worker would send all but one back to sleep
    return chunk;
  }
  void recycle(std::shared_ptr<LoadedChunk> chunk) {
    if (chunk.use_count() > 1) return;  // a pinned message still holds it
    std::lock_guard lock(mutex_);
    spare_.push_back(std::move(chunk));
  }

private:
  struct Slot {
    std::shared_ptr<LoadedChunk> chunk;
    Result<void> status;
    std::size_t position = 0;
    bool ready = false;
  };

  // A recycled chunk (keeping its buffer's capacity) or a new one. Under the lock when
  // there are workers.
  std::shared_ptr<LoadedChunk> spareOrNew() {
    std::shared_ptr<LoadedChunk> chunk;
    if (!spare_.empty()) {
      chunk = std::move(spare_.back());
      spare_.pop_back();
    } else {
      chunk = std::make_shared<LoadedChunk>();
    }
    chunk->messages.clear();
    return chunk;
  }

  void work() {
    lowerThreadPriority();  // the consumer, when it is the one that is behind, keeps its core
    LoadContext ctx;
    std::unique_lock lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] {
        return stop_ || (next_ < order_.size() && next_ < taken_ + (decompressed_ ? slots_.size() : window_));
      });
      if (stop_) return;
      std::size_t i = next_++;
      auto chunk = spareOrNew();
      lock.unlock();
      Result<void> status = load_(order_[i], *chunk, ctx);
      lock.lock();
      const bool wasDecompressed = decompressed_;
      decompressed_ = chunk->view.empty() && chunk->data.size() > 0 && chunk->data.size() <= kLargeChunk;
      if (decompressed_ && !wasDecompressed) wake_.notify_all();  // more may be loaded ahead now
      Slot& slot = slots_[i % slots_.size()];
      slot.chunk = std::move(chunk);
      slot.status = std::move(status);
      slot.position = i;
      slot.ready = true;
      if (i == taken_) done_.notify_one();  // the consumer waits for the next chunk in order, only
    }
  }

  const std::vector<std::uint32_t>& order_;
  const ChunkLoader& load_;
  std::size_t window_;
  bool decompressed_ = false;  // the last chunk loaded was, and not large: allow all of `slots_` ahead
  static constexpr std::size_t kLargeChunk = std::size_t{16} << 20;
  std::vector<Slot> slots_;
  std::vector<std::shared_ptr<LoadedChunk>> spare_;
  LoadContext inlineContext_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::size_t next_ = 0, taken_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace

void sortByLogTime(std::vector<ChunkMessage>& messages) {
  auto byTime = [](const ChunkMessage& a, const ChunkMessage& b) { return a.logTimeNs < b.logTimeNs; };
  if (!std::is_sorted(messages.begin(), messages.end(), byTime))  // writers mostly keep order
    std::stable_sort(messages.begin(), messages.end(), byTime);
}

void sortIndex(MessageIndex& index) {
  auto byTime = [](const IndexEntry& a, const IndexEntry& b) { return a.logTimeNs < b.logTimeNs; };
  for (auto& entries : index)
    if (!std::is_sorted(entries.begin(), entries.end(), byTime))  // recorders mostly keep order
      std::stable_sort(entries.begin(), entries.end(), byTime);
}

Result<MessageView> ChunkReadCache::read(const IndexEntry& entry, std::span<const Connection> connections,
                                         const std::function<Result<void>(LoadedChunk&)>& load,
                                         const std::string& file) {
  if (!chunk_ || index_ != entry.location.chunk) {
    auto loaded = std::make_shared<LoadedChunk>();
    if (auto r = load(*loaded); !r && loaded->messages.empty()) return std::move(r).error();
    chunk_ = std::move(loaded);
    index_ = entry.location.chunk;
  }
  const ChunkMessage* it = findMessage(*chunk_, entry);
  if (!it) {
    Error e =
        makeError(ErrorCode::InvalidArgument, "no message record at offset " + std::to_string(entry.location.offset) +
                                                  " of chunk " + std::to_string(entry.location.chunk));
    e.file = file;
    return e;
  }
  MessageView v;
  v.connection = &connections[it->connIndex];
  v.logTimeNs = it->logTimeNs;
  v.bytes = chunk_->bytes().subspan(it->offset, it->size);
  v.pin = chunk_;
  return v;
}

namespace {
// The consumer reads a message's fields at offsets that depend on what it read before (a
// string's length), so its cache misses come one after another; asking for the lines of the
// second wanted message ahead overlaps them with the work on this one (perf: the stall on an
// Imu's first number went from 62 % of the field reader's time to 33 %). Only the first 512 bytes: larger
// messages are read in order, which the hardware prefetches itself.
constexpr std::size_t kPrefetchAhead = 2;
inline void prefetchMessage(std::span<const std::byte> chunk, const ChunkMessage& m) {
  prefetchLines(chunk.subspan(m.offset, std::min<std::size_t>(m.size, 512)));
}

Result<void> mergeInOrder(const std::vector<const ChunkSpan*>& chunks, std::span<const Connection> connections,
                          const std::vector<bool>& wanted, const ReadFilter& filter, const ChunkLoader& load,
                          const MessageFn& onMessage, const ProblemFn& onProblem) {
  // Chunks that can hold a wanted message, in order of their first message.
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < chunks.size(); ++i) {
    const ChunkSpan& c = *chunks[i];
    if (c.endNs < filter.startNs || c.startNs > filter.endNs) continue;
    bool any = std::any_of(c.counts.begin(), c.counts.end(), [&](auto& p) { return wanted[p.first] && p.second > 0; });
    if (any) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return chunks[a]->startNs < chunks[b]->startNs; });

  struct Open {
    std::shared_ptr<LoadedChunk> chunk;
    std::size_t next = 0;
    std::uint32_t rank = 0;  // position in `order`, for ties
  };
  std::vector<Open> open;
  std::vector<std::size_t> heap;  // indexes into `open`
  std::vector<std::size_t> freeSlots;
  auto later = [&](std::size_t a, std::size_t b) {
    const auto& ma = open[a].chunk->messages[open[a].next];
    const auto& mb = open[b].chunk->messages[open[b].next];
    if (ma.logTimeNs != mb.logTimeNs) return ma.logTimeNs > mb.logTimeNs;
    return open[a].rank > open[b].rank;
  };
  auto isWanted = [&](const ChunkMessage& m) {
    return wanted[m.connIndex] && m.logTimeNs >= filter.startNs && m.logTimeNs <= filter.endNs;
  };
  auto skipUnwanted = [&](Open& o) {
    const auto& msgs = o.chunk->messages;
    while (o.next < msgs.size() && !isWanted(msgs[o.next])) ++o.next;
    return o.next < msgs.size();
  };
  auto pendingTime = [&] { return open[heap.front()].chunk->messages[open[heap.front()].next].logTimeNs; };

  // Two chunks per worker in flight keep every core busy without holding many chunks; four
  // while they are decompressed, whose times vary with their sizes (a 6 MB cloud beside 1 MB
  // images: the 1.2 GB lz4 sensor bag scans in 0.30 s so, 0.45 s with two). Chunks read in
  // place scan faster with two (the 630,000-message signals bag: 0.046 s, 0.050 s with four).
  unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  if (order.size() < 2) threads = 0;
  Prefetcher prefetch(order, load, threads, 2 * std::max(threads, 1u));
  std::size_t nextChunk = 0;
  MessageView view;
  while (true) {
    // Open every chunk that may start before the earliest message now pending.
    while (nextChunk < order.size() && (heap.empty() || chunks[order[nextChunk]]->startNs <= pendingTime())) {
      Result<void> status;
      auto chunk = prefetch.take(nextChunk, status);
      if (!status && onProblem) onProblem(status.error());
      Open o{std::move(chunk), 0, static_cast<std::uint32_t>(nextChunk)};
      ++nextChunk;
      if (!skipUnwanted(o)) {
        prefetch.recycle(std::move(o.chunk));
        continue;
      }
      std::size_t slot = open.size();
      if (freeSlots.empty()) {
        open.push_back(std::move(o));
      } else {
        slot = freeSlots.back();
        freeSlots.pop_back();
        open[slot] = std::move(o);
      }
      heap.push_back(slot);
      std::push_heap(heap.begin(), heap.end(), later);
    }
    if (heap.empty()) break;
    std::pop_heap(heap.begin(), heap.end(), later);
    std::size_t slot = heap.back();
    Open& o = open[slot];
    const ChunkMessage& m = o.chunk->messages[o.next];
    view.connection = &connections[m.connIndex];
    view.logTimeNs = m.logTimeNs;
    view.bytes = o.chunk->bytes().subspan(m.offset, m.size);
    if (filter.pin) view.pin = o.chunk;
    {  // a filtered read skips the others: prefetching them would be wasted
      const auto& msgs = o.chunk->messages;
      std::size_t left = kPrefetchAhead;
      for (std::size_t j = o.next + 1; j < msgs.size() && j <= o.next + 4 * kPrefetchAhead; ++j)
        if (isWanted(msgs[j]) && --left == 0) {
          prefetchMessage(o.chunk->bytes(), msgs[j]);
          break;
        }
    }
    if (!onMessage(view)) return {};
    ++o.next;
    if (skipUnwanted(o)) {
      std::push_heap(heap.begin(), heap.end(), later);
    } else {
      heap.pop_back();
      prefetch.recycle(std::move(o.chunk));
      freeSlots.push_back(slot);
    }
  }
  return {};
}

}  // namespace

Result<void> mergeChunks(const std::vector<const ChunkSpan*>& chunks, std::span<const Connection> connections,
                         const std::vector<bool>& wanted, const ReadFilter& filter, const ChunkLoader& load,
                         const MessageFn& onMessage, const ProblemFn& onProblem, const ByteSource& file) {
  const bool mapped = !file.mapped().bytes.empty();
  auto merged = mergeInOrder(chunks, connections, wanted, filter, load, onMessage, onProblem);
  if (mapped && file.endsBefore(file.size()) && onProblem) {
    Error e = makeError(ErrorCode::Io,
                        "the file was cut while it was read: messages read from the part now gone "
                        "may hold zeros");
    e.file = file.name();
    onProblem(e);
  }
  return merged;
}

Result<std::vector<ConnectionSpan>> spansFromChunkIndexes(const std::vector<const ChunkSpan*>& chunks,
                                                          std::span<const Connection> connections, bool exactCounts,
                                                          const ChunkTimesReader& readTimes) {
  auto disagree = [](std::string why) { return makeError(ErrorCode::Format, std::move(why)); };
  std::vector<std::vector<std::uint32_t>> chunksOf(connections.size());
  for (std::uint32_t ci = 0; ci < chunks.size(); ++ci)
    for (auto [conn, n] : chunks[ci]->counts)
      if (conn < connections.size() && n > 0) chunksOf[conn].push_back(ci);

  std::map<std::uint32_t, std::vector<ChunkConnectionTimes>> read;
  // The records of chunk `ci` for connection `conn`, read once per chunk and checked against
  // what the summary says of the chunk.
  auto timesOf = [&](std::uint32_t ci, std::uint32_t conn) -> Result<ChunkConnectionTimes> {
    auto it = read.find(ci);
    if (it == read.end()) {
      auto times = readTimes(ci);
      BAGSCOPE_TRY(times);
      const ChunkSpan& c = *chunks[ci];
      for (const auto& t : *times)
        if (t.count == 0 || t.firstNs < c.startNs || t.lastNs > c.endNs || t.firstNs > t.lastNs)
          return disagree("a chunk's index records fall outside its time range");
      for (const auto& [k, n] : c.counts) {
        const std::uint32_t listed = k;  // clang 14 (the fuzz build) cannot capture a structured binding
        auto found = std::find_if(times->begin(), times->end(), [&](auto& t) { return t.connIndex == listed; });
        if (n > 0 && (found == times->end() || (exactCounts && found->count != n)))
          return disagree("a chunk's index records disagree with its counts");
      }
      it = read.emplace(ci, std::move(times).value()).first;
    }
    auto found = std::find_if(it->second.begin(), it->second.end(), [&](auto& t) { return t.connIndex == conn; });
    return *found;  // there: checked above
  };

  std::vector<ConnectionSpan> spans(connections.size());
  for (std::uint32_t i = 0; i < connections.size(); ++i) {
    auto& in = chunksOf[i];
    ConnectionSpan& s = spans[i];
    s.count = connections[i].messageCount;
    if (in.empty() || s.count == 0) {
      if (in.empty() != (s.count == 0)) return disagree("the statistics disagree with the chunk indexes");
      continue;
    }
    // A chunk starting at or after the earliest time found so far cannot hold an earlier one.
    std::sort(in.begin(), in.end(), [&](auto a, auto b) { return chunks[a]->startNs < chunks[b]->startNs; });
    s.firstNs = std::numeric_limits<std::int64_t>::max();
    for (std::uint32_t ci : in) {
      if (chunks[ci]->startNs >= s.firstNs) break;
      auto t = timesOf(ci, i);
      BAGSCOPE_TRY(t);
      s.firstNs = std::min(s.firstNs, t->firstNs);
    }
    std::sort(in.begin(), in.end(), [&](auto a, auto b) { return chunks[a]->endNs > chunks[b]->endNs; });
    s.lastNs = std::numeric_limits<std::int64_t>::min();
    for (std::uint32_t ci : in) {
      if (chunks[ci]->endNs <= s.lastNs) break;
      auto t = timesOf(ci, i);
      BAGSCOPE_TRY(t);
      s.lastNs = std::max(s.lastNs, t->lastNs);
    }
  }
  return spans;
}

}  // namespace bagscope::storage::detail
