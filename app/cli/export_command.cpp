// bagscope-cli export: many recordings to files, in batch.

#include <atomic>
#include <chrono>
#include <cstdio>

#include "arguments.hpp"
#include "commands.hpp"
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

// The options of the formats (clouds, images and video, tables): true when `a` is one of them
// and was taken, or `code` set to the exit code of a usage error.
bool parseFormatOption(const std::string& a, Arguments& args, exporters::ExportOptions& o, std::optional<int>& code) {
  std::string v;
  auto fail = [&](const std::string& why) { return code = usage(why), true; };
  if (a == "--pcd-encoding") {
    if (!args.value(v)) return fail("--pcd-encoding needs ascii, binary or binary_compressed");
    if (v == "ascii") o.pcdEncoding = exporters::PcdEncoding::Ascii;
    else if (v == "binary") o.pcdEncoding = exporters::PcdEncoding::Binary;
    else if (v == "binary_compressed") o.pcdEncoding = exporters::PcdEncoding::BinaryCompressed;
    else return fail("--pcd-encoding takes ascii, binary or binary_compressed, not '" + v + "'");
  } else if (a == "--ascii") {
    o.plyAscii = true;
    o.pcdEncoding = exporters::PcdEncoding::Ascii;
  } else if (a == "--fields") {
    if (!args.value(v)) return fail("--fields needs a list like x,y,z,intensity=i");
    for (std::size_t at = 0; at <= v.size();) {
      auto comma = std::min(v.find(',', at), v.size());
      if (comma > at) o.fields.push_back(v.substr(at, comma - at));
      at = comma + 1;
    }
  } else if (a == "--normalise-intensity" || a == "--normalize-intensity") {
    o.normaliseIntensity = true;
  } else if (a == "--drop-nan") {
    o.dropNaN = true;
  } else if (a == "--frame") {
    if (!args.value(o.targetFrame)) return fail("--frame needs a frame id");
  } else if (a == "--axes") {
    if (!args.value(v)) return fail("--axes needs three axes such as z,-y,x");
    if (auto r = exporters::parseAxes(v); !r) return fail("--" + r.error().message);  // "--axes 'q': …"
    o.axes = v;
  } else if (a == "--quality") {
    if (!args.number(o.jpegQuality) || o.jpegQuality > 100) return fail("--quality needs 0..100");
  } else if (a == "--fps") {
    if (!args.number(o.fps)) return fail("--fps needs a positive number");
  } else if (a == "--time") {
    if (!args.value(v)) return fail("--time needs log, stamp or both");
    if (v == "log") o.timeColumns = exporters::TimeColumns::LogTime;
    else if (v == "stamp") o.timeColumns = exporters::TimeColumns::Stamp;
    else if (v == "both") o.timeColumns = exporters::TimeColumns::Both;
    else return fail("--time takes log, stamp or both, not '" + v + "'");
  } else if (a == "--seconds") {
    o.timeInSeconds = true;
  } else if (a == "--field") {
    if (!args.value(v))
      return fail("--field needs a message path such as pose.position.x or markers[:]{id==3}.scale.x");
    o.paths.push_back(v);
  } else if (a == "--array-limit") {
    if (!args.number(o.arrayLimit)) return fail("--array-limit needs a number");
  } else {
    return false;
  }
  return true;
}

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
