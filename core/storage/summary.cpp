#include "summary.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "core/base/json_text.hpp"
#include "core/base/text.hpp"

namespace bagscope::storage {
namespace {

std::string printf1(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// "1700000000.000999928": exact, from the integer nanoseconds.
std::string formatSeconds(std::int64_t ns) {
  char buf[40];
  std::int64_t sec = ns / 1'000'000'000, frac = ns % 1'000'000'000;
  if (frac < 0) {
    sec -= 1;
    frac += 1'000'000'000;
  }
  std::snprintf(buf, sizeof buf, "%lld.%09lld", static_cast<long long>(sec), static_cast<long long>(frac));
  return buf;
}

void appendKey(std::string& out, const char* key) {
  appendJsonString(key, out);
  out += ':';
}

}  // namespace

double rateHz(std::uint64_t count, std::int64_t firstNs, std::int64_t lastNs) {
  if (count < 2 || lastNs <= firstNs) return 0;
  return static_cast<double>(count - 1) * 1e9 / static_cast<double>(lastNs - firstNs);
}

Result<RecordingSummary> summarize(Source& source) {
  RecordingSummary s;
  auto stats = source.chunkStats();
  BAGSCOPE_TRY(stats);
  s.chunks = std::move(stats).value();
  auto spans = source.connectionSpans();
  BAGSCOPE_TRY(spans);
  s.info = source.info();  // after the spans: building the index for them may have added problems

  auto conns = source.connections();
  std::set<std::pair<std::string, std::string>> types;
  std::map<std::string, std::vector<std::size_t>> byTopic;
  for (std::size_t i = 0; i < conns.size(); ++i) {
    types.insert({conns[i].type, conns[i].md5sum});
    byTopic[conns[i].topic].push_back(i);
  }
  for (const auto& [type, md5] : types) s.types.push_back({type, md5});
  for (const auto& [topic, members] : byTopic) {
    TopicSummary t;
    t.topic = topic;
    ConnectionSpan all;
    for (std::size_t i : members) {
      if (std::find(t.types.begin(), t.types.end(), conns[i].type) == t.types.end()) t.types.push_back(conns[i].type);
      if (t.offeredQos.empty()) t.offeredQos = conns[i].offeredQos;
      all.add((*spans)[i]);
      ++t.connectionCount;
    }
    t.messageCount = all.count;
    t.frequencyHz = rateHz(all.count, all.firstNs, all.lastNs);
    s.topics.push_back(std::move(t));
  }
  return s;
}

std::string formatUtc(std::int64_t ns) {
  std::int64_t secs = ns >= 0 ? ns / 1'000'000'000 : (ns - 999'999'999) / 1'000'000'000;
  std::int64_t frac = ns - secs * 1'000'000'000;
  std::int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
  std::int64_t rem = secs - days * 86400;
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  std::int64_t z = days + 719468;
  std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  std::int64_t doe = z - era * 146097;
  std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  std::int64_t mp = (5 * doy + 2) / 153;
  std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
  std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
  std::int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%03lld UTC", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(rem / 3600),
                static_cast<long long>(rem / 60 % 60), static_cast<long long>(rem % 60),
                static_cast<long long>(frac / 1'000'000));
  return buf;
}

std::string formatSummaryText(const RecordingSummary& s) {
  const SourceInfo& i = s.info;
  std::string out;
  auto line = [&](const std::string& key, const std::string& value) {
    std::string k = key + ":";
    k.resize(std::max<std::size_t>(k.size() + 1, 14), ' ');
    out += k + value + "\n";
  };
  line("path", i.path);
  line("format", i.format + " " + i.version + (i.indexed ? "" : " (no usable index: rebuilt by scanning)"));
  double seconds = static_cast<double>(i.endNs - i.startNs) / 1e9;
  line("duration", printf1("%.3f s", i.messageCount ? seconds : 0.0));
  if (i.messageCount) {
    line("start", formatUtc(i.startNs) + " (" + formatSeconds(i.startNs) + ")");
    line("end", formatUtc(i.endNs) + " (" + formatSeconds(i.endNs) + ")");
  }
  line("size", formatBytes(i.sizeBytes));
  line("messages", std::to_string(i.messageCount));
  std::string comp;
  for (const auto& [name, n] : s.chunks.chunksByCompression)
    comp += (comp.empty() ? "" : ", ") + name + " [" + std::to_string(n) + "/" + std::to_string(s.chunks.chunkCount) +
            " chunks]";
  if (comp.empty()) comp = "none";
  if (s.chunks.uncompressedBytes > 0 && s.chunks.storedBytes != s.chunks.uncompressedBytes)
    comp += printf1("; %.2f%%", 100.0 * static_cast<double>(s.chunks.storedBytes) /
                                    static_cast<double>(s.chunks.uncompressedBytes));
  line("compression", comp);
  if (s.chunks.storedBytes != s.chunks.uncompressedBytes) {
    line("uncompressed", formatBytes(s.chunks.uncompressedBytes));
    line("compressed", formatBytes(s.chunks.storedBytes));
  }
  std::size_t typeWidth = 0, topicWidth = 0;
  for (const auto& t : s.types) typeWidth = std::max(typeWidth, t.type.size());
  for (const auto& t : s.topics) topicWidth = std::max(topicWidth, t.topic.size());
  for (std::size_t k = 0; k < s.types.size(); ++k) {
    std::string name = s.types[k].type;
    name.resize(typeWidth, ' ');
    std::string v = s.types[k].md5sum.empty() ? s.types[k].type : name + " [" + s.types[k].md5sum + "]";
    if (k == 0) line("types", v);
    else out += std::string(14, ' ') + v + "\n";
  }
  std::size_t countWidth = 0;
  for (const auto& t : s.topics) countWidth = std::max(countWidth, std::to_string(t.messageCount).size());
  for (std::size_t k = 0; k < s.topics.size(); ++k) {
    const auto& t = s.topics[k];
    std::string name = t.topic;
    name.resize(topicWidth, ' ');
    std::string count = std::to_string(t.messageCount);
    count.insert(0, countWidth - count.size(), ' ');
    std::string v = name + "  " + count + " msgs";
    v += t.frequencyHz > 0 ? printf1(" @ %8.2f Hz", t.frequencyHz) : std::string(14, ' ');
    if (t.bytes) {
      std::string size = formatBytes(*t.bytes);
      v += std::string(size.size() < 10 ? 10 - size.size() : 0, ' ') + size;
    }
    v += " : ";
    for (std::size_t j = 0; j < t.types.size(); ++j) v += (j ? ", " : "") + t.types[j];
    if (t.connectionCount > 1) v += " (" + std::to_string(t.connectionCount) + " connections)";
    if (k == 0) line("topics", v);
    else out += std::string(14, ' ') + v + "\n";
  }
  for (std::size_t k = 0; k < i.problems.size(); ++k) {
    if (k == 0) line("problems", i.problems[k]);
    else out += std::string(14, ' ') + i.problems[k] + "\n";
  }
  return out;
}

std::string formatSummaryJson(const RecordingSummary& s) {
  const SourceInfo& i = s.info;
  std::string out = "{";
  auto str = [&](const char* key, const std::string& v) {
    appendKey(out, key);
    appendJsonString(v, out);
    out += ',';
  };
  auto num = [&](const char* key, auto v) {
    appendKey(out, key);
    if constexpr (std::is_floating_point_v<decltype(v)>) appendJsonDouble(v, out);
    else out += std::to_string(v);
    out += ',';
  };
  str("path", i.path);
  str("format", i.format);
  str("version", i.version);
  appendKey(out, "indexed");
  out += i.indexed ? "true," : "false,";
  num("size_bytes", i.sizeBytes);
  num("message_count", i.messageCount);
  num("start_ns", i.messageCount ? i.startNs : 0);
  num("end_ns", i.messageCount ? i.endNs : 0);
  num("duration_ns", i.messageCount ? i.endNs - i.startNs : 0);
  appendKey(out, "compression");
  out += '{';
  num("chunk_count", s.chunks.chunkCount);
  num("stored_bytes", s.chunks.storedBytes);
  num("uncompressed_bytes", s.chunks.uncompressedBytes);
  appendKey(out, "chunks_by_compression");
  out += '{';
  for (std::size_t k = 0; k < s.chunks.chunksByCompression.size(); ++k) {
    if (k) out += ',';
    appendKey(out, s.chunks.chunksByCompression[k].first.c_str());
    out += std::to_string(s.chunks.chunksByCompression[k].second);
  }
  out += "}},";
  appendKey(out, "types");
  out += '[';
  for (std::size_t k = 0; k < s.types.size(); ++k) {
    out += k ? ",{" : "{";
    str("type", s.types[k].type);
    appendKey(out, "md5sum");
    appendJsonString(s.types[k].md5sum, out);
    out += '}';
  }
  out += "],";
  appendKey(out, "topics");
  out += '[';
  for (std::size_t k = 0; k < s.topics.size(); ++k) {
    const auto& t = s.topics[k];
    out += k ? ",{" : "{";
    str("topic", t.topic);
    appendKey(out, "types");
    out += '[';
    for (std::size_t j = 0; j < t.types.size(); ++j) {
      if (j) out += ',';
      appendJsonString(t.types[j], out);
    }
    out += "],";
    num("message_count", t.messageCount);
    num("connection_count", t.connectionCount);
    appendKey(out, "frequency_hz");
    appendJsonDouble(t.frequencyHz, out);
    if (t.bytes) {
      out += ',';
      appendKey(out, "bytes");
      out += std::to_string(*t.bytes);
    }
    if (!t.offeredQos.empty()) {
      out += ',';
      appendKey(out, "offered_qos_profiles");
      appendJsonString(t.offeredQos, out);
    }
    out += '}';
  }
  out += "],";
  appendKey(out, "problems");
  out += '[';
  for (std::size_t k = 0; k < i.problems.size(); ++k) {
    if (k) out += ',';
    appendJsonString(i.problems[k], out);
  }
  out += "]}";
  return out;
}

Result<void> measureTopicBytes(Source& source, RecordingSummary& summary) {
  std::map<std::string, std::uint64_t> bytes;
  auto r = source.readMessages(
      {}, [&](const MessageView& m) { return bytes[m.connection->topic] += m.bytes.size(), true; },
      [&](const Error& e) { summary.info.problems.push_back("not measured: " + e.describe()); });
  if (!r) return r;
  for (auto& t : summary.topics) t.bytes = bytes[t.topic];
  return {};
}

}  // namespace bagscope::storage
