#pragma once
// Playback: moves the document's playhead in real time × speed, loops within the selected
// range, and steps message by message. PlaybackBar is its toolbar, with the actions (and
// their keyboard shortcuts) the window puts in its Playback menu.

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <QToolBar>

#include "widgets/shell/document.hpp"
#include "widgets/shell/timeline.hpp"

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace bagscope::widgets {

class Document;

class Playback : public QObject {
  Q_OBJECT

public:
  explicit Playback(Document* document, QObject* parent = nullptr);

  bool isPlaying() const { return timer_.isActive(); }
  double speed() const { return speed_; }
  bool loops() const { return loop_; }

  void play();
  void pause();
  void toggle() { isPlaying() ? pause() : play(); }
  void setSpeed(double speed);  ///< clamped to [0.1, 10]
  void setLoop(bool loop);
  /// To the previous (direction < 0) or next message of `topic`, or of any topic when
  /// topic < 0. Returns false when there is none.
  bool step(int direction, int topic);
  void toStart();
  void toEnd();

signals:
  void stateChanged();

private:
  void tick();
  TimeRange bounds() const;

  Document* document_;
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 anchorNs_ = 0;  // playhead when clock_ started
  qint64 lastSetNs_ = 0;
  qint64 lastPrefetch_ = 0;
  double speed_ = 1.0;
  bool loop_ = false;
};

class PlaybackBar : public QToolBar {
  Q_OBJECT

public:
  PlaybackBar(Document* document, Playback* playback, QWidget* parent = nullptr);
  /// Play/pause, step back/forward (selected topic, any topic), start, end, loop.
  QList<QAction*> playbackActions() const { return actions_; }
  void setTimeDisplay(TimeDisplay display);
  /// The playhead's time as the bar shows it.
  QString timeText() const;

private:
  void updateTime();
  void updateRange();
  void updateState();

  Document* document_;
  Playback* playback_;
  QList<QAction*> actions_;
  QAction* play_ = nullptr;
  QAction* loop_ = nullptr;
  QComboBox* speed_ = nullptr;
  QLabel* time_ = nullptr;
  QDoubleSpinBox* rangeStart_ = nullptr;
  QDoubleSpinBox* rangeEnd_ = nullptr;
  QAction* clearRange_ = nullptr;
  TimeDisplay display_ = TimeDisplay::Relative;
};

}  // namespace bagscope::widgets
