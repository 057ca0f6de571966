// The plot panel: its widgets, series and their loading, and the choice of its mode (the
// modes in plot_modes.cpp; the rest in plot_drawing, plot_menus and plot_layout.cpp).

#include "widgets/panels/plot/plot_panel_parts.hpp"

namespace bagscope::widgets {

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
      stats_(new QLabel(this)),
      mode_(makeMode(Mode::Time, *this)) {
  setAcceptDrops(true);
  for (Mode m : {Mode::Time, Mode::XY, Mode::Spectrum, Mode::Histogram, Mode::States}) modeBox_->addItem(modeLabel(m));
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
  connect(document_, &Document::comparisonChanged, this, &PlotPanel::comparisonChanged);
  // Time mode's y axis titles, cut to the plot's height as it is when drawn.
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] { elideAxisTitles(plot_->axisRect()->height()); });
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

QString PlotPanel::readoutText() const { return readout_->isVisibleTo(this) ? readout_->text() : QString(); }
QString PlotPanel::statisticsText() const { return stats_->isVisibleTo(this) ? stats_->text() : QString(); }

PlotPanel::~PlotPanel() {
  mailbox_->close();
  series_.clear();  // cancels and waits for loading jobs
}

PlotPanel::Mode PlotPanel::mode() const { return mode_->id(); }
bool PlotPanel::sharesTimeRange() const { return mode_->valuesOverTime(); }
bool PlotPanel::timeAxis() const { return mode_->timeAxis(); }
bool PlotPanel::overTime() const { return mode_->group() == PlotMode::Group::OverTime; }

// Each group of modes keeps its own series: those of the mode left are set aside and come
// back (loaded again) when a mode of its group is chosen again.
void PlotPanel::setMode(Mode mode) {
  if (mode == this->mode()) return;
  mode_->leave();
  std::unique_ptr<PlotMode> next = makeMode(mode, *this);
  const bool sameSeries = next->group() == mode_->group();
  if (!sameSeries) {
    auto& leaving = parked_[static_cast<std::size_t>(mode_->group())];
    leaving.clear();
    for (const auto& s : series_)
      leaving.push_back({s->topic, s->path, s->xPath, s->derive, s->xTopic, s->inputs, s->run});
  }
  mode_ = std::move(next);
  {
    QSignalBlocker block(modeBox_);
    modeBox_->setCurrentIndex(static_cast<int>(mode));
  }
  if (!sameSeries) clearSeries();
  for (auto* item : laneItems_) plot_->removeItem(item);
  laneItems_.clear();
  plot_->xAxis->setLabel(mode_->xLabel());
  plot_->yAxis->setLabel(mode_->yLabel());
  if (timeAxis()) plot_->xAxis->setTicker(ticker_);
  else plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));  // a field's values, Hz
  if (auto ticker = mode_->yTicker()) plot_->yAxis->setTicker(ticker);
  else if (!logScale()) plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  plot_->axisRect()->setRangeZoom(timeAxis() ? Qt::Horizontal : Qt::Horizontal | Qt::Vertical);
  for (auto& s : series_)  // the same series, drawn as this mode draws them
    if (auto* g = qobject_cast<QCPGraph*>(s->plottable)) g->setLineStyle(mode_->lineStyle(*s));
  if (sameSeries) {
    mode_->enter();
  } else {
    auto& parked = parked_[static_cast<std::size_t>(mode_->group())];
    auto returning = std::move(parked);
    parked.clear();
    for (const auto& spec : returning) {
      if (!spec.inputs.empty()) addExpressionSeries(spec.topic, spec.path, expressionOf(spec.derive), spec.inputs);
      else if (spec.xTopic.isEmpty()) addSeries(spec.topic, spec.path, spec.xPath, spec.derive);
      else addXYSeries(spec.xTopic, spec.xPath, spec.topic, spec.path);
      if (spec.run != Run::A) setRun(*series_.back(), spec.run);
    }
  }
  updateCursor();  // no time playhead line in XY, the spectrum or the histogram
}

void PlotPanel::addSeries(const QString& topic, const QString& path, const QString& xPath) {
  if (!overTime()) return addSeries(topic, path, xPath, QString());
  // ranges[0:10]: a series per element.
  for (const auto& one : decode::MessagePath::expandSlices(path.toStdString(), 64))
    addSeries(topic, toQt(one), xPath, QString());
}

void PlotPanel::addXYSeries(const QString& xTopic, const QString& xPath, const QString& yTopic, const QString& yPath) {
  if (mode() != Mode::XY) setMode(Mode::XY);
  addSeries(yTopic, yPath, xPath);
  if (xTopic == yTopic) return;
  Series& s = *series_.back();  // y against x of another topic: reloaded with both
  s.xTopic = xTopic;
  s.plottable->setName(seriesName(s));
  load(s);
}

void PlotPanel::addDerivedSeries(const QString& topic, const QString& path, const QString& derive) {
  if (!overTime()) setMode(Mode::Time);  // derived series are series over time
  addSeries(topic, path, QString(), derive);
}

void PlotPanel::addExpressionSeries(const QString& topic, const QString& path, const QString& expression,
                                    const std::vector<std::pair<QString, QString>>& inputs) {
  if (!overTime()) setMode(Mode::Time);
  addSeries(topic, path, QString(), QStringLiteral("expr:") + expression.trimmed());
  Series& s = *series_.back();  // reloaded with its inputs
  s.inputs = inputs;
  s.plottable->setName(seriesName(s));
  load(s);
}

void PlotPanel::addStateLane(const QString& topic, const QString& path) {
  if (mode() != Mode::States) setMode(Mode::States);
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
  s->xPath = mode_->group() == PlotMode::Group::XY ? xPath : QString();
  s->derive = overTime() ? derive : QString();
  s->colour = seriesColour(nextColour_++);
  s->plottable = mode_->makePlottable(*s);
  hint_->hide();
  series_.push_back(std::move(s));
  if (timeAxis()) plot_->xAxis->setLabel(timeAxisLabel());
  if (overTime() && manyPerMessage(path)) setSeriesStyle(seriesCount() - 1, QStringLiteral("points"));
  load(*series_.back());
}

QString PlotPanel::seriesName(const Series& s) const {
  if (!s.label.isEmpty()) return s.label;
  switch (s.run) {
    case Run::A: return fieldsName(s);
    case Run::B: return tr("%1 [B]").arg(fieldsName(s));
    case Run::Difference: return tr("%1 [B − A]").arg(fieldsName(s));
  }
  return {};
}

QString PlotPanel::fieldsName(const Series& s) const {
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
  if (!overTime() || s.stamp == stamp) return;
  s.stamp = stamp;
  s.plottable->setName(seriesName(s));
  plot_->xAxis->setLabel(timeAxisLabel());
  s.x.clear();
  s.y.clear();
  s.loaded = false;
  load(s);
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
  s.reference.clear();
  // Run B's series read its own recording, placed on A's time axis by the comparison's shift;
  // B − A reads both.
  Document* runB = document_->comparison();
  const bool difference = s.run == Run::Difference;
  Document* reading = s.run == Run::B ? runB : document_;
  auto session = reading ? reading->session() : nullptr;
  auto sessionB = difference && runB ? runB->session() : nullptr;
  const TopicInfo* topic = reading ? reading->topicByName(s.topic) : nullptr;
  const TopicInfo* xTopic = s.xTopic.isEmpty() || !reading ? topic : reading->topicByName(s.xTopic);
  const qint64 originNs = document_->startNs() - (s.run == Run::B && runB ? document_->comparisonShiftNs() : 0);
  SeriesQuery query{topic ? topic->id : 0,
                    s.xTopic.isEmpty() || !xTopic ? std::nullopt : std::optional(xTopic->id),
                    s.path.toStdString(),
                    s.xPath.toStdString(),
                    s.derive,
                    s.stamp,
                    originNs,
                    {}};
  QString missing = !topic ? s.topic : !xTopic ? s.xTopic : QString();
  for (const auto& [name, path] : s.inputs) {
    const TopicInfo* input = reading ? reading->topicByName(name) : nullptr;
    if (!input && missing.isEmpty()) missing = name;
    if (input) query.inputs.emplace_back(input->id, path.toStdString());
  }
  SeriesQuery queryB = query;
  queryB.originNs = document_->startNs() - document_->comparisonShiftNs();
  if (difference && sessionB) {  // the same fields in run B's own topics
    const TopicInfo* topicB = runB->topicByName(s.topic);
    if (topicB) queryB.topic = topicB->id;
    else if (missing.isEmpty()) missing = s.topic;
    queryB.inputs.clear();
    for (const auto& [name, path] : s.inputs) {
      const TopicInfo* input = runB->topicByName(name);
      if (!input && missing.isEmpty()) missing = name;
      if (input) queryB.inputs.emplace_back(input->id, path.toStdString());
    }
  }
  if (!session || (difference && !sessionB) || !missing.isEmpty()) {
    if (s.run != Run::A && !runB) s.problem = tr("%1: no run B (File ▸ Compare With…)").arg(seriesName(s));
    else if (session && (!difference || sessionB))
      s.problem =
          s.run == Run::A ? tr("no topic %1 in this recording").arg(missing) : tr("no topic %1 in run B").arg(missing);
    s.loaded = true;
    return;
  }
  auto points = std::make_shared<Result<Points>>(makeError(ErrorCode::Cancelled, ""));
  auto keys = std::make_shared<std::vector<std::string>>();  // States: each sample's value
  auto reference = std::make_shared<std::vector<double>>();  // B − A: A's values
  const bool lane = mode_->group() == PlotMode::Group::Lanes;
  Series* target = &s;
  progress_->setValue(0);
  progress_->show();
  s.job = startSessionJob(
      session, mailbox_,
      [session, sessionB, query, queryB, points, keys, reference, lane](
          StopToken stop, const session::ProgressFn& progress) -> Result<void> {
        if (sessionB) {  // B at A's times, never extrapolated: NaN where B has no data
          auto a = readPoints(*session, query, stop, progress);
          auto b = a ? readPoints(*sessionB, queryB, stop, progress) : a;
          if (!b) {
            *points = std::move(b).error();
            return {};
          }
          auto delta = analysis::valuesAt(b->first, b->second, a->first);
          for (std::size_t i = 0; i < delta.size(); ++i) delta[i] -= a->second[i];
          *reference = std::move(a->second);
          *points = Points{std::move(a->first), std::move(delta)};
          return {};
        }
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
      [this, target, points, keys, reference, session](const Result<void>&) {
        // The series may be gone (cleared) or the session replaced by now.
        auto it = std::find_if(series_.begin(), series_.end(), [target](auto& p) { return p.get() == target; });
        if (it == series_.end()) return;
        Series& done = **it;
        const Document* source = done.run == Run::B ? document_->comparison() : document_;
        if (!source || session != source->session()) return;
        done.loaded = true;
        if (!*points) {
          if (points->error().code != ErrorCode::Cancelled) done.problem = toQt(points->error().describe());
        } else {
          done.x = std::move((*points)->first);
          done.y = std::move((*points)->second);
          done.keys = std::move(*keys);
          done.reference = std::move(*reference);
        }
        onLoaded();
      });
}

void PlotPanel::elideAxisTitles(int axisRectHeight) const {
  if (!mode_->valuesOverTime()) return;
  QCPAxis* axes[2] = {plot_->yAxis, plot_->yAxis2};
  for (std::size_t k = 0; k < 2; ++k)
    axes[k]->setLabel(QFontMetrics(axes[k]->labelFont())
                          .elidedText(axisTitles_[k], Qt::ElideRight, std::max(40, axisRectHeight * 5 / 6)));
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

}  // namespace bagscope::widgets
