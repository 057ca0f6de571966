// Opening a session: the files' indexes merged into one per topic; what is open.

#include "session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <set>

#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/session_state.hpp"
#include "core/session/detail/worker_pool.hpp"

namespace bagscope::session {
namespace fs = std::filesystem;
using storage::Source;

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
