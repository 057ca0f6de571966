#pragma once
// What the long commands (export, filter, convert, …) share on the terminal: a progress line
// on standard error, and Ctrl-C asking the running job to stop.

#include <cstddef>
#include <mutex>
#include <string>
#include "core/base/stop.hpp"

namespace bagscope::cli {

/// Requested when the user presses Ctrl-C inside an InterruptScope.
StopSource& interrupt();

/// While it lives, SIGINT requests interrupt() instead of ending the process.
class InterruptScope {
public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

/// "[=====     ]  50%  1/3 name" redrawn in place on a terminal, a line per quarter otherwise.
class ProgressLine {
public:
  explicit ProgressLine(bool quiet);
  void show(const std::string& name, std::size_t k, std::size_t n, double fraction);
  /// Clears the line (on a terminal).
  void done();

private:
  bool tty_, quiet_;
  std::mutex mutex_;
  int lastPercent_ = -100;
  std::string lastBag_;
};

}  // namespace bagscope::cli
