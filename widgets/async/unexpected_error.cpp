#include "widgets/async/unexpected_error.hpp"

#include <QMessageBox>
#include <QPointer>
#include <QThread>

#include "core/base/result.hpp"
#include "widgets/qt_text.hpp"

namespace bagscope::widgets {

QString describeException(std::exception_ptr exception) { return toQt(unexpectedError(exception).describe()); }

void reportUnexpected(const QString& text) {
  if (!qApp) return;
  QMetaObject::invokeMethod(
      qApp,
      [text] {
        static QPointer<QMessageBox> shown;  // GUI thread only
        if (shown) {
          shown->setInformativeText(shown->informativeText() + QLatin1Char('\n') + text);
          return;
        }
        auto* box =
            new QMessageBox(QMessageBox::Critical, QApplication::translate("Application", "Unexpected error"),
                            QApplication::translate("Application",
                                                    "Bagscope caught an error it did not expect and keeps running. "
                                                    "What it was doing may be incomplete."),
                            QMessageBox::Ok, QApplication::activeWindow());
        box->setObjectName(QStringLiteral("unexpectedError"));
        box->setInformativeText(text);
        box->setTextInteractionFlags(Qt::TextSelectableByMouse);
        box->setAttribute(Qt::WA_DeleteOnClose);
        shown = box;
        box->open();  // not exec(): the report must not nest an event loop inside notify
      },
      Qt::QueuedConnection);
}

bool Application::notify(QObject* receiver, QEvent* event) {
  try {
    return QApplication::notify(receiver, event);
  } catch (...) {
    reportUnexpected(describeException(std::current_exception()));
    return false;
  }
}

}  // namespace bagscope::widgets
