// The copy job behind filter, merge, convert and recover: a session's messages, chosen by
// topic, time and every n-th, written in log-time order through one writer, bytes untouched.

#include <regex>
#include <set>
#include <unordered_map>

#include <yaml-cpp/yaml.h>

#include "core/base/byte_source.hpp"
#include "core/base/output_file.hpp"
#include "core/base/text.hpp"
#include "core/schema/builtin_types.hpp"
#include "detail/translate.hpp"
#include "detail/writers.hpp"
#include "write.hpp"

namespace bagscope::write {
namespace fs = std::filesystem;
using session::Session;
using session::TopicId;

namespace {

bool isExpression(const std::string& p) { return p.size() >= 2 && p.front() == '/' && p.back() == '/' && p != "//"; }

// A pattern as a test on topic names: a name, or /expression/ matched against the whole name.
Result<std::function<bool(const std::string&)>> compilePattern(const std::string& p) {
  if (!isExpression(p)) return std::function<bool(const std::string&)>([p](const std::string& n) { return n == p; });
  try {
    std::regex re(p.substr(1, p.size() - 2), std::regex::ECMAScript);
    return std::function<bool(const std::string&)>([re](const std::string& n) { return std::regex_match(n, re); });
  } catch (const std::regex_error& e) {
    return makeError(ErrorCode::InvalidArgument, "'" + p + "' is not a regular expression: " + e.what());
  }
}

// `inner` is `outer` or inside it (paths made absolute and normal; links resolved where they exist).
bool within(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  auto a = fs::weakly_canonical(fs::absolute(inner, ec), ec);
  auto b = fs::weakly_canonical(fs::absolute(outer, ec), ec);
  auto [ai, bi] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return bi == b.end() || (std::next(bi) == b.end() && bi->empty());
}

Result<void> checkOutputIsNoInput(const Session& s, const fs::path& output) {
  for (std::uint32_t i = 0; i < s.sourceCount(); ++i) {
    fs::path input = fs::u8path(s.sourceInfo(i).path);
    if (within(output, input) || within(input, output))
      return fileError(ErrorCode::InvalidArgument, "is an input (or holds one): an input is never written over",
                       utf8(output));
  }
  return {};
}

// "ros1" when every connection is ROS 1, "ros2" when every one is CDR, else none.
std::string profileFor(const std::vector<const storage::Connection*>& connections) {
  bool ros1 = !connections.empty(), ros2 = !connections.empty();
  for (const auto* c : connections) {
    ros1 = ros1 && c->messageEncoding == "ros1";
    ros2 = ros2 && c->messageEncoding == "cdr";
  }
  return ros1 ? "ros1" : ros2 ? "ros2" : "";
}

std::uint64_t countInRange(const Session& s, TopicId t, std::int64_t start, std::int64_t end) {
  auto first = s.atOrAfter(t, start);
  auto last = s.atOrBefore(t, end);
  return first && last && *last >= *first ? *last - *first + 1 : 0;
}

bool isYaml(const std::string& text) {
  try {
    YAML::Load(text);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// Connections as they are written: a ROS 2 one without a definition gets one from the .msg
// folders or the standard interfaces; what was added and what is still missing is said.
class DefinitionFiller {
public:
  DefinitionFiller(const std::vector<fs::path>& msgPaths, Container container)
      : msgPaths_(msgPaths),
        expandServiceEvents_(container == Container::Mcap || container == Container::Rosbag2Mcap) {}
  storage::Connection completed(const storage::Connection& c) {
    storage::Connection out = c;
    // Text the independent readers refuse (python3-rosbag and rosbags decode definitions as
    // UTF-8 and parse QoS as YAML) is mended, and said: bytes that are not UTF-8 become '?',
    // QoS that is not YAML is left out.
    if (!isValidUtf8(out.definition)) {
      out.definition = withValidUtf8(out.definition);
      mended_.insert(c.topic + ": its definition was not UTF-8 (such bytes written as '?')");
    }
    if (!out.offeredQos.empty() && !isYaml(out.offeredQos)) {
      out.offeredQos.clear();
      mended_.insert(c.topic + ": its QoS profiles were not YAML (left out)");
    }
    // A service event stored with its .srv text (rosbag2 Jazzy): readers of MCAP schemas take
    // the text as a message definition (rosbags, Foxglove) and cannot parse it; the event's own
    // message is written instead, as rosidl generates it. A .db3 keeps rosbag2's convention.
    if (expandServiceEvents_ && c.schemaEncoding != "ros2idl")
      if (auto expanded = schema::serviceEventDefinition(c.type, c.definition)) {
        out.definition = *expanded;
        out.schemaEncoding = "ros2msg";
        expanded_.insert(c.type);
        return out;
      }
    if (!c.definition.empty() || c.messageEncoding != "cdr" || c.type.empty()) return out;
    if (auto text = schema::findDefinition(c.type, msgPaths_)) {
      out.definition = *text;
      out.schemaEncoding = "ros2msg";
      added_.insert(c.type);
    } else {
      missing_.insert(c.type);
    }
    return out;
  }
  void report(CopyReport& r) const {
    auto list = [](const std::set<std::string>& types) {
      std::string text;
      for (const auto& t : types) text += (text.empty() ? "" : ", ") + t;
      return text;
    };
    if (!added_.empty())
      r.notes.push_back(
          "definitions the input did not carry were written from the standard interfaces or the .msg "
          "folders given: " +
          list(added_));
    for (const auto& m : mended_) r.notes.push_back(m);
    if (!expanded_.empty())
      r.notes.push_back(
          "service events stored with their .srv text were written with the event's message "
          "definition (service_msgs/ServiceEventInfo info, request, response): " +
          list(expanded_));
    if (!missing_.empty())
      r.notes.push_back("no definition of " + list(missing_) +
                        " was found to write with it (add the folder of its package's .msg files)");
  }

private:
  const std::vector<fs::path>& msgPaths_;
  bool expandServiceEvents_;
  std::set<std::string> added_, missing_, expanded_, mended_;
};

// Every file's metadata records and attachments, into the writer when it has a place for them,
// else named in the report.
Result<void> copyExtras(const Session& s, RecordingWriter& writer, const ContainerInfo& info, CopyReport& report) {
  for (std::uint32_t i = 0; i < s.sourceCount(); ++i) {
    auto extras = s.extras(i);
    if (!extras) return extras.error();
    if (extras->metadata.empty() && extras->attachments.empty()) continue;
    auto kept = writer.addExtras(*extras);
    if (!kept) return kept.error();
    if (*kept) {
      report.metadataWritten += extras->metadata.size();
      report.attachmentsWritten += extras->attachments.size();
      continue;
    }
    report.skipped.push_back(std::to_string(extras->metadata.size()) + " metadata records and " +
                             std::to_string(extras->attachments.size()) + " attachments of '" + s.sourceInfo(i).path +
                             "': a " + std::string(info.label) + " has no place for them (MCAP keeps them)");
  }
  return {};
}

}  // namespace

Result<std::vector<TopicId>> selectTopics(const Session& s, const TopicPatterns& patterns) {
  std::vector<std::function<bool(const std::string&)>> include, exclude;
  for (const auto& p : patterns.include) {
    auto f = compilePattern(p);
    if (!f) return f.error();
    include.push_back(*f);
  }
  for (const auto& p : patterns.exclude) {
    auto f = compilePattern(p);
    if (!f) return f.error();
    exclude.push_back(*f);
  }
  for (std::size_t i = 0; i < patterns.include.size(); ++i) {
    bool any = false;
    for (const auto& t : s.topics()) any = any || include[i](t.name);
    if (!any) return makeError(ErrorCode::InvalidArgument, "no topic matches '" + patterns.include[i] + "'");
  }
  std::vector<TopicId> chosen;
  for (TopicId id = 0; id < s.topics().size(); ++id) {
    const auto& name = s.topics()[id].name;
    bool in = include.empty() || std::any_of(include.begin(), include.end(), [&](auto& f) { return f(name); });
    bool out = std::any_of(exclude.begin(), exclude.end(), [&](auto& f) { return f(name); });
    if (in && !out) chosen.push_back(id);
  }
  return chosen;
}

Result<CopyReport> copyRecording(const Session& s, const CopyRequest& request, StopToken stop,
                                 const session::ProgressFn& progress) {
  fs::path output = request.output.has_filename() ? request.output : request.output.parent_path();
  if (auto r = checkOutputIsNoInput(s, output); !r) return r.error();
  const auto& info = containerInfo(request.writer.container);
  CopyReport report;

  // The chosen topics' connections translated to the other dialect when asked: what cannot be
  // is said, and kept as it is where the container can hold it.
  std::unordered_map<const storage::Connection*, std::unique_ptr<detail::Translation>> translations;
  auto translate = [&](const session::Topic& t) {
    for (const auto& m : t.members) {
      if (!request.translateTo || !detail::Translation::translates(*request.translateTo, *m.connection) ||
          translations.count(m.connection))
        continue;
      auto decoder = s.decoder(*m.connection);
      auto made = decoder ? detail::Translation::make(*request.translateTo, *m.connection, *decoder, request.msgPaths,
                                                      request.renames)
                          : Result<std::unique_ptr<detail::Translation>>(decoder.error());
      if (!made) {
        report.notes.push_back(t.name + ": not translated to ROS " +
                               (*request.translateTo == schema::Dialect::Ros2 ? "2: " : "1: ") + made.error().message);
        continue;
      }
      if ((*made)->connection().topic != t.name)
        report.notes.push_back(t.name + ": written as " + (*made)->connection().topic +
                               " (a name ROS 2 accepts: a token may not start with a digit)");
      translations.emplace(m.connection, std::move(made).value());
    }
  };
  auto outgoing = [&](const storage::Connection* c) -> const storage::Connection& {
    auto it = translations.find(c);
    return it == translations.end() ? *c : it->second->connection();
  };

  // The topics the container can hold, and their connections.
  std::vector<TopicId> topics = request.selection.topics;
  if (topics.empty())
    for (TopicId id = 0; id < s.topics().size(); ++id) topics.push_back(id);
  std::vector<TopicId> kept;
  std::vector<const storage::Connection*> connections, written;
  for (TopicId id : topics) {
    const auto& t = s.topics()[id];
    translate(t);
    const storage::Connection* misfit = nullptr;
    for (const auto& m : t.members)
      if (!info.encoding.empty() && outgoing(m.connection).messageEncoding != info.encoding) misfit = m.connection;
    if (misfit) {
      report.skipped.push_back(t.name + ": its " +
                               (misfit->messageEncoding.empty() ? "unencoded" : misfit->messageEncoding) +
                               " messages cannot go into a " + std::string(info.label));
      continue;
    }
    kept.push_back(id);
    for (const auto& m : t.members) {
      connections.push_back(m.connection);
      written.push_back(&outgoing(m.connection));
    }
  }
  if (kept.empty() && !topics.empty())
    return fileError(ErrorCode::InvalidArgument,
                     "none of the chosen topics can be written as a " + std::string(info.label) + ": " +
                         report.skipped.front() + (report.skipped.size() > 1 ? " (and others)" : ""),
                     utf8(output));

  WriterOptions options = request.writer;
  if (options.container == Container::Mcap && options.mcapProfile.empty()) options.mcapProfile = profileFor(written);
  auto writer = openWriter(output, options);
  if (!writer) return writer.error();
  fs::path folder = output.parent_path().empty() ? fs::path(".") : output.parent_path();
  if (std::size_t n = removeStaleParts(folder, false))
    report.notes.push_back("removed " + std::to_string(n) +
                           " unfinished outputs an earlier, interrupted run left in '" + utf8(folder) + "'");
  std::unordered_map<const storage::Connection*, ChannelId> channels;
  DefinitionFiller definitions(request.msgPaths, options.container);
  for (std::size_t k = 0; k < connections.size(); ++k) {
    auto ch = (*writer)->addConnection(definitions.completed(*written[k]));
    if (!ch) return ch.error();
    channels.emplace(connections[k], *ch);
  }
  definitions.report(report);

  if (auto r = copyExtras(s, **writer, info, report); !r) return r.error();

  session::Selection selection{kept, request.selection.startNs, request.selection.endNs};
  std::uint64_t total = 0;
  for (TopicId id : kept) total += countInRange(s, id, selection.startNs, selection.endNs);
  auto tell = throttled(progress);
  std::unordered_map<TopicId, std::uint64_t> seen;
  std::uint64_t done = 0;
  std::optional<Error> failed;
  std::vector<std::byte> translated;
  auto r = s.forEach(
      selection,
      [&](const session::Message& m) {
        if (tell && ++done % 256 == 0)
          tell(static_cast<double>(done) / static_cast<double>(std::max<std::uint64_t>(total, 1)));
        if (seen[m.topic]++ % request.every != 0) return true;
        if (m.logTimeNs < 0) {
          failed = makeError(ErrorCode::Unsupported, "a log time before 1970 cannot be written");
          failed->topic = m.connection->topic;
          failed->logTimeNs = m.logTimeNs;
          return false;
        }
        std::span<const std::byte> bytes = m.bytes;
        if (auto it = translations.find(m.connection); it != translations.end()) {
          if (auto t = it->second->translate(m.bytes, translated); !t) {
            Error e = t.error();
            e.topic = m.connection->topic;
            e.logTimeNs = m.logTimeNs;
            report.lost.push_back("not translated: " + e.describe());
            return true;
          }
          bytes = translated;
        }
        if (auto w = (*writer)->write(channels.at(m.connection), m.logTimeNs, bytes); !w) {
          failed = std::move(w).error();
          if (failed->topic.empty()) failed->topic = m.connection->topic;
          return false;
        }
        ++report.messagesWritten;
        ++report.perTopic[m.connection->topic];
        return true;
      },
      [&](const Error& e) { report.lost.push_back(e.describe()); }, stop);
  if (failed) return *failed;
  BAGSCOPE_TRY(r);
  if (auto f = (*writer)->finish(); !f) return f.error();
  report.bytesWritten = detail::outputSize(output);
  for (const auto& [_, t] : translations)
    for (const auto& n : t->notes())
      if (std::find(report.notes.begin(), report.notes.end(), n) == report.notes.end()) report.notes.push_back(n);
  if (tell) tell(1.0);
  return report;
}

}  // namespace bagscope::write
