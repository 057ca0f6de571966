#pragma once
// Panel: a view the user can open several of (plots, image viewers, 3D views). The main
// window docks it, names it, and saves its settings in layouts.

#include <QJsonObject>
#include <QWidget>

#include <functional>
#include <vector>

#include "timeline.hpp"

class QComboBox;

namespace bagscope::widgets {

struct TopicInfo;

class Panel : public QWidget {
  Q_OBJECT

public:
  using QWidget::QWidget;
  /// "plot", "image", "cloud": what the layout records to create it again (panel_registry).
  virtual QString kind() const = 0;
  /// Settings by topic name and field path (not ids), so they apply to other bags too.
  virtual QJsonObject saveSettings() const = 0;
  virtual void restoreSettings(const QJsonObject& settings) = 0;
  /// Called when a (new) recording is open: pick topics again by name.
  virtual void sessionChanged() {}
  /// Settings ▸ time display changed: panels that write times follow it.
  virtual void setTimeDisplay(TimeDisplay) {}
  /// Panels of one topic (image, 3D) show `name`; empty: the first they can. Others ignore it.
  virtual void setTopic(const QString& name) { (void)name; }

  /// Asks for a file name (`suggested`, `filters`) and saves there with `save`; a failure
  /// is shown when saved() comes.
  void askAndSave(const QString& title, const QString& suggested, const QString& filters,
                  const std::function<void(const QString&)>& save);

signals:
  /// The panel's title (its topic) changed.
  void titleChanged(const QString& title);
  /// A file it was asked to write (Save Frame, Export Visible Range) was written in the
  /// background (`error` empty), or why not.
  void saved(const QString& path, const QString& error);
};

/// Refills a panel's topic box with the recording's topics that `accept` takes (name shown, id
/// as item data) and selects `wanted` (a layout's topic, else the one shown before). When
/// `wanted` is not there the box selects nothing and says so; when `wanted` is empty, the
/// first topic `preferred` takes, else the first. The box's signals are blocked meanwhile.
/// Returns whether `wanted` was found.
bool refillTopicBox(QComboBox* box, const std::vector<TopicInfo>& topics, const QString& wanted,
                    const std::function<bool(const TopicInfo&)>& accept,
                    const std::function<bool(const TopicInfo&)>& preferred = {});

/// What a panel says when its topic box selects nothing: no recording, `wanted` absent from
/// this one, or no topic of the kind (`noneText`).
QString noTopicText(bool sessionOpen, const QString& wanted, const QString& noneText);

}  // namespace bagscope::widgets
