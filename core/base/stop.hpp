#pragma once
// Cancellation and a joining thread, the parts of C++20's <stop_token> and std::jthread that
// Bagscope uses. libc++ before 20 (Apple's Xcode) has those only behind
// -fexperimental-library, so the code says StopSource, StopToken and JoiningThread, portable
// everywhere. Member names follow the standard's, so that they read alike. Requesting a stop
// is one lock-free atomic store: safe from a signal handler (Ctrl-C in the CLI).

#include <atomic>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>

namespace bagscope {

/// Says whether its source asked to stop. A default-constructed token never stops.
class StopToken {
public:
  StopToken() = default;
  bool stop_requested() const noexcept { return state_ && state_->load(std::memory_order_acquire); }
  bool stop_possible() const noexcept { return state_ != nullptr; }

private:
  friend class StopSource;
  explicit StopToken(std::shared_ptr<const std::atomic<bool>> state) : state_(std::move(state)) {}
  std::shared_ptr<const std::atomic<bool>> state_;
};

/// Asks every token it gave out to stop. Copies share the one state.
class StopSource {
public:
  StopSource() : state_(std::make_shared<std::atomic<bool>>(false)) {}
  StopToken get_token() const { return StopToken(state_); }
  /// True when this call made the request (false when it had been made already).
  bool request_stop() noexcept { return !state_->exchange(true, std::memory_order_acq_rel); }
  bool stop_requested() const noexcept { return state_->load(std::memory_order_acquire); }

private:
  static_assert(std::atomic<bool>::is_always_lock_free, "a stop is requested from signal handlers");
  std::shared_ptr<std::atomic<bool>> state_;
};

/// A thread that, when destroyed while joinable, asks its function to stop and joins it (as
/// JoiningThread). The function takes a StopToken first when it can.
class JoiningThread {
public:
  JoiningThread() = default;
  template <typename F, typename... Args>
  explicit JoiningThread(F&& f, Args&&... args) {
    if constexpr (std::is_invocable_v<std::decay_t<F>, StopToken, std::decay_t<Args>...>)
      thread_ = std::thread(std::forward<F>(f), stop_.get_token(), std::forward<Args>(args)...);
    else thread_ = std::thread(std::forward<F>(f), std::forward<Args>(args)...);
  }
  ~JoiningThread() { stopAndJoin(); }
  JoiningThread(JoiningThread&&) noexcept = default;
  JoiningThread& operator=(JoiningThread&& other) noexcept {
    if (this != &other) {
      stopAndJoin();
      thread_ = std::move(other.thread_);
      stop_ = std::move(other.stop_);
    }
    return *this;
  }
  JoiningThread(const JoiningThread&) = delete;
  JoiningThread& operator=(const JoiningThread&) = delete;

  bool request_stop() noexcept { return stop_.request_stop(); }
  StopSource get_stop_source() const { return stop_; }
  StopToken get_stop_token() const { return stop_.get_token(); }
  bool joinable() const noexcept { return thread_.joinable(); }
  void join() { thread_.join(); }
  void detach() { thread_.detach(); }
  std::thread::id get_id() const noexcept { return thread_.get_id(); }

private:
  void stopAndJoin() {
    if (!thread_.joinable()) return;
    stop_.request_stop();
    thread_.join();
  }
  StopSource stop_;
  std::thread thread_;
};

}  // namespace bagscope
