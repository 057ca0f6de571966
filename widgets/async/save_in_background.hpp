#pragma once
// A file a panel saves (Save Frame, Export Visible Range): written by the export core on the
// app's background pool, never on the GUI thread, so a big cloud or a long plot does not
// freeze the window. The panel's saved() says how it ended.

#include <QString>
#include <QtGlobal>

#include <functional>
#include <memory>

#include "core/base/result.hpp"

namespace bagscope::session {
class Session;
}

namespace bagscope::widgets {

class Document;
class Panel;

/// Runs `write` on backgroundPool() (an exception it throws becomes its error), then emits
/// `panel->saved(path, error)` on the GUI thread, the error empty when the file was written
/// (dropped once the panel is gone).
void saveInBackground(Panel* panel, const QString& path, std::function<Result<void>()> write);

/// The save dialog's filters for one message of `topic`: the formats the export table writes
/// a file per message of its type in ("PCD (*.pcd);;PLY (*.ply);;…").
QString messageFileFilters(const Document& document, const QString& topic);

/// Writes the message of `topic` logged at `logTimeNs` to `path` as File ▸ Export writes it
/// (the format by the suffix, one of messageFileFilters; `path` is replaced: the file dialog
/// asked), with saveInBackground.
void saveMessage(Panel* panel, std::shared_ptr<const session::Session> session, const QString& topic, qint64 logTimeNs,
                 const QString& path);

}  // namespace bagscope::widgets
