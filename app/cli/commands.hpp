#pragma once
// The subcommands of bagscope-cli. Each returns the process exit code.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

namespace bagscope::cli {

/// Exit codes, documented in README.md ("Command line").
enum ExitCode : int {
  kOk = 0,
  kFailed = 1,         ///< an input could not be opened or read
  kUsage = 2,          ///< bad command line
  kPartial = 3,        ///< finished, but some messages were lost or skipped, or damage was recovered
  kOutputFailed = 4,   ///< an output could not be written (or exists and --overwrite was not given)
  kInterrupted = 130,  ///< stopped by Ctrl-C (SIGINT); what was complete is kept
};

int runInfo(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runCat(const std::vector<std::string>& args);
int runStats(const std::vector<std::string>& args);
int runFilter(const std::vector<std::string>& args);
int runMerge(const std::vector<std::string>& args);
int runConvert(const std::vector<std::string>& args);
int runImport(const std::vector<std::string>& args);
int runRecover(const std::vector<std::string>& args);
int runDiff(const std::vector<std::string>& args);
int runRender(const std::vector<std::string>& args);

/// Standard output is an output like any file: false when the write failed (a full disk) or
/// the reader closed it (`| head`: then quietly, as cat and grep do).
bool writeStdout(std::string_view text);
/// `code`, or kOutputFailed when standard output could not be written.
int stdoutWritten(int code);

/// A bad command line: "bagscope-cli: <command>: <why> (see bagscope-cli <command> --help)"
/// on stderr; returns kUsage. Every command's parser says its faults through this.
int usageError(std::string_view command, std::string_view why);
/// The export formats' options, a line each, grouped (from exporters::formatOptions()).
std::string formatOptionsUsage();

/// `error` as the CLI prints it: described, and for a missing definition how to add it.
std::string describeForCli(const Error& error);

}  // namespace bagscope::cli
