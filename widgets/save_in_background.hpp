#pragma once
// A file a panel saves (Save Frame, Export Visible Range): written by the export core on a
// thread of the session (a job), never on the GUI thread, so a big cloud or a long plot does
// not freeze the window. The result comes back on the owner's thread.

#include <QObject>
#include <QString>
#include <QtGlobal>

#include <functional>
#include <memory>
#include <stop_token>

#include "core/base/result.hpp"

namespace bagscope::session {
class Session;
}

namespace bagscope::widgets {

/// Runs `write` as a job of `session`; then `done(error)` on `owner`'s thread, the error
/// empty when the file was written (dropped once `owner` is gone).
void saveInBackground(QObject* owner, std::shared_ptr<const session::Session> session,
                      std::function<Result<void>(const session::Session&, std::stop_token)> write,
                      std::function<void(const QString& error)> done);

class Panel;

/// Writes the message of `topic` logged at `logTimeNs` to `path` as File ▸ Export writes it
/// (the format by the suffix; `path` is replaced: the file dialog asked), then emits
/// `panel->saved(path, error)`.
void saveMessage(Panel* panel, std::shared_ptr<const session::Session> session, const QString& topic, qint64 logTimeNs,
                 const QString& path);

}  // namespace bagscope::widgets
