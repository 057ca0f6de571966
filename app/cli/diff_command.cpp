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

struct FieldDiff {
  std::string topic, path;
  analysis::SeriesDifference d;
  bool differs = false;
};

struct DiffArgs {
  fs::path a, b;
  session::RunAlignment align;
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
      auto align = session::parseRunAlignment(v);
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

// A figure as JSON writes it (shortest exact form; "nan" quoted), and as text.
std::string number(double v) {
  std::string out;
  appendJsonDouble(v, out);
  return out;
}
std::string shown(double v) { return std::isnan(v) ? "n/a" : number(v); }

using session::RunTopic;

struct TopicDiff {
  std::string topic;
  RunTopic a, b;
  std::vector<std::string> changes;  // what differs beyond the tolerances, as text
};

std::vector<std::string> changeTexts(const session::TopicComparison& t) {
  using C = session::TopicComparison;
  const RunTopic &a = *t.a, &b = *t.b;
  std::vector<std::string> out;
  if (t.changes & C::Type) out.push_back("type " + a.type + " -> " + b.type);
  if (t.changes & C::Definition) out.push_back("definition changed");
  if (t.changes & C::Count) out.push_back("count " + std::to_string(a.count) + " -> " + std::to_string(b.count));
  if (t.changes & C::Rate) out.push_back("rate " + number(a.rateHz) + " -> " + number(b.rateHz) + " Hz");
  if (t.changes & C::Gap) out.push_back("largest gap " + number(a.largestGapS) + " -> " + number(b.largestGapS) + " s");
  return out;
}

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
  auto shiftOrError = session::runShiftNs(a, b, args.align);
  if (!shiftOrError) {
    std::fprintf(stderr, "bagscope-cli: %s\n", describeForCli(shiftOrError.error()).c_str());
    return kFailed;
  }
  const std::int64_t shiftNs = *shiftOrError;

  // Topics: those of one run only, and how the common ones changed.
  const auto topics = session::compareTopics(a, b, args.rateTolerance);
  std::vector<std::pair<std::string, RunTopic>> onlyA, onlyB;
  std::vector<TopicDiff> common;
  for (const auto& t : topics) {
    if (!t.b) onlyA.emplace_back(t.topic, *t.a);
    else if (!t.a) onlyB.emplace_back(t.topic, *t.b);
    else common.push_back({t.topic, *t.a, *t.b, changeTexts(t)});
  }

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
