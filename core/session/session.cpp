#include "session.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <queue>
#include <regex>
#include <set>

#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/worker_pool.hpp"

namespace bagscope::session {
namespace fs = std::filesystem;
using storage::Source;

namespace {

Error cancelled() { return fileError(ErrorCode::Cancelled, "stopped on request"); }

void collectFolder(const fs::path& folder, bool recursive, std::vector<fs::path>& out) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(folder, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  for (const auto& p : entries) {
    if (fs::is_directory(p, ec)) {
      if (storage::classify(p) == PathKind::Recording) out.push_back(p);
      else if (recursive) collectFolder(p, recursive, out);
    } else if (storage::hasRecordingName(p)) {
      out.push_back(p);
    }
  }
}

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

}  // namespace

namespace {

std::vector<fs::path> expandGlob(const fs::path& pattern) {
  std::string name = utf8(pattern.filename()), re;
  for (char c : name) {
    if (c == '*') re += ".*";
    else if (c == '?') re += '.';
    else if (std::string_view(".^$|()[]{}+\\").find(c) != std::string_view::npos) re += std::string("\\") + c;
    else re += c;
  }
  std::regex matcher(re);
  std::vector<fs::path> out;
  std::error_code ec;
  fs::path dir = pattern.has_parent_path() ? pattern.parent_path() : fs::path(".");
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (std::regex_match(utf8(e.path().filename()), matcher)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<std::vector<fs::path>> expandInputs(const std::vector<fs::path>& inputs, bool recursive) {
  std::vector<fs::path> out;
  for (const auto& in : inputs) {
    std::vector<fs::path> found;
    // A pattern only in the last part, and only where no such file exists: "\\?\C:\..." (a
    // Windows long path) and a file whose name holds '?' are taken as they are.
    std::error_code ec;
    if (utf8(in.filename()).find_first_of("*?") != std::string::npos && !fs::exists(in, ec)) {
      found = expandGlob(in);
      if (found.empty()) return fileError(ErrorCode::InvalidArgument, "no file matches", utf8(in));
    } else if (storage::isFolderOfRecordings(in)) {
      found = findRecordings(in, recursive);
      if (found.empty()) return fileError(ErrorCode::InvalidArgument, "no recordings in this folder", utf8(in));
    } else {
      found = {in};
    }
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

Result<storage::RecordingSummary> summarizeRecording(const fs::path& path, bool withTopicBytes) {
  auto source = storage::openSource(path);
  BAGSCOPE_TRY(source);
  auto summary = storage::summarize(**source);
  if (summary && withTopicBytes) BAGSCOPE_TRY(storage::measureTopicBytes(**source, *summary));
  return summary;
}

std::vector<fs::path> findRecordings(const fs::path& folder, bool recursive) {
  std::vector<fs::path> out;
  collectFolder(folder, recursive, out);
  return out;
}

ProgressFn throttled(ProgressFn progress) {
  if (!progress) return {};
  struct Gate {
    std::mutex mutex;
    Clock::time_point last{};
  };
  auto gate = std::make_shared<Gate>();
  return [gate, progress = std::move(progress)](double fraction) {
    std::unique_lock lock(gate->mutex, std::try_to_lock);
    if (!lock.owns_lock() && fraction < 1.0) return;  // another thread is reporting
    if (!lock.owns_lock()) lock.lock();
    auto now = Clock::now();
    if (fraction < 1.0 && now - gate->last < std::chrono::milliseconds(100)) return;
    gate->last = now;
    progress(std::clamp(fraction, 0.0, 1.0));
  };
}

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
  std::vector<fs::path> msgFolders;  // msgPaths that are folders of .msg files

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

Result<void> Session::State::build() {
  // The files' own indexes, one file per worker.
  std::vector<Result<const storage::MessageIndex*>> indexes(sources.size(), nullptr);
  pool.parallelFor(sources.size(), [&](std::size_t i) {
    std::lock_guard lock(*sourceMutex[i]);
    indexes[i] = sources[i]->messageIndex();
  });
  // Topics: one per (name, type); several connections of one file may share it.
  std::map<std::pair<std::string, std::string>, std::vector<Topic::Member>> byKey;
  std::map<std::pair<std::string, std::string>, std::string> spelling;
  for (const auto& src : definitionSources)
    for (const auto& c : src->connections())
      if (!c.definition.empty()) definitionsByType.emplace(normalTypeName(c.type), &c);
  for (std::uint32_t s = 0; s < sources.size(); ++s) {
    if (!indexes[s]) return std::move(indexes[s]).error();
    for (const auto& c : sources[s]->connections()) {
      if (!c.definition.empty()) definitionsByType.emplace(normalTypeName(c.type), &c);
      std::pair key{c.topic, normalTypeName(c.type)};
      byKey[key].push_back({s, &c});
      spelling.emplace(key, c.type);
    }
    for (const auto& p : sources[s]->info().problems) problems.push_back(sources[s]->info().path + ": " + p);
  }
  topicOf.resize(sources.size());
  for (std::uint32_t s = 0; s < sources.size(); ++s) topicOf[s].resize(sources[s]->connections().size());
  // Each file's first log time; aligned, every file starts at the earliest one.
  shift.assign(sources.size(), 0);
  if (options.alignStarts) {
    std::vector<std::int64_t> first(sources.size(), std::numeric_limits<std::int64_t>::max());
    for (std::uint32_t s = 0; s < sources.size(); ++s)
      for (const auto& entries : **indexes[s])
        if (!entries.empty()) first[s] = std::min(first[s], entries.front().logTimeNs);
    std::int64_t earliest = *std::min_element(first.begin(), first.end());
    for (std::uint32_t s = 0; s < sources.size(); ++s)
      if (first[s] != std::numeric_limits<std::int64_t>::max()) shift[s] = earliest - first[s];
  }
  for (auto& [key, members] : byKey) {
    auto id = static_cast<TopicId>(topics.size());
    Topic t;
    t.name = key.first;
    t.type = spelling[key];
    t.members = std::move(members);
    std::vector<MessageRef> refs;
    auto entriesOf = [&](const Topic::Member& m) -> const std::vector<storage::IndexEntry>& {
      return (**indexes[m.source])[static_cast<std::size_t>(m.connection - sources[m.source]->connections().data())];
    };
    std::size_t total = 0;
    for (const auto& m : t.members) total += entriesOf(m).size();
    refs.reserve(total);
    for (const auto& m : t.members) {
      topicOf[m.source][static_cast<std::size_t>(m.connection - sources[m.source]->connections().data())] = id;
      for (const auto& e : entriesOf(m)) refs.push_back({e.logTimeNs + shift[m.source], m.source, e.location});
    }
    auto before = [](const MessageRef& a, const MessageRef& b) {
      if (a.logTimeNs != b.logTimeNs) return a.logTimeNs < b.logTimeNs;
      if (a.source != b.source) return a.source < b.source;
      if (a.location.chunk != b.location.chunk) return a.location.chunk < b.location.chunk;
      return a.location.offset < b.location.offset;
    };
    if (t.members.size() > 1) std::sort(refs.begin(), refs.end(), before);
    t.messageCount = refs.size();
    messageCount += refs.size();
    topics.push_back(std::move(t));
    index.push_back(std::move(refs));
  }
  // One name, several types: kept apart, and said.
  for (std::size_t i = 0; i + 1 < topics.size(); ++i) {
    if (topics[i].name != topics[i + 1].name || (i > 0 && topics[i - 1].name == topics[i].name)) continue;
    std::string what;
    for (std::size_t k = i; k < topics.size() && topics[k].name == topics[i].name; ++k) {
      std::set<std::string> files;
      for (const auto& m : topics[k].members) files.insert(sources[m.source]->info().path);
      std::string in;
      for (const auto& f : files) in += (in.empty() ? "" : ", ") + f;
      what += (what.empty() ? "" : "; ") + topics[k].type + " in " + in;
    }
    ownProblems.push_back("topic " + topics[i].name + " has different types: " + what + " (shown as separate topics)");
    problems.push_back(ownProblems.back());
  }
  bool any = false;
  for (const auto& refs : index) {
    if (refs.empty()) continue;
    startNs = any ? std::min(startNs, refs.front().logTimeNs) : refs.front().logTimeNs;
    endNs = any ? std::max(endNs, refs.back().logTimeNs) : refs.back().logTimeNs;
    any = true;
  }
  return {};
}

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
  msg.bytes = hint.chunk->data.span().subspan(m->offset, m->size);
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
// Opening

Session::Session(std::unique_ptr<State> state) : state_(std::move(state)) {}
Session::~Session() = default;

Result<std::unique_ptr<Session>> Session::open(std::vector<std::unique_ptr<Source>> sources,
                                               const SessionOptions& options) {
  auto state = std::make_unique<State>(options);
  // msgPaths: folders of .msg files, or recordings to take definitions from.
  for (const auto& p : options.msgPaths) {
    std::error_code ec;
    if (storage::isFolderOfRecordings(p)) {
      state->msgFolders.push_back(p);
      continue;
    }
    auto source = storage::openSource(p);
    if (!source) {
      Error e = std::move(source).error();
      e.message = "as a source of message definitions: " + e.message;
      if (!options.skipFailedInputs) return e;
      state->ownProblems.push_back("definitions not used: " + e.describe());
      state->problems.push_back(state->ownProblems.back());
      continue;
    }
    state->definitionSources.push_back(std::move(source).value());
  }
  for (auto& s : sources) {
    state->sources.push_back(std::move(s));
    state->sourceMutex.push_back(std::make_unique<std::recursive_mutex>());
  }
  BAGSCOPE_TRY(state->build());
  return std::unique_ptr<Session>(new Session(std::move(state)));
}

Result<std::unique_ptr<Session>> Session::open(const std::vector<fs::path>& inputs, const SessionOptions& options) {
  if (inputs.empty()) return fileError(ErrorCode::InvalidArgument, "nothing to open");
  auto cancelled = [] { return makeError(ErrorCode::Cancelled, "opening cancelled"); };
  // First what to open (cheap), then the files one by one, with progress between them.
  struct Candidate {
    fs::path path;
    bool named;  // named by the caller, not found in a folder
  };
  std::vector<Candidate> candidates;
  std::set<fs::path> seen;
  for (const auto& input : inputs) {
    std::error_code ec;
    bool folderOfBags = storage::isFolderOfRecordings(input);
    std::vector<fs::path> found;
    if (folderOfBags) {
      found = findRecordings(input, options.recursive);
      if (found.empty() && !options.skipFailedInputs)
        return fileError(ErrorCode::InvalidArgument,
                         std::string("no recordings (.bag, .mcap, rosbag2 folders) in this folder") +
                             (options.recursive ? " or its subfolders" : ""),
                         utf8(input));
    } else {
      found.push_back(input);
    }
    for (auto& path : found)
      if (seen.insert(fs::weakly_canonical(path, ec)).second) candidates.push_back({std::move(path), !folderOfBags});
  }
  auto progress = throttled(options.progress);
  std::vector<std::unique_ptr<Source>> sources;
  std::vector<OpenFailure> failures;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (options.stop.stop_requested()) return cancelled();
    if (progress) progress(0.9 * static_cast<double>(i) / static_cast<double>(candidates.size()));
    auto source = storage::openSource(candidates[i].path);
    if (source) {
      sources.push_back(std::move(source).value());
    } else if (candidates[i].named && !options.skipFailedInputs) {
      return std::move(source).error();
    } else {
      failures.push_back({utf8(candidates[i].path), source.error().describe()});
    }
  }
  if (sources.empty()) {
    std::string why;
    for (const auto& f : failures) why += (why.empty() ? "" : "; ") + f.reason;
    if (why.empty()) why = "no recordings (.bag, .mcap, rosbag2 folders) found";
    return fileError(ErrorCode::InvalidArgument, "none of the recordings could be opened: " + why);
  }
  if (options.stop.stop_requested()) return cancelled();
  auto session = open(std::move(sources), options);
  if (session) {
    auto& problems = (*session)->state_->problems;
    std::vector<std::string> skipped;
    for (const auto& f : failures) skipped.push_back("skipped " + f.reason);
    problems.insert(problems.begin(), skipped.begin(), skipped.end());
    (*session)->state_->failures = std::move(failures);
  }
  if (progress) progress(1.0);
  return session;
}

// ---------------------------------------------------------------------------------------
// What is open

std::size_t Session::sourceCount() const { return state_->sources.size(); }
const storage::SourceInfo& Session::sourceInfo(std::uint32_t source) const {
  return state_->sources.at(source)->info();
}
std::span<const Topic> Session::topics() const { return state_->topics; }
std::int64_t Session::startNs() const { return state_->startNs; }
std::int64_t Session::endNs() const { return state_->endNs; }
std::uint64_t Session::messageCount() const { return state_->messageCount; }
const std::vector<std::string>& Session::problems() const { return state_->problems; }
const std::vector<std::string>& Session::ownProblems() const { return state_->ownProblems; }
const std::vector<OpenFailure>& Session::failures() const { return state_->failures; }

std::optional<TopicId> Session::findTopic(std::string_view name) const {
  const auto& t = state_->topics;
  auto it = std::lower_bound(t.begin(), t.end(), name, [](const Topic& a, std::string_view n) { return a.name < n; });
  if (it == t.end() || it->name != name) return std::nullopt;
  return static_cast<TopicId>(it - t.begin());
}

std::span<const MessageRef> Session::index(TopicId topic) const { return state_->index.at(topic); }

std::optional<std::size_t> Session::atOrBefore(TopicId topic, std::int64_t timeNs) const {
  auto [lo, hi] = state_->range(topic, std::numeric_limits<std::int64_t>::min(), timeNs);
  if (hi == 0) return std::nullopt;
  return hi - 1;
}

std::optional<std::size_t> Session::atOrAfter(TopicId topic, std::int64_t timeNs) const {
  auto [lo, hi] = state_->range(topic, timeNs, std::numeric_limits<std::int64_t>::max());
  if (lo == hi) return std::nullopt;
  return lo;
}

Result<Message> Session::read(TopicId topic, std::size_t n) const {
  if (topic >= state_->topics.size()) return fileError(ErrorCode::InvalidArgument, "no topic " + std::to_string(topic));
  const auto& refs = state_->index[topic];
  if (n >= refs.size())
    return fileError(ErrorCode::InvalidArgument, "topic " + state_->topics[topic].name + " has " +
                                                     std::to_string(refs.size()) + " messages, not " +
                                                     std::to_string(n + 1));
  State::Hint hint;
  auto m = state_->read(topic, refs[n], hint);
  if (!m) {
    Error e = std::move(m).error();
    e.topic = state_->topics[topic].name;
    e.logTimeNs = refs[n].logTimeNs;
    return e;
  }
  return m;
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

// ---------------------------------------------------------------------------------------
// Field extraction

Result<std::shared_ptr<const decode::Decoder>> Session::decoder(const storage::Connection& c) const {
  {
    std::lock_guard lock(state_->decoderMutex);
    if (auto it = state_->decoders.find(&c); it != state_->decoders.end()) return it->second;
  }
  // Resolved without the lock: checking a definition reads messages, which may wait for a
  // file another thread is reading (and that thread may ask for a decoder meanwhile).
  auto resolved = state_->resolveDecoder(c);
  std::lock_guard lock(state_->decoderMutex);
  return state_->decoders.emplace(&c, std::move(resolved)).first->second;
}

std::vector<std::string> Session::decodeNotes() const {
  std::lock_guard lock(state_->decoderMutex);
  return state_->decodeNotes;
}

namespace {
bool holds(const Source& source, const storage::Connection& c) {
  auto conns = source.connections();
  return &c >= conns.data() && &c < conns.data() + conns.size();
}
}  // namespace

std::string Session::State::originOf(const storage::Connection& c) const {
  for (const auto* list : {&sources, &definitionSources})
    for (const auto& src : *list)
      if (holds(*src, c)) return src->info().path;
  return "?";
}

std::optional<Message> Session::State::firstMessageOf(const storage::Connection& c) const {
  for (std::uint32_t s = 0; s < sources.size(); ++s) {
    if (!holds(*sources[s], c)) continue;
    TopicId topic = topicOf[s][static_cast<std::size_t>(&c - sources[s]->connections().data())];
    const auto& refs = index[topic];
    // A topic of several connections: look a little way in for this one's first message.
    constexpr std::size_t kLook = 16;
    for (std::size_t n = 0; n < refs.size() && n < kLook; ++n) {
      if (refs[n].source != s) continue;
      Hint hint;
      if (auto m = read(topic, refs[n], hint); m && m->connection == &c) return std::move(m).value();
    }
  }
  return std::nullopt;
}

Result<std::shared_ptr<const decode::Decoder>> Session::State::resolveDecoder(const storage::Connection& c) const {
  // What could decode it, in order: the file's own definition, the same type as other files
  // define it, then the user's .msg folders and the standard interfaces.
  struct Candidate {
    std::string schemaEncoding;
    std::string_view definition;
    std::string origin;
  };
  std::vector<Candidate> candidates;
  if (!c.definition.empty()) candidates.push_back({c.schemaEncoding, c.definition, "stored"});
  auto [lo, hi] = definitionsByType.equal_range(normalTypeName(c.type));
  for (auto it = lo; it != hi; ++it) {
    const storage::Connection& other = *it->second;
    if (other.messageEncoding != c.messageEncoding) continue;
    bool known = std::any_of(candidates.begin(), candidates.end(),
                             [&](const Candidate& k) { return k.definition == other.definition; });
    if (!known) candidates.push_back({other.schemaEncoding, other.definition, "'" + originOf(other) + "'"});
  }
  candidates.push_back({"", {}, "built-in"});  // --msg-path folders, then the standard interfaces
  auto compile = [&](const Candidate& k) {
    return decode::compileFor(c.type, c.messageEncoding, k.definition.empty() ? "" : k.schemaEncoding, k.definition,
                              msgFolders);
  };
  // The first that compiles is used, unless it does not fit the messages and another does.
  std::optional<Result<std::shared_ptr<const decode::Decoder>>> primary;
  std::size_t used = 0;
  std::vector<std::pair<std::size_t, std::shared_ptr<const decode::Decoder>>> others;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    auto d = compile(candidates[i]);
    if (primary && *primary) {
      if (d) others.emplace_back(i, std::move(d).value());
    } else if (d || !primary) {
      primary = std::move(d);
      used = i;
    }
  }
  if (!*primary || others.empty()) return std::move(*primary);
  // Only where there is a choice: check the definition on the connection's first message
  // (a placeholder stored by a tool, another version of the type reads it wrong).
  auto sample = firstMessageOf(c);
  if (!sample) return std::move(*primary);
  auto misfit = [&](const decode::Decoder& d) -> std::optional<std::string> {
    if (auto v = d.decode(sample->bytes); !v) return v.error().message;
    return std::nullopt;
  };
  auto why = misfit(***primary);
  if (!why) return std::move(*primary);
  const std::string& origin = candidates[used].origin;
  std::string said = c.topic + ": the " + (origin == "stored" ? "stored definition" : "definition from " + origin) +
                     " of " + c.type + " does not match its messages (" + *why + ")";
  for (auto& [i, d] : others) {
    if (misfit(*d)) continue;
    std::lock_guard lock(decoderMutex);
    decodeNotes.push_back(
        said + "; decoded with the " +
        (candidates[i].origin == "built-in" ? "built-in definition" : "definition from " + candidates[i].origin));
    return d;
  }
  std::lock_guard lock(decoderMutex);
  decodeNotes.push_back(said + "; no other definition fits them");
  return std::move(*primary);
}

namespace {

// What each connection of a topic compiles to (a field reader, a message path), built from
// its decoder by `make`; a connection without a decoder is left out and why is kept.
template <class T>
struct PerConnection {
  std::vector<T> compiled;
  std::map<const storage::Connection*, std::size_t> of;
  std::string undecodable = "no decoder";
  const T* find(const storage::Connection* c) const {
    auto it = of.find(c);
    return it == of.end() ? nullptr : &compiled[it->second];
  }
};
template <class T, class Make>
Result<PerConnection<T>> compilePerConnection(const Session& session, const Topic& topic, Make make) {
  PerConnection<T> out;
  for (const auto& m : topic.members) {
    auto d = session.decoder(*m.connection);
    if (!d) {
      out.undecodable = d.error().describe();
      continue;
    }
    Result<T> made = make(*d);
    if (!made) {  // a path the type does not have is the caller's error
      Error e = std::move(made).error();
      e.topic = topic.name;
      return e;
    }
    out.of[m.connection] = out.compiled.size();
    out.compiled.push_back(std::move(made).value());
  }
  return out;
}

// Messages that could not be read or decoded, counted from several threads, the first named.
struct ProblemCount {
  std::atomic<std::uint64_t> count{0};
  std::mutex mutex;
  std::string first;
  void note(const Error& e) {
    count.fetch_add(1);
    std::lock_guard lock(mutex);
    if (first.empty()) first = e.describe();
  }
};

}  // namespace

Result<FieldColumns> Session::extractFields(TopicId topic, const std::vector<std::string>& paths, std::int64_t startNs,
                                            std::int64_t endNs, StopToken stop, const ProgressFn& progress) const {
  const State& st = *state_;
  if (topic >= st.topics.size()) return fileError(ErrorCode::InvalidArgument, "no topic " + std::to_string(topic));
  const Topic& t = st.topics[topic];
  // A reader per connection of the topic; a path that does not exist is the caller's error.
  auto readers = compilePerConnection<decode::FieldReader>(
      *this, t,
      [&](const std::shared_ptr<const decode::Decoder>& d) { return decode::FieldReader::compile(d, paths); });
  BAGSCOPE_TRY(readers);
  // Not a structured binding: the lambda below captures `lo` (clang before 16 cannot capture one).
  const auto range = st.range(topic, startNs, endNs);
  const std::size_t lo = range.first, hi = range.second;
  std::size_t n = hi - lo;
  FieldColumns out;
  out.paths = paths;
  out.logTimeNs.resize(n);
  out.values.assign(paths.size(), std::vector<double>(n, std::numeric_limits<double>::quiet_NaN()));
  ProblemCount problems;
  auto r = forEachParallel(
      {{topic}, startNs, endNs},
      [&](TopicId, std::size_t row, const Result<Message>& m) {
        out.logTimeNs[row] = st.index[topic][lo + row].logTimeNs;
        if (!m) return problems.note(m.error());
        const decode::FieldReader* reader = readers->find(m->connection);
        if (!reader) return problems.note(fileError(ErrorCode::Schema, readers->undecodable));
        // On the stack for the usual few fields (not thread_local: see LoadContexts).
        std::array<double, 32> few;
        std::vector<double> many(paths.size() > few.size() ? paths.size() : 0);
        std::span<double> values = many.empty() ? std::span<double>(few).first(paths.size()) : std::span<double>(many);
        if (auto ok = reader->read(m->bytes, values); !ok) return problems.note(ok.error());
        for (std::size_t p = 0; p < values.size(); ++p) out.values[p][row] = values[p];
      },
      stop, progress);
  BAGSCOPE_TRY(r);
  out.unreadable = problems.count.load();
  out.firstProblem = problems.first;
  return out;
}

Result<PathSamples> Session::extractPath(TopicId topic, const std::string& path, std::int64_t startNs,
                                         std::int64_t endNs, StopToken stop, const ProgressFn& progress) const {
  const State& st = *state_;
  if (topic >= st.topics.size()) return fileError(ErrorCode::InvalidArgument, "no topic " + std::to_string(topic));
  const Topic& t = st.topics[topic];
  struct Compiled {
    std::shared_ptr<const decode::Decoder> decoder;
    decode::MessagePath path;
  };
  auto compiled = compilePerConnection<Compiled>(
      *this, t, [&](const std::shared_ptr<const decode::Decoder>& d) -> Result<Compiled> {
        auto p = decode::MessagePath::compile(path, *d->schema().root);
        BAGSCOPE_TRY(p);
        return Compiled{d, std::move(p).value()};
      });
  BAGSCOPE_TRY(compiled);
  PathSamples out;
  out.path = path;
  out.textLeaf = !compiled->compiled.empty() && compiled->compiled.back().path.textLeaf();
  const auto range = st.range(topic, startNs, endNs);
  const std::size_t n = range.second - range.first;
  // Per message its leaves, flattened in message order when all are in.
  std::vector<std::vector<decode::MessagePath::Leaf>> leaves(n);
  std::vector<std::vector<std::string>> texts(out.textLeaf ? n : 0);
  ProblemCount problems;
  auto r = forEachParallel(
      {{topic}, startNs, endNs},
      [&](TopicId, std::size_t row, const Result<Message>& m) {
        if (!m) return problems.note(m.error());
        const Compiled* one = compiled->find(m->connection);
        if (!one) return problems.note(fileError(ErrorCode::Schema, compiled->undecodable));
        auto value = one->decoder->decode(m->bytes);
        if (!value) return problems.note(value.error());
        one->path.select(*value, leaves[row]);
        if (out.textLeaf)
          for (auto& leaf : leaves[row]) texts[row].emplace_back(leaf.text);  // the Value's text dies here
      },
      stop, progress);
  BAGSCOPE_TRY(r);
  out.messages = n;
  out.unreadable = problems.count.load();
  out.firstProblem = problems.first;
  const auto& refs = st.index[topic];
  for (std::size_t row = 0; row < n; ++row) {
    if (leaves[row].empty()) ++out.unmatched;
    for (std::size_t k = 0; k < leaves[row].size(); ++k) {
      out.logTimeNs.push_back(refs[range.first + row].logTimeNs);
      out.rows.push_back(static_cast<std::uint32_t>(row));
      out.values.push_back(leaves[row][k].number);
      if (out.textLeaf) out.texts.push_back(std::move(texts[row][k]));
    }
  }
  out.unmatched -= std::min(out.unmatched, out.unreadable);  // an unreadable message selected nothing either
  return out;
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

// ---------------------------------------------------------------------------------------
// Jobs

struct Job::Control {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
};

Job::Job() : control_(std::make_shared<Control>()) {}

Job::~Job() {
  // Dropped by its own `done` callback: let the thread end by itself.
  if (thread_.joinable() && thread_.get_id() == std::this_thread::get_id()) thread_.detach();
}

bool Job::finished() const {
  std::lock_guard lock(control_->mutex);
  return control_->done;
}

void Job::wait() {
  std::unique_lock lock(control_->mutex);
  control_->finished.wait(lock, [&] { return control_->done; });
}

std::shared_ptr<Job> Session::startJob(std::function<Result<void>(StopToken, const ProgressFn&)> work,
                                       ProgressFn progress, std::function<void(Result<void>)> done) const {
  std::shared_ptr<Job> job(new Job());
  job->thread_ = JoiningThread([control = job->control_, work = std::move(work),
                                progress = throttled(std::move(progress)), done = std::move(done)](StopToken stop) {
    Result<void> r = runCatching([&] { return work(stop, progress); });
    if (done) done(std::move(r));
    std::lock_guard lock(control->mutex);
    control->done = true;
    control->finished.notify_all();
  });
  return job;
}

Result<storage::RecordingSummary> Session::summary(std::uint32_t source) const {
  if (source >= state_->sources.size())
    return fileError(ErrorCode::InvalidArgument, "no file " + std::to_string(source));
  std::lock_guard lock(*state_->sourceMutex[source]);
  return storage::summarize(*state_->sources[source]);
}

Result<storage::FileExtras> Session::extras(std::uint32_t source) const {
  if (source >= state_->sources.size())
    return fileError(ErrorCode::InvalidArgument, "no file " + std::to_string(source));
  std::lock_guard lock(*state_->sourceMutex[source]);
  return state_->sources[source]->extras();
}

CacheStats Session::cacheStats() const { return state_->cache.stats(); }
void Session::setCacheBudget(std::size_t bytes) { state_->cache.setBudget(bytes); }

}  // namespace bagscope::session
