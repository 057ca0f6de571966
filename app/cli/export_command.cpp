// bagscope-cli export: many recordings to files, in batch.

#include <atomic>
#include <chrono>
#include <cstdio>

#include "arguments.hpp"
#include "commands.hpp"
#include "core/base/text.hpp"
#include "core/export/export.hpp"
#include "progress.hpp"

namespace bagscope::cli {
namespace {
namespace fs = std::filesystem;

int usage(std::string_view why) { return usageError("export", why); }

// The command line, parsed: what to export and how, and what to read.
struct ExportArgs {
  exporters::ExportOptions options;
  std::vector<fs::path> inputs;
  std::optional<std::string> startArg, endArg;  // parsed per recording (+S is relative to its start)
  bool quiet = false;
  session::SessionOptions session;
};

// An option of the formats (formatOptions(): clouds, images and video, tables): true when
// `a` is one and was taken, or `code` set to the exit code of a usage error.
bool parseFormatOption(const std::string& a, Arguments& args, exporters::ExportOptions& o, std::optional<int>& code) {
  const exporters::FormatOption* option = a.starts_with("--") ? exporters::findFormatOption(a.substr(2)) : nullptr;
  if (!option) return false;
  std::string v = "true";
  if (option->kind != exporters::OptionKind::Flag && !args.value(v))
    return code = usage(a + " needs " + option->value + " (" + option->help + ")"), true;
  if (auto r = exporters::setOption(o, *option, v); !r) code = usage("--" + r.error().message);
  return true;
}

}  // namespace

std::string formatOptionsUsage() {
  constexpr std::size_t kHelpColumn = 36;
  constexpr const char* kGroups[] = {"clouds", "images and video", "tables"};
  std::string text;
  for (std::size_t g = 0; g < std::size(kGroups); ++g) {
    text += std::string("      ") + kGroups[g] + ":\n";
    for (const auto& o : exporters::formatOptions()) {
      if (static_cast<std::size_t>(o.group) != g) continue;
      std::string flag = std::string("--") + o.id;
      if (o.kind == exporters::OptionKind::Choice) {
        flag += ' ';
        for (const auto& c : o.choices) flag += std::string(flag.back() == ' ' ? "" : "|") + c.value;
      } else if (o.value) {
        flag += std::string(" ") + o.value;
      }
      if (o.kind == exporters::OptionKind::Repeated) flag += " (repeatable)";
      std::string line = "        " + flag;
      line += line.size() < kHelpColumn ? std::string(kHelpColumn - line.size(), ' ')
                                        : "\n" + std::string(kHelpColumn, ' ');
      // The help, wrapped at 88 columns under itself.
      for (std::string_view rest = o.help; !rest.empty();) {
        std::size_t room = 88 - kHelpColumn, cut = rest.size();
        if (cut > room) cut = rest.rfind(' ', room) == std::string_view::npos ? room : rest.rfind(' ', room);
        line += std::string(rest.substr(0, cut)) + "\n";
        rest.remove_prefix(std::min(rest.size(), cut + 1));
        if (!rest.empty()) line += std::string(kHelpColumn, ' ');
      }
      text += line;
    }
  }
  return text;
}

namespace {

// Parses `args` into `out`; the exit code of a usage error, else nothing.
std::optional<int> parseExportArgs(const std::vector<std::string>& list, ExportArgs& out) {
  exporters::ExportOptions& o = out.options;
  bool haveFormat = false;
  unsigned jobs = 0;
  out.session.recursive = true;
  Arguments args(list);
  while (args.next()) {
    const std::string& a = args.current();
    std::string v;
    std::optional<int> code;
    if (parseFormatOption(a, args, o, code)) {
      if (code) return code;
    } else if (a == "--format") {
      if (!args.value(v)) return usage("--format needs a format");
      auto f = exporters::formatFromName(v);
      if (!f) return usage(f.error().message);
      o.format = *f;
      haveFormat = true;
    } else if (a == "--out" || a == "-o") {
      if (!args.value(v)) return usage("--out needs a folder");
      o.outDir = fs::u8path(v);
    } else if (a == "--topic") {
      if (!args.value(v)) return usage("--topic needs a topic");
      o.topics.push_back(v);
    } else if (a == "--start" || a == "--end") {
      if (!args.value(v)) return usage(a + " needs a time in seconds");
      (a == "--start" ? out.startArg : out.endArg) = v;
    } else if (a == "--every") {
      if (!args.number(o.every) || o.every == 0) return usage("--every needs a whole number of at least 1");
    } else if (a == "--name") {
      if (!args.value(v)) return usage("--name needs a template");
      if (auto r = exporters::checkNameTemplate(v); !r) return usage(r.error().message);
      o.nameTemplate = v;
    } else if (a == "--jobs" || a == "-j") {
      if (!args.number(jobs) || jobs == 0) return usage("--jobs needs a number of at least 1");
    } else if (a == "--overwrite") {
      o.overwrite = true;
    } else if (a == "--dry-run") {
      o.dryRun = true;
    } else if (a == "--quiet" || a == "-q") {
      out.quiet = true;
    } else if (a == "--no-recursive") {
      out.session.recursive = false;
    } else if (a == "--msg-path") {
      if (!args.value(v)) return usage("--msg-path needs a folder");
      out.session.msgPaths.push_back(fs::u8path(v));
    } else if (a.starts_with("-")) {
      return usage("unknown option '" + a + "'");
    } else {
      out.inputs.push_back(fs::u8path(a));
    }
  }
  if (out.inputs.empty()) return usage("no recording given");
  if (!haveFormat) return usage("--format is required (" + exporters::formatNames() + ")");
  if (o.outDir.empty()) return usage("--out is required");
  const bool shaped = !o.alignOn.empty() || o.alignRateHz > 0 || o.fill != exporters::Fill::Previous;
  if (o.joins.empty() && shaped) return usage("--on, --rate and --fill shape a --join table; there is no --join");
  if (!o.joins.empty() && o.alignOn.empty() == (o.alignRateHz <= 0))
    return usage("--join needs one of --on TOPIC (its log times are the rows) and --rate HZ");
  out.session.workers = jobs;
  return std::nullopt;
}

// How the recordings' exports went.
struct ExportTally {
  exporters::ExportReport report;
  int failedRecordings = 0;
  bool damagedInput = false;  // a recording was damaged or incomplete (what was read is exported)
  bool cancelled = false, outputFailed = false;
  std::optional<int> exitNow;  // a usage error or a name conflict: stop with this code
};

// Exports each recording in turn into the one output folder (one report, one manifest).
ExportTally exportEach(const ExportArgs& args, const std::vector<fs::path>& recordings) {
  ExportTally t;
  exporters::ExportOptions o = args.options;
  o.allowMissingTopics = recordings.size() > 1;
  ProgressLine line(args.quiet || o.dryRun);
  InterruptScope interruptible;
  for (std::size_t k = 0; k < recordings.size() && !t.cancelled; ++k) {
    const fs::path& path = recordings[k];
    auto opened = session::Session::open({path}, args.session);
    if (!opened) {
      line.done();
      std::fprintf(stderr, "bagscope-cli: %s\n", opened.error().describe().c_str());
      ++t.failedRecordings;
      continue;
    }
    for (const auto& p : (*opened)->problems()) {  // said as info and cat say it: exit 3
      line.done();
      std::fprintf(stderr, "bagscope-cli: %s\n", p.c_str());  // names the file
      t.damagedInput = true;
    }
    exporters::ExportOptions mine = o;
    for (const auto* arg : {&args.startArg, &args.endArg})
      if (*arg && !parseTimeArgument(**arg, (*opened)->startNs(), arg == &args.startArg ? mine.startNs : mine.endNs)) {
        t.exitNow = usage("'" + **arg + "' is not a time in seconds");
        break;
      }
    if (t.exitNow) break;
    std::string bag = exporters::recordingName(path);
    auto r = exporters::exportSession(**opened, bag, mine, t.report, interrupt().get_token(),
                                      [&](double f) { line.show(bag, k + 1, recordings.size(), f); });
    if (r) continue;
    line.done();
    if (r.error().code == ErrorCode::Cancelled) {
      t.cancelled = true;
      break;
    }
    // The error names what it is about: the output file or folder, else the recording.
    Error e = r.error();
    if (e.file.empty()) e.file = utf8(path);
    std::fprintf(stderr, "bagscope-cli: %s\n", e.describe().c_str());
    if (!t.report.nameClash.empty()) {  // the user's --name: a command-line error, nothing written
      t.exitNow = kUsage;
      break;
    }
    if (e.code == ErrorCode::Write) t.outputFailed = true;
    if (!t.report.conflicts.empty()) {
      const auto& conflicts = t.report.conflicts;
      for (std::size_t c = 0; c < conflicts.size() && c < 20; ++c)
        std::fprintf(stderr, "  exists: %s\n", conflicts[c].c_str());
      if (conflicts.size() > 20) std::fprintf(stderr, "  … and %zu more\n", conflicts.size() - 20);
      t.exitNow = kOutputFailed;
      break;
    }
    ++t.failedRecordings;
  }
  line.done();
  return t;
}

// Writes the manifest (or lists a dry run's names), says what was written and skipped, and
// gives the exit code.
int finishExport(const ExportArgs& args, std::size_t recordings, const ExportTally& t) {
  const exporters::ExportOptions& o = args.options;
  const exporters::ExportReport& report = t.report;
  bool manifestFailed = false;
  if (o.dryRun) {
    for (const auto& f : report.files) std::printf("%s\n", utf8(f.path).c_str());
  } else if (!report.files.empty()) {
    if (auto manifest = exporters::writeManifest(report, o); !manifest) {
      std::fprintf(stderr, "bagscope-cli: %s\n", manifest.error().describe().c_str());
      manifestFailed = true;
    }
  }
  std::uint64_t skipped = 0;
  for (const auto& [why, n] : report.skipped) skipped += n;
  std::fprintf(stderr, "bagscope-cli: %s %zu files (%.1f MB) from %zu recordings into %s%s\n",
               o.dryRun ? "would write" : "wrote", report.files.size(), static_cast<double>(report.bytes) / 1e6,
               recordings - static_cast<std::size_t>(t.failedRecordings), utf8(o.outDir).c_str(),
               t.cancelled ? " before being interrupted" : "");
  for (const auto& [why, n] : report.skipped)
    std::fprintf(stderr, "  skipped %llu: %s\n", static_cast<unsigned long long>(n), why.c_str());
  for (std::size_t e = 0; e < report.errors.size() && e < 10; ++e)
    std::fprintf(stderr, "    %s\n", report.errors[e].c_str());
  for (const auto& note : report.notes) std::fprintf(stderr, "  note: %s\n", note.c_str());
  if (report.missingDefinitions > 0)
    std::fprintf(
        stderr,
        "  note: a type no definition was found for can be added with --msg-path (the folder of its package)\n");
  if (t.cancelled) return kInterrupted;
  if (report.files.empty() && !o.topics.empty() && recordings > 1) {
    std::fprintf(stderr, "bagscope-cli: none of the recordings has the topics asked for\n");
    return kFailed;
  }
  if (t.failedRecordings > 0 && !t.outputFailed) return kFailed;
  if (t.outputFailed || manifestFailed || report.outputFailed) return kOutputFailed;
  return skipped > 0 || t.damagedInput ? kPartial : kOk;
}

}  // namespace

int runExport(const std::vector<std::string>& args) {
  ExportArgs parsed;
  if (auto code = parseExportArgs(args, parsed)) return *code;
  auto recordings = session::expandInputs(parsed.inputs, parsed.session.recursive);
  if (!recordings) {
    std::fprintf(stderr, "bagscope-cli: %s\n", recordings.error().describe().c_str());
    return kFailed;
  }
  std::error_code ec;
  const auto& o = parsed.options;
  if (!o.dryRun && !o.overwrite && fs::exists(o.outDir / "manifest.json", ec)) {
    std::fprintf(stderr,
                 "bagscope-cli: '%s' holds an export already (manifest.json); use --overwrite or another --out\n",
                 utf8(o.outDir).c_str());
    return kOutputFailed;
  }
  ExportTally tally = exportEach(parsed, *recordings);
  if (tally.exitNow) return *tally.exitNow;
  return finishExport(parsed, recordings->size(), tally);
}

}  // namespace bagscope::cli
