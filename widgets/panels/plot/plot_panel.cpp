#include "widgets/panels/plot/plot_panel.hpp"

#include <QColorDialog>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "core/analysis/derive.hpp"
#include "core/decode/decoder.hpp"
#include "core/export/export.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/save_in_background.hpp"
#include "widgets/dialogs/field_dialog.hpp"
#include "widgets/panels/plot/decimate.hpp"
#include "widgets/panels/plot/derived_series.hpp"
#include "widgets/panels/plot/plot_series.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

// Time-mode x labels as Settings ▸ time display says: x is seconds from the start.
class TimeTicker : public QCPAxisTicker {
public:
  TimeDisplay display = TimeDisplay::Relative;
  qint64 originNs = 0;

protected:
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override {
    if (display == TimeDisplay::Relative) return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
    auto ns = originNs + static_cast<qint64>(std::llround(tick * 1e9));
    return formatTime(ns, display, originNs, std::clamp(precision, 0, 9));
  }
};
namespace {

// Twelve colours that are told apart on white, before any repeats.
QColor seriesColour(int i) {
  static const QColor colours[] = {QColor(31, 119, 180), QColor(214, 39, 40),   QColor(44, 160, 44),
                                   QColor(255, 127, 14), QColor(148, 103, 189), QColor(23, 190, 207),
                                   QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127),
                                   QColor(188, 189, 34), QColor(0, 0, 128),     QColor(128, 0, 0)};
  return colours[i % static_cast<int>(std::size(colours))];
}

QString number(double v) { return std::isfinite(v) ? QString::number(v, 'g', 6) : QStringLiteral("nan"); }

using Mode = PlotPanel::Mode;
// Modes that show the same series: time, its spectrum and its histogram; XY; state lanes.
int seriesGroup(Mode m) { return m == Mode::XY ? 1 : m == Mode::States ? 2 : 0; }
constexpr std::array<const char*, 3> kSeriesGroupNames = {"time", "xy", "states"};  // saved layouts' keys
bool overTime(Mode m) { return seriesGroup(m) == 0; }
constexpr std::array<const char*, 5> kModeNames{"time", "xy", "spectrum", "histogram", "states"};

// A legend entry that shows its series' value at the playhead after its name (the name itself
// stays the series' own: it is lent the value only while the entry is measured and drawn).
class ValueLegendItem : public QCPPlottableLegendItem {
public:
  using QCPPlottableLegendItem::QCPPlottableLegendItem;
  QString value;

protected:
  void draw(QCPPainter* painter) override {
    withValue([&] { QCPPlottableLegendItem::draw(painter); });
  }
  QSize minimumOuterSizeHint() const override {
    QSize size;
    withValue([&] { size = QCPPlottableLegendItem::minimumOuterSizeHint(); });
    return size;
  }

private:
  template <class F>
  void withValue(F f) const {
    QString name = mPlottable->name();
    if (!value.isEmpty()) mPlottable->setName(name + QStringLiteral("   ") + value);
    f();
    mPlottable->setName(name);
  }
};

// A path that selects several values in a message (an open or negative slice): points, not a line.
bool manyPerMessage(const QString& path) {
  static const QRegularExpression slice(QStringLiteral("\\[-?\\d*:-?\\d*\\]"));
  return slice.match(path).hasMatch();
}

}  // namespace

struct PlotPanel::Series {
  QString topic, path, xPath;                       // xPath: XY mode
  QString xTopic;                                   // XY: the x field's topic, when it is not `topic`
  QString derive;                                   // a derived series (addDerivedSeries), else empty
  std::vector<std::pair<QString, QString>> inputs;  // an expression's b, c, …: topic, path
  QString label;                                    // the user's name for it, else empty
  bool rightAxis = false;                           // drawn against the right y axis
  bool stamp = false;                               // x from the message's header.stamp, not its log time
  QString style = QStringLiteral("line");           // "line", "points" or "both"
  QColor colour;
  bool visible = true;
  std::vector<double> x, y;
  std::vector<std::string> keys;  // States: each sample's value as text
  bool loaded = false;
  QString problem;
  std::shared_ptr<session::Job> job;
  QCPAbstractPlottable* plottable = nullptr;
  int drawn = 0;
};

PlotPanel::PlotPanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      plot_(new QCustomPlot(this)),
      ticker_(new TimeTicker),
      modeBox_(new QComboBox(this)),
      progress_(new QProgressBar(this)),
      hint_(new QLabel(this)),
      readout_(new QLabel(this)),
      stats_(new QLabel(this)) {
  setAcceptDrops(true);
  modeBox_->addItem(tr("Time"));
  modeBox_->addItem(tr("XY"));
  modeBox_->addItem(tr("Spectrum (FFT)"));
  modeBox_->addItem(tr("Histogram"));
  modeBox_->addItem(tr("States"));
  modeBox_->setToolTip(
      tr("Fields over time; one field against another; the spectrum or histogram of the "
         "time series over the range shown; fields as state lanes"));
  auto* add = new QToolButton(this);
  add->setText(tr("Add Series…"));
  auto* fit = new QToolButton(this);
  fit->setText(tr("Fit"));
  fit->setToolTip(tr("Show all data"));
  auto* more = new QToolButton(this);
  more->setText(tr("More"));
  more->setPopupMode(QToolButton::InstantPopup);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->hide();
  auto* bar = new QHBoxLayout;
  bar->addWidget(modeBox_);
  bar->addWidget(add);
  bar->addWidget(fit);
  bar->addWidget(more);
  bar->addStretch(1);
  bar->addWidget(progress_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addWidget(plot_, 1);
  layout->addWidget(readout_);
  layout->addWidget(stats_);
  layout->addWidget(hint_);
  for (QLabel* l : {readout_, stats_}) {
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    l->hide();
  }
  stats_->setEnabled(false);  // grey: figures, not controls
  hint_->setText(emptyHint());
  hint_->setEnabled(false);

  setUpPlot();
  connect(add, &QToolButton::clicked, this, &PlotPanel::showAddDialog);
  connect(fit, &QToolButton::clicked, this, &PlotPanel::fitAll);
  more->setMenu(makeMoreMenu());
  connectPlot();
}

// Axes, legend, the playhead's line, and drawing hints for long series.
void PlotPanel::setUpPlot() {
  plot_->setMinimumSize(200, 150);
  plot_->setMouseTracking(true);  // the readout follows the pointer without a button down
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 200));
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  plot_->xAxis->setLabel(tr("seconds from the start"));
  plot_->xAxis->setTicker(ticker_);
  plot_->setNoAntialiasingOnDrag(true);
  // Decimated series zig-zag between each column's min and max: fast polylines, and no
  // antialiasing for the graphs (thousands of full-height segments cost seconds with it).
  plot_->setPlottingHint(QCP::phFastPolylines, true);
  plot_->setNotAntialiasedElements(QCP::aePlottables);
  cursor_ = new QCPItemStraightLine(plot_);
  cursor_->setPen(QPen(QColor(220, 30, 30), 1.5));
  cursor_->setSelectable(false);
  cursor_->setVisible(false);  // until there is something to follow
  plot_->legend->setVisible(false);
}

// More ▸ Export Visible Range, Save as Image, Remove All Series.
QMenu* PlotPanel::makeMoreMenu() {
  auto* menu = new QMenu(this);
  menu->addAction(tr("Export Visible Range as CSV…"), this, [this] {
    askAndSave(tr("Export Visible Range as CSV"), QStringLiteral("plot.csv"), tr("CSV files (*.csv)"),
               [this](const QString& path) { exportVisibleCsv(path); });
  });
  menu->addAction(tr("Save as Image…"), this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Save Plot as Image"), QStringLiteral("plot.png"),
                                                tr("PNG image (*.png);;SVG drawing (*.svg)"));
    QString error;
    if (!path.isEmpty() && !saveImage(path, &error)) QMessageBox::warning(this, tr("Saving failed"), error);
  });
  menu->addSeparator();
  logAction_ = menu->addAction(tr("Logarithmic Y Axis"));
  logAction_->setCheckable(true);
  connect(logAction_, &QAction::triggered, this, &PlotPanel::setLogScale);
  legendAction_ = menu->addAction(tr("Legend Beside the Plot"));
  legendAction_->setCheckable(true);
  connect(legendAction_, &QAction::triggered, this, &PlotPanel::setLegendOutside);
  equalAction_ = menu->addAction(tr("Equal Axis Scales (XY)"));
  equalAction_->setCheckable(true);
  equalAction_->setToolTip(tr("One unit as long on both axes: a trajectory keeps its shape"));
  connect(equalAction_, &QAction::triggered, this, &PlotPanel::setEqualAspect);
  menu->addSeparator();
  menu->addAction(tr("Remove All Series"), this, &PlotPanel::clearSeries);
  return menu;
}

// The mode box, the x range (shared with other time plots), legend clicks (hide a series)
// and a click on the plot (moves the playhead).
void PlotPanel::connectPlot() {
  connect(modeBox_, &QComboBox::currentIndexChanged, this, [this](int i) { setMode(static_cast<Mode>(i)); });
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
    if (settingRange_) return;
    redraw();
    if (timeAxis()) emit timeRangeChanged(r.lower, r.upper);
  });
  connect(plot_, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent* e) {
    auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!entry) return;
    if (e->button() == Qt::RightButton) {  // the series' own menu
      for (std::size_t i = 0; i < series_.size(); ++i)
        if (series_[i]->plottable == entry->plottable()) {
          seriesMenu(static_cast<int>(i))->popup(e->globalPosition().toPoint());
        }
      return;
    }
    if (e->button() != Qt::LeftButton) return;
    for (auto& s : series_) {
      if (s->plottable != entry->plottable()) continue;
      s->visible = !s->visible;
      s->plottable->setVisible(s->visible);
      entry->setTextColor(s->visible ? Qt::black : Qt::gray);
    }
    updateStatistics();
    updateReadout();
    plot_->replot();
  });
  // A click (not a drag) on the plot moves the playhead there.
  auto* pressAt = new QPoint;
  connect(this, &QObject::destroyed, [pressAt] { delete pressAt; });
  connect(plot_, &QCustomPlot::mousePress, this, [pressAt](QMouseEvent* e) { *pressAt = e->pos(); });
  connect(plot_, &QCustomPlot::mouseRelease, this, [this, pressAt](QMouseEvent* e) {
    if (!timeAxis() || e->button() != Qt::LeftButton || (e->pos() - *pressAt).manhattanLength() > 3) return;
    if (!plot_->axisRect()->rect().contains(e->pos())) return;
    // The legend lies over the plot: a click on it is for the legend (toggling a series).
    if (plot_->legend->visible() && plot_->legend->selectTest(e->pos(), false) >= 0) return;
    double seconds = plot_->xAxis->pixelToCoord(e->pos().x());
    document_->setPlayhead(document_->startNs() + static_cast<qint64>(std::llround(seconds * 1e9)));
  });
  connect(document_, &Document::playheadChanged, this, &PlotPanel::updateCursor);
  // Time mode's y axis titles, cut to the plot's height as it is when drawn.
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
    if (mode_ != Mode::Time) return;
    QCPAxis* axes[2] = {plot_->yAxis, plot_->yAxis2};
    for (std::size_t k = 0; k < 2; ++k)
      axes[k]->setLabel(
          QFontMetrics(axes[k]->labelFont())
              .elidedText(axisTitles_[k], Qt::ElideRight, std::max(40, plot_->axisRect()->height() * 5 / 6)));
  });
  // The readout: every visible series' value at the pointer (at the playhead when the pointer
  // is elsewhere).
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    bool over = timeAxis() && plot_->axisRect()->rect().contains(e->pos());
    hoverX_ = over ? std::optional<double>(plot_->xAxis->pixelToCoord(e->pos().x())) : std::nullopt;
    updateReadout();
  });
  plot_->installEventFilter(this);
}

bool PlotPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == plot_ && event->type() == QEvent::Leave) {
    hoverX_.reset();
    updateReadout();
  }
  return Panel::eventFilter(watched, event);
}

// The sample shown for time `at`: at the playhead the last one at or before it, as the
// inspector shows the last message (issue #33); under the pointer the nearest.
std::optional<std::size_t> PlotPanel::sampleAt(const std::vector<double>& x, double at, bool playhead) {
  if (x.empty()) return std::nullopt;
  if (!playhead) return analysis::nearestSample(x, at);
  auto after = std::upper_bound(x.begin(), x.end(), at);
  if (after == x.begin()) return std::nullopt;
  return static_cast<std::size_t>(after - x.begin() - 1);
}

void PlotPanel::updateReadout() {
  QStringList values;
  const double playhead = static_cast<double>(document_->playheadNs() - document_->startNs()) / 1e9;
  double at = hoverX_.value_or(playhead);
  // The legend: each time series' value at the playhead (the fixed cursor).
  for (const auto& s : series_) {
    auto* entry = dynamic_cast<ValueLegendItem*>(plot_->legend->itemWithPlottable(s->plottable));
    if (!entry) continue;
    auto i = mode_ == Mode::Time && s->xPath.isEmpty() ? sampleAt(s->x, playhead, true) : std::nullopt;
    entry->value = i ? QStringLiteral("= ") + number(s->y[*i]) : QString();
  }
  for (const auto& s : series_) {
    if (!s->visible || s->x.empty() || !s->xPath.isEmpty()) continue;
    if (mode_ == Mode::States) {  // the state at that time: its last sample at or before it
      auto after = std::upper_bound(s->x.begin(), s->x.end(), at);
      if (after == s->x.begin() || s->keys.empty()) continue;
      values << QStringLiteral("%1 = %2").arg(seriesName(*s),
                                              toQt(s->keys[static_cast<std::size_t>(after - s->x.begin() - 1)]));
      continue;
    }
    auto i = sampleAt(s->x, at, !hoverX_);
    if (!i) continue;
    values << QStringLiteral("%1 = %2 (%3)").arg(seriesName(*s), number(s->y[*i]), timeText(s->x[*i]));
  }
  readout_->setVisible(timeAxis() && !values.isEmpty());
  if (values.isEmpty()) return;
  QString where = hoverX_ ? tr("At %1:").arg(timeText(at)) : tr("At the playhead (%1):").arg(timeText(at));
  readout_->setText(where + QLatin1Char(' ') + values.join(QStringLiteral(" · ")));
}

// Count, min, max, mean, standard deviation and rate of each visible series over the visible
// time range.
void PlotPanel::updateStatistics() {
  QStringList lines;
  QCPRange range = plot_->xAxis->range();
  for (const auto& s : series_) {
    if (!s->visible || s->x.empty() || !s->xPath.isEmpty() || lines.size() >= 6) continue;
    auto st = analysis::statistics(s->x, s->y, range.lower, range.upper);
    lines << tr("%1: %n sample(s), min %2, max %3, mean %4, std %5, %6 Hz", nullptr, static_cast<int>(st.count))
                 .arg(seriesName(*s), number(st.min), number(st.max), number(st.mean), number(st.stddev),
                      number(st.rateHz));
  }
  stats_->setVisible(mode_ == Mode::Time && !lines.isEmpty());
  stats_->setText(lines.join(QLatin1Char('\n')));
}

QString PlotPanel::legendValue(int i) const {
  auto* entry = dynamic_cast<ValueLegendItem*>(
      plot_->legend->itemWithPlottable(series_.at(static_cast<std::size_t>(i))->plottable));
  return entry ? entry->value : QString();
}

QString PlotPanel::readoutText() const { return readout_->isVisibleTo(this) ? readout_->text() : QString(); }
QString PlotPanel::statisticsText() const { return stats_->isVisibleTo(this) ? stats_->text() : QString(); }

PlotPanel::~PlotPanel() {
  mailbox_->close();
  series_.clear();  // cancels and waits for loading jobs
}

// Each mode keeps its own series: those of the mode left are set aside and come back (loaded
// again) when it is chosen again.
void PlotPanel::setMode(Mode mode) {
  if (mode == mode_) return;
  if (mode_ == Mode::Time)
    timeRange_ = {plot_->xAxis->range().lower, plot_->xAxis->range().upper};  // what the spectrum and histogram cover
  const bool sameSeries = seriesGroup(mode) == seriesGroup(mode_);
  if (!sameSeries) {
    auto& leaving = parked_[static_cast<std::size_t>(seriesGroup(mode_))];
    leaving.clear();
    for (const auto& s : series_) leaving.push_back({s->topic, s->path, s->xPath, s->derive, s->xTopic, s->inputs});
  }
  mode_ = mode;
  {
    QSignalBlocker block(modeBox_);
    modeBox_->setCurrentIndex(static_cast<int>(mode));
  }
  if (!sameSeries) clearSeries();
  for (auto* item : laneItems_) plot_->removeItem(item);
  laneItems_.clear();
  const QString axisLabels[] = {timeAxisLabel(), QString(), tr("frequency (Hz)"), tr("value"), timeAxisLabel()};
  plot_->xAxis->setLabel(axisLabels[static_cast<int>(mode)]);
  plot_->yAxis->setLabel(mode == Mode::Spectrum    ? tr("amplitude")
                         : mode == Mode::Histogram ? tr("samples")
                                                   : QString());
  if (timeAxis()) plot_->xAxis->setTicker(ticker_);
  else plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));  // a field's values, Hz
  if (mode == Mode::States) plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  else if (!logScale()) plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  plot_->axisRect()->setRangeZoom(timeAxis() ? Qt::Horizontal : Qt::Horizontal | Qt::Vertical);
  for (auto& s : series_) {  // the same series, drawn as this mode draws them
    if (auto* g = qobject_cast<QCPGraph*>(s->plottable))
      g->setLineStyle(mode == Mode::Histogram               ? QCPGraph::lsStepLeft
                      : s->style == QLatin1String("points") ? QCPGraph::lsNone
                                                            : QCPGraph::lsLine);
  }
  if (sameSeries) {
    if (mode == Mode::Time) {
      settingRange_ = true;
      plot_->xAxis->setRange(timeRange_.first, timeRange_.second);
      settingRange_ = false;
      redraw();
    } else {
      fitAll();
    }
  } else {
    auto returning = std::move(parked_[static_cast<std::size_t>(seriesGroup(mode))]);
    parked_[static_cast<std::size_t>(seriesGroup(mode))].clear();
    for (const auto& spec : returning) {
      if (mode == Mode::States) addStateLane(spec.topic, spec.path);
      else if (!spec.inputs.empty()) addExpressionSeries(spec.topic, spec.path, expressionOf(spec.derive), spec.inputs);
      else if (spec.xTopic.isEmpty()) addSeries(spec.topic, spec.path, spec.xPath, spec.derive);
      else addXYSeries(spec.xTopic, spec.xPath, spec.topic, spec.path);
    }
  }
  updateCursor();  // no time playhead line in XY, the spectrum or the histogram
}

void PlotPanel::addSeries(const QString& topic, const QString& path, const QString& xPath) {
  if (mode_ == Mode::XY || mode_ == Mode::States) return addSeries(topic, path, xPath, QString());
  // ranges[0:10]: a series per element.
  for (const auto& one : decode::MessagePath::expandSlices(path.toStdString(), 64))
    addSeries(topic, toQt(one), xPath, QString());
}

void PlotPanel::addXYSeries(const QString& xTopic, const QString& xPath, const QString& yTopic, const QString& yPath) {
  if (mode_ != Mode::XY) setMode(Mode::XY);
  addSeries(yTopic, yPath, xPath);
  if (xTopic == yTopic) return;
  Series& s = *series_.back();  // y against x of another topic: reloaded with both
  s.xTopic = xTopic;
  s.plottable->setName(seriesName(s));
  load(s);
}

void PlotPanel::addDerivedSeries(const QString& topic, const QString& path, const QString& derive) {
  if (!overTime(mode_)) setMode(Mode::Time);  // derived series are series over time
  addSeries(topic, path, QString(), derive);
}

void PlotPanel::addExpressionSeries(const QString& topic, const QString& path, const QString& expression,
                                    const std::vector<std::pair<QString, QString>>& inputs) {
  if (!overTime(mode_)) setMode(Mode::Time);
  addSeries(topic, path, QString(), QStringLiteral("expr:") + expression.trimmed());
  Series& s = *series_.back();  // reloaded with its inputs
  s.inputs = inputs;
  s.plottable->setName(seriesName(s));
  load(s);
}

void PlotPanel::addStateLane(const QString& topic, const QString& path) {
  if (mode_ != Mode::States) setMode(Mode::States);
  addSeries(topic, path);
}

double PlotPanel::recordingEnd() const { return static_cast<double>(document_->endNs() - document_->startNs()) / 1e9; }

QStringList PlotPanel::laneSpans(int i) const {
  QStringList out;
  const Series& s = *series_.at(static_cast<std::size_t>(i));
  for (const auto& span : analysis::stateSpans(s.x, s.keys, recordingEnd()))
    out << QStringLiteral("%1-%2 %3").arg(number(span.begin), number(span.end), toQt(s.keys[span.first]));
  return out;
}

void PlotPanel::addSeries(const QString& topic, const QString& path, const QString& xPath, const QString& derive) {
  auto s = std::make_unique<Series>();
  s->topic = topic;
  s->path = path;
  s->xPath = mode_ == Mode::XY ? xPath : QString();
  s->derive = overTime(mode_) ? derive : QString();
  s->colour = seriesColour(nextColour_++);
  if (mode_ != Mode::XY) {
    auto* graph = plot_->addGraph();
    plot_->legend->removeItem(plot_->legend->itemWithPlottable(graph));  // one that shows its value
    plot_->legend->addItem(new ValueLegendItem(plot_->legend, graph));
    graph->setPen(QPen(s->colour, 1));  // 1 px lines take QPainter's fast path
    graph->setName(seriesName(*s));
    if (mode_ == Mode::Histogram) graph->setLineStyle(QCPGraph::lsStepLeft);
    if (mode_ == Mode::States) graph->removeFromLegend();  // a lane: named on the y axis, drawn as spans
    s->plottable = graph;
  } else {
    auto* curve = new QCPCurve(plot_->xAxis, plot_->yAxis);
    curve->setPen(QPen(s->colour, 1.2));
    curve->setName(QStringLiteral("%1 %2 / %3 %4").arg(topic, path, topic, xPath));
    s->plottable = curve;
  }
  hint_->hide();
  series_.push_back(std::move(s));
  if (timeAxis()) plot_->xAxis->setLabel(timeAxisLabel());
  if (overTime(mode_) && manyPerMessage(path)) setSeriesStyle(seriesCount() - 1, QStringLiteral("points"));
  load(*series_.back());
}

QString PlotPanel::seriesName(const Series& s) const {
  if (!s.label.isEmpty()) return s.label;
  if (!s.xPath.isEmpty())
    return QStringLiteral("%1 %2 / %3 %4").arg(s.topic, s.path, s.xTopic.isEmpty() ? s.topic : s.xTopic, s.xPath);
  QString field = QStringLiteral("%1 %2").arg(s.topic, s.path);
  if (isExpression(s.derive)) {  // "a - b  (a = /imu x, b = /odom y)"
    QStringList vars{QStringLiteral("a = ") + field};
    for (std::size_t k = 0; k < s.inputs.size(); ++k)
      vars
          << QStringLiteral("%1 = %2 %3").arg(QChar('b' + static_cast<char>(k)), s.inputs[k].first, s.inputs[k].second);
    return QStringLiteral("%1  (%2)").arg(expressionOf(s.derive), vars.join(QStringLiteral(", ")));
  }
  QString name = s.derive.isEmpty() ? field : tr("%1 of %2").arg(derivedLabel(s.derive), field);
  return s.stamp ? name + tr(" [header stamp]") : name;
}

void PlotPanel::setSeriesStampTime(int i, bool stamp) {
  Series& s = *series_.at(static_cast<std::size_t>(i));
  if (!overTime(mode_) || s.stamp == stamp) return;
  s.stamp = stamp;
  s.plottable->setName(seriesName(s));
  plot_->xAxis->setLabel(timeAxisLabel());
  s.x.clear();
  s.y.clear();
  s.loaded = false;
  load(s);
}

QMenu* PlotPanel::seriesMenu(int i) {
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  const Series& base = *series_.at(static_cast<std::size_t>(i));
  QCPAbstractPlottable* which = base.plottable;  // the index may change before an action runs
  auto index = [this, which] {
    for (std::size_t k = 0; k < series_.size(); ++k)
      if (series_[k]->plottable == which) return static_cast<int>(k);
    return -1;
  };
  menu->addAction(tr("Rename…"), this, [this, index] {
    int k = index();
    if (k < 0) return;
    bool ok = false;
    QString name = QInputDialog::getText(this, tr("Rename Series"), tr("Name:"), QLineEdit::Normal,
                                         seriesName(*series_[static_cast<std::size_t>(k)]), &ok);
    if (ok) renameSeries(k, name);
  });
  menu->addAction(tr("Colour…"), this, [this, index] {
    int k = index();
    if (k < 0) return;
    QColor c = QColorDialog::getColor(series_[static_cast<std::size_t>(k)]->colour, this, tr("Series Colour"));
    if (c.isValid()) setSeriesColour(k, c);
  });
  if (mode_ == Mode::Time) {
    QAction* right = menu->addAction(tr("Right Y Axis"));
    right->setCheckable(true);
    right->setChecked(base.rightAxis);
    connect(right, &QAction::toggled, this, [this, index](bool on) {
      if (int k = index(); k >= 0) setSeriesOnRightAxis(k, on);
    });
  }
  if (mode_ == Mode::Time && typeHasStamp(base.topic)) {
    QAction* stamp = menu->addAction(tr("Header Stamp as Time"));
    stamp->setCheckable(true);
    stamp->setChecked(base.stamp);
    stamp->setToolTip(tr("Place its samples at their header stamp instead of their log time"));
    connect(stamp, &QAction::toggled, this, [this, index](bool on) {
      if (int k = index(); k >= 0) setSeriesStampTime(k, on);
    });
  }
  QMenu* style = menu->addMenu(tr("Draw As"));
  for (auto [key, text] : {std::pair{"line", tr("Line")}, {"points", tr("Points")}, {"both", tr("Line and Points")}}) {
    QAction* a = style->addAction(text);
    a->setCheckable(true);
    a->setChecked(base.style == QLatin1String(key));
    QString k = QString::fromLatin1(key);
    connect(a, &QAction::triggered, this, [this, index, k] {
      if (int at = index(); at >= 0) setSeriesStyle(at, k);
    });
  }
  menu->addAction(tr("Remove"), this, [this, index] {
    if (int k = index(); k >= 0) removeSeries(k);
  });
  if (mode_ != Mode::Time || !base.derive.isEmpty()) return menu;  // derived from fields over time only
  QMenu* derived = menu->addMenu(tr("Derived Series"));
  QString topic = base.topic, path = base.path;
  for (const DerivedSeriesKind& kind : derivedSeriesKinds())
    for (const auto& entry : kind.menu)
      derived->addAction(tr(entry.text), this, [this, topic, path, &kind, entry] {
        QString derive = QString::fromLatin1(kind.id);
        if (entry.argument && *entry.argument) derive += QLatin1Char(':') + QString::fromUtf8(entry.argument);
        if (!entry.argument) {  // asks for its parameter
          const auto& p = *kind.parameter;
          bool ok = false;
          double value = QInputDialog::getDouble(this, tr(entry.text).remove(QStringLiteral("…")), tr(p.prompt),
                                                 p.value, p.min, p.max, p.decimals, &ok);
          if (!ok) return;
          derive += QLatin1Char(':') + QString::number(value, 'g', 12);
        }
        addDerivedSeries(topic, path, derive);
      });
  derived->addSeparator();
  derived->addAction(tr("Custom Expression…"), this, [this, index] {
    if (int k = index(); k >= 0) askExpression(k);
  });
  return menu;
}

void PlotPanel::askExpression(int i) {
  const Series& base = *series_.at(static_cast<std::size_t>(i));
  // a: this series; b, c, …: the plot's other field series, in legend order.
  std::vector<std::pair<QString, QString>> others;
  QStringList lines{QStringLiteral("a = %1 %2").arg(base.topic, base.path)};
  for (const auto& s : series_)
    if (s.get() != &base && s->derive.isEmpty() && s->xPath.isEmpty() && others.size() < 25) {
      others.emplace_back(s->topic, s->path);
      lines << QStringLiteral("%1 = %2 %3").arg(QChar('a' + static_cast<char>(others.size())), s->topic, s->path);
    }
  // Checked before it is added: one that does not parse stays in the dialog with the place
  // of its fault, instead of becoming a dead series.
  std::vector<std::string> names;
  for (std::size_t k = 0; k <= others.size(); ++k) names.emplace_back(1, static_cast<char>('a' + k));
  QDialog dialog(this);
  dialog.setObjectName(QStringLiteral("customExpression"));
  dialog.setWindowTitle(tr("Custom Expression"));
  auto* form = new QVBoxLayout(&dialog);
  form->addWidget(
      new QLabel(tr("%1\nt = time (s)\n\nExpression (e.g. sqrt(a^2 + b^2), a - b, abs(a) * 2, atan2(b, a)):")
                     .arg(lines.join(QLatin1Char('\n'))),
                 &dialog));
  auto* edit = new QLineEdit(QStringLiteral("a"), &dialog);
  auto* fault = new QLabel(&dialog);
  fault->setObjectName(QStringLiteral("expressionError"));
  fault->setWordWrap(true);
  fault->hide();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  form->addWidget(edit);
  form->addWidget(fault);
  form->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
    if (edit->text().trimmed().isEmpty()) return dialog.reject();
    std::vector<analysis::SeriesView> none(names.size());
    auto checked = analysis::evaluateExpression(edit->text().trimmed().toStdString(), names, none);
    if (checked) return dialog.accept();
    fault->setText(toQt(checked.error().describe()));
    fault->show();
  });
  if (dialog.exec() != QDialog::Accepted) return;
  const QString expression = edit->text().trimmed();
  // Only the variables it names are read (b … z, as whole words).
  std::vector<std::pair<QString, QString>> used;
  std::size_t last = 0;
  for (std::size_t k = 0; k < others.size(); ++k)
    if (expression.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(QChar('b' + static_cast<char>(k))))))
      last = k + 1;
  used.assign(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(last));
  addExpressionSeries(base.topic, base.path, expression, used);
}

void PlotPanel::renameSeries(int i, const QString& name) {
  Series& s = *series_.at(static_cast<std::size_t>(i));
  s.label = name.trimmed();
  s.plottable->setName(seriesName(s));
  updateReadout();
  updateStatistics();
  plot_->replot();
}

void PlotPanel::setSeriesColour(int i, const QColor& colour) {
  Series& s = *series_.at(static_cast<std::size_t>(i));
  s.colour = colour;
  QPen pen = s.plottable->pen();
  pen.setColor(colour);
  s.plottable->setPen(pen);
  plot_->replot();
}

void PlotPanel::setSeriesOnRightAxis(int i, bool right) {
  Series& s = *series_.at(static_cast<std::size_t>(i));
  if (mode_ != Mode::Time) return;
  s.rightAxis = right;
  s.plottable->setValueAxis(right ? plot_->yAxis2 : plot_->yAxis);
  bool any = std::any_of(series_.begin(), series_.end(), [](auto& p) { return p->rightAxis; });
  plot_->yAxis2->setVisible(any);
  redraw();
}

void PlotPanel::setSeriesStyle(int i, const QString& style) {
  Series& s = *series_.at(static_cast<std::size_t>(i));
  s.style = style == QLatin1String("points") || style == QLatin1String("both") ? style : QStringLiteral("line");
  bool points = s.style != QLatin1String("line"), line = s.style != QLatin1String("points");
  QCPScatterStyle scatter(points ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssNone, s.colour, 4);
  if (auto* g = qobject_cast<QCPGraph*>(s.plottable)) {
    g->setScatterStyle(scatter);
    g->setLineStyle(line ? QCPGraph::lsLine : QCPGraph::lsNone);
  } else if (auto* c = qobject_cast<QCPCurve*>(s.plottable)) {
    c->setScatterStyle(scatter);
    c->setLineStyle(line ? QCPCurve::lsLine : QCPCurve::lsNone);
  }
  plot_->replot();
}

void PlotPanel::setLegendOutside(bool outside) {
  if (outside == legendOutside_) return;
  legendOutside_ = outside;
  legendAction_->setChecked(outside);
  // Inside: an inset at the top right of the plot; outside: a column of its own on the right.
  if (outside) {
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(0, 1, plot_->legend);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
  } else {
    plot_->plotLayout()->take(plot_->legend);
    plot_->plotLayout()->simplify();
    plot_->axisRect()->insetLayout()->addElement(plot_->legend, Qt::AlignTop | Qt::AlignRight);
  }
  redraw();
  plot_->replot();
}

void PlotPanel::removeSeries(int i) {
  auto it = series_.begin() + i;
  plot_->removePlottable((*it)->plottable);
  series_.erase(it);  // cancels its loading job
  plot_->yAxis2->setVisible(std::any_of(series_.begin(), series_.end(), [](auto& p) { return p->rightAxis; }));
  if (series_.empty()) hint_->show();
  if (timeAxis()) plot_->xAxis->setLabel(timeAxisLabel());
  redraw();
}

void PlotPanel::setLogScale(bool log) {
  for (QCPAxis* axis : {plot_->yAxis, plot_->yAxis2}) {
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    axis->setTicker(log ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                        : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  }
  logAction_->setChecked(log);
  redraw();
}

void PlotPanel::setEqualAspect(bool equal) {
  equalAspect_ = equal;
  equalAction_->setChecked(equal);
  redraw();
}

bool PlotPanel::logScale() const { return plot_->yAxis->scaleType() == QCPAxis::stLogarithmic; }

void PlotPanel::clearSeries() {
  series_.clear();
  for (auto* item : laneItems_) plot_->removeItem(item);
  laneItems_.clear();
  plot_->clearPlottables();
  plot_->yAxis2->setVisible(false);
  marker_ = nullptr;
  nextColour_ = 0;
  progress_->hide();
  hint_->setText(emptyHint());  // not the problems of series that are gone
  hint_->show();
  axisTitles_ = {};
  plot_->yAxis->setLabel(QString());
  plot_->yAxis2->setLabel(QString());
  plot_->replot();
}

void PlotPanel::setTimeDisplay(TimeDisplay display) {
  ticker_->display = display;
  if (timeAxis()) plot_->xAxis->setLabel(timeAxisLabel());
  plot_->replot();
}

// The time axis says which time it shows: log times, header stamps, or both (marked).
QString PlotPanel::timeAxisLabel() const {
  QString label;
  switch (ticker_->display) {
    case TimeDisplay::Clock: label = tr("time of day"); break;
    case TimeDisplay::Unix: label = tr("Unix time (s)"); break;
    case TimeDisplay::Relative: label = tr("seconds from the start"); break;
  }
  std::size_t stamped = std::count_if(series_.begin(), series_.end(), [](auto& s) { return s->stamp; });
  if (stamped == 0) return label;
  return stamped == series_.size() ? tr("%1, by header stamp").arg(label)
                                   : tr("%1, by log time (by header stamp where marked)").arg(label);
}

bool PlotPanel::typeHasStamp(const QString& topic) const {
  const TopicInfo* t = document_->topicByName(topic);
  return t && hasHeaderStamp(*document_, static_cast<int>(t->id));
}

void PlotPanel::sessionChanged() {
  ticker_->originNs = document_->startNs();
  // The old recording's curves go at once, whether or not the new one has the topics.
  for (auto& s : series_) {
    s->x.clear();
    s->y.clear();
    s->keys.clear();
    s->loaded = false;
  }
  redraw();
  plot_->replot();
  for (auto& s : series_) load(*s);
  onLoaded();
}

void PlotPanel::load(Series& s) {
  s.job.reset();
  s.problem.clear();
  auto session = document_->session();
  const TopicInfo* topic = document_->topicByName(s.topic);
  const TopicInfo* xTopic = s.xTopic.isEmpty() ? topic : document_->topicByName(s.xTopic);
  SeriesQuery query{topic ? topic->id : 0,
                    s.xTopic.isEmpty() || !xTopic ? std::nullopt : std::optional(xTopic->id),
                    s.path.toStdString(),
                    s.xPath.toStdString(),
                    s.derive,
                    s.stamp,
                    document_->startNs(),
                    {}};
  QString missing = !topic ? s.topic : !xTopic ? s.xTopic : QString();
  for (const auto& [name, path] : s.inputs) {
    const TopicInfo* input = document_->topicByName(name);
    if (!input && missing.isEmpty()) missing = name;
    if (input) query.inputs.emplace_back(input->id, path.toStdString());
  }
  if (!session || !missing.isEmpty()) {
    s.problem = session ? tr("no topic %1 in this recording").arg(missing) : QString();
    s.loaded = true;
    return;
  }
  auto points = std::make_shared<Result<Points>>(makeError(ErrorCode::Cancelled, ""));
  auto keys = std::make_shared<std::vector<std::string>>();  // States: each sample's value
  const bool lane = mode_ == Mode::States;
  Series* target = &s;
  progress_->setValue(0);
  progress_->show();
  s.job = startSessionJob(
      session, mailbox_,
      [session, query, points, keys, lane](StopToken stop, const session::ProgressFn& progress) -> Result<void> {
        if (!lane) {
          *points = readPoints(*session, query, stop, progress);
          return {};
        }
        auto states = readStates(*session, query.topic, query.path, query.originNs, stop, progress);
        if (!states) {
          *points = std::move(states).error();
          return {};
        }
        *points = Points{states->t, std::vector<double>(states->t.size(), 0.0)};
        *keys = std::move(states->keys);
        return {};
      },
      [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); },
      [this, target, points, keys, session](const Result<void>&) {
        // The series may be gone (cleared) or the session replaced by now.
        auto it = std::find_if(series_.begin(), series_.end(), [target](auto& p) { return p.get() == target; });
        if (it == series_.end() || session != document_->session()) return;
        Series& done = **it;
        done.loaded = true;
        if (!*points) {
          if (points->error().code != ErrorCode::Cancelled) done.problem = toQt(points->error().describe());
        } else {
          done.x = std::move((*points)->first);
          done.y = std::move((*points)->second);
          done.keys = std::move(*keys);
        }
        onLoaded();
      });
}

void PlotPanel::onLoaded() {
  QStringList problems;
  bool all = true;
  for (auto& s : series_) {
    all &= s->loaded;
    if (!s->problem.isEmpty()) problems << s->problem;
  }
  if (!problems.isEmpty()) {
    hint_->setText(problems.join(QLatin1Char('\n')));
    hint_->show();
  } else if (!series_.empty()) {
    hint_->hide();
  }
  if (!all) return;
  progress_->hide();
  fitAll();
  emit loaded();
}

// Seconds from the start as the time display shows them (the toolbar's and the axis' mode).
QString PlotPanel::timeText(double seconds) const {
  qint64 ns = document_->startNs() + static_cast<qint64>(std::llround(seconds * 1e9));
  QString text = formatTime(ns, ticker_->display, document_->startNs(), 6);
  return ticker_->display == TimeDisplay::Clock ? text : text + QStringLiteral(" s");
}

QString PlotPanel::emptyHint() const {
  return tr("Drag a numeric field here from the message inspector, or use Add Series…");
}

QString PlotPanel::problemText() const {
  return hint_->isVisibleTo(this) && !series_.empty() ? hint_->text() : QString();
}

const std::vector<double>& PlotPanel::seriesX(int i) const { return series_.at(static_cast<std::size_t>(i))->x; }
const std::vector<double>& PlotPanel::seriesY(int i) const { return series_.at(static_cast<std::size_t>(i))->y; }
int PlotPanel::drawnPoints(int i) const { return series_.at(static_cast<std::size_t>(i))->drawn; }

void PlotPanel::setSeriesData(int i, std::vector<double> x, std::vector<double> y) {
  Series& s = *series_.at(static_cast<std::size_t>(i));
  s.job.reset();
  s.x = std::move(x);
  s.y = std::move(y);
  s.loaded = true;
  onLoaded();
}

void PlotPanel::fitAll() {
  if (mode_ == Mode::Spectrum || mode_ == Mode::Histogram) {
    redrawViews();
    plot_->rescaleAxes(true);
    plot_->xAxis->scaleRange(1.04);  // the first and last bins off the frame
    plot_->yAxis->setRangeUpper(plot_->yAxis->range().upper * 1.05);
    plot_->replot();
    return;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (auto& s : series_)
    if (!s->x.empty()) {
      auto [a, b] = s->xPath.isEmpty() ? std::pair{s->x.front(), s->x.back()}
                                       : std::pair{*std::min_element(s->x.begin(), s->x.end()),
                                                   *std::max_element(s->x.begin(), s->x.end())};
      lo = std::min(lo, a), hi = std::max(hi, b);
    }
  if (!std::isfinite(lo)) return;
  if (mode_ == Mode::States) hi = std::max(hi, recordingEnd());  // the last states hold to the end
  if (hi <= lo) hi = lo + 1;
  settingRange_ = true;
  plot_->xAxis->setRange(lo, hi);
  settingRange_ = false;
  redraw();
  if (timeAxis()) emit timeRangeChanged(lo, hi);
}

void PlotPanel::setXRange(double lower, double upper) {
  if (!timeAxis()) return;
  settingRange_ = true;
  plot_->xAxis->setRange(lower, upper);
  settingRange_ = false;
  redraw();
}

std::pair<double, double> PlotPanel::xRange() const {
  return {plot_->xAxis->range().lower, plot_->xAxis->range().upper};
}

void PlotPanel::redraw() {
  if (mode_ == Mode::Spectrum || mode_ == Mode::Histogram) {
    redrawViews();
    updateCursor();
    return;
  }
  if (mode_ == Mode::States) {
    redrawLanes();
    updateCursor();
    return;
  }
  QCPRange range = plot_->xAxis->range();
  int columns = std::max(1, plot_->axisRect()->width());
  // Each y axis follows its own series' visible data; a logarithmic one only positive values.
  struct Span {
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  } spans[2];
  const bool log = plot_->yAxis->scaleType() == QCPAxis::stLogarithmic;
  auto widen = [&](Span& span, double y) {
    if (std::isfinite(y) && (!log || y > 0)) span.lo = std::min(span.lo, y), span.hi = std::max(span.hi, y);
  };
  for (auto& s : series_) {
    if (s->xPath.isEmpty()) {
      auto points = decimateMinMax(s->x, s->y, range.lower, range.upper, columns);
      QVector<double> keys(static_cast<qsizetype>(points.size())), values(keys.size());
      for (std::size_t i = 0; i < points.size(); ++i) {
        keys[static_cast<qsizetype>(i)] = points[i].x;
        values[static_cast<qsizetype>(i)] = points[i].y;
        if (s->visible && points[i].x >= range.lower && points[i].x <= range.upper)
          widen(spans[s->rightAxis ? 1 : 0], points[i].y);
      }
      static_cast<QCPGraph*>(s->plottable)->setData(keys, values, true);
      s->drawn = static_cast<int>(points.size());
    } else {
      // XY: the whole path (it doubles back, so no per-column decimation), thinned evenly
      // beyond 200,000 points.
      std::size_t n = std::min(s->x.size(), s->y.size()), stride = std::max<std::size_t>(1, n / 200000);
      QVector<double> t, keys, values;
      for (std::size_t i = 0; i < n; i += stride) {
        t << static_cast<double>(i);
        keys << s->x[i];
        values << s->y[i];
        widen(spans[0], s->y[i]);
      }
      static_cast<QCPCurve*>(s->plottable)->setData(t, keys, values, true);
      s->drawn = static_cast<int>(keys.size());
    }
  }
  // The y axes follow the visible data (time mode) or all of it (XY).
  QCPAxis* axes[2] = {plot_->yAxis, plot_->yAxis2};
  for (int k = 0; k < 2; ++k) {
    const Span& span = spans[k];
    if (!std::isfinite(span.lo)) continue;
    if (log) axes[k]->setRange(span.lo / 1.2, span.hi * 1.2);
    else
      axes[k]->setRange(span.lo - (span.hi > span.lo ? 0.05 * (span.hi - span.lo) : 0.5),
                        span.hi + (span.hi > span.lo ? 0.05 * (span.hi - span.lo) : 0.5));
  }
  if (mode_ == Mode::XY && equalAspect_) plot_->yAxis->setScaleRatio(plot_->xAxis, 1.0);  // trajectories true to shape
  if (mode_ == Mode::Time) {  // each y axis titled by what it shows: fields, or derivations with their units
    QStringList titles[2];
    for (const auto& s : series_) {
      QString what = s->derive.isEmpty() ? s->path : derivedLabel(s->derive);  // an expression as it is
      if (!titles[s->rightAxis ? 1 : 0].contains(what)) titles[s->rightAxis ? 1 : 0] << what;
    }
    for (int k = 0; k < 2; ++k) axisTitles_[static_cast<std::size_t>(k)] = titles[k].join(QStringLiteral(", "));
  } else if (mode_ == Mode::XY) {  // each axis titled by its fields, as PlotJuggler's XY curves are
    QStringList xs, ys;
    for (const auto& s : series_) {
      QString x = (s->xTopic.isEmpty() || s->xTopic == s->topic ? QString() : s->xTopic + QLatin1Char(' ')) + s->xPath;
      QString y = (s->xTopic.isEmpty() || s->xTopic == s->topic ? QString() : s->topic + QLatin1Char(' ')) + s->path;
      if (!xs.contains(x)) xs << x;
      if (!ys.contains(y)) ys << y;
    }
    plot_->xAxis->setLabel(xs.join(QStringLiteral(", ")));
    plot_->yAxis->setLabel(ys.join(QStringLiteral(", ")));
  }
  updateStatistics();
  updateCursor();
}

// The spectrum or histogram of each series over the time range shown when the mode was chosen.
void PlotPanel::redrawViews() {
  for (auto& s : series_) {
    QVector<double> keys, values;
    if (mode_ == Mode::Spectrum) {
      auto sp = analysis::spectrum(s->x, s->y, timeRange_.first, timeRange_.second);
      keys = QVector<double>(sp.hz.begin(), sp.hz.end());
      values = QVector<double>(sp.amplitude.begin(), sp.amplitude.end());
    } else {
      auto h = analysis::histogram(s->x, s->y, timeRange_.first, timeRange_.second, 50);
      for (std::size_t b = 0; b < h.counts.size(); ++b) keys << h.edges[b], values << static_cast<double>(h.counts[b]);
      if (!h.counts.empty())
        keys << h.edges.back(), values << static_cast<double>(h.counts.back());  // the last step's end
    }
    static_cast<QCPGraph*>(s->plottable)->setData(keys, values, true);
    s->drawn = static_cast<int>(keys.size());
  }
  stats_->setText(tr("Over %1 s to %2 s of the time plot").arg(number(timeRange_.first), number(timeRange_.second)));
  stats_->setVisible(!series_.empty());
}

// Each series a lane (y = its index from the top): a coloured span per run of equal values,
// labelled where it is wide enough; runs narrower than a pixel merge into a grey span.
void PlotPanel::redrawLanes() {
  for (auto* item : laneItems_) plot_->removeItem(item);
  laneItems_.clear();
  QCPRange range = plot_->xAxis->range();
  const double pixel = range.size() / std::max(1, plot_->axisRect()->width());
  auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot_->yAxis->ticker());
  if (ticker) ticker->clear();
  const int n = seriesCount();
  plot_->yAxis->setRange(-0.5, std::max(1, n) - 0.5);
  plot_->yAxis->setRangeReversed(true);
  for (int lane = 0; lane < n; ++lane) {
    Series& s = *series_[static_cast<std::size_t>(lane)];
    if (ticker) ticker->addTick(lane, QFontMetrics(font()).elidedText(seriesName(s), Qt::ElideMiddle, 240));
    if (!s.visible) continue;
    std::map<std::string, int> colourOf;  // by first appearance in the lane
    for (const auto& k : s.keys) colourOf.emplace(k, static_cast<int>(colourOf.size()));
    auto spans = analysis::stateSpans(s.x, s.keys, recordingEnd());
    auto add = [&](double a, double b, const QColor& colour, const QString& label) {
      auto* rect = new QCPItemRect(plot_);
      rect->topLeft->setCoords(a, lane - 0.35);
      rect->bottomRight->setCoords(std::max(b, a + pixel), lane + 0.35);
      rect->setPen(QPen(colour.darker(130)));
      rect->setBrush(colour);
      rect->setSelectable(false);
      laneItems_.push_back(rect);
      if (label.isEmpty() || (b - a) / pixel < QFontMetrics(font()).horizontalAdvance(label) + 6) return;
      auto* text = new QCPItemText(plot_);
      text->position->setCoords((std::max(a, range.lower) + std::min(b, range.upper)) / 2, lane);
      text->setText(label);
      text->setColor(Qt::black);
      text->setSelectable(false);
      laneItems_.push_back(text);
    };
    double crowdFrom = 0, crowdTo = -1;  // a run of spans under a pixel wide
    for (const auto& span : spans) {
      if (span.end < range.lower || span.begin > range.upper) continue;
      if (laneItems_.size() > 4000) break;  // a lane that changes on every sample: the grey runs carry it
      if (span.end - span.begin < pixel) {
        if (crowdTo < crowdFrom) crowdFrom = span.begin;
        crowdTo = span.end;
        continue;
      }
      if (crowdTo >= crowdFrom) add(crowdFrom, crowdTo, QColor(170, 170, 170), QString()), crowdTo = crowdFrom - 1;
      QColor colour = seriesColour(colourOf[s.keys[span.first]]).lighter(150);
      add(span.begin, span.end, colour, toQt(s.keys[span.first]));
    }
    if (crowdTo >= crowdFrom) add(crowdFrom, crowdTo, QColor(170, 170, 170), QString());
  }
  stats_->hide();
}

void PlotPanel::updateCursor() {
  updateReadout();
  double t = static_cast<double>(document_->playheadNs() - document_->startNs()) / 1e9;
  cursor_->setVisible(timeAxis() && document_->session() && !series_.empty());
  plot_->legend->setVisible(!series_.empty() && mode_ != Mode::States);
  cursor_->point1->setCoords(t, 0);
  cursor_->point2->setCoords(t, 1);
  if (mode_ == Mode::XY) {
    // The point of each series at the playhead (its last message at or before it).
    if (!marker_) {
      marker_ = plot_->addGraph();
      marker_->setLineStyle(QCPGraph::lsNone);
      marker_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(220, 30, 30), 9));
      marker_->removeFromLegend();
    }
    QVector<double> kx, vy;
    auto session = document_->session();
    for (auto& s : series_) {
      const TopicInfo* topic = document_->topicByName(s->xTopic.isEmpty() ? s->topic : s->xTopic);
      if (!session || !topic || s->x.empty()) continue;
      auto row = session->atOrBefore(topic->id, document_->playheadNs());
      if (row && *row < s->x.size()) kx << s->x[*row], vy << s->y[*row];
    }
    marker_->setData(kx, vy);
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotPanel::showAddDialog() {
  if (!document_->session()) return;
  FieldDialog dialog(*document_,
                     mode_ == Mode::XY       ? FieldDialog::Purpose::XY
                     : mode_ == Mode::States ? FieldDialog::Purpose::States
                                             : FieldDialog::Purpose::Series,
                     this);
  if (int t = document_->currentTopic(); t >= 0)
    dialog.selectTopic(document_->topics()[static_cast<std::size_t>(t)].name);
  if (dialog.exec() != QDialog::Accepted) return;
  QStringList paths = dialog.paths();
  if (mode_ == Mode::XY) {
    if (!dialog.xTopic().isEmpty() && paths.size() == 1)
      addXYSeries(dialog.xTopic(), dialog.xField(), dialog.topic(), paths[0]);
    else if (dialog.xTopic().isEmpty() && paths.size() == 2) addSeries(dialog.topic(), paths[1], paths[0]);
    else
      QMessageBox::information(this, tr("Add XY Series"),
                               tr("Choose two fields, x then y, or an x field of another topic and one y field."));
    return;
  }
  for (const QString& p : paths) {
    if (mode_ == Mode::States) {
      addStateLane(dialog.topic(), p);
      continue;
    }
    if (!p.endsWith(FieldDialog::kRpySuffix)) {
      addSeries(dialog.topic(), p);
      continue;
    }
    for (const char* angle : {"roll", "pitch", "yaw"})
      addDerivedSeries(dialog.topic(), p.chopped(FieldDialog::kRpySuffix.size()), QString::fromLatin1(angle));
  }
}

void PlotPanel::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasFormat(QString::fromLatin1(kFieldMimeType))) event->acceptProposedAction();
}

void PlotPanel::dropEvent(QDropEvent* event) {
  QStringList parts =
      QString::fromUtf8(event->mimeData()->data(QString::fromLatin1(kFieldMimeType))).split(QLatin1Char('\n'));
  if (parts.size() != 2) return;
  event->acceptProposedAction();
  if (mode_ == Mode::XY) setMode(Mode::Time);  // a single field is a time series
  if (mode_ == Mode::States) addStateLane(parts[0], parts[1]);
  else addSeries(parts[0], parts[1]);
}

void PlotPanel::exportVisibleCsv(const QString& path) {
  // A copy of the points, written on a background thread (a plot may hold millions).
  // Time, XY and lanes: the samples; the spectrum and the histogram: what is drawn.
  std::vector<exporters::Series> series;
  const bool views = mode_ == Mode::Spectrum || mode_ == Mode::Histogram;
  for (const auto& s : series_) {
    QString name = s->derive.isEmpty() ? s->topic + QLatin1Char('/') + s->path : seriesName(*s);
    if (mode_ == Mode::XY) name += QLatin1String(" vs ") + s->xPath;
    exporters::Series one{name.toStdString(), s->x, s->y, mode_ == Mode::States ? s->keys : std::vector<std::string>{}};
    if (views) {
      one.x.clear(), one.y.clear();
      for (const auto& p : *static_cast<QCPGraph*>(s->plottable)->data())
        one.x.push_back(p.key), one.y.push_back(p.value);
    }
    series.push_back(std::move(one));
  }
  const bool time = timeAxis();
  QCPRange range = plot_->xAxis->range();
  double lo = time ? range.lower : -std::numeric_limits<double>::infinity();
  double hi = time ? range.upper : std::numeric_limits<double>::infinity();
  const char* names[][2] = {
      {"time_s", "value"}, {"x", "y"}, {"hz", "amplitude"}, {"bin_start", "samples"}, {"time_s", "state"}};
  const auto [xName, yName] = std::pair{names[static_cast<int>(mode_)][0], names[static_cast<int>(mode_)][1]};
  saveInBackground(this, path, [series = std::move(series), xName, yName, lo, hi, path] {
    return exporters::writeSeriesCsv(toPath(path), series, xName, yName, lo, hi, true);
  });
}

bool PlotPanel::saveImage(const QString& path, QString* error) const {
  QSaveFile file(path);
  bool ok = file.open(QIODevice::WriteOnly);
  if (ok && QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(plot_->size());
    svg.setViewBox(plot_->rect());
    QCPPainter painter(&svg);
    plot_->toPainter(&painter, plot_->width(), plot_->height());
    painter.end();
  } else if (ok) {
    ok = plot_->toPixmap(plot_->width(), plot_->height()).save(&file, "PNG");
  }
  ok = ok && file.commit();
  if (!ok && error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
  return ok;
}

QJsonObject PlotPanel::saveSettings() const {
  QJsonArray series;
  for (const auto& s : series_)
    series.append(QJsonObject{{QStringLiteral("topic"), s->topic},
                              {QStringLiteral("path"), s->path},
                              {QStringLiteral("xPath"), s->xPath},
                              {QStringLiteral("xTopic"), s->xTopic},
                              {QStringLiteral("derive"), s->derive},
                              {QStringLiteral("label"), s->label},
                              {QStringLiteral("colour"), s->colour.name()},
                              {QStringLiteral("rightAxis"), s->rightAxis},
                              {QStringLiteral("stamp"), s->stamp},
                              {QStringLiteral("style"), s->style},
                              {QStringLiteral("visible"), s->visible},
                              {QStringLiteral("inputs"), [&s] {
                                 QJsonArray inputs;
                                 for (const auto& [topic, path] : s->inputs) inputs.append(QJsonArray{topic, path});
                                 return inputs;
                               }()}});
  // The series of the other modes, as they come back when their mode is chosen.
  QJsonObject parked;
  for (std::size_t g = 0; g < parked_.size(); ++g) {
    if (parked_[g].empty()) continue;
    QJsonArray specs;
    for (const auto& spec : parked_[g]) {
      QJsonArray inputs;
      for (const auto& [topic, path] : spec.inputs) inputs.append(QJsonArray{topic, path});
      specs.append(QJsonObject{{QStringLiteral("topic"), spec.topic},
                               {QStringLiteral("path"), spec.path},
                               {QStringLiteral("xPath"), spec.xPath},
                               {QStringLiteral("xTopic"), spec.xTopic},
                               {QStringLiteral("derive"), spec.derive},
                               {QStringLiteral("inputs"), inputs}});
    }
    parked[QLatin1String(kSeriesGroupNames[g])] = specs;
  }
  return {{QStringLiteral("mode"), QLatin1String(kModeNames[static_cast<std::size_t>(mode_)])},
          {QStringLiteral("otherModes"), parked},
          {QStringLiteral("timeRange"), QJsonArray{timeRange_.first, timeRange_.second}},
          {QStringLiteral("logY"), logScale()},
          {QStringLiteral("equalAspect"), equalAspect_},
          {QStringLiteral("legendOutside"), legendOutside_},
          {QStringLiteral("series"), series}};
}

void PlotPanel::restoreSettings(const QJsonObject& settings) {
  QString mode = settings.value(QStringLiteral("mode")).toString();
  auto named =
      std::find_if(kModeNames.begin(), kModeNames.end(), [&](const char* m) { return mode == QLatin1String(m); });
  QJsonArray range = settings.value(QStringLiteral("timeRange")).toArray();
  if (range.size() == 2 && range[0].toDouble() < range[1].toDouble())
    timeRange_ = {range[0].toDouble(), range[1].toDouble()};
  setMode(named == kModeNames.end() ? Mode::Time : static_cast<Mode>(named - kModeNames.begin()));
  clearSeries();
  for (const auto& v : settings.value(QStringLiteral("series")).toArray()) {
    QJsonObject o = v.toObject();
    addSeries(o.value(QStringLiteral("topic")).toString(), o.value(QStringLiteral("path")).toString(),
              o.value(QStringLiteral("xPath")).toString(), o.value(QStringLiteral("derive")).toString());
    int k = seriesCount() - 1;
    Series& s = *series_.back();
    s.xTopic = o.value(QStringLiteral("xTopic")).toString();
    for (const auto& input : o.value(QStringLiteral("inputs")).toArray())
      s.inputs.emplace_back(input.toArray().at(0).toString(), input.toArray().at(1).toString());
    if (!s.xTopic.isEmpty() || !s.inputs.empty()) {  // read again with them
      s.plottable->setName(seriesName(s));
      load(s);
    }
    if (!o.value(QStringLiteral("label")).toString().isEmpty())
      renameSeries(k, o.value(QStringLiteral("label")).toString());
    if (QColor c(o.value(QStringLiteral("colour")).toString()); c.isValid()) setSeriesColour(k, c);
    if (o.value(QStringLiteral("rightAxis")).toBool()) setSeriesOnRightAxis(k, true);
    if (o.value(QStringLiteral("stamp")).toBool()) setSeriesStampTime(k, true);
    if (o.contains(QStringLiteral("style"))) setSeriesStyle(k, o.value(QStringLiteral("style")).toString());
    if (!o.value(QStringLiteral("visible")).toBool(true)) {
      series_.back()->visible = false;
      series_.back()->plottable->setVisible(false);
    }
  }
  QJsonObject parked = settings.value(QStringLiteral("otherModes")).toObject();
  for (std::size_t g = 0; g < parked_.size(); ++g) {
    if (static_cast<int>(g) == seriesGroup(mode_)) continue;
    parked_[g].clear();
    for (const auto& v : parked.value(QLatin1String(kSeriesGroupNames[g])).toArray()) {
      QJsonObject o = v.toObject();
      SeriesSpec spec{o.value(QStringLiteral("topic")).toString(),  o.value(QStringLiteral("path")).toString(),
                      o.value(QStringLiteral("xPath")).toString(),  o.value(QStringLiteral("derive")).toString(),
                      o.value(QStringLiteral("xTopic")).toString(), {}};
      for (const auto& input : o.value(QStringLiteral("inputs")).toArray())
        spec.inputs.emplace_back(input.toArray().at(0).toString(), input.toArray().at(1).toString());
      if (!spec.topic.isEmpty()) parked_[g].push_back(std::move(spec));
    }
  }
  setLogScale(settings.value(QStringLiteral("logY")).toBool());
  setEqualAspect(settings.value(QStringLiteral("equalAspect")).toBool());
  setLegendOutside(settings.value(QStringLiteral("legendOutside")).toBool());
}

}  // namespace bagscope::widgets
