#pragma once
// Mailbox: how a worker thread hands a result to a QObject on the GUI thread. post() queues
// the call on the owner's thread, or drops it once the owner has closed the mailbox (it was
// destroyed, or no longer wants the result): workers never wait for the GUI, and the GUI
// never waits for a worker that cannot stop at once.

#include <QMetaObject>
#include <QObject>

#include <memory>
#include <mutex>
#include <utility>

namespace bagscope::widgets {

class Mailbox {
public:
  explicit Mailbox(QObject* owner) : owner_(owner) {}

  static std::shared_ptr<Mailbox> create(QObject* owner) { return std::make_shared<Mailbox>(owner); }

  template <typename Fn>
  void post(Fn&& fn) {
    std::lock_guard lock(mutex_);
    if (owner_) QMetaObject::invokeMethod(owner_, std::forward<Fn>(fn), Qt::QueuedConnection);
  }
  /// From the owner's thread: nothing posted after this reaches it.
  void close() {
    std::lock_guard lock(mutex_);
    owner_ = nullptr;
  }

private:
  std::mutex mutex_;
  QObject* owner_;
};

}  // namespace bagscope::widgets
