#pragma once
// The timeline: one row per topic, each message a tick (dense rows drawn as density), a
// time ruler, the playhead and the selected range. TimeAxis is the time <-> pixel mapping,
// kept apart so it can be tested without a window.

#include <QPixmap>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "core/session/session.hpp"

class QScrollBar;

namespace bagscope::widgets {

class Document;

/// How times are written: seconds since the recording's start, local clock time, or Unix
/// seconds.
enum class TimeDisplay { Relative, Clock, Unix };

/// `ns` as the user chose to see times (`originNs`: the recording's start).
QString formatTime(qint64 ns, TimeDisplay display, qint64 originNs, int decimals = 3);

/// A ruler label for `ns` on ticks `stepNs` apart, exact (integer arithmetic, no rounding),
/// with as many decimals as the step needs; clock times get the date when `spanNs` (the
/// view) is a day or more.
QString tickLabel(qint64 ns, TimeDisplay display, qint64 originNs, qint64 stepNs, qint64 spanNs);

/// A header stamp for display, with its unit: as formatTime when it lies near the recording
/// (within a day of [startNs, endNs]); else flagged and absolute, so that an unset stamp
/// (0) or one on another clock (sim time) never reads as -1.7e9 s after the start.
QString formatStamp(qint64 stampNs, TimeDisplay display, qint64 startNs, qint64 endNs, int decimals = 3);
/// Whether formatStamp flags `stampNs` (unset, or not on the recording's clock).
bool stampIsForeign(qint64 stampNs, qint64 startNs, qint64 endNs);

/// Maps the visible time window [fromNs, toNs] onto `width` pixels, and back.
class TimeAxis {
public:
  struct Tick {
    qint64 ns;
    double x;
  };

  /// The recording's span: the view never leaves it.
  void setSpan(qint64 startNs, qint64 endNs);
  void setWidth(double pixels);
  void setView(qint64 fromNs, qint64 toNs);
  void fit() { setView(spanStart_, spanEnd_); }

  qint64 fromNs() const { return from_; }
  qint64 toNs() const { return to_; }
  double width() const { return width_; }
  double nsPerPixel() const;

  double toPixel(qint64 ns) const;
  qint64 toTime(double x) const;
  /// factor > 1 zooms in; the time under `x` stays under `x`. At most 1 µs across the view.
  void zoom(double factor, double x);
  /// Moves the view by `pixels` (positive: later times come into view).
  void pan(double pixels);
  /// Round-numbered times at least `minSpacing` pixels apart (1, 2, 5 × 10^k ns steps).
  std::vector<Tick> ticks(double minSpacing) const;
  qint64 tickStep(double minSpacing) const;

  struct Label {
    qint64 ns;
    double x;
    QString text;
  };
  /// The ruler's ticks and their labels, as far apart as the widest label needs (`width`
  /// measures one in pixels, `gap` pixels between them), each written with the digits its
  /// step needs, so that neighbours never overlap or read the same, at any span.
  std::vector<Label> labels(const std::function<double(const QString&)>& width, double gap, TimeDisplay display,
                            qint64 originNs) const;

private:
  void clampView();
  qint64 spanStart_ = 0, spanEnd_ = 1;
  qint64 from_ = 0, to_ = 1;
  double width_ = 1;
};

/// Messages of `index` in each of the `columns` pixel columns [x, x + 1) of `axis`.
std::vector<std::uint32_t> messageDensity(std::span<const session::MessageRef> index, const TimeAxis& axis,
                                          int columns);

class Thumbnails;
class Mailbox;

class TimelineWidget : public QWidget {
  Q_OBJECT

public:
  explicit TimelineWidget(Document* document, QWidget* parent = nullptr);

  /// The topics shown, top to bottom (the topic list's filter and order).
  void setRows(std::vector<session::TopicId> rows);
  const std::vector<session::TopicId>& rows() const { return rows_; }
  void setTimeDisplay(TimeDisplay display);
  TimeAxis& axis() { return axis_; }
  const TimeAxis& axis() const { return axis_; }
  /// x of the track area's left edge (names are drawn left of it).
  int trackLeft() const;
  void zoomToFit();
  void zoomToRange();

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  /// Image thumbnails drawn in the rows now (zoomed in enough: their messages at least a
  /// thumbnail apart).
  int thumbnailsDrawn() const { return thumbnailsDrawn_; }
  /// The keyframes of a video topic in its row (log times), once found in the background.
  const std::vector<qint64>& keyframes(session::TopicId topic) const;

signals:
  void topicClicked(int topic);

protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void mouseDoubleClickEvent(QMouseEvent*) override;
  void contextMenuEvent(QContextMenuEvent*) override;
  void changeEvent(QEvent*) override;

private:
  enum class Drag { None, Pending, Pan, Playhead, Range };
  void onSession();
  void invalidate();
  void layoutAxis();
  int rowAt(int y) const;
  QRect trackRect() const;
  void paintRows(QPainter& p);
  void paintRuler(QPainter& p);

  Document* document_;
  TimeAxis axis_;
  TimeDisplay display_ = TimeDisplay::Relative;
  std::vector<session::TopicId> rows_;
  QScrollBar* scroll_;
  Thumbnails* thumbnails_;
  int thumbnailsDrawn_ = 0;
  std::map<session::TopicId, std::vector<qint64>> keyframes_;  // of video topics, marked in their rows
  std::shared_ptr<Mailbox> mailbox_;
  std::vector<std::shared_ptr<Job>> keyframeJobs_;
  QPixmap rowsCache_;  // rows and names; the playhead and range are drawn over it
  bool cacheValid_ = false;
  Drag drag_ = Drag::None;
  QPoint pressPos_;
  qint64 pressNs_ = 0;
  double lastX_ = 0;
};

}  // namespace bagscope::widgets
