#include "widgets/async/background.hpp"

#include <QThread>

#include <algorithm>
#include <thread>

#include "core/base/job.hpp"
#include "widgets/async/unexpected_error.hpp"

namespace bagscope::widgets {

QThreadPool& backgroundPool() {
  static QThreadPool* pool = [] {
    auto* p = new QThreadPool(qApp);  // ends with the app, waiting for what runs
    p->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    return p;
  }();
  return *pool;
}

void startInPool(std::function<void()> task) {
  backgroundPool().start([task = std::move(task)] {
    lowerThreadPriority();  // a preview's reading leaves the GUI thread its core
    try {
      task();
    } catch (...) {
      reportUnexpected(describeException(std::current_exception()));
    }
  });
}

void startDetached(std::function<void()> task) {
  std::thread([task = std::move(task)] {
    try {
      task();
    } catch (...) {
      reportUnexpected(describeException(std::current_exception()));
    }
  }).detach();
}

std::shared_ptr<Job> startSessionJob(std::shared_ptr<const session::Session> session, std::shared_ptr<Mailbox> mailbox,
                                     std::function<Result<void>(StopToken, const session::ProgressFn&)> work,
                                     std::function<void(double)> progress, std::function<void(Result<void>)> done) {
  // Progress and the end reach the owner only while it holds the job: one it dropped for another
  // (a new topic, a new read) stopped, and what it says would overwrite the new one's news.
  auto held = std::make_shared<std::weak_ptr<Job>>();
  session::ProgressFn onProgress;
  if (progress)
    onProgress = [mailbox, held, progress = std::move(progress)](double f) {
      mailbox->post([held, progress, f] {
        if (!held->expired()) progress(f);
      });
    };
  auto holding = [session, work = std::move(work)](StopToken stop, const session::ProgressFn& report) {
    return work(std::move(stop), report);
  };
  auto job =
      startJob(std::move(holding), std::move(onProgress), [mailbox, held, done = std::move(done)](Result<void> r) {
        mailbox->post([held, done, r = std::move(r)] {
          if (!held->expired()) done(r);
        });
      });
  *held = job;  // before anything posted can run: both happen on the owner's thread
  return job;
}

}  // namespace bagscope::widgets
