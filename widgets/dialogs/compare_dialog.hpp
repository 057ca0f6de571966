#pragma once
// File ▸ Compare With…: which recordings are run B and how its times are set against the
// open recording's (run A): by their starts, by an offset typed in, or by an event (a topic's
// first message, or the first time a field crosses a value).

#include <QDialog>
#include <QStringList>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QStackedWidget;

namespace bagscope::widgets {

class Document;

class CompareDialog : public QDialog {
  Q_OBJECT

public:
  /// Filled from the document's comparison when it compares already.
  explicit CompareDialog(Document* document, QWidget* parent = nullptr);
  QStringList paths() const;
  /// As session::parseRunAlignment reads it: "start", "offset:S", "event:TOPIC[:PATH>VALUE]".
  QString alignment() const;
  void setPaths(const QStringList& paths);
  void setAlignment(const QString& alignment);

private:
  QStringList chosen_;  // from the file dialogs (several files are one run)
  QLineEdit* paths_;
  QComboBox* mode_;
  QStackedWidget* details_;
  QDoubleSpinBox* offset_;
  QComboBox* topic_;
  QLineEdit* path_;
  QComboBox* op_;
  QDoubleSpinBox* value_;
};

}  // namespace bagscope::widgets
