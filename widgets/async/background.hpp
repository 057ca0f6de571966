#pragma once
// Work off the GUI thread, three ways, all answering through a Mailbox (mailbox.hpp) so that
// results reach the GUI thread and are dropped once their receiver is gone:
//  - startSessionJob: a long job on a session (an export, a field extraction, statistics):
//    cancellable, with progress, on a thread of its own (Job).
//  - startInPool: a short task (a preview, the frames of /tf, a saved file, a panel's read)
//    on the app's pool.
//  - startDetached: opening a recording, which may scan a damaged file for a while before it
//    can stop, and which nothing (not even quitting) may wait for.
// Which thread owns what: widgets, the Document and their data live on the GUI thread; a
// session is shared (std::shared_ptr, thread-safe); a job or task owns only what it captured
// and hands its result over through the mailbox. Exceptions either way are reported
// (unexpected_error.hpp), never lost.

#include <QThreadPool>

#include <functional>
#include <memory>
#include "core/base/stop.hpp"

#include "core/session/session.hpp"
#include "widgets/async/mailbox.hpp"

namespace bagscope::widgets {

/// The pool for the app's own background work (reading, decoding, export previews). Never
/// Qt's global pool: Qt's painting and image conversion split work onto that one and wait for
/// it, so a long read there freezes the window until the read ends.
QThreadPool& backgroundPool();

/// Runs `task` on backgroundPool(); an exception it throws is reported.
void startInPool(std::function<void()> task);

/// Runs `task` on a thread of its own that is never waited for (not at exit either); an
/// exception it throws is reported. It must touch only what it owns and its mailbox.
void startDetached(std::function<void()> task);

/// Starts `work` as a job of `session`; `progress` (may be empty) and `done` run on the
/// mailbox owner's thread, and not at all once the mailbox is closed or the job dropped.
/// Keep the job: dropping it cancels and waits, and its end is not reported (cancel() it to
/// hear that it stopped). The job holds `session` until its work ends: a recording opened
/// meanwhile cannot free it under the job (issue #33).
std::shared_ptr<Job> startSessionJob(std::shared_ptr<const session::Session> session, std::shared_ptr<Mailbox> mailbox,
                                     std::function<Result<void>(StopToken, const session::ProgressFn&)> work,
                                     std::function<void(double)> progress, std::function<void(Result<void>)> done);

}  // namespace bagscope::widgets
