#include "timing.hpp"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>

#include "core/base/byte_cursor.hpp"
#include "core/base/json_text.hpp"
#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/storage/summary.hpp"

namespace bagscope::session {
namespace {

// Messages logged earlier than one written before them in the same file. `refs` are in
// log-time order; where each file's locations are in that order too (the usual case), none.
std::uint64_t outOfOrderWrites(std::span<const MessageRef> refs) {
  auto written = [](const MessageRef* a, const MessageRef* b) {
    return a->location.chunk != b->location.chunk ? a->location.chunk < b->location.chunk
                                                  : a->location.offset < b->location.offset;
  };
  std::map<std::uint32_t, const MessageRef*> last;
  bool inOrder = true;
  for (const auto& r : refs) {
    auto [it, first] = last.try_emplace(r.source, &r);
    if (!first && written(&r, it->second)) inOrder = false;
    it->second = &r;
  }
  if (inOrder) return 0;
  std::map<std::uint32_t, std::vector<const MessageRef*>> byFile;
  for (const auto& r : refs) byFile[r.source].push_back(&r);
  std::uint64_t count = 0;
  for (auto& [source, order] : byFile) {
    std::sort(order.begin(), order.end(), written);
    std::int64_t latest = INT64_MIN;
    for (const MessageRef* r : order) {
      if (r->logTimeNs < latest) ++count;
      latest = std::max(latest, r->logTimeNs);
    }
  }
  return count;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

TopicTiming computeTiming(std::vector<std::int64_t> logTimes, const std::vector<std::int64_t>& stamps) {
  TopicTiming t;
  t.count = logTimes.size();
  std::int64_t latest = INT64_MIN;
  for (auto v : logTimes) {
    if (v < latest) ++t.outOfOrder;
    latest = std::max(latest, v);
  }
  std::vector<std::int64_t> latencies;
  for (std::size_t i = 0; i < stamps.size() && i < logTimes.size(); ++i) {
    if (stamps[i] == kUnreadStamp) ++t.unreadable;
    else if (stamps[i] == 0) ++t.zeroStamps;
    else latencies.push_back(logTimes[i] - stamps[i]);
  }
  if (!latencies.empty()) {
    auto middle = latencies.begin() + static_cast<std::ptrdiff_t>(latencies.size() / 2);
    std::nth_element(latencies.begin(), middle, latencies.end());
    auto [low, high] = std::minmax_element(latencies.begin(), latencies.end());
    t.latency = Latency{*low, *middle, *high};
  }
  if (!std::is_sorted(logTimes.begin(), logTimes.end())) std::sort(logTimes.begin(), logTimes.end());
  if (logTimes.size() < 2) return t;
  // The five longest intervals (longest first; equal lengths: earlier first), kept as we go.
  auto longer = [](const Gap& a, const Gap& b) {
    return a.lengthNs() != b.lengthNs() ? a.lengthNs() > b.lengthNs() : a.fromNs < b.fromNs;
  };
  double sum = 0, sumSq = 0;
  for (std::size_t i = 1; i < logTimes.size(); ++i) {
    Gap g{logTimes[i - 1], logTimes[i]};
    if (t.largestGaps.size() < 5 || longer(g, t.largestGaps.back())) {
      if (t.largestGaps.size() == 5) t.largestGaps.pop_back();
      t.largestGaps.insert(std::upper_bound(t.largestGaps.begin(), t.largestGaps.end(), g, longer), g);
    }
    auto d = static_cast<double>(g.lengthNs());
    sum += d;
    sumSq += d * d;
  }
  double n = static_cast<double>(logTimes.size() - 1);
  double mean = sum / n;
  t.jitterNs = std::sqrt(std::max(0.0, sumSq / n - mean * mean));
  t.meanRateHz = storage::rateHz(logTimes.size(), logTimes.front(), logTimes.back());
  std::vector<std::int64_t> intervals(logTimes.size() - 1);
  for (std::size_t i = 1; i < logTimes.size(); ++i) intervals[i - 1] = logTimes[i] - logTimes[i - 1];
  auto middle = intervals.begin() + static_cast<std::ptrdiff_t>(intervals.size() / 2);
  std::nth_element(intervals.begin(), middle, intervals.end());
  t.medianRateHz = *middle > 0 ? 1e9 / static_cast<double>(*middle) : 0;
  return t;
}

Result<std::vector<TopicTiming>> timingStats(const Session& session, StopToken stop, std::span<const TopicId> only) {
  auto topics = session.topics();
  std::vector<TopicId> ids(only.begin(), only.end());
  if (ids.empty())
    for (TopicId id = 0; id < topics.size(); ++id) ids.push_back(id);
  std::vector<bool> header(topics.size());
  Selection withHeader;
  for (TopicId id : ids) {
    if (id >= topics.size()) return makeError(ErrorCode::InvalidArgument, "no topic " + std::to_string(id));
    const auto& members = topics[id].members;
    header[id] = !members.empty() && std::all_of(members.begin(), members.end(), [&](const Topic::Member& m) {
      auto d = session.decoder(*m.connection);
      if (!d) return false;
      return schema::startsWithHeader(*(*d)->schema().root);
    });
    if (header[id]) withHeader.topics.push_back(id);
  }
  // Header stamps, read straight from the bytes, every chunk once, on every core.
  std::vector<std::vector<std::int64_t>> stamps(topics.size());
  std::vector<std::string> readErrors(topics.size());
  std::mutex errorsMutex;
  for (TopicId id : withHeader.topics) stamps[id].assign(session.index(id).size(), 0);
  if (!withHeader.topics.empty()) {
    auto r = session.forEachParallel(
        withHeader,
        [&](TopicId id, std::size_t row, const Result<Message>& m) {
          if (!m) {
            stamps[id][row] = kUnreadStamp;
            std::lock_guard lock(errorsMutex);
            if (readErrors[id].empty()) readErrors[id] = m.error().describe();
            return;
          }
          auto wire = m->connection->messageEncoding == "cdr" ? decode::WireFormat::Cdr : decode::WireFormat::Ros1;
          stamps[id][row] = decode::peekHeaderStamp(m->bytes, wire).value_or(0);
        },
        stop);
    BAGSCOPE_TRY(r);
  }
  std::vector<TopicTiming> out;
  for (TopicId id : ids) {
    auto refs = session.index(id);
    std::vector<std::int64_t> logTimes(refs.size());
    for (std::size_t i = 0; i < refs.size(); ++i) logTimes[i] = refs[i].logTimeNs;
    TopicTiming t = computeTiming(std::move(logTimes), stamps[id]);
    t.topic = topics[id].name;
    t.type = topics[id].type;
    t.hasHeader = header[id];
    t.readError = std::move(readErrors[id]);
    t.outOfOrder = outOfOrderWrites(refs);
    out.push_back(std::move(t));
  }
  return out;
}

std::string formatTimingText(const std::vector<TopicTiming>& stats) {
  std::size_t width = 5;
  for (const auto& t : stats) width = std::max(width, t.topic.size());
  std::string out = "topic" + std::string(width - 5, ' ') +
                    "    count    rate Hz  median Hz  jitter ms  max gap ms  out-of-order  zero stamps  latency ms "
                    "(min / median / max)\n";
  for (const auto& t : stats) {
    std::string name = t.topic;
    name.resize(width, ' ');
    out += name + fmt(" %8.0f", static_cast<double>(t.count)) + fmt(" %10.3f", t.meanRateHz) +
           fmt(" %10.3f", t.medianRateHz) + fmt(" %10.3f", t.jitterNs / 1e6) +
           fmt(" %11.3f", t.largestGaps.empty() ? 0.0 : static_cast<double>(t.largestGaps[0].lengthNs()) / 1e6) +
           fmt(" %13.0f", static_cast<double>(t.outOfOrder));
    if (!t.hasHeader) {
      out += "            –  – (no header)\n";
      continue;
    }
    out += fmt(" %12.0f", static_cast<double>(t.zeroStamps));
    if (t.latency)
      out += fmt("  %.3f", static_cast<double>(t.latency->minNs) / 1e6) +
             fmt(" / %.3f", static_cast<double>(t.latency->medianNs) / 1e6) +
             fmt(" / %.3f", static_cast<double>(t.latency->maxNs) / 1e6);
    else out += "  –";
    out += "\n";
  }
  return out;
}

std::string formatTimingJson(const std::vector<TopicTiming>& stats) {
  std::string out = "[";
  for (std::size_t k = 0; k < stats.size(); ++k) {
    const auto& t = stats[k];
    out += k ? ",{" : "{";
    out += "\"topic\":";
    appendJsonString(t.topic, out);
    out += ",\"type\":";
    appendJsonString(t.type, out);
    out += ",\"count\":" + std::to_string(t.count) + ",\"mean_rate_hz\":";
    appendJsonDouble(t.meanRateHz, out);
    out += ",\"median_rate_hz\":";
    appendJsonDouble(t.medianRateHz, out);
    out += ",\"jitter_ns\":";
    appendJsonDouble(t.jitterNs, out);
    out += ",\"largest_gaps\":[";
    for (std::size_t g = 0; g < t.largestGaps.size(); ++g) {
      out += g ? ",{" : "{";
      out += "\"from_ns\":" + std::to_string(t.largestGaps[g].fromNs) +
             ",\"to_ns\":" + std::to_string(t.largestGaps[g].toNs) +
             ",\"length_ns\":" + std::to_string(t.largestGaps[g].lengthNs()) + "}";
    }
    out += "],\"out_of_order\":" + std::to_string(t.outOfOrder);
    out += std::string(",\"has_header\":") + (t.hasHeader ? "true" : "false");
    if (t.hasHeader) {
      out += ",\"zero_stamps\":" + std::to_string(t.zeroStamps);
      if (t.unreadable) out += ",\"unreadable\":" + std::to_string(t.unreadable);
      if (t.latency)
        out += ",\"latency_ns\":{\"min\":" + std::to_string(t.latency->minNs) +
               ",\"median\":" + std::to_string(t.latency->medianNs) + ",\"max\":" + std::to_string(t.latency->maxNs) +
               "}";
    }
    out += "}";
  }
  return out + "]";
}

std::optional<RunAlignment> parseRunAlignment(std::string_view text) {
  RunAlignment a;
  a.text = std::string(text);
  if (text == "start") return a;
  if (text.starts_with("offset:")) {
    a.mode = RunAlignment::Mode::Offset;
    if (!parseSeconds(text.substr(7), a.offsetNs)) return std::nullopt;
    return a;
  }
  if (!text.starts_with("event:")) return std::nullopt;
  a.mode = RunAlignment::Mode::Event;
  text.remove_prefix(6);
  // TOPIC[:PATH>VALUE]: the topic ends at the first ':' (topic names hold none).
  auto colon = text.find(':');
  a.topic = std::string(text.substr(0, colon));
  if (a.topic.empty()) return std::nullopt;
  if (colon == std::string_view::npos) return a;
  std::string_view rest = text.substr(colon + 1);
  auto op = rest.find_first_of("<>");
  if (op == std::string_view::npos || op == 0) return std::nullopt;
  std::string_view number = rest.substr(op + 1);
  auto r = fast_float::from_chars(number.data(), number.data() + number.size(), a.value);
  if (number.empty() || r.ec != std::errc() || r.ptr != number.data() + number.size() || !std::isfinite(a.value))
    return std::nullopt;
  a.path = std::string(rest.substr(0, op));
  a.op = rest[op];
  return a;
}

namespace {

// The time in `s` the alignment holds to: its start, an event topic's first message, or the
// first time the path's value crosses the value (linearly between the two messages around it).
Result<std::int64_t> anchorTime(const Session& s, const RunAlignment& a, const std::string& name) {
  if (a.mode != RunAlignment::Mode::Event) return s.startNs();
  auto id = s.findTopic(a.topic);
  if (!id || s.index(*id).empty())
    return makeError(ErrorCode::InvalidArgument, name + " has no message on '" + a.topic + "', the alignment's event");
  if (a.path.empty()) return s.index(*id).front().logTimeNs;
  auto columns = s.extractFields(*id, {a.path});
  if (!columns) return columns.error();
  const auto& t = columns->logTimeNs;
  const auto& v = columns->values.front();
  for (std::size_t i = 1; i < t.size(); ++i) {
    const bool crossed = a.op == '>' ? v[i - 1] <= a.value && v[i] > a.value : v[i - 1] >= a.value && v[i] < a.value;
    if (!crossed) continue;
    const double w = (a.value - v[i - 1]) / (v[i] - v[i - 1]);
    return t[i - 1] + static_cast<std::int64_t>(std::llround(w * static_cast<double>(t[i] - t[i - 1])));
  }
  return makeError(ErrorCode::InvalidArgument, name + ": " + a.topic + " " + a.path + " never crosses " + a.op +
                                                   std::to_string(a.value) + ", the alignment's event");
}

RunTopic runTopic(const Session& s, TopicId id) {
  const auto& topic = s.topics()[id];
  RunTopic f;
  f.type = topic.type;
  if (!topic.members.empty()) {
    f.definition = topic.members.front().connection->definition;
    f.schemaEncoding = topic.members.front().connection->schemaEncoding;
  }
  std::vector<std::int64_t> times;
  for (const auto& m : s.index(id)) times.push_back(m.logTimeNs);
  const auto timing = computeTiming(std::move(times), {});
  f.count = timing.count;
  f.rateHz = timing.meanRateHz;
  if (!timing.largestGaps.empty()) f.largestGapS = static_cast<double>(timing.largestGaps.front().lengthNs()) / 1e9;
  return f;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

bool changed(double a, double b, double tolerance) {
  return std::abs(a - b) > tolerance * std::max(std::abs(a), std::abs(b));
}

}  // namespace

Result<std::int64_t> runShiftNs(const Session& a, const Session& b, const RunAlignment& align) {
  auto anchorA = anchorTime(a, align, "A");
  BAGSCOPE_TRY(anchorA);
  auto anchorB = anchorTime(b, align, "B");
  BAGSCOPE_TRY(anchorB);
  return *anchorA - *anchorB + align.offsetNs;
}

std::vector<TopicComparison> compareTopics(const Session& a, const Session& b, double tolerance) {
  std::vector<TopicComparison> out;
  for (TopicId id = 0; id < a.topics().size(); ++id) {
    TopicComparison t{a.topics()[id].name, runTopic(a, id), std::nullopt, 0};
    if (auto other = b.findTopic(t.topic)) {
      t.b = runTopic(b, *other);
      const RunTopic &x = *t.a, &y = *t.b;
      using C = TopicComparison;
      if (normalTypeName(x.type) != normalTypeName(y.type)) t.changes |= C::Type;
      else if (x.schemaEncoding == y.schemaEncoding && trimmed(x.definition) != trimmed(y.definition))
        t.changes |= C::Definition;
      if (x.count != y.count) t.changes |= C::Count;
      if (changed(x.rateHz, y.rateHz, tolerance)) t.changes |= C::Rate;
      if (changed(x.largestGapS, y.largestGapS, tolerance)) t.changes |= C::Gap;
    }
    out.push_back(std::move(t));
  }
  for (TopicId id = 0; id < b.topics().size(); ++id)
    if (!a.findTopic(b.topics()[id].name)) out.push_back({b.topics()[id].name, std::nullopt, runTopic(b, id), 0});
  return out;
}

}  // namespace bagscope::session
