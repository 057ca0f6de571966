#pragma once
// Shared by the widget tests: open recordings in a Document and wait for the result.

#include <QSignalSpy>
#include <QStringList>

#include "widgets/shell/document.hpp"

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

}  // namespace bagscope::test
