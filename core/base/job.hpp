#pragma once
// Long work on a thread of its own: cancellable, with throttled progress, its end reported
// to a callback. What the work reads it holds itself (a session by shared_ptr): the job
// knows nothing of it.

#include <functional>
#include <memory>

#include "core/base/result.hpp"
#include "core/base/stop.hpp"

namespace bagscope {

/// Called with the fraction done, 0 to 1.
using ProgressFn = std::function<void(double)>;

/// Wraps `progress` so that it is called at most every 100 ms (and always for 1.0), from
/// one thread at a time.
ProgressFn throttled(ProgressFn progress);

/// Puts the calling thread a little below the process's others (Linux: its nice value 4 up;
/// Windows: below normal; elsewhere as it was). For workers: when they and the thread they
/// work for (the GUI's, a consumer's) want the same core, that thread gets it; on a core of
/// their own they run as fast. Once per thread: later calls do nothing.
void lowerThreadPriority();

/// The handle of a job started by startJob. Destroying it cancels the job and waits for it
/// (unless it is dropped by the job's own `done`, on the job's thread).
class Job {
public:
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  /// Asks the job to stop; the work sees its token's request and returns soon after.
  void cancel() { thread_.request_stop(); }
  bool finished() const;
  void wait();

private:
  friend std::shared_ptr<Job> startJob(std::function<Result<void>(StopToken, const ProgressFn&)> work,
                                       ProgressFn progress, std::function<void(Result<void>)> done);
  struct Control;  // shared with the thread, which may outlive the handle
  Job();
  std::shared_ptr<Control> control_;
  JoiningThread thread_;
};

/// Runs `work` on a thread of its own with a stop token and a throttled `progress`; `done`
/// is called with its result (an exception becomes an error) on that thread when it ends.
/// The GUI turns both into queued calls on its own thread.
std::shared_ptr<Job> startJob(std::function<Result<void>(StopToken, const ProgressFn&)> work, ProgressFn progress,
                              std::function<void(Result<void>)> done);

}  // namespace bagscope
