#pragma once
// The subcommands of bagscope-cli. Each returns the process exit code.

#include <cstdio>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bagscope::cli {

/// Exit codes, documented in README.md ("Command line").
enum ExitCode : int {
  kOk = 0,
  kFailed = 1,     ///< the file could not be opened or read
  kUsage = 2,      ///< bad command line
  kPartial = 3,    ///< finished, but some messages could not be read or decoded
};

int runInfo(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runCat(const std::vector<std::string>& args);
int runStats(const std::vector<std::string>& args);

/// "1700000000.25" -> ns, exactly (no floating point); false when malformed.
bool parseSeconds(std::string_view s, std::int64_t& ns);
/// --start/--end: seconds since the epoch, or "+S" seconds after `recordingStartNs`.
bool parseTimeArgument(std::string_view arg, std::int64_t recordingStartNs, std::int64_t& ns);

}  // namespace bagscope::cli
