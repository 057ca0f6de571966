#pragma once
// Panel: a view the user can open several of (plots, image viewers, 3D views). The main
// window docks it, names it, and saves its settings in layouts.

#include <QComboBox>
#include <QJsonObject>
#include <QWidget>

#include <functional>
#include <utility>
#include <vector>

#include "widgets/shell/timeline.hpp"

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
  /// Whether the panel now shows time on an axis that scrolls with the others' (a time plot):
  /// the window moves it to each range another one sends with timeRangeChanged.
  virtual bool sharesTimeRange() const { return false; }
  virtual void showTimeRange(double lowerS, double upperS) { (void)lowerS, (void)upperS; }

  /// Asks for a file name (`suggested`, `filters`) and saves there with `save`; a failure
  /// is shown when saved() comes.
  void askAndSave(const QString& title, const QString& suggested, const QString& filters,
                  const std::function<void(const QString&)>& save);

signals:
  /// The user zoomed or panned its time axis (seconds from the start).
  void timeRangeChanged(double lowerS, double upperS);
  /// The panel's title (its topic) changed.
  void titleChanged(const QString& title);
  /// A file it was asked to write (Save Frame, Export Visible Range) was written in the
  /// background (`error` empty), or why not.
  void saved(const QString& path, const QString& error);
};

/// Fills `box` with `none` (data "") and then `choices` (shown text, data), and selects the
/// data `wanted`, else `none`; returns whether `wanted` was there. Emits nothing. A box that
/// holds these choices already is left as it is (an open list stays open).
bool refillChoice(QComboBox* box, const QString& none, const std::vector<std::pair<QString, QString>>& choices,
                  const QString& wanted);

/// A panel's topic box: the recording's topics of the panel's kind (name shown, id as item
/// data), and the topic asked for (by a layout, or Show in …) while the open recording lacks
/// it — then the box selects nothing and says so, rather than show another topic's data,
/// and selects it again when a recording has it.
class TopicChoice : public QComboBox {
  Q_OBJECT

public:
  explicit TopicChoice(QWidget* parent = nullptr);
  /// Refills with the `topics` that `accept` takes and selects the one asked for, else the one
  /// shown before, else the first `preferred` takes, else the first. Emits nothing.
  void refill(const std::vector<TopicInfo>& topics, const std::function<bool(const TopicInfo&)>& accept,
              const std::function<bool(const TopicInfo&)>& preferred = {});
  /// Asks for `name`: selected at the next refill (empty: the first there is).
  void ask(const QString& name) { asked_ = name; }
  /// The topic asked for while it is absent, else the one selected ("" for none): its name,
  /// or "name (type)" where types share the name (what layouts keep; ask() takes either).
  QString topic() const { return asked_.isEmpty() ? currentText() : asked_; }
  /// What the panel says when nothing is selected: no recording, the topic asked for absent
  /// from this one, or no topic of the kind (`noneText`).
  QString noTopicText(bool sessionOpen, const QString& noneText) const;

signals:
  /// The user selected a topic (the one asked for is forgotten).
  void chosen();

private:
  static constexpr int kNameRole = Qt::UserRole + 1;          // the topic's name (its id is the data)
  static constexpr int kNameWithTypeRole = Qt::UserRole + 2;  // "name (type)"
  QString asked_;
};

}  // namespace bagscope::widgets
