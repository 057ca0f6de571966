#pragma once
// Panel: a view the user can open several of (plots, image viewers, 3D views). The main
// window docks it, names it, and saves its settings in layouts.

#include <QJsonObject>
#include <QWidget>

namespace bagscope::widgets {

class Panel : public QWidget {
  Q_OBJECT

public:
  using QWidget::QWidget;
  /// "plot", "image", "cloud": what the layout records to create it again.
  virtual QString kind() const = 0;
  /// Settings by topic name and field path (not ids), so they apply to other bags too.
  virtual QJsonObject saveSettings() const = 0;
  virtual void restoreSettings(const QJsonObject& settings) = 0;
  /// Called when a (new) recording is open: pick topics again by name.
  virtual void sessionChanged() {}

signals:
  /// The panel's title (its topic) changed.
  void titleChanged(const QString& title);
};

}  // namespace bagscope::widgets
