#pragma once
// Shared by the widget tests: open recordings in a Document or a window and wait for the result.

#include <QSignalSpy>
#include <QStringList>

#include "widgets/shell/document.hpp"
#include "widgets/shell/main_window.hpp"

namespace bagscope::test {

/// Opens `paths` and waits (up to 30 s); true when a session is open. `error` gets the
/// open's error text (empty when something opened).
inline bool openAndWait(widgets::Document& d, const QStringList& paths, QString* error = nullptr) {
  QSignalSpy done(&d, &widgets::Document::openFinished);
  d.open(paths);
  if (!done.wait(30000)) return false;
  if (error) *error = done.at(0).at(0).toString();
  return d.session() != nullptr;
}

/// The same through the window (File ▸ Open): true when it finished with a session open.
inline bool openAndWait(widgets::MainWindow& w, const QStringList& paths) {
  QSignalSpy done(&w, &widgets::MainWindow::openFinished);
  w.open(paths);
  return done.wait(30000) && w.document()->session() != nullptr;
}

}  // namespace bagscope::test
