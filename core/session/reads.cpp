// Reading: one message, time-ordered passes (one file's own merge, or several merged through
// the chunk cache), prefetching, and parallel passes.

#include "session.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <queue>
#include <set>

#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/session_state.hpp"
#include "core/session/detail/worker_pool.hpp"

namespace bagscope::session {
namespace fs = std::filesystem;
using storage::Source;

Result<detail::ChunkCache::Chunk> Session::State::chunk(std::uint32_t source, std::uint32_t number) const {
  return cache.get((Key{source} << 32) | number, [&]() -> Result<detail::ChunkCache::Chunk> {
    auto loaded = std::make_shared<storage::LoadedChunk>();
    // A damaged chunk still gives the messages before the damage.
    if (auto r = sources[source]->loadChunk(number, *loaded, loadContexts.borrow()); !r && loaded->messages.empty())
      return std::move(r).error();
    return detail::ChunkCache::Chunk(std::move(loaded));
  });
}

// A file read message by message (SQLite) serialises every read, a panel's single message
// too, behind its lock. A long pass (an export) therefore takes the lock for one batch of
// messages at a time, copies them out, and calls back without it. Each batch starts again at
// the last time delivered, passing over the messages of that time already delivered (ties
// come in the same file order every time). What could not be read comes back in its place
// among the messages, once.
Result<void> Session::State::readInBatches(std::uint32_t s, storage::ReadFilter filter,
                                           const storage::MessageFn& deliver,
                                           const storage::ProblemFn& onProblem) const {
  constexpr std::size_t kBatchMessages = 256, kBatchBytes = std::size_t{8} << 20;
  struct Held {
    const storage::Connection* connection;  // null: heldProblems[offset]
    std::int64_t logTimeNs;
    std::size_t offset, size;
  };
  std::vector<Held> held;
  std::vector<std::byte> bytes;
  std::vector<Error> heldProblems;
  std::set<std::string> reported;    // a batch that starts again meets the same damage again
  std::size_t deliveredAtStart = 0;  // messages at filter.startNs already delivered
  for (;;) {
    held.clear();
    bytes.clear();
    heldProblems.clear();
    bool more = false;
    {
      std::lock_guard lock(*sourceMutex[s]);
      std::size_t toPass = deliveredAtStart;
      auto r = sources[s]->readMessages(
          filter,
          [&](const storage::MessageView& v) {
            if (toPass > 0 && v.logTimeNs == filter.startNs) return --toPass, true;
            if (held.size() >= kBatchMessages || bytes.size() >= kBatchBytes) return (more = true), false;
            held.push_back({v.connection, v.logTimeNs, bytes.size(), v.bytes.size()});
            bytes.insert(bytes.end(), v.bytes.begin(), v.bytes.end());
            return true;
          },
          [&](const Error& e) {
            if (!reported.insert(e.describe()).second) return;
            held.push_back({nullptr, e.logTimeNs, heldProblems.size(), 0});
            heldProblems.push_back(e);
          });
      if (!r) return r;
    }
    for (const Held& h : held) {
      if (!h.connection) {
        if (onProblem) onProblem(heldProblems[h.offset]);
      } else if (!deliver(
                     {h.connection, h.logTimeNs, std::span<const std::byte>(bytes).subspan(h.offset, h.size), {}})) {
        return {};
      }
    }
    if (!more) return {};
    std::int64_t last = filter.startNs;
    for (const Held& h : held)
      if (h.connection) last = h.logTimeNs;
    std::size_t atLast = last == filter.startNs ? deliveredAtStart : 0;
    for (const Held& h : held) atLast += h.connection && h.logTimeNs == last;
    filter.startNs = last;
    deliveredAtStart = atLast;
  }
}

Result<Message> Session::State::read(TopicId topic, const MessageRef& ref, Hint& hint) const {
  Source& src = *sources[ref.source];
  storage::IndexEntry entry{ref.logTimeNs - shift[ref.source], ref.location};  // the file's own time
  Message msg;
  msg.topic = topic;
  if (src.chunkCount() == 0) {
    std::lock_guard lock(*sourceMutex[ref.source]);
    auto v = src.read(entry);
    BAGSCOPE_TRY(v);
    static_cast<storage::MessageView&>(msg) = std::move(v).value();
    msg.logTimeNs += shift[ref.source];
    return msg;
  }
  if (hint.key != keyOf(ref) || !hint.chunk) {
    hint.chunk = nullptr;  // unpin before loading another
    hint.key = ~Key{0};
    if (!hint.bulk) {
      auto c = chunk(ref.source, ref.location.chunk);
      BAGSCOPE_TRY(c);
      hint.chunk = std::move(c).value();
    } else if (!(hint.chunk = cache.find(keyOf(ref)))) {
      if (!hint.own || hint.own.use_count() > 1) hint.own = std::make_shared<storage::LoadedChunk>();
      if (auto r = src.loadChunk(ref.location.chunk, *hint.own, loadContexts.borrow());
          !r && hint.own->messages.empty())
        return std::move(r).error();
      hint.chunk = hint.own;
    }
    hint.key = keyOf(ref);
  }
  const storage::ChunkMessage* m = storage::findMessage(*hint.chunk, entry);
  if (!m)
    return fileError(ErrorCode::Format,
                     "no message record at offset " + std::to_string(ref.location.offset) + " of chunk " +
                         std::to_string(ref.location.chunk),
                     src.info().path);
  msg.connection = &src.connections()[m->connIndex];
  msg.logTimeNs = m->logTimeNs + shift[ref.source];
  msg.bytes = hint.chunk->bytes().subspan(m->offset, m->size);
  msg.pin = hint.chunk;
  return msg;
}

void Session::State::prefetchChunk(std::uint32_t source, std::uint32_t number) const {
  if (sources[source]->chunkCount() == 0 || cache.contains((Key{source} << 32) | number)) return;
  // A few loads ahead keep the workers busy; more would only evict what is about to be read.
  if (prefetching.fetch_add(1) >= static_cast<int>(2 * pool.size())) {
    prefetching.fetch_sub(1);
    return;
  }
  pool.submit([this, source, number] {
    try {
      (void)chunk(source, number);  // errors come again when the message is read
    } catch (...) {                 // as do exceptions (an allocation that failed)
    }
    prefetching.fetch_sub(1);
  });
}

std::pair<std::size_t, std::size_t> Session::State::range(TopicId topic, std::int64_t fromNs, std::int64_t toNs) const {
  const auto& refs = index[topic];
  auto lo = std::lower_bound(refs.begin(), refs.end(), fromNs,
                             [](const MessageRef& r, std::int64_t t) { return r.logTimeNs < t; });
  auto hi = std::upper_bound(lo, refs.end(), toNs, [](std::int64_t t, const MessageRef& r) { return t < r.logTimeNs; });
  return {static_cast<std::size_t>(lo - refs.begin()), static_cast<std::size_t>(hi - refs.begin())};
}

// ---------------------------------------------------------------------------------------
// Time-ordered reading

Result<void> Session::forEach(const Selection& selection, const std::function<bool(const Message&)>& onMessage,
                              const storage::ProblemFn& onProblem, StopToken stop) const {
  const State& st = *state_;
  std::vector<TopicId> topics = selection.topics;
  if (topics.empty())
    for (TopicId t = 0; t < st.topics.size(); ++t) topics.push_back(t);
  std::set<std::uint32_t> involved;
  for (TopicId t : topics) {
    if (t >= st.topics.size()) return fileError(ErrorCode::InvalidArgument, "no topic " + std::to_string(t));
    for (const auto& m : st.topics[t].members) involved.insert(m.source);
  }
  if (involved.empty()) return {};

  if (involved.size() == 1) return st.forEachInFile(*involved.begin(), topics, selection, onMessage, onProblem, stop);
  return st.forEachMerged(topics, selection, onMessage, onProblem, stop);
}

// One file: its reader's own merge, which streams chunks without caching them.
Result<void> Session::State::forEachInFile(std::uint32_t s, const std::vector<TopicId>& wanted,
                                           const Selection& selection, const MessageCallback& onMessage,
                                           const storage::ProblemFn& onProblem, StopToken stop) const {
  const std::int64_t offset = shift[s];  // session time = the file's time + offset
  auto fileTime = [offset](std::int64_t t) {
    if (t == std::numeric_limits<std::int64_t>::min() || t == std::numeric_limits<std::int64_t>::max()) return t;
    return t - offset;
  };
  storage::ReadFilter filter;
  filter.startNs = fileTime(selection.startNs);
  filter.endNs = fileTime(selection.endNs);
  filter.pin = selection.pinned;
  for (TopicId t : wanted)
    for (const auto& m : topics[t].members) filter.connections.push_back(m.connection->id);
  const Source& src = *sources[s];
  bool stopped = false;
  auto deliver = [&](const storage::MessageView& v) {
    if (stop.stop_requested()) return !(stopped = true);
    Message m;
    static_cast<storage::MessageView&>(m) = v;
    m.logTimeNs += offset;
    m.topic = topicOf[s][static_cast<std::size_t>(v.connection - src.connections().data())];
    return onMessage(m);
  };
  Result<void> r;
  if (src.chunkCount() == 0) {
    r = readInBatches(s, filter, deliver, onProblem);
  } else {
    // Chunked files: the lock serialises only this pass; panels read chunks through the cache.
    std::lock_guard lock(*sourceMutex[s]);
    r = sources[s]->readMessages(filter, deliver, onProblem);
  }
  if (!r) return r;
  return stopped ? Result<void>(cancelled()) : Result<void>();
}

// Several files: the topics' index arrays merged, read through the cache, each topic's next
// chunk loaded ahead on the workers.
Result<void> Session::State::forEachMerged(const std::vector<TopicId>& wanted, const Selection& selection,
                                           const MessageCallback& onMessage, const storage::ProblemFn& onProblem,
                                           StopToken stop) const {
  struct Cursor {
    TopicId topic;
    const MessageRef* at;
    const MessageRef* end;
    const MessageRef* ahead;  // how far the read-ahead has looked
    State::Hint hint;
  };
  std::vector<Cursor> cursors;
  for (TopicId t : wanted) {
    auto [lo, hi] = range(t, selection.startNs, selection.endNs);
    const MessageRef* base = index[t].data();
    if (lo < hi) cursors.push_back({t, base + lo, base + hi, base + lo, {}});
  }
  auto later = [&](std::size_t a, std::size_t b) {
    const MessageRef& x = *cursors[a].at;
    const MessageRef& y = *cursors[b].at;
    if (x.logTimeNs != y.logTimeNs) return x.logTimeNs > y.logTimeNs;
    if (x.source != y.source) return x.source > y.source;
    if (x.location.chunk != y.location.chunk) return x.location.chunk > y.location.chunk;
    return x.location.offset > y.location.offset;
  };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heap(later);
  for (std::size_t i = 0; i < cursors.size(); ++i) heap.push(i);
  while (!heap.empty()) {
    if (stop.stop_requested()) return cancelled();
    Cursor& c = cursors[heap.top()];
    heap.pop();
    const MessageRef& ref = *c.at;
    if (State::keyOf(ref) != c.hint.key) {
      // Entering a chunk: start loading this topic's next one.
      const MessageRef* p = std::max(c.ahead, c.at);
      while (p != c.end && State::keyOf(*p) == State::keyOf(ref)) ++p;
      if (p != c.end) prefetchChunk(p->source, p->location.chunk);
      c.ahead = p;
    }
    auto m = read(c.topic, ref, c.hint);
    bool more = true;
    if (m) {
      more = onMessage(*m);
    } else if (onProblem) {
      Error e = std::move(m).error();
      e.topic = topics[c.topic].name;
      e.logTimeNs = ref.logTimeNs;
      onProblem(e);
    }
    if (!more) return {};
    if (++c.at != c.end) heap.push(static_cast<std::size_t>(&c - cursors.data()));
    else c.hint = {};  // unpin
  }
  return {};
}

void Session::prefetch(std::span<const TopicId> topics, std::int64_t timeNs, std::int64_t aheadNs) const {
  const State& st = *state_;
  std::set<State::Key> wanted;
  for (TopicId t : topics) {
    if (t >= st.topics.size()) continue;
    auto [lo, hi] =
        st.range(t, timeNs,
                 timeNs > std::numeric_limits<std::int64_t>::max() - aheadNs ? std::numeric_limits<std::int64_t>::max()
                                                                             : timeNs + aheadNs);
    for (std::size_t i = lo; i < hi && wanted.size() < 4 * st.pool.size(); ++i)
      wanted.insert(State::keyOf(st.index[t][i]));
  }
  for (State::Key k : wanted) st.prefetchChunk(static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(k));
}

Result<void> Session::forEachParallel(const Selection& selection, const ParallelMessageFn& onMessage, StopToken stop,
                                      const ProgressFn& progress) const {
  const State& st = *state_;
  std::vector<TopicId> topics = selection.topics;
  if (topics.empty())
    for (TopicId t = 0; t < st.topics.size(); ++t) topics.push_back(t);
  // The topics' messages in runs of one chunk each; runs of the same chunk (of several
  // topics) are read together, chunks in file order, so that each chunk is loaded once.
  struct Run {
    State::Key key;
    TopicId topic;
    std::size_t first, end;  // positions in the topic's index
    std::size_t row0;        // row of `first`
  };
  std::vector<Run> runs;
  std::size_t total = 0;
  for (TopicId t : topics) {
    if (t >= st.topics.size()) return fileError(ErrorCode::InvalidArgument, "no topic " + std::to_string(t));
    auto [lo, hi] = st.range(t, selection.startNs, selection.endNs);
    const auto& refs = st.index[t];
    for (std::size_t i = lo; i < hi;) {
      std::size_t j = i + 1;
      while (j < hi && State::keyOf(refs[j]) == State::keyOf(refs[i])) ++j;
      runs.push_back({State::keyOf(refs[i]), t, i, j, i - lo});
      i = j;
    }
    total += hi - lo;
  }
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.key < b.key; });
  // Work units of whole chunks, a few per thread for balance (messages read message by
  // message, without chunks, may be cut anywhere).
  std::vector<std::size_t> cuts{0};
  std::size_t target = std::max<std::size_t>(1, total / (8 * std::max(1u, st.pool.size()))), size = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (size >= target && runs[r].key != runs[r - 1].key) {
      cuts.push_back(r);
      size = 0;
    }
    size += runs[r].end - runs[r].first;
  }
  cuts.push_back(runs.size());
  ProgressFn report = throttled(progress);
  std::atomic<std::size_t> done{0};
  auto count = [&](std::size_t messages) {
    std::size_t finished = done.fetch_add(messages) + messages;
    if (report) report(static_cast<double>(finished) / static_cast<double>(total));
  };
  st.pool.parallelFor(
      cuts.size() - 1,
      [&](std::size_t unit) {
        State::Hint hint;
        hint.bulk = true;
        std::size_t uncounted = 0;
        for (std::size_t r = cuts[unit]; r < cuts[unit + 1]; ++r) {
          const Run& run = runs[r];
          const auto& refs = st.index[run.topic];
          for (std::size_t i = run.first; i < run.end; ++i) {
            if (stop.stop_requested()) return;
            if (++uncounted == 64) {
              count(uncounted);
              uncounted = 0;
            }
            auto m = st.read(run.topic, refs[i], hint);
            if (!m) {
              Error e = std::move(m).error();
              e.topic = st.topics[run.topic].name;
              e.logTimeNs = refs[i].logTimeNs;
              m = std::move(e);
            }
            onMessage(run.topic, run.row0 + (i - run.first), m);
          }
        }
        count(uncounted);
      },
      stop);
  if (stop.stop_requested()) return cancelled();
  if (report) report(1.0);
  return {};
}

}  // namespace bagscope::session
