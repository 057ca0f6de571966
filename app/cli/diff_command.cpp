// bagscope-cli diff: two runs of the same thing set against each other (the same test before
// and after a change, the robot and its simulation): topics only one has, types and
// definitions that changed, counts, rates and gaps, and chosen fields' differences, with an
// exit code CI can gate on.

#include <fast_float/fast_float.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "arguments.hpp"
#include "commands.hpp"
#include "core/analysis/derive.hpp"
#include "core/base/byte_source.hpp"
#include "core/base/json_text.hpp"
#include "core/session/session.hpp"
#include "core/session/timing.hpp"

namespace bagscope::cli {
namespace {

namespace fs = std::filesystem;
using session::Session;
using session::TopicId;

int usage(std::string_view why) { return usageError("diff", why); }

bool parseNumber(std::string_view text, double& out) {
  auto r = fast_float::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(out);
}

// How B's times are set against A's.
struct Alignment {
  enum class Mode : std::uint8_t { Start, Offset, Event } mode = Mode::Start;
  std::int64_t offsetNs = 0;  // Offset: B moved this much later after the starts are aligned
  std::string topic, path;    // Event: the first message of topic, or the first crossing of path
  char op = 0;                // '>' or '<': the crossing's direction
  double value = 0;
  std::string text = "start";
};

std::optional<Alignment> parseAlignment(std::string_view text) {
  Alignment a;
  a.text = std::string(text);
  if (text == "start") return a;
  if (text.starts_with("offset:")) {
    a.mode = Alignment::Mode::Offset;
    if (!parseSeconds(text.substr(7), a.offsetNs)) return std::nullopt;
    return a;
  }
  if (!text.starts_with("event:")) return std::nullopt;
  a.mode = Alignment::Mode::Event;
  text.remove_prefix(6);
  // TOPIC[:PATH>VALUE]: the topic ends at the first ':' (topic names hold none).
  auto colon = text.find(':');
  a.topic = std::string(text.substr(0, colon));
  if (a.topic.empty()) return std::nullopt;
  if (colon == std::string_view::npos) return a;
  std::string_view rest = text.substr(colon + 1);
  auto op = rest.find_first_of("<>");
  if (op == std::string_view::npos || op == 0 || !parseNumber(rest.substr(op + 1), a.value)) return std::nullopt;
  a.path = std::string(rest.substr(0, op));
  a.op = rest[op];
  return a;
}

// The time in `s` the alignment holds to: its start, an event topic's first message, or the
// first time the path's value crosses the value (linearly between the two messages around it).
Result<std::int64_t> anchorTime(const Session& s, const Alignment& a, const std::string& name) {
  if (a.mode != Alignment::Mode::Event) return s.startNs();
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

// A topic's figures in one run.
struct TopicFigures {
  std::string type, definition, schemaEncoding;
  std::uint64_t count = 0;
  double rateHz = 0;
  double largestGapS = 0;
};

TopicFigures figures(const Session& s, TopicId id) {
  const auto& topic = s.topics()[id];
  TopicFigures f;
  f.type = topic.type;
  if (!topic.members.empty()) {
    f.definition = topic.members.front().connection->definition;
    f.schemaEncoding = topic.members.front().connection->schemaEncoding;
  }
  std::vector<std::int64_t> times;
  for (const auto& m : s.index(id)) times.push_back(m.logTimeNs);
  const auto timing = session::computeTiming(std::move(times), {});  // as `stats` gives them
  f.count = timing.count;
  f.rateHz = timing.meanRateHz;
  if (!timing.largestGaps.empty()) f.largestGapS = static_cast<double>(timing.largestGaps.front().lengthNs()) / 1e9;
  return f;
}

// ROS 1 and ROS 2 spell one type two ways (std_msgs/Float64, std_msgs/msg/Float64).
std::string plainType(std::string type) {
  if (auto at = type.find("/msg/"); at != std::string::npos) type.erase(at, 4);
  return type;
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return std::string(text);
}

struct TopicDiff {
  std::string topic;
  TopicFigures a, b;
  std::vector<std::string> changes;  // what differs beyond the tolerances
};

struct FieldDiff {
  std::string topic, path;
  analysis::SeriesDifference d;
  bool differs = false;
};

struct DiffArgs {
  fs::path a, b;
  Alignment align;
  std::vector<std::pair<std::string, std::string>> fields;  // topic, path
  double tolerance = 0;
  double rateTolerance = 0.05;
  bool json = false;
  session::SessionOptions session;
};

std::optional<int> parseDiffArgs(const std::vector<std::string>& list, DiffArgs& out) {
  std::vector<fs::path> inputs;
  Arguments args(list);
  while (args.next()) {
    const std::string& a = args.current();
    std::string v;
    if (a == "--json") {
      out.json = true;
    } else if (a == "--align") {
      if (!args.value(v)) return usage("--align needs start, offset:S or event:TOPIC[:PATH>VALUE]");
      auto align = parseAlignment(v);
      if (!align) return usage("--align takes start, offset:S or event:TOPIC[:PATH>VALUE], not '" + v + "'");
      out.align = *align;
    } else if (a == "--field") {
      if (!args.value(v) || v.find(':') == std::string::npos || v.find(':') == 0 || v.back() == ':')
        return usage("--field needs TOPIC:PATH (/odom:pose.pose.position.x)");
      out.fields.emplace_back(v.substr(0, v.find(':')), v.substr(v.find(':') + 1));
    } else if (a == "--tolerance" || a == "--rate-tolerance") {
      double x = 0;
      if (!args.value(v) || !parseNumber(v, x) || x < 0) return usage(a + " needs a number of at least 0");
      (a == "--tolerance" ? out.tolerance : out.rateTolerance) = x;
    } else if (a == "--msg-path") {
      if (!args.value(v)) return usage("--msg-path needs a folder");
      out.session.msgPaths.push_back(fs::u8path(v));
    } else if (a.starts_with("-")) {
      return usage("unknown option '" + a + "'");
    } else {
      inputs.push_back(fs::u8path(a));
    }
  }
  if (inputs.size() != 2) return usage("two recordings are compared: diff A B");
  out.a = inputs[0];
  out.b = inputs[1];
  return std::nullopt;
}

// Relative change beyond `tolerance` (a fraction of the larger).
bool changed(double a, double b, double tolerance) {
  return std::abs(a - b) > tolerance * std::max(std::abs(a), std::abs(b));
}

// A figure as JSON writes it (shortest exact form; "nan" quoted), and as text.
std::string number(double v) {
  std::string out;
  appendJsonDouble(v, out);
  return out;
}
std::string shown(double v) { return std::isnan(v) ? "n/a" : number(v); }

}  // namespace

int runDiff(const std::vector<std::string>& list) {
  DiffArgs args;
  if (auto code = parseDiffArgs(list, args)) return *code;
  std::unique_ptr<Session> runs[2];
  for (int k = 0; k < 2; ++k) {
    auto opened = Session::open({k == 0 ? args.a : args.b}, args.session);
    if (!opened) {
      std::fprintf(stderr, "bagscope-cli: %s\n", describeForCli(opened.error()).c_str());
      return kFailed;
    }
    for (const auto& p : (*opened)->problems()) std::fprintf(stderr, "bagscope-cli: note: %s\n", p.c_str());
    runs[k] = std::move(opened).value();
  }
  const Session& a = *runs[0];
  const Session& b = *runs[1];

  // B's times + shiftNs are A's.
  auto anchorA = anchorTime(a, args.align, "A");
  auto anchorB = anchorA ? anchorTime(b, args.align, "B") : anchorA;
  if (!anchorB) {
    std::fprintf(stderr, "bagscope-cli: %s\n", describeForCli(anchorB.error()).c_str());
    return kFailed;
  }
  const std::int64_t shiftNs = *anchorA - *anchorB + args.align.offsetNs;

  // Topics: those of one run only, and how the common ones changed.
  std::vector<std::pair<std::string, TopicFigures>> onlyA, onlyB;
  std::vector<TopicDiff> common;
  for (TopicId id = 0; id < a.topics().size(); ++id) {
    const auto& name = a.topics()[id].name;
    auto other = b.findTopic(name);
    if (!other) {
      onlyA.emplace_back(name, figures(a, id));
      continue;
    }
    TopicDiff t{name, figures(a, id), figures(b, *other), {}};
    if (plainType(t.a.type) != plainType(t.b.type)) t.changes.push_back("type " + t.a.type + " -> " + t.b.type);
    else if (t.a.schemaEncoding == t.b.schemaEncoding && trimmed(t.a.definition) != trimmed(t.b.definition))
      t.changes.push_back("definition changed");
    if (t.a.count != t.b.count)
      t.changes.push_back("count " + std::to_string(t.a.count) + " -> " + std::to_string(t.b.count));
    if (changed(t.a.rateHz, t.b.rateHz, args.rateTolerance))
      t.changes.push_back("rate " + number(t.a.rateHz) + " -> " + number(t.b.rateHz) + " Hz");
    if (changed(t.a.largestGapS, t.b.largestGapS, args.rateTolerance))
      t.changes.push_back("largest gap " + number(t.a.largestGapS) + " -> " + number(t.b.largestGapS) + " s");
    common.push_back(std::move(t));
  }
  for (TopicId id = 0; id < b.topics().size(); ++id)
    if (!a.findTopic(b.topics()[id].name)) onlyB.emplace_back(b.topics()[id].name, figures(b, id));

  // Fields: B interpolated at A's times, over the span both cover once aligned.
  std::vector<FieldDiff> fields;
  for (const auto& [topic, path] : args.fields) {
    std::optional<TopicId> ids[2] = {a.findTopic(topic), b.findTopic(topic)};
    for (int k = 0; k < 2; ++k)
      if (!ids[k]) {
        std::fprintf(stderr, "bagscope-cli: --field: %s has no topic '%s'\n", k == 0 ? "A" : "B", topic.c_str());
        return kFailed;
      }
    std::vector<double> t[2], v[2];
    for (int k = 0; k < 2; ++k) {
      auto columns = runs[k]->extractFields(*ids[k], {path});
      if (!columns) {
        std::fprintf(stderr, "bagscope-cli: --field %s:%s: %s\n", topic.c_str(), path.c_str(),
                     describeForCli(columns.error()).c_str());
        return kFailed;
      }
      const std::int64_t shift = k == 0 ? 0 : shiftNs;
      for (std::int64_t ns : columns->logTimeNs) t[k].push_back(static_cast<double>(ns + shift - a.startNs()) / 1e9);
      v[k] = std::move(columns->values.front());
    }
    FieldDiff f{topic, path, analysis::compareSeries({t[0], v[0]}, {t[1], v[1]}, -INFINITY, INFINITY), false};
    f.differs = f.d.count == 0 || f.d.maxAbs > args.tolerance;
    fields.push_back(std::move(f));
  }

  std::size_t differences = onlyA.size() + onlyB.size();
  for (const auto& t : common) differences += t.changes.empty() ? 0 : 1;
  for (const auto& f : fields) differences += f.differs ? 1 : 0;

  std::string out;
  if (args.json) {
    auto str = [&](std::string_view s) { appendJsonString(s, out); };
    out += "{\"a\": ";
    str(utf8(args.a));
    out += ", \"b\": ";
    str(utf8(args.b));
    out += ", \"align\": ";
    str(args.align.text);
    out += ", \"shift_ns\": " + std::to_string(shiftNs);
    for (const auto* only : {&onlyA, &onlyB}) {
      out += only == &onlyA ? ", \"only_in_a\": [" : "], \"only_in_b\": [";
      for (std::size_t i = 0; i < only->size(); ++i) {
        out += i ? ", {\"topic\": " : "{\"topic\": ";
        str((*only)[i].first);
        out += ", \"type\": ";
        str((*only)[i].second.type);
        out += ", \"count\": " + std::to_string((*only)[i].second.count) + "}";
      }
    }
    out += "], \"topics\": [";
    for (std::size_t i = 0; i < common.size(); ++i) {
      const auto& t = common[i];
      out += i ? ", {\"topic\": " : "{\"topic\": ";
      str(t.topic);
      out += ", \"type_a\": ";
      str(t.a.type);
      out += ", \"type_b\": ";
      str(t.b.type);
      out += ", \"count_a\": " + std::to_string(t.a.count) + ", \"count_b\": " + std::to_string(t.b.count) +
             ", \"rate_a_hz\": " + number(t.a.rateHz) + ", \"rate_b_hz\": " + number(t.b.rateHz) +
             ", \"largest_gap_a_s\": " + number(t.a.largestGapS) + ", \"largest_gap_b_s\": " + number(t.b.largestGapS) +
             ", \"changes\": [";
      for (std::size_t c = 0; c < t.changes.size(); ++c) {
        if (c) out += ", ";
        str(t.changes[c]);
      }
      out += "]}";
    }
    out += "], \"fields\": [";
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const auto& f = fields[i];
      out += i ? ", {\"topic\": " : "{\"topic\": ";
      str(f.topic);
      out += ", \"path\": ";
      str(f.path);
      out += ", \"samples\": " + std::to_string(f.d.count) + ", \"mean\": " + number(f.d.mean) +
             ", \"rms\": " + number(f.d.rms) + ", \"max_abs\": " + number(f.d.maxAbs) +
             ", \"correlation\": " + number(f.d.correlation) + ", \"differs\": " + (f.differs ? "true" : "false") + "}";
    }
    out += "], \"differences\": " + std::to_string(differences) + "}\n";
  } else {
    char line[512];
    std::snprintf(line, sizeof line, "A: %s\nB: %s (aligned by %s: B's times %+.9f s)\n", utf8(args.a).c_str(),
                  utf8(args.b).c_str(), args.align.text.c_str(), static_cast<double>(shiftNs) / 1e9);
    out += line;
    for (const auto& [name, f] : onlyA)
      out += "only in A: " + name + " (" + f.type + ", " + std::to_string(f.count) + " messages)\n";
    for (const auto& [name, f] : onlyB)
      out += "only in B: " + name + " (" + f.type + ", " + std::to_string(f.count) + " messages)\n";
    for (const auto& t : common) {
      if (t.changes.empty()) continue;
      out += t.topic + ":";
      for (std::size_t c = 0; c < t.changes.size(); ++c) out += (c ? ", " : " ") + t.changes[c];
      out += "\n";
    }
    for (const auto& f : fields) {
      out += f.topic + " " + f.path + ": " + std::to_string(f.d.count) + " samples, mean delta " + shown(f.d.mean) +
             ", RMS " + shown(f.d.rms) + ", max |delta| " + shown(f.d.maxAbs) + ", correlation " +
             shown(f.d.correlation) + (f.differs ? " (differs)" : "") + "\n";
    }
    out += differences == 0   ? "no differences\n"
           : differences == 1 ? "1 difference\n"
                              : std::to_string(differences) + " differences\n";
  }
  writeStdout(out);
  return stdoutWritten(differences == 0 ? kOk : kFailed);
}

}  // namespace bagscope::cli
