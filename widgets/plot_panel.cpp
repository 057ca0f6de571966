#include "plot_panel.hpp"

#include <QColorDialog>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>
#include <limits>
#include <optional>

#include "background.hpp"
#include "core/analysis/derive.hpp"
#include "core/decode/decoder.hpp"
#include "core/export/export.hpp"
#include "decimate.hpp"
#include "document.hpp"
#include "mailbox.hpp"
#include "qt_text.hpp"
#include "save_in_background.hpp"

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

bool numeric(schema::Primitive p) { return p != schema::Primitive::String && p != schema::Primitive::Message; }

bool isAngle(const QString& derive) {
  return derive == QLatin1String("roll") || derive == QLatin1String("pitch") || derive == QLatin1String("yaw");
}

// "average:10" (samples) or "average:0.5s" (seconds) as a window.
analysis::Window windowOf(const QString& derive) {
  QString arg = derive.section(QLatin1Char(':'), 1);
  if (arg.endsWith(QLatin1Char('s'))) return {0, arg.chopped(1).toDouble()};
  return {static_cast<std::size_t>(std::max(1, arg.toInt())), 0};
}

// How a derived series is named in the legend and the CSV.
QString derivedLabel(const QString& derive) {
  QString kind = derive.section(QLatin1Char(':'), 0, 0);
  QString arg = derive.section(QLatin1Char(':'), 1);
  if (kind == QLatin1String("average")) return PlotPanel::tr("moving average (%1)").arg(arg);
  if (kind == QLatin1String("median")) return PlotPanel::tr("moving median (%1)").arg(arg);
  if (kind == QLatin1String("abs")) return PlotPanel::tr("absolute value");
  if (kind == QLatin1String("roll")) return PlotPanel::tr("roll (rad)");
  if (kind == QLatin1String("pitch")) return PlotPanel::tr("pitch (rad)");
  if (kind == QLatin1String("yaw")) return PlotPanel::tr("yaw (rad)");
  if (kind == QLatin1String("derivative")) return PlotPanel::tr("derivative (per s)");
  if (kind == QLatin1String("integral")) return PlotPanel::tr("integral (× s)");
  return PlotPanel::tr("difference");
}

// The values of a derived series from its columns (a quaternion's x, y, z, w, or one field)
// at times `t` (seconds).
std::vector<double> derivedValues(const QString& derive, const std::vector<double>& t,
                                  std::vector<std::vector<double>>& columns) {
  if (isAngle(derive)) {
    int k = derive == QLatin1String("roll") ? 0 : derive == QLatin1String("pitch") ? 1 : 2;
    std::vector<double> out(t.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = analysis::rollPitchYaw(columns[0][i], columns[1][i], columns[2][i], columns[3][i])[k];
    return out;
  }
  const auto& v = columns[0];
  QString kind = derive.section(QLatin1Char(':'), 0, 0);
  if (kind == QLatin1String("derivative")) return analysis::derivative(t, v);
  if (kind == QLatin1String("integral")) return analysis::integral(t, v);
  if (kind == QLatin1String("average")) return analysis::movingAverage(t, v, windowOf(derive));
  if (kind == QLatin1String("median")) return analysis::movingMedian(t, v, windowOf(derive));
  if (kind == QLatin1String("abs")) return analysis::absolute(v);
  return analysis::difference(v);
}

// What a series reads: a field of a topic over time (or derived from fields), or against an x
// field of the same topic or, aligned by log time, of another.
struct SeriesQuery {
  session::TopicId topic;
  std::optional<session::TopicId> xTopic;  // XY across topics
  std::string path, xPath;
  QString derive;
  bool stamp;  // time from header.stamp
  qint64 originNs;
};
using Points = std::pair<std::vector<double>, std::vector<double>>;  // x, y

// A series' points, on a worker: extraction and any derivation or alignment off the GUI thread.
Result<Points> readPoints(const session::Session& session, const SeriesQuery& q, std::stop_token stop,
                          const session::ProgressFn& progress) {
  constexpr auto lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  // Seconds from the start, subtracted in integers: doubles near 1.7e18 ns are 256 ns apart.
  auto seconds = [&q](const std::vector<std::int64_t>& ns) {
    std::vector<double> out(ns.size());
    for (std::size_t i = 0; i < ns.size(); ++i) out[i] = static_cast<double>(ns[i] - q.originNs) / 1e9;
    return out;
  };
  if (q.xTopic) {  // y interpolated at the log times of x's messages; nothing extrapolated
    auto x = session.extractFields(*q.xTopic, {q.xPath}, lo, hi, stop, {});
    if (!x) return std::move(x).error();
    auto y = session.extractFields(q.topic, {q.path}, lo, hi, stop, progress);
    if (!y) return std::move(y).error();
    return Points{std::move(x->values[0]),
                  analysis::valuesAt(seconds(y->logTimeNs), y->values[0], seconds(x->logTimeNs))};
  }
  std::vector<std::string> paths{q.path};
  if (isAngle(q.derive)) paths = {q.path + ".x", q.path + ".y", q.path + ".z", q.path + ".w"};
  if (!q.xPath.empty()) paths.insert(paths.begin(), q.xPath);
  if (q.stamp) paths.push_back("header.stamp");  // last: derived series read the columns before it
  auto columns = session.extractFields(q.topic, paths, lo, hi, stop, progress);
  if (!columns) return std::move(columns).error();
  auto& values = columns->values;
  if (!q.xPath.empty()) return Points{std::move(values[0]), std::move(values[1])};
  std::vector<double> t = seconds(columns->logTimeNs);
  if (q.stamp) {  // header stamps in seconds (a double holds them to about 0.2 µs)
    const auto& stamps = values.back();
    double whole = std::floor(static_cast<double>(q.originNs) / 1e9);
    double part = static_cast<double>(q.originNs - static_cast<qint64>(whole) * 1'000'000'000) / 1e9;
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = (stamps[i] - whole) - part;
  }
  auto y = q.derive.isEmpty() ? std::move(values[0]) : derivedValues(q.derive, t, values);
  return Points{std::move(t), std::move(y)};
}

// A message type of float x, y, z and w: an orientation.
bool isQuaternion(const schema::MessageType& type) {
  if (type.fields.size() != 4) return false;
  for (std::size_t i = 0; i < 4; ++i)
    if (type.fields[i].name != std::string(1, "xyzw"[i]) || type.fields[i].array != schema::ArrayKind::None ||
        (type.fields[i].type != schema::Primitive::Float64 && type.fields[i].type != schema::Primitive::Float32))
      return false;
  return true;
}

void collectQuaternions(const schema::MessageType& type, const QString& prefix, int depth, QStringList& out) {
  if (depth > 8) return;
  for (const auto& f : type.fields) {
    if (!f.message) continue;
    QString path = prefix + QString::fromStdString(f.name);
    if (f.array != schema::ArrayKind::None) path += QStringLiteral("[0]");
    if (isQuaternion(*f.message)) out << path;
    else collectQuaternions(*f.message, path + QLatin1Char('.'), depth + 1, out);
  }
}

const QString kRpySuffix = QStringLiteral("  → roll, pitch, yaw");

void collectPaths(const schema::MessageType& type, const QString& prefix, int depth, QStringList& out) {
  if (depth > 8) return;
  for (const auto& f : type.fields) {
    QString path = prefix + QString::fromStdString(f.name);
    if (f.array == schema::ArrayKind::None) {
      if (f.message) collectPaths(*f.message, path + QLatin1Char('.'), depth + 1, out);
      else if (numeric(f.type)) out << path;
      continue;
    }
    // Fixed arrays by index (covariances …); variable ones by their first element.
    int n = f.array == schema::ArrayKind::Fixed ? static_cast<int>(std::min<std::uint32_t>(f.arrayLength, 36)) : 1;
    for (int i = 0; i < n; ++i) {
      QString item = QStringLiteral("%1[%2]").arg(path).arg(i);
      if (f.message) collectPaths(*f.message, item + QLatin1Char('.'), depth + 1, out);
      else if (numeric(f.type) && !(f.isByteArray() && f.array != schema::ArrayKind::Fixed)) out << item;
    }
  }
}

// Chooses a topic and one or two fields (XY: x then y).
class FieldDialog : public QDialog {
public:
  FieldDialog(const Document& document, bool xy, QWidget* parent) : QDialog(parent), document_(document), xy_(xy) {
    setWindowTitle(xy ? PlotPanel::tr("Add XY Series") : PlotPanel::tr("Add Series"));
    resize(460, 480);
    for (const auto& t : document.topics())
      if (t.decodeProblem.isEmpty()) topic_->addItem(t.name, static_cast<uint>(t.id));
    filter_->setPlaceholderText(PlotPanel::tr("Filter fields"));
    filter_->setClearButtonEnabled(true);
    list_->setSelectionMode(xy ? QAbstractItemView::MultiSelection : QAbstractItemView::ExtendedSelection);
    path_->setPlaceholderText(PlotPanel::tr("or type a path, e.g. ranges[100]"));
    auto* form = new QFormLayout;
    form->addRow(PlotPanel::tr("Topic:"), topic_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    auto* fieldsLabel =
        new QLabel(xy ? PlotPanel::tr("Choose two fields: x first, then y.") : PlotPanel::tr("Fields:"), this);
    layout->addWidget(fieldsLabel);
    layout->addWidget(filter_);
    layout->addWidget(list_, 1);
    layout->addWidget(path_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(topic_, &QComboBox::currentIndexChanged, this, &FieldDialog::fill);
    if (xy) {  // x from another topic, aligned by time
      xTopic_->addItem(PlotPanel::tr("(the same topic)"));
      for (const auto& t : document.topics())
        if (t.decodeProblem.isEmpty()) xTopic_->addItem(t.name, static_cast<uint>(t.id));
      form->addRow(PlotPanel::tr("X from topic:"), xTopic_);
      form->addRow(PlotPanel::tr("X field:"), xField_);
      xField_->setEnabled(false);
      connect(xTopic_, &QComboBox::currentIndexChanged, this, [this, fieldsLabel](int i) {
        fieldsLabel->setText(i > 0 ? PlotPanel::tr("Choose the y field.")
                                   : PlotPanel::tr("Choose two fields: x first, then y."));
        xField_->clear();
        xField_->setEnabled(i > 0);
        if (i > 0) xField_->addItems(numericFieldPaths(document_, static_cast<int>(xTopic_->currentData().toUInt())));
      });
    }
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
      for (int i = 0; i < list_->count(); ++i)
        list_->item(i)->setHidden(!list_->item(i)->text().contains(text, Qt::CaseInsensitive));
    });
    fill();
  }
  void selectTopic(const QString& name) { topic_->setCurrentIndex(std::max(0, topic_->findText(name))); }
  QString topic() const { return topic_->currentText(); }
  /// XY: the x field's topic and field when they come from another topic, else empty.
  QString xTopic() const { return xTopic_->currentIndex() > 0 ? xTopic_->currentText() : QString(); }
  QString xField() const { return xField_->currentText(); }
  QStringList paths() const {
    QStringList out;
    for (auto* item : list_->selectedItems()) out << item->text();
    if (!path_->text().trimmed().isEmpty()) out << path_->text().trimmed();
    return out;
  }

private:
  void fill() {
    list_->clear();
    if (topic_->currentIndex() < 0) return;
    int topic = static_cast<int>(topic_->currentData().toUInt());
    if (!xy_)  // orientations as roll, pitch and yaw, then the fields
      for (const QString& q : quaternionPaths(document_, topic)) list_->addItem(q + kRpySuffix);
    list_->addItems(numericFieldPaths(document_, topic));
  }
  const Document& document_;
  bool xy_;
  QComboBox* topic_ = new QComboBox(this);
  QLineEdit* filter_ = new QLineEdit(this);
  QListWidget* list_ = new QListWidget(this);
  QLineEdit* path_ = new QLineEdit(this);
  QComboBox* xTopic_ = new QComboBox(this);
  QComboBox* xField_ = new QComboBox(this);
};

// The decoded message type of a topic (its first connection's), when there is one.
std::shared_ptr<const decode::Decoder> topicDecoder(const Document& document, int topic) {
  const session::Session* s = document.session();
  if (!s || topic < 0 || static_cast<std::size_t>(topic) >= s->topics().size()) return nullptr;
  const auto& members = s->topics()[static_cast<std::size_t>(topic)].members;
  if (members.empty()) return nullptr;
  auto decoder = s->decoder(*members.front().connection);
  return decoder ? *decoder : nullptr;
}

}  // namespace

QStringList quaternionPaths(const Document& document, int topic) {
  QStringList out;
  if (auto d = topicDecoder(document, topic)) collectQuaternions(*d->schema().root, {}, 0, out);
  return out;
}

QStringList numericFieldPaths(const Document& document, int topic) {
  QStringList out;
  if (auto d = topicDecoder(document, topic)) collectPaths(*d->schema().root, {}, 0, out);
  return out;
}

struct PlotPanel::Series {
  QString topic, path, xPath;              // xPath: XY mode
  QString xTopic;                          // XY: the x field's topic, when it is not `topic`
  QString derive;                          // a derived series (addDerivedSeries), else empty
  QString label;                           // the user's name for it, else empty
  bool rightAxis = false;                  // drawn against the right y axis
  bool stamp = false;                      // x from the message's header.stamp, not its log time
  QString style = QStringLiteral("line");  // "line", "points" or "both"
  QColor colour;
  bool visible = true;
  std::vector<double> x, y;
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
  modeBox_->setToolTip(tr("Fields over time, or one field against another"));
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
  hint_->setText(tr("Drag a numeric field here from the message inspector, or use Add Series…"));
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
  connect(modeBox_, &QComboBox::currentIndexChanged, this, [this](int i) { setMode(i == 0 ? Mode::Time : Mode::XY); });
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
    if (settingRange_) return;
    redraw();
    if (mode_ == Mode::Time) emit xRangeChanged(r.lower, r.upper);
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
    if (mode_ != Mode::Time || e->button() != Qt::LeftButton || (e->pos() - *pressAt).manhattanLength() > 3) return;
    if (!plot_->axisRect()->rect().contains(e->pos())) return;
    // The legend lies over the plot: a click on it is for the legend (toggling a series).
    if (plot_->legend->visible() && plot_->legend->selectTest(e->pos(), false) >= 0) return;
    double seconds = plot_->xAxis->pixelToCoord(e->pos().x());
    document_->setPlayhead(document_->startNs() + static_cast<qint64>(std::llround(seconds * 1e9)));
  });
  connect(document_, &Document::playheadChanged, this, &PlotPanel::updateCursor);
  // The readout: every visible series' value at the pointer (at the playhead when the pointer
  // is elsewhere).
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    bool over = mode_ == Mode::Time && plot_->axisRect()->rect().contains(e->pos());
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

void PlotPanel::updateReadout() {
  QStringList values;
  double at = hoverX_.value_or(static_cast<double>(document_->playheadNs() - document_->startNs()) / 1e9);
  for (const auto& s : series_) {
    if (!s->visible || s->x.empty() || !s->xPath.isEmpty()) continue;
    std::size_t i = analysis::nearestSample(s->x, at);
    values << QStringLiteral("%1 = %2 (%3 s)").arg(seriesName(*s), number(s->y[i]), number(s->x[i]));
  }
  readout_->setVisible(mode_ == Mode::Time && !values.isEmpty());
  if (values.isEmpty()) return;
  QString where = hoverX_ ? tr("At %1 s:").arg(number(at)) : tr("At the playhead (%1 s):").arg(number(at));
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
  auto& leaving = parked_[mode_ == Mode::Time ? 0 : 1];
  leaving.clear();
  for (const auto& s : series_) leaving.push_back({s->topic, s->path, s->xPath, s->derive, s->xTopic});
  mode_ = mode;
  {
    QSignalBlocker block(modeBox_);
    modeBox_->setCurrentIndex(mode == Mode::Time ? 0 : 1);
  }
  clearSeries();
  plot_->xAxis->setLabel(mode == Mode::Time ? timeAxisLabel() : QString());
  if (mode == Mode::Time) plot_->xAxis->setTicker(ticker_);
  else plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));  // a field's values
  plot_->axisRect()->setRangeZoom(mode == Mode::Time ? Qt::Horizontal : Qt::Horizontal | Qt::Vertical);
  auto returning = std::move(parked_[mode == Mode::Time ? 0 : 1]);
  parked_[mode == Mode::Time ? 0 : 1].clear();
  for (const auto& spec : returning) {
    if (spec.xTopic.isEmpty()) addSeries(spec.topic, spec.path, spec.xPath, spec.derive);
    else addXYSeries(spec.xTopic, spec.xPath, spec.topic, spec.path);
  }
  updateCursor();  // no time playhead line in XY
}

void PlotPanel::addSeries(const QString& topic, const QString& path, const QString& xPath) {
  addSeries(topic, path, xPath, QString());
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
  if (mode_ == Mode::XY) setMode(Mode::Time);  // derived series are series over time
  addSeries(topic, path, QString(), derive);
}

void PlotPanel::addSeries(const QString& topic, const QString& path, const QString& xPath, const QString& derive) {
  auto s = std::make_unique<Series>();
  s->topic = topic;
  s->path = path;
  s->xPath = mode_ == Mode::XY ? xPath : QString();
  s->derive = mode_ == Mode::Time ? derive : QString();
  s->colour = seriesColour(nextColour_++);
  if (mode_ == Mode::Time) {
    auto* graph = plot_->addGraph();
    graph->setPen(QPen(s->colour, 1));  // 1 px lines take QPainter's fast path
    graph->setName(seriesName(*s));
    s->plottable = graph;
  } else {
    auto* curve = new QCPCurve(plot_->xAxis, plot_->yAxis);
    curve->setPen(QPen(s->colour, 1.2));
    curve->setName(QStringLiteral("%1 %2 / %3 %4").arg(topic, path, topic, xPath));
    s->plottable = curve;
  }
  hint_->hide();
  series_.push_back(std::move(s));
  if (mode_ == Mode::Time) plot_->xAxis->setLabel(timeAxisLabel());
  load(*series_.back());
}

QString PlotPanel::seriesName(const Series& s) const {
  if (!s.label.isEmpty()) return s.label;
  if (!s.xPath.isEmpty())
    return QStringLiteral("%1 %2 / %3 %4").arg(s.topic, s.path, s.xTopic.isEmpty() ? s.topic : s.xTopic, s.xPath);
  QString field = QStringLiteral("%1 %2").arg(s.topic, s.path);
  QString name = s.derive.isEmpty() ? field : tr("%1 of %2").arg(derivedLabel(s.derive), field);
  return s.stamp ? name + tr(" [header stamp]") : name;
}

void PlotPanel::setSeriesStampTime(int i, bool stamp) {
  Series& s = *series_.at(static_cast<std::size_t>(i));
  if (mode_ != Mode::Time || s.stamp == stamp) return;
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
  auto add = [this, derived, topic, path](const QString& text, const QString& derive) {
    derived->addAction(text, this, [this, topic, path, derive] { addDerivedSeries(topic, path, derive); });
  };
  add(tr("Derivative"), QStringLiteral("derivative"));
  add(tr("Integral"), QStringLiteral("integral"));
  add(tr("Moving Average (10 samples)"), QStringLiteral("average:10"));
  add(tr("Moving Average (1 s)"), QStringLiteral("average:1s"));
  add(tr("Moving Median (10 samples)"), QStringLiteral("median:10"));
  add(tr("Absolute Value"), QStringLiteral("abs"));
  add(tr("Difference of Consecutive Samples"), QStringLiteral("difference"));
  return menu;
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
  if (mode_ == Mode::Time) plot_->xAxis->setLabel(timeAxisLabel());
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
  plot_->clearPlottables();
  plot_->yAxis2->setVisible(false);
  marker_ = nullptr;
  nextColour_ = 0;
  progress_->hide();
  hint_->show();
  plot_->replot();
}

void PlotPanel::setTimeDisplay(TimeDisplay display) {
  ticker_->display = display;
  if (mode_ == Mode::Time) plot_->xAxis->setLabel(timeAxisLabel());
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
  return t && numericFieldPaths(*document_, static_cast<int>(t->id)).contains(QStringLiteral("header.stamp"));
}

void PlotPanel::sessionChanged() {
  ticker_->originNs = document_->startNs();
  // The old recording's curves go at once, whether or not the new one has the topics.
  for (auto& s : series_) {
    s->x.clear();
    s->y.clear();
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
  const session::Session* session = document_->session();
  const TopicInfo* topic = document_->topicByName(s.topic);
  const TopicInfo* xTopic = s.xTopic.isEmpty() ? topic : document_->topicByName(s.xTopic);
  if (!session || !topic || !xTopic) {
    s.problem = session ? tr("no topic %1 in this recording").arg(topic ? s.xTopic : s.topic) : QString();
    s.loaded = true;
    return;
  }
  SeriesQuery query{topic->id,
                    s.xTopic.isEmpty() ? std::nullopt : std::optional(xTopic->id),
                    s.path.toStdString(),
                    s.xPath.toStdString(),
                    s.derive,
                    s.stamp,
                    document_->startNs()};
  auto points = std::make_shared<Result<Points>>(makeError(ErrorCode::Cancelled, ""));
  Series* target = &s;
  progress_->setValue(0);
  progress_->show();
  s.job = startSessionJob(
      *session, mailbox_,
      [session, query, points](std::stop_token stop, const session::ProgressFn& progress) -> Result<void> {
        *points = readPoints(*session, query, stop, progress);
        return {};
      },
      [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); },
      [this, target, points, session](const Result<void>&) {
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
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (auto& s : series_)
    if (!s->x.empty()) {
      auto [a, b] = s->xPath.isEmpty() ? std::pair{s->x.front(), s->x.back()}
                                       : std::pair{*std::min_element(s->x.begin(), s->x.end()),
                                                   *std::max_element(s->x.begin(), s->x.end())};
      lo = std::min(lo, a), hi = std::max(hi, b);
    }
  if (!std::isfinite(lo)) return;
  if (hi <= lo) hi = lo + 1;
  settingRange_ = true;
  plot_->xAxis->setRange(lo, hi);
  settingRange_ = false;
  redraw();
  if (mode_ == Mode::Time) emit xRangeChanged(lo, hi);
}

void PlotPanel::setXRange(double lower, double upper) {
  if (mode_ != Mode::Time) return;
  settingRange_ = true;
  plot_->xAxis->setRange(lower, upper);
  settingRange_ = false;
  redraw();
}

std::pair<double, double> PlotPanel::xRange() const {
  return {plot_->xAxis->range().lower, plot_->xAxis->range().upper};
}

void PlotPanel::redraw() {
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
  updateStatistics();
  updateCursor();
}

void PlotPanel::updateCursor() {
  updateReadout();
  double t = static_cast<double>(document_->playheadNs() - document_->startNs()) / 1e9;
  cursor_->setVisible(mode_ == Mode::Time && document_->session() && !series_.empty());
  plot_->legend->setVisible(!series_.empty());
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
    const session::Session* session = document_->session();
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
  FieldDialog dialog(*document_, mode_ == Mode::XY, this);
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
    if (!p.endsWith(kRpySuffix)) {
      addSeries(dialog.topic(), p);
      continue;
    }
    for (const char* angle : {"roll", "pitch", "yaw"})
      addDerivedSeries(dialog.topic(), p.chopped(kRpySuffix.size()), QString::fromLatin1(angle));
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
  addSeries(parts[0], parts[1]);
}

void PlotPanel::exportVisibleCsv(const QString& path) {
  // A copy of the points, written on a background thread (a plot may hold millions).
  std::vector<exporters::Series> series;
  for (const auto& s : series_) {
    QString name = s->derive.isEmpty() ? s->topic + QLatin1Char('/') + s->path : seriesName(*s);
    if (mode_ == Mode::XY) name += QLatin1String(" vs ") + s->xPath;
    series.push_back({name.toStdString(), s->x, s->y});
  }
  const bool time = mode_ == Mode::Time;
  QCPRange range = plot_->xAxis->range();
  double lo = time ? range.lower : -std::numeric_limits<double>::infinity();
  double hi = time ? range.upper : std::numeric_limits<double>::infinity();
  saveInBackground(this, path, [series = std::move(series), time, lo, hi, path] {
    return exporters::writeSeriesCsv(toPath(path), series, time ? "time_s" : "x", time ? "value" : "y", lo, hi, true);
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
                              {QStringLiteral("visible"), s->visible}});
  return {{QStringLiteral("mode"), mode_ == Mode::Time ? QStringLiteral("time") : QStringLiteral("xy")},
          {QStringLiteral("logY"), logScale()},
          {QStringLiteral("equalAspect"), equalAspect_},
          {QStringLiteral("legendOutside"), legendOutside_},
          {QStringLiteral("series"), series}};
}

void PlotPanel::restoreSettings(const QJsonObject& settings) {
  setMode(settings.value(QStringLiteral("mode")).toString() == QLatin1String("xy") ? Mode::XY : Mode::Time);
  clearSeries();
  for (const auto& v : settings.value(QStringLiteral("series")).toArray()) {
    QJsonObject o = v.toObject();
    addSeries(o.value(QStringLiteral("topic")).toString(), o.value(QStringLiteral("path")).toString(),
              o.value(QStringLiteral("xPath")).toString(), o.value(QStringLiteral("derive")).toString());
    int k = seriesCount() - 1;
    if (QString xTopic = o.value(QStringLiteral("xTopic")).toString(); !xTopic.isEmpty()) {
      series_.back()->xTopic = xTopic;
      series_.back()->plottable->setName(seriesName(*series_.back()));
      load(*series_.back());
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
  setLogScale(settings.value(QStringLiteral("logY")).toBool());
  setEqualAspect(settings.value(QStringLiteral("equalAspect")).toBool());
  setLegendOutside(settings.value(QStringLiteral("legendOutside")).toBool());
}

}  // namespace bagscope::widgets
