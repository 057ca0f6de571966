#pragma once
// The subcommands of bagscope-cli. Each returns the process exit code.

#include <cstdio>
#include <string>
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
int runCat(const std::vector<std::string>& args);
int runStats(const std::vector<std::string>& args);

}  // namespace bagscope::cli
