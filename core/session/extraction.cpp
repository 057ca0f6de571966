// Field extraction: a topic's fields or a message path's values, as columns.

#include "session.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>

#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/session_state.hpp"
#include "core/session/detail/worker_pool.hpp"

namespace bagscope::session {
namespace fs = std::filesystem;
using storage::Source;

// ---------------------------------------------------------------------------------------
// Field extraction

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

}  // namespace bagscope::session
