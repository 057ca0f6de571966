// Jobs: long work on a thread of its own, cancellable, with progress.

#include "session.hpp"

#include <mutex>

#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/session_state.hpp"
#include "core/session/detail/worker_pool.hpp"

namespace bagscope::session {
namespace fs = std::filesystem;
using storage::Source;

// ---------------------------------------------------------------------------------------
// Jobs

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

std::shared_ptr<Job> Session::startJob(std::function<Result<void>(StopToken, const ProgressFn&)> work,
                                       ProgressFn progress, std::function<void(Result<void>)> done) const {
  std::shared_ptr<Job> job(new Job());
  job->thread_ = JoiningThread([control = job->control_, work = std::move(work),
                                progress = throttled(std::move(progress)), done = std::move(done)](StopToken stop) {
    Result<void> r = runCatching([&] { return work(stop, progress); });
    if (done) done(std::move(r));
    std::lock_guard lock(control->mutex);
    control->done = true;
    control->finished.notify_all();
  });
  return job;
}

}  // namespace bagscope::session
