#pragma once
// The plot panel (QCustomPlot): numeric fields of topics over time, or one field against
// another (XY). Data comes from the session's field extraction in the background; what is
// drawn is min/max-decimated per pixel column for the visible range, again on every zoom
// and pan, so millions of points stay smooth. A red line follows the playhead; a click
// moves it. Series come from "Add series…", from the topic list's "Plot field…", or by
// dragging a field from the message inspector.

#include <QColor>
#include <QSharedPointer>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "widgets/panels/panel.hpp"

class QCustomPlot;
class QCPAbstractPlottable;
class QCPAbstractItem;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QProgressBar;
class QAction;
class QComboBox;
class QMenu;
class QToolButton;

namespace bagscope {
class Job;
}
namespace bagscope::session {
struct FieldColumns;
}  // namespace bagscope::session

namespace bagscope::widgets {

class Document;
class Mailbox;

/// The MIME type of a field dragged from the inspector: "topic\npath" as UTF-8.
inline constexpr char kFieldMimeType[] = "application/x-bagscope-field";

class TimeTicker;

class PlotPanel : public Panel {
  Q_OBJECT

public:
  /// Fields over time; one field against another; the spectrum or the histogram of the time
  /// series over the time range shown when it was chosen; fields as state lanes over time.
  enum class Mode { Time, XY, Spectrum, Histogram, States };

  explicit PlotPanel(Document* document, QWidget* parent = nullptr);
  ~PlotPanel() override;

  static constexpr const char* kKind = "plot";
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;
  bool sharesTimeRange() const override;
  void showTimeRange(double lowerS, double upperS) override { setXRange(lowerS, upperS); }
  void setTimeDisplay(TimeDisplay display) override;

  Mode mode() const;
  void setMode(Mode mode);
  /// Time mode: `path` of `topic` against time; a message path (decode::MessagePath) with a
  /// bounded slice (ranges[0:10]) adds a series per element, one with an open slice
  /// (markers[:].scale.x) is drawn as points. XY mode: `xPath` against `path`.
  void addSeries(const QString& topic, const QString& path, const QString& xPath = {});
  /// Time mode: a series derived from `path` of `topic`, `derive` naming its kind and
  /// argument as derived_series.hpp lists them ("roll" of a quaternion, "average:10",
  /// "lowpass:2.5"). Saved in layouts and exported to CSV like the others.
  void addDerivedSeries(const QString& topic, const QString& path, const QString& derive);
  /// Time mode: `expression` (muparser: sqrt(a^2+b^2), a - b, …) over a = `path` of `topic`
  /// and b, c, … = `inputs` (topic, path), aligned to a's times (interpolated, never
  /// extrapolated); t is the time in seconds.
  void addExpressionSeries(const QString& topic, const QString& path, const QString& expression,
                           const std::vector<std::pair<QString, QString>>& inputs);
  /// Which run of a comparison (File ▸ Compare With…) a series shows: the recording open (A),
  /// run B on A's time axis (the comparison's alignment), or B − A (B interpolated at A's
  /// times, never extrapolated), whose statistics are the RMS, max |Δ| and correlation.
  enum class Run { A, B, Difference };
  /// Time mode: series i (of run A) again for `run`: B in its colour, dashed, or B − A.
  void addComparedSeries(int i, Run run);
  Run seriesRun(int i) const;
  /// States mode: `path` of `topic` (a string, enum-like integer or bool) as a lane of spans.
  void addStateLane(const QString& topic, const QString& path);
  /// States mode: the spans of lane i drawn now, as "begin-end label" (seconds), for tests.
  QStringList laneSpans(int i) const;
  /// XY mode: a field of one topic against a field of another, y interpolated at the log times
  /// of x's messages.
  void addXYSeries(const QString& xTopic, const QString& xPath, const QString& yTopic, const QString& yPath);
  /// Series i's menu (right-click on its legend entry): rename, colour, right y axis, remove,
  /// and the series derived from it.
  QMenu* seriesMenu(int i);
  void renameSeries(int i, const QString& name);
  void setSeriesColour(int i, const QColor& colour);
  void setSeriesOnRightAxis(int i, bool right);
  void removeSeries(int i);
  /// Series i placed at its messages' header stamps instead of their log times (the time
  /// axis says so).
  void setSeriesStampTime(int i, bool stamp);
  /// A logarithmic y axis (both, when the right one is used).
  void setLogScale(bool log);
  bool logScale() const;
  /// XY: one unit as long on both axes.
  void setEqualAspect(bool equal);
  /// "line", "points" or "both".
  void setSeriesStyle(int i, const QString& style);
  /// The legend in a column beside the plot instead of over it.
  void setLegendOutside(bool outside);
  void clearSeries();
  int seriesCount() const { return static_cast<int>(series_.size()); }
  /// The full (undecimated) data of series i, x in seconds from the recording's start
  /// (time mode) or the x field's values (XY); empty until loaded.
  const std::vector<double>& seriesX(int i) const;
  const std::vector<double>& seriesY(int i) const;
  /// Points drawn now for series i (after decimation).
  int drawnPoints(int i) const;
  /// Why series show no data (a topic absent from the recording, a field that cannot be
  /// read); empty when every series loaded.
  QString problemText() const;
  /// The readout: each visible series' value at the pointer (or at the playhead).
  QString readoutText() const;
  /// Series i's value at the playhead as its legend entry shows it ("= 1.25"), time mode.
  QString legendValue(int i) const;
  /// Count, min, max, mean, std and rate of each visible series over the visible range.
  QString statisticsText() const;

  /// Time mode: the visible x range in seconds from the start (plots link through these).
  void setXRange(double lower, double upper);
  std::pair<double, double> xRange() const;
  void fitAll();
  QCustomPlot* plot() const { return plot_; }

  /// Writes the series' points inside the visible time range (every point in XY mode) as
  /// one CSV (exporters::writeSeriesCsv), in the background; ends with saved().
  void exportVisibleCsv(const QString& path);
  /// Time mode: the visible series as one table on the first one's times over the visible
  /// range, each the last sample at or before a row (exporters::writeAlignedSeriesCsv), in the
  /// background; ends with saved().
  void exportAlignedCsv(const QString& path);
  /// PNG, SVG or PDF by the file's suffix, at `size` (default: the plot's own).
  bool saveImage(const QString& path, QString* error, QSize size = {}) const;
  /// Loads series data directly (benchmarks: 10 M points without a bag).
  void setSeriesData(int i, std::vector<double> x, std::vector<double> y);

signals:
  /// The user zoomed or panned the time axis.
  /// Every series has its data.
  void loaded();

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

public slots:
  /// Asks for a topic and fields (the selected topic first) and adds them.
  void showAddDialog();

  /// The Custom Expression… dialog over series i (a) and the others; an expression that does
  /// not parse is refused there, with the column of its fault.
  void askExpression(int i);

private:
  void setUpPlot();
  QMenu* makeMoreMenu();
  void connectPlot();
  struct Series;
  void load(Series& s);
  void addSeries(const QString& topic, const QString& path, const QString& xPath, const QString& derive);
  QString seriesName(const Series& s) const;
  QString fieldsName(const Series& s) const;  // what it shows, whichever run
  void setRun(Series& s, Run run);            // and read it again
  bool typeHasStamp(const QString& topic) const;
  // The modes (plot_modes.cpp): how each draws, fits, reads out, saves and takes new fields.
  class PlotMode;
  class TimeMode;
  class XYMode;
  class ViewMode;  // Spectrum, Histogram
  class StatesMode;
  static std::unique_ptr<PlotMode> makeMode(Mode mode, PlotPanel& panel);
  bool overTime() const;  // the mode shows series over time (time, spectrum, histogram)
  void redraw();
  void drawCurves();            // Time and XY: the series' lines and curves, the y axes fitted
  double recordingEnd() const;  // seconds from the start: where the last state of a lane ends
  QString emptyHint() const;
  QString timeText(double seconds) const;
  static std::optional<std::size_t> sampleAt(const std::vector<double>& x, double at, bool playhead);
  bool timeAxis() const;
  void updateCursor();
  void updateReadout();
  void updateStatistics();
  void onLoaded();
  void comparisonChanged();                        // run B's series read again
  void elideAxisTitles(int axisRectHeight) const;  // time mode's y titles, cut to fit that height
  QString timeAxisLabel() const;

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  QCustomPlot* plot_;
  QSharedPointer<TimeTicker> ticker_;  // time mode's x labels
  QCPItemStraightLine* cursor_ = nullptr;
  QCPGraph* marker_ = nullptr;                 // XY: the point at the playhead
  std::vector<QCPAbstractItem*> laneItems_;    // States: the spans drawn now
  std::array<QString, 2> axisTitles_;          // Time: what the y axes show, before cutting to fit
  std::pair<double, double> timeRange_{0, 1};  // Spectrum, Histogram: the time range they cover
  QComboBox* modeBox_;
  QProgressBar* progress_;
  QLabel* hint_;
  QLabel* readout_;
  QLabel* stats_;
  std::optional<double> hoverX_;  // the pointer's time over the plot
  bool equalAspect_ = false;
  bool legendOutside_ = false;
  QAction* legendAction_ = nullptr;
  QAction* logAction_ = nullptr;
  QAction* equalAction_ = nullptr;
  std::vector<std::unique_ptr<Series>> series_;
  struct SeriesSpec {
    QString topic, path, xPath, derive, xTopic;
    std::vector<std::pair<QString, QString>> inputs;
    Run run = Run::A;
  };
  // The series of the modes not shown: [0] time (and its spectrum and histogram), [1] XY,
  // [2] state lanes.
  std::array<std::vector<SeriesSpec>, 3> parked_;
  std::unique_ptr<PlotMode> mode_;
  bool settingRange_ = false;
  int nextColour_ = 0;
};

}  // namespace bagscope::widgets
