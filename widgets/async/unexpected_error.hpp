#pragma once
// Exceptions that reach the app's edges — out of an event handler or slot (Qt's notify), out
// of a task on a pool thread — are shown in a dialog instead of ending the app without a
// word. What was being done may be incomplete; the app goes on.

#include <QApplication>
#include <QString>

#include <exception>

namespace bagscope::widgets {

/// The exception's text, as the dialog shows it ("unexpected failure: …").
QString describeException(std::exception_ptr exception);

/// Shows `text` in a dialog on the GUI thread; callable from any thread. Reports made while
/// the dialog is open are added to it, not stacked as more dialogs.
void reportUnexpected(const QString& text);

/// The app's QApplication: an exception that escapes an event's delivery is reported.
class Application : public QApplication {
public:
  using QApplication::QApplication;
  bool notify(QObject* receiver, QEvent* event) override;
};

}  // namespace bagscope::widgets
