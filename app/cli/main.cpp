// bagscope-cli: the headless entry point. Parses the subcommand and hands over.

#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
// after windows.h
#include <shellapi.h>
#endif

#include "bagscope/build_info.hpp"
#include "commands.hpp"
#include "core/export/export.hpp"
#include "core/write/write.hpp"

namespace {

// Each subcommand's own usage, answered by `bagscope-cli COMMAND --help` (as mcap and ros2 bag do).
constexpr const char* kInfoUsage =
    "usage: bagscope-cli info FILE [--json] [--sizes]\n"
    "    summary of a recording: time range, topics, types, counts, chunks and their\n"
    "    compression; --sizes reads every message for each topic's bytes\n";
constexpr const char* kCatUsage =
    "usage: bagscope-cli cat FILE [--topic T]... [--start S] [--end S] [--bytes digest|base64]\n"
    "                         [--msg-path DIR]...\n"
    "    every message as one JSON object per line, in log-time order\n";
constexpr const char* kStatsUsage =
    "usage: bagscope-cli stats FILE|DIR... [--json] [--recursive]\n"
    "    timing per topic: rate, jitter, largest gaps, out-of-order log times, zero header\n"
    "    stamps, stamp-to-log latency\n";
constexpr const char* kExportUsage =
    "usage: bagscope-cli export INPUT... --format F --out DIR [options]\n"
    "    messages to files; F: {formats}\n"
    "    INPUT: files, folders (searched recursively unless --no-recursive) or quoted globs\n"
    "      --topic T (repeatable)  --start S  --end S  --every N\n"
    "      --name TEMPLATE   placeholders {bag} {topic} {index} {stamp_ns} {log_time_ns}\n"
    "                        {ext}; default {bag}_frame_{index}.{ext} per message,\n"
    "                        {bag}_{topic}.{ext} per topic (csv, video, npy tables)\n"
    "      --jobs N  --overwrite  --dry-run  --quiet  --msg-path DIR\n"
    "{format-options}";
constexpr const char* kFilterUsage =
    "usage: bagscope-cli filter INPUT... -o OUT [--topic T]... [--exclude T]... [--start S] [--end S]\n"
    "                           [--every N] [--format F] [--compression C] [--to-ros2|--to-ros1]\n"
    "                           [--overwrite]\n"
    "    the chosen messages, bytes untouched (but with --to-ros2/1: see convert), to a new recording\n"
    "    (one time-ordered recording when several inputs are given); T: a topic name or\n"
    "    /regular expression/\n";
constexpr const char* kMergeUsage =
    "usage: bagscope-cli merge INPUT... -o OUT [filter's options]\n"
    "    several recordings as one, in log-time order; topics of one name and type are merged,\n"
    "    different types on one name kept as separate channels\n";
constexpr const char* kConvertUsage =
    "usage: bagscope-cli convert INPUT... -o OUT [--format F] [--compression C] [--overwrite]\n"
    "                            [--to-ros2|--to-ros1 [--rename FILE]] [filter's --topic, --exclude,\n"
    "                            --start, --end, --every] [--each [--jobs N]]\n"
    "    another container for the same messages: F: {containers} (default: by OUT's\n"
    "    extension, .bag or .mcap); C: none, lz4, zstd (MCAP, rosbag2), lz4, bz2 (ROS 1)\n"
    "      --chunk-size BYTES (default 4M MCAP, 768k ROS 1)  --split-size BYTES (rosbag2)\n"
    "      --msg-path DIR: definitions to write for ROS 2 topics whose input carries none\n"
    "      --distro humble|jazzy: the ROS 2 release whose tools read the rosbag2 folder written\n"
    "        (default jazzy: metadata version 9; humble: version 5, QoS as numbers, no type hashes)\n"
    "      --to-ros2: ROS 1 messages translated into ROS 2 types and CDR (a ROS 2 MCAP, or a\n"
    "        rosbag2 folder by default): the standard interfaces where ROS 2 has the type,\n"
    "        definitions made from the bag's own for the rest, latched topics transient-local;\n"
    "        what is dropped, zeroed or renamed is listed\n";
constexpr const char* kRecoverUsage =
    "usage: bagscope-cli recover INPUT -o OUT [--format F] [--compression C] [--overwrite]\n"
    "    every complete message of a damaged or unfinished recording (a cut or unindexed\n"
    "    .bag, .bag.active, MCAP without summary, .db3 with its -wal) into a clean, indexed\n"
    "    one (by default of the input's kind), with what could not be read\n";
constexpr const char* kImportUsage =
    "usage: bagscope-cli import TABLE.csv -o OUT --topic T --type TYPE [--definition FILE]\n"
    "                           [--topic T --type TYPE]... [--time-column C] [--time-unit s|ns]\n"
    "                           [--format F] [--compression C] [--msg-path DIR] [--overwrite]\n"
    "    a CSV table as messages: its columns are message paths of TYPE (linear_acceleration.x,\n"
    "    covariance[3], header.stamp as one time), TOPIC/path with several topics; fields no\n"
    "    column names are zero. The time: --time-column, else log_time_ns, log_time, stamp_ns\n"
    "    or stamp (what export --format csv writes), in ns for *_ns names, else seconds.\n"
    "    TYPE's definition: --definition (a ROS 1 bag needs it), --msg-path, or the standard\n"
    "    ROS 2 interfaces\n";
constexpr const char* kDiffUsage =
    "usage: bagscope-cli diff A B [--align start|offset:S|event:TOPIC[:PATH>VALUE]] [--field TOPIC:PATH]...\n"
    "                         [--tolerance X] [--rate-tolerance F] [--json] [--msg-path DIR]\n"
    "    two runs set against each other: topics only one has, type or definition changes,\n"
    "    counts, and rates and largest gaps that differ by more than F (a fraction, default\n"
    "    0.05); for each --field, B interpolated at A's times where both have data: mean, RMS\n"
    "    and largest |B - A| and their correlation, a difference when |B - A| exceeds X\n"
    "    (default 0). B is aligned to A by their starts, by their starts and S seconds more\n"
    "    (offset:S, B later), or by an event: TOPIC's first message, or the first time PATH\n"
    "    crosses VALUE upwards (>) or downwards (<). Exit 0: no difference, 1: differences\n";
constexpr const char* kRenderUsage =
    "usage: bagscope-cli render LAYOUT RECORDING... -o DIR [--format png|svg|pdf] [--size WxH]\n"
    "                           [--start S] [--end S] [--overwrite]\n"
    "    each plot of a saved layout (Layout > Export) drawn into DIR/{bag}_{panel}.{format}\n"
    "    for each recording, as the app draws it, without a display (by the desktop app\n"
    "    beside bagscope-cli); the range: the layout's, or --start/--end; image viewers as\n"
    "    they show the range's end (PNG); --size default 1200x600\n";
constexpr const char* kCommonNotes =
    "\n"
    "FILE is a ROS 1 .bag, an .mcap, a rosbag2 folder (or its metadata.yaml or .db3).\n"
    "--msg-path adds .msg definitions (DIR/<pkg>/msg/<Type>.msg) for ROS 2 bags that\n"
    "do not carry their own, or names a recording whose stored definitions are borrowed;\n"
    "standard ROS 2 interfaces are built in.\n"
    "times S are seconds since the Unix epoch (1700000000.5) or, with a leading '+',\n"
    "seconds after the recording's start (+1.5).\n"
    "exit codes: 0 ok, 1 an input could not be read, 2 usage error, 3 some messages were\n"
    "lost or not decoded, or damage was recovered, 4 an output could not be written (or\n"
    "exists), 130 interrupted\n";

// A usage text with the export formats filled in from the format table.
std::string filled(std::string_view usage) {
  std::string text(usage);
  if (auto at = text.find("{formats}"); at != std::string::npos)
    text.replace(at, 9, bagscope::exporters::formatNames());
  if (auto at = text.find("{format-options}"); at != std::string::npos)
    text.replace(at, 16, bagscope::cli::formatOptionsUsage());
  if (auto at = text.find("{containers}"); at != std::string::npos)
    text.replace(at, 12, bagscope::write::containerNames());
  return text;
}

struct Command {
  const char* name;
  const char* usage;
  int (*run)(const std::vector<std::string>&);
};
constexpr Command kCommands[] = {
    {"info", kInfoUsage, bagscope::cli::runInfo},          {"cat", kCatUsage, bagscope::cli::runCat},
    {"stats", kStatsUsage, bagscope::cli::runStats},       {"export", kExportUsage, bagscope::cli::runExport},
    {"filter", kFilterUsage, bagscope::cli::runFilter},    {"merge", kMergeUsage, bagscope::cli::runMerge},
    {"convert", kConvertUsage, bagscope::cli::runConvert}, {"recover", kRecoverUsage, bagscope::cli::runRecover},
    {"import", kImportUsage, bagscope::cli::runImport},    {"diff", kDiffUsage, bagscope::cli::runDiff},
    {"render", kRenderUsage, bagscope::cli::runRender},
};

std::string overallUsage() {
  std::string text = "usage: bagscope-cli <command> [options]   (bagscope-cli <command> --help for one)\n\ncommands:\n";
  for (const auto& c : kCommands) {
    std::string_view u = c.usage;
    u.remove_prefix(u.find(c.name));  // "usage: bagscope-cli " off
    text += "  " + filled(u);
  }
  text += "\n  --version, --help\n";
  return text + kCommonNotes;
}

// The arguments as UTF-8. On Windows they come from the UTF-16 command line: argv is in the
// ANSI code page, which cannot carry every file name (and Windows before 10 1903 ignores the
// manifest that makes it UTF-8).
std::vector<std::string> arguments(int argc, char** argv) {
#ifdef _WIN32
  int n = 0;
  LPWSTR* wide = CommandLineToArgvW(GetCommandLineW(), &n);
  if (wide) {
    std::vector<std::string> args;
    for (int i = 1; i < n; ++i) {
      int bytes = WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, nullptr, 0, nullptr, nullptr);
      std::string a(static_cast<std::size_t>(bytes > 0 ? bytes - 1 : 0), '\0');
      if (bytes > 1) WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, a.data(), bytes, nullptr, nullptr);
      args.push_back(std::move(a));
    }
    LocalFree(wide);
    return args;
  }
#endif
  return {argv + 1, argv + argc};
}

bool asksForHelp(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef SIGPIPE
  // A reader that closes the pipe (`| head`) makes writes fail with EPIPE instead of killing
  // the process: the command ends quietly (commands.cpp, writeStdout).
  std::signal(SIGPIPE, SIG_IGN);
#endif
#ifdef _WIN32
  // What is written is what Linux writes: "\n", not "\r\n" (text mode), and UTF-8, which a
  // console shows as such.
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
  SetConsoleOutputCP(CP_UTF8);
#endif
  try {
    std::vector<std::string> args = arguments(argc, argv);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      std::fputs(overallUsage().c_str(), args.empty() ? stderr : stdout);
      return args.empty() ? bagscope::cli::kUsage : bagscope::cli::kOk;
    }
    if (args[0] == "--version") {
      namespace build = bagscope::build;
      std::printf("bagscope-cli %s\ncommit %s, %s build, %s, %s\n", build::version, build::commit, build::buildType,
                  build::compiler, build::system);
      return bagscope::cli::kOk;
    }
    std::string command = args[0];
    args.erase(args.begin());
    for (const auto& c : kCommands) {
      if (command != c.name) continue;
      if (asksForHelp(args)) {
        std::fputs(filled(c.usage).c_str(), stdout);
        std::fputs(kCommonNotes, stdout);
        return bagscope::cli::kOk;
      }
      return c.run(args);
    }
    std::fprintf(stderr, "bagscope-cli: unknown command '%s'\n\n%s", command.c_str(), overallUsage().c_str());
    return bagscope::cli::kUsage;
  } catch (const std::exception& e) {
    // The core throws nothing for bad input; this is for std::bad_alloc and the like.
    std::fprintf(stderr, "bagscope-cli: internal error: %s\n", e.what());
    return bagscope::cli::kFailed;
  }
}
