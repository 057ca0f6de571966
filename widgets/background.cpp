#include "background.hpp"

#include <QThread>

#include <algorithm>
#include <thread>

#include "unexpected_error.hpp"

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

std::shared_ptr<session::Job> startSessionJob(
    const session::Session& session, std::shared_ptr<Mailbox> mailbox,
    std::function<Result<void>(std::stop_token, const session::ProgressFn&)> work, std::function<void(double)> progress,
    std::function<void(Result<void>)> done) {
  session::ProgressFn onProgress;
  if (progress)
    onProgress = [mailbox, progress = std::move(progress)](double f) { mailbox->post([progress, f] { progress(f); }); };
  return session.startJob(std::move(work), std::move(onProgress), [mailbox, done = std::move(done)](Result<void> r) {
    mailbox->post([done, r = std::move(r)] { done(r); });
  });
}

}  // namespace bagscope::widgets
