#pragma once
// Layouts: the arrangement of the window's panels and their settings, saved as JSON files
// under a name. A layout names topics, not connections or files, so it works with any bag
// that has topics of the same names.

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace bagscope::widgets {

struct Layout {
  QString name;
  QByteArray windowState;  ///< QMainWindow::saveState (docks, toolbars)
  QByteArray geometry;     ///< QMainWindow::saveGeometry
  QJsonObject panels;      ///< per panel: its settings

  QJsonObject toJson() const;
  /// Errors name what is wrong.
  static std::optional<Layout> fromJson(const QJsonObject& json, QString* error);
  static std::optional<Layout> readFile(const QString& path, QString* error);
  /// Written to a temporary file and renamed.
  bool writeFile(const QString& path, QString* error) const;
};

/// Named layouts: one `<name>.json` each in a folder.
class LayoutStore {
public:
  /// The default folder is the app's data folder + "/layouts".
  explicit LayoutStore(QString folder = {});
  QString folder() const { return folder_; }
  QStringList names() const;
  bool save(const Layout& layout, QString* error) const;
  std::optional<Layout> load(const QString& name, QString* error) const;
  bool remove(const QString& name) const;
  QString pathOf(const QString& name) const;

private:
  QString folder_;
};

}  // namespace bagscope::widgets
