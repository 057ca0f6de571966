#pragma once
// NewestRead: how panels read the message at the playhead without falling behind. One read
// runs at a time on backgroundPool(); requests made meanwhile replace each other and only
// the newest runs next. The result comes back on the owner's thread (dropped once the
// owner is gone). A read that throws is reported (unexpected_error.hpp) and shows nothing.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>

#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/unexpected_error.hpp"

namespace bagscope::session {
class Session;
}

namespace bagscope::widgets {

/// What a panel shows: message `row` of `topic` in `session`, drawn with settings `version`.
struct ReadKey {
  const session::Session* session = nullptr;
  int topic = -1;
  std::size_t row = 0;
  int version = 0;
  bool operator==(const ReadKey&) const = default;
};

template <typename T>
class NewestRead {
public:
  using Work = std::function<T()>;
  using Done = std::function<void(const ReadKey&, T)>;

  explicit NewestRead(QObject* owner) : mailbox_(Mailbox::create(owner)) {}
  ~NewestRead() { mailbox_->close(); }
  NewestRead(const NewestRead&) = delete;
  NewestRead& operator=(const NewestRead&) = delete;

  /// Asks for `key`: nothing when it is shown already, else `work` on the pool (now, or
  /// after the read in flight), then `done(previous, result)` on the owner's thread, where
  /// `previous` is the key shown before and shown() is `key`. A read in flight for another
  /// topic, session or version is dropped when it ends.
  void want(const ReadKey& key, Work work, Done done) {
    wanted_ = key;
    work_ = std::move(work);
    done_ = std::move(done);
    if (wanted_ == shown_ || reading_) return;
    start();
  }
  /// Forgets what is shown (a new session, other settings): the next want() reads.
  void reset() { shown_ = wanted_ = {}; }
  const ReadKey& shown() const { return shown_; }

private:
  void start() {
    reading_ = true;
    backgroundPool().start([key = wanted_, work = work_, done = done_, mailbox = mailbox_, this] {
      std::optional<T> result;
      QString failure;
      try {
        result = work();
      } catch (...) {
        failure = describeException(std::current_exception());
      }
      mailbox->post([this, key, done, result = std::move(result), failure]() mutable {
        reading_ = false;
        if (!result) return reportUnexpected(failure);  // no retry: the next want() asks again
        // An older row of what is wanted is shown while the newest is read (playback moves
        // on); a frame of another topic, session or settings is not: it is no longer asked for.
        bool stillWanted =
            key.session == wanted_.session && key.topic == wanted_.topic && key.version == wanted_.version;
        if (stillWanted) {
          ReadKey before = shown_;
          shown_ = key;
          done(before, std::move(*result));
        }
        if (wanted_.session && !(wanted_ == shown_)) start();
      });
    });
  }

  std::shared_ptr<Mailbox> mailbox_;
  ReadKey shown_, wanted_;
  Work work_;
  Done done_;
  bool reading_ = false;
};

}  // namespace bagscope::widgets
