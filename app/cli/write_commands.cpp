// bagscope-cli filter, merge, convert and recover: recordings in, one recording out, through
// the copy job of core/write.

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "arguments.hpp"
#include "commands.hpp"
#include "core/base/text.hpp"
#include "core/write/write.hpp"
#include "progress.hpp"

namespace bagscope::cli {
namespace {
namespace fs = std::filesystem;

// What every command that writes a recording takes: where, as what, and how it says so.
struct OutputArgs {
  fs::path output;
  bool haveOutput = false;
  std::optional<write::Container> container;
  std::optional<compress::Codec> compression;
  write::RosDistro distro = write::RosDistro::Jazzy;
  std::vector<fs::path> msgPaths;
  bool overwrite = false, quiet = false;
};

// Takes `a` (and its value from `args`) when it is an output option: true if it was one, with
// `error` set to the exit code when its value is wrong.
bool outputOption(const std::string& command, const std::string& a, Arguments& args, OutputArgs& out,
                  std::optional<int>& error) {
  std::string v;
  auto value = [&] { return args.value(v); };
  if (a == "-o" || a == "--out" || a == "--output") {
    if (!value()) error = usageError(command, a + " needs a path");
    out.output = fs::u8path(v);
    out.haveOutput = true;
  } else if (a == "--format") {
    auto c = value() ? write::containerFromName(v)
                     : Result<write::Container>(
                           makeError(ErrorCode::InvalidArgument, "--format needs one of " + write::containerNames()));
    if (c) out.container = *c;
    else error = usageError(command, c.error().message);
  } else if (a == "--compression") {
    compress::Codec codec{};
    if (!value() || !compress::codecFromName(v, codec))
      error = usageError(command, "--compression takes none, lz4, zstd or bz2");
    out.compression = codec;
  } else if (a == "--distro") {
    auto d = value()
                 ? write::rosDistroFromName(v)
                 : Result<write::RosDistro>(makeError(ErrorCode::InvalidArgument, "--distro needs humble or jazzy"));
    if (d) out.distro = *d;
    else error = usageError(command, d.error().message);
  } else if (a == "--msg-path") {
    if (!value()) error = usageError(command, "--msg-path needs a folder");
    out.msgPaths.push_back(fs::u8path(v));
  } else if (a == "--overwrite") {
    out.overwrite = true;
  } else if (a == "--quiet" || a == "-q") {
    out.quiet = true;
  } else {
    return false;
  }
  return true;
}

struct WriteArgs {
  std::vector<fs::path> inputs;
  OutputArgs dest;
  write::TopicPatterns topics;
  std::optional<std::string> startArg, endArg;
  std::uint64_t every = 1;
  std::uint64_t chunkBytes = 0, splitBytes = 0;
  std::optional<schema::Dialect> translateTo;
  std::optional<fs::path> renameFile;
  bool each = false;  ///< --each: one output per recording, into the folder -o names
  unsigned jobs = 1;  ///< --jobs: recordings written at once with --each
};

// "64M", "512k", "1G" or a number of bytes.
bool parseBytes(const std::string& v, std::uint64_t& out) {
  if (v.empty()) return false;
  std::uint64_t scale = 1;
  std::string digits = v;
  switch (v.back()) {
    case 'k':
    case 'K': scale = 1ull << 10; break;
    case 'm':
    case 'M': scale = 1ull << 20; break;
    case 'g':
    case 'G': scale = 1ull << 30; break;
    default: break;
  }
  if (scale != 1) digits.pop_back();
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 12) return false;
  out = std::stoull(digits) * scale;
  return out > 0;
}

// Which options each command takes beyond inputs, -o and the output's form.
struct CommandRules {
  bool selects;      // --topic, --exclude, --start, --end, --every
  bool oneInput;     // recover
  bool needsFormat;  // convert: --format, or an output name that says it
};

std::optional<int> parseWriteArgs(const std::string& command, const CommandRules& rules,
                                  const std::vector<std::string>& list, WriteArgs& out) {
  Arguments args(list);
  while (args.next()) {
    const std::string& a = args.current();
    std::string v;
    auto value = [&] { return args.value(v); };
    std::optional<int> error;
    if (outputOption(command, a, args, out.dest, error)) {
      if (error) return error;
    } else if (a == "--chunk-size" || a == "--split-size") {
      if (!value() || !parseBytes(v, a == "--chunk-size" ? out.chunkBytes : out.splitBytes))
        return usageError(command, a + " needs a size in bytes (such as 4M)");
    } else if (a == "--each" && !rules.oneInput && command != "merge") {
      out.each = true;
    } else if (a == "--jobs" || a == "-j") {
      if (!args.number(out.jobs) || out.jobs == 0) return usageError(command, "--jobs needs a number of at least 1");
    } else if (a == "--rename") {
      if (!value()) return usageError(command, "--rename needs a YAML file of packages, types and fields");
      out.renameFile = fs::u8path(v);
    } else if (a == "--to-ros2" || a == "--to-ros1") {
      out.translateTo = a == "--to-ros2" ? schema::Dialect::Ros2 : schema::Dialect::Ros1;
    } else if (rules.selects && (a == "--topic" || a == "--exclude")) {
      if (!value()) return usageError(command, a + " needs a topic name or /regular expression/");
      (a == "--topic" ? out.topics.include : out.topics.exclude).push_back(v);
    } else if (rules.selects && (a == "--start" || a == "--end")) {
      if (!value()) return usageError(command, a + " needs a time in seconds");
      (a == "--start" ? out.startArg : out.endArg) = v;
    } else if (rules.selects && a == "--every") {
      if (!value() || v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 9 ||
          std::stoull(v) == 0)
        return usageError(command, "--every needs a whole number of at least 1");
      out.every = std::stoull(v);
    } else if (a.starts_with("-") && a != "-") {
      return usageError(command, "unknown option '" + a + "'");
    } else {
      out.inputs.push_back(fs::u8path(a));
    }
  }
  if (out.inputs.empty()) return usageError(command, "no input given");
  if (rules.oneInput && out.inputs.size() > 1) return usageError(command, "takes one input");
  if (out.jobs > 1 && !out.each) return usageError(command, "--jobs goes with --each (one output per recording)");
  if (!out.dest.haveOutput) return usageError(command, "no output given (-o PATH)");
  if (!out.dest.container) out.dest.container = write::containerForName(out.dest.output);
  if (!out.dest.container && out.translateTo)  // a folder: rosbag2; a file not named .bag or .mcap: ROS 1
    out.dest.container =
        out.translateTo == schema::Dialect::Ros2 ? write::Container::Rosbag2Mcap : write::Container::Ros1Bag;
  if (out.renameFile && !out.translateTo) return usageError(command, "--rename goes with --to-ros2 or --to-ros1");
  if (out.dest.distro != write::RosDistro::Jazzy && out.dest.container &&
      !write::containerInfo(*out.dest.container).extension.empty())
    return usageError(command, "--distro shapes a rosbag2 folder (--format rosbag2 or rosbag2-db3)");
  if (!out.dest.container && rules.needsFormat)
    return usageError(command, "say the output's format with --format (" + write::containerNames() + ")");
  return std::nullopt;
}

void printReport(const std::string& command, const fs::path& output, const write::CopyReport& report) {
  std::fprintf(stderr, "bagscope-cli: %s: wrote %llu messages on %zu topics to '%s' (%s)\n", command.c_str(),
               static_cast<unsigned long long>(report.messagesWritten), report.perTopic.size(), utf8(output).c_str(),
               formatBytes(report.bytesWritten).c_str());
  if (report.metadataWritten || report.attachmentsWritten)
    std::fprintf(stderr, "bagscope-cli: %s: kept %llu metadata records and %llu attachments in '%s'\n", command.c_str(),
                 static_cast<unsigned long long>(report.metadataWritten),
                 static_cast<unsigned long long>(report.attachmentsWritten), utf8(output).c_str());
  for (const auto& n : report.notes)
    std::fprintf(stderr, "bagscope-cli: %s: '%s': note: %s\n", command.c_str(), utf8(output).c_str(), n.c_str());
  for (const auto& s : report.skipped)
    std::fprintf(stderr, "bagscope-cli: %s: skipped %s\n", command.c_str(), s.c_str());
  for (const auto& l : report.lost)
    std::fprintf(stderr, "bagscope-cli: %s: not readable: %s\n", command.c_str(), l.c_str());
}

// `inputs` opened as one recording and copied to `output` as the arguments say (`renames`: the
// --rename file's, read once for every output).
int writeOne(const std::string& command, const WriteArgs& parsed, const write::Renames& renames,
             const std::vector<fs::path>& inputs, const fs::path& output, bool quiet) {
  session::SessionOptions options;
  auto opened = session::Session::open(inputs, options);
  if (!opened) {
    std::fprintf(stderr, "bagscope-cli: %s: %s\n", command.c_str(), describeForCli(opened.error()).c_str());
    return kFailed;
  }
  const session::Session& s = **opened;
  for (const auto& p : s.problems()) std::fprintf(stderr, "bagscope-cli: %s: input: %s\n", command.c_str(), p.c_str());

  write::CopyRequest request;
  request.output = output;
  request.every = parsed.every;
  request.msgPaths = parsed.dest.msgPaths;
  request.translateTo = parsed.translateTo;
  request.renames = renames;
  request.writer.container = parsed.dest.container ? *parsed.dest.container : write::containerOf(s);
  request.writer.compression = parsed.dest.compression;
  request.writer.distro = parsed.dest.distro;
  request.writer.chunkBytes = parsed.chunkBytes;
  request.writer.splitBytes = parsed.splitBytes;
  request.writer.overwrite = parsed.dest.overwrite;
  for (const auto* arg : {&parsed.startArg, &parsed.endArg})
    if (*arg && !parseTimeArgument(**arg, s.startNs(),
                                   arg == &parsed.startArg ? request.selection.startNs : request.selection.endNs))
      return usageError(command, "'" + **arg + "' is not a time in seconds");
  if (!parsed.topics.include.empty() || !parsed.topics.exclude.empty()) {
    auto topics = write::selectTopics(s, parsed.topics);
    if (!topics && !s.problems().empty()) {  // the damage took the topics: what was lost is said above
      std::fprintf(stderr, "bagscope-cli: %s: %s in what could be read of the input; nothing was written\n",
                   command.c_str(), topics.error().message.c_str());
      return kPartial;
    }
    if (!topics) return usageError(command, topics.error().message);
    if (topics->empty()) return usageError(command, "the --topic and --exclude given leave no topic");
    request.selection.topics = *topics;
  }

  ProgressLine line(quiet);
  std::string shown = utf8(output.filename());
  auto report = write::copyRecording(s, request, interrupt().get_token(), [&](double f) { line.show(shown, 1, 1, f); });
  line.done();
  if (!report) {
    if (report.error().code == ErrorCode::Cancelled) {
      std::fprintf(stderr, "bagscope-cli: %s: interrupted; nothing was written to '%s'\n", command.c_str(),
                   utf8(output).c_str());
      return kInterrupted;
    }
    std::fprintf(stderr, "bagscope-cli: %s: %s\n", command.c_str(), describeForCli(report.error()).c_str());
    return report.error().code == ErrorCode::Write ? kOutputFailed : kFailed;
  }
  printReport(command, output, *report);
  // One rule for every command: damage met in the input, or messages lost or left out, is 3.
  if (!report->lost.empty() || !report->skipped.empty()) return kPartial;
  return s.problems().empty() ? kOk : kPartial;
}

// Where --each writes `recording`, found under `root`: its path below the root (or its name),
// in the output folder, with the container's extension.
fs::path eachOutput(const fs::path& folder, const fs::path& root, const fs::path& recording,
                    const write::ContainerInfo& info) {
  fs::path relative = recording.filename();
  if (fs::is_directory(root)) {
    auto below = recording.lexically_normal().lexically_relative(root.lexically_normal());
    if (!below.empty() && *below.begin() != "..") relative = below;
  }
  std::string name = utf8(relative.filename());
  for (std::string_view ext : {".bag.active", ".bag", ".mcap", ".db3"})
    if (name.size() > ext.size() && name.ends_with(ext)) {
      name.resize(name.size() - ext.size());
      break;
    }
  return folder / relative.parent_path() / fs::u8path(name + std::string(info.extension));
}

int runWrite(const std::string& command, const CommandRules& rules, const std::vector<std::string>& args) {
  WriteArgs parsed;
  if (auto code = parseWriteArgs(command, rules, args, parsed)) return *code;
  write::Renames renames;
  if (parsed.renameFile) {
    auto read = write::readRenames(*parsed.renameFile);
    if (!read) {
      std::fprintf(stderr, "bagscope-cli: %s: %s\n", command.c_str(), read.error().describe().c_str());
      return kFailed;
    }
    renames = std::move(read).value();
  }
  InterruptScope interruptible;
  if (!parsed.each) {
    auto inputs = session::expandInputs(parsed.inputs, false);
    if (!inputs) {
      std::fprintf(stderr, "bagscope-cli: %s: %s\n", command.c_str(), describeForCli(inputs.error()).c_str());
      return kFailed;
    }
    return writeOne(command, parsed, renames, *inputs, parsed.dest.output, parsed.dest.quiet);
  }
  // --each: every recording under the inputs on its own, into the folder -o names, --jobs at once.
  std::vector<std::pair<fs::path, fs::path>> work;  // recording, output
  for (const auto& input : parsed.inputs) {
    auto found = session::expandInputs({input}, true);
    if (!found) {
      std::fprintf(stderr, "bagscope-cli: %s: %s\n", command.c_str(), describeForCli(found.error()).c_str());
      return kFailed;
    }
    for (const auto& r : *found) {
      auto container = parsed.dest.container
                           ? *parsed.dest.container
                           : write::containerForName(r).value_or(write::Container::Rosbag2Mcap);  // a folder: a folder
      work.emplace_back(r, eachOutput(parsed.dest.output, input, r, write::containerInfo(container)));
    }
  }
  std::error_code ec;
  fs::create_directories(parsed.dest.output, ec);
  std::atomic<std::size_t> next{0};
  std::vector<int> codes(work.size(), kOk);
  auto worker = [&] {
    for (std::size_t i = next++; i < work.size() && !interrupt().stop_requested(); i = next++) {
      std::error_code made;
      fs::create_directories(work[i].second.parent_path(), made);
      codes[i] = writeOne(command, parsed, renames, {work[i].first}, work[i].second, true);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned k = 1; k < std::min<std::size_t>(parsed.jobs, work.size()); ++k) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  std::size_t failed = 0, partial = 0;
  int worst = kOk;
  for (int code : codes) {
    failed += code != kOk && code != kPartial;
    partial += code == kPartial;
    if (code != kOk && (worst == kOk || worst == kPartial)) worst = code;
  }
  if (interrupt().stop_requested()) worst = kInterrupted;
  std::fprintf(stderr,
               "bagscope-cli: %s: %zu recordings: %zu written, %zu with damage or losses said above, %zu failed\n",
               command.c_str(), work.size(), work.size() - failed, partial, failed);
  return worst;
}

}  // namespace

int runImport(const std::vector<std::string>& list) {
  const std::string command = "import";
  write::ImportRequest request;
  std::optional<fs::path> table;
  OutputArgs dest;
  Arguments args(list);
  while (args.next()) {
    const std::string& a = args.current();
    std::string v;
    auto value = [&] { return args.value(v); };
    std::optional<int> error;
    if (outputOption(command, a, args, dest, error)) {
      if (error) return *error;
    } else if (a == "--topic") {
      if (!value() || v.empty()) return usageError(command, "--topic needs a topic name");
      request.topics.push_back({v, "", ""});
    } else if (a == "--type" || a == "--definition") {
      if (request.topics.empty()) return usageError(command, a + " follows the --topic it is for");
      if (!value()) return usageError(command, a + (a == "--type" ? " needs a type" : " needs a .msg file"));
      if (a == "--type") {
        request.topics.back().type = v;
      } else {
        std::ifstream in(fs::u8path(v), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) return usageError(command, "cannot read the definition '" + v + "'");
        request.topics.back().definition = text.str();
      }
    } else if (a == "--time-column") {
      if (!value()) return usageError(command, "--time-column needs a column name");
      request.timeColumn = v;
    } else if (a == "--time-unit") {
      if (!value() || (v != "s" && v != "ns")) return usageError(command, "--time-unit takes s or ns");
      request.timeUnit = v == "s" ? write::TimeUnit::Seconds : write::TimeUnit::Ns;
    } else if (a.starts_with("-") && a != "-") {
      return usageError(command, "unknown option '" + a + "'");
    } else if (table) {
      return usageError(command, "takes one table");
    } else {
      table = fs::u8path(a);
    }
  }
  if (!table) return usageError(command, "no table given");
  if (!dest.haveOutput) return usageError(command, "no output given (-o PATH)");
  if (request.topics.empty()) return usageError(command, "no --topic given");
  for (const auto& t : request.topics)
    if (t.type.empty()) return usageError(command, "--topic " + t.topic + " needs its --type");
  request.table = *table;
  request.output = dest.output;
  request.msgPaths = dest.msgPaths;
  request.writer.container =
      dest.container.value_or(write::containerForName(dest.output).value_or(write::Container::Mcap));
  request.writer.compression = dest.compression;
  request.writer.distro = dest.distro;
  request.writer.overwrite = dest.overwrite;

  ProgressLine line(dest.quiet);
  InterruptScope interruptible;
  std::string shown = utf8(request.output.filename());
  auto report = write::importTable(request, interrupt().get_token(), [&](double f) { line.show(shown, 1, 1, f); });
  line.done();
  if (!report) {
    if (report.error().code == ErrorCode::Cancelled) {
      std::fprintf(stderr, "bagscope-cli: import: interrupted; nothing was written to '%s'\n",
                   utf8(request.output).c_str());
      return kInterrupted;
    }
    std::fprintf(stderr, "bagscope-cli: import: %s\n", describeForCli(report.error()).c_str());
    return report.error().code == ErrorCode::Write ? kOutputFailed : kFailed;
  }
  std::fprintf(stderr, "bagscope-cli: import: wrote %llu messages on %zu topics to '%s' (%s)\n",
               static_cast<unsigned long long>(report->messagesWritten), report->perTopic.size(),
               utf8(request.output).c_str(), formatBytes(report->bytesWritten).c_str());
  return kOk;
}

int runFilter(const std::vector<std::string>& args) { return runWrite("filter", {true, false, false}, args); }
int runMerge(const std::vector<std::string>& args) { return runWrite("merge", {true, false, false}, args); }
int runConvert(const std::vector<std::string>& args) { return runWrite("convert", {true, false, true}, args); }
int runRecover(const std::vector<std::string>& args) { return runWrite("recover", {false, true, false}, args); }

}  // namespace bagscope::cli
