#pragma once
// The user's settings (kept with QSettings) and the dialog that edits them.

#include <QDialog>
#include <QString>
#include <QStringList>

#include "widgets/shell/timeline.hpp"

class QComboBox;
class QListWidget;
class QSpinBox;
class QLineEdit;

namespace bagscope::widgets {

struct AppSettings {
  QString language;  ///< "" follows the system; else "en", "zh_CN", "ja_JP"
  TimeDisplay timeDisplay = TimeDisplay::Relative;
  int cacheMiB = 1024;       ///< chunk cache budget
  QString exportFolder;      ///< where the export wizard starts (Documents/Bagscope exports)
  QStringList messagePaths;  ///< folders of .msg files and recordings that define types files lack
  QString tileUrl;           ///< the map's tile server ({z}/{x}/{y}); empty: none chosen yet

  static AppSettings load();
  void save() const;
};

/// The languages the app is translated into: (code, name in that language).
QList<QPair<QString, QString>> availableLanguages();

class SettingsDialog : public QDialog {
  Q_OBJECT

public:
  explicit SettingsDialog(const AppSettings& settings, QWidget* parent = nullptr);
  AppSettings settings() const;

private:
  QComboBox* language_;
  QComboBox* time_;
  QSpinBox* cache_;
  QLineEdit* exportFolder_;
  QLineEdit* tileUrl_;
  QListWidget* messagePaths_;
};

}  // namespace bagscope::widgets
