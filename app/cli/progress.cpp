#include "progress.hpp"

#include <csignal>
#include <cstdio>

#ifdef _WIN32
#include <io.h>
#define isatty _isatty
#define fileno _fileno
#else
#include <unistd.h>
#endif

namespace bagscope::cli {
namespace {
extern "C" void onInterrupt(int) { interrupt().request_stop(); }
}  // namespace

StopSource& interrupt() {
  static StopSource source;
  return source;
}

InterruptScope::InterruptScope() { std::signal(SIGINT, onInterrupt); }
InterruptScope::~InterruptScope() { std::signal(SIGINT, SIG_DFL); }

ProgressLine::ProgressLine(bool quiet) : tty_(!quiet && isatty(fileno(stderr))), quiet_(quiet) {}

void ProgressLine::show(const std::string& bag, std::size_t k, std::size_t n, double f) {
  if (quiet_) return;
  std::lock_guard lock(mutex_);
  int percent = static_cast<int>(f * 100);
  if (tty_) {
    int filled = static_cast<int>(f * 30);
    std::fprintf(stderr, "\r[%-30s] %3d%%  %zu/%zu %s\033[K",
                 std::string(static_cast<std::size_t>(filled), '=').c_str(), percent, k, n, bag.c_str());
  } else if (percent >= lastPercent_ + 25 || (percent == 100 && lastPercent_ != 100) || bag != lastBag_) {
    std::fprintf(stderr, "bagscope-cli: %zu/%zu %s: %d%%\n", k, n, bag.c_str(), percent);
    lastPercent_ = percent;
  }
  lastBag_ = bag;
}
void ProgressLine::done() {
  if (tty_) std::fputs("\r\033[K", stderr);
}

}  // namespace bagscope::cli
