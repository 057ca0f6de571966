#pragma once
// The session's worker threads: short tasks (load a chunk, decode a run of messages) and a
// parallel loop that the calling thread joins, so that a loop started from a worker (or
// with every worker busy) still finishes.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/base/stop.hpp"

namespace bagscope::session::detail {

class WorkerPool {
public:
  /// `threads` 0: one per hardware thread (at least 2), plus one.
  explicit WorkerPool(unsigned threads = 0);
  /// Drops the tasks not started yet and waits for those running.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(threads_.size()); }

  /// Runs `task` on a worker, some time later. An exception it throws is dropped: a task
  /// reports its own failure.
  void submit(std::function<void()> task);

  /// Calls body(i) for every i in [0, n) on the calling thread and size() - 1 workers, and
  /// returns when all calls have returned. Once `stop` is requested, the i not started are
  /// skipped. A body that throws skips the i not started; the first exception is rethrown
  /// here, on the calling thread, whichever thread it was thrown on.
  void parallelFor(std::size_t n, const std::function<void(std::size_t)>& body, StopToken stop = {});

private:
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // under mutex_: the workers end
  std::deque<std::function<void()>> tasks_;
  std::vector<JoiningThread> threads_;
};

}  // namespace bagscope::session::detail
