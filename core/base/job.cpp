// Jobs: long work on a thread of its own, cancellable, with progress.

#include "job.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

namespace bagscope {

void lowerThreadPriority() {
  thread_local bool lowered = false;  // once: a pool's thread would sink with every task
  if (lowered) return;
  lowered = true;
#if defined(__linux__)
  // Linux gives each thread a nice value of its own (POSIX would have the process's).
  const auto self = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int now = ::getpriority(PRIO_PROCESS, self);
  if (errno == 0) (void)::setpriority(PRIO_PROCESS, self, std::min(now + 4, 19));
#elif defined(_WIN32)
  ::SetThreadPriority(::GetCurrentThread(), THREAD_PRIORITY_BELOW_NORMAL);
#endif
}

ProgressFn throttled(ProgressFn progress) {
  if (!progress) return {};
  using Clock = std::chrono::steady_clock;
  struct Gate {
    std::mutex mutex;
    Clock::time_point last{};
  };
  auto gate = std::make_shared<Gate>();
  return [gate, progress = std::move(progress)](double fraction) {
    std::unique_lock lock(gate->mutex, std::try_to_lock);
    if (!lock.owns_lock() && fraction < 1.0) return;  // another thread is reporting
    if (!lock.owns_lock()) lock.lock();
    auto now = Clock::now();
    if (fraction < 1.0 && now - gate->last < std::chrono::milliseconds(100)) return;
    gate->last = now;
    progress(std::clamp(fraction, 0.0, 1.0));
  };
}

struct Job::Control {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
};

Job::Job() : control_(std::make_shared<Control>()) {}

Job::~Job() {
  // Dropped by its own `done` callback: let the thread end by itself.
  if (thread_.joinable() && thread_.get_id() == std::this_thread::get_id()) thread_.detach();
}

bool Job::finished() const {
  std::lock_guard lock(control_->mutex);
  return control_->done;
}

void Job::wait() {
  std::unique_lock lock(control_->mutex);
  control_->finished.wait(lock, [&] { return control_->done; });
}

std::shared_ptr<Job> startJob(std::function<Result<void>(StopToken, const ProgressFn&)> work, ProgressFn progress,
                              std::function<void(Result<void>)> done) {
  std::shared_ptr<Job> job(new Job());
  job->thread_ = JoiningThread([control = job->control_, work = std::move(work),
                                progress = throttled(std::move(progress)), done = std::move(done)](StopToken stop) {
    lowerThreadPriority();  // below the GUI thread that started it
    Result<void> r = runCatching([&] { return work(stop, progress); });
    if (done) done(std::move(r));
    std::lock_guard lock(control->mutex);
    control->done = true;
    control->finished.notify_all();
  });
  return job;
}

}  // namespace bagscope
