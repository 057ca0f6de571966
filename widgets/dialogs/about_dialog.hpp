#pragma once
// Help ▸ About Bagscope: what this is, how this copy was built (to paste into a bug report),
// and the licences of Bagscope and of what it is built from.

#include <QDialog>

namespace bagscope::widgets {

class AboutDialog : public QDialog {
  Q_OBJECT

public:
  explicit AboutDialog(QWidget* parent = nullptr);

  /// Version, commit, compiler, platform and library versions, one "name: value" per line.
  static QString buildReport();
};

}  // namespace bagscope::widgets
