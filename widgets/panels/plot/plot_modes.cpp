// The plot's modes, one strategy each: fields over time; one field against another; the
// spectrum or histogram of the time series over the range shown when it was chosen; fields
// as state lanes. A mode is one class here and one line of the table below.

#include "widgets/panels/plot/plot_panel_parts.hpp"

namespace bagscope::widgets {
namespace {

struct ModeRow {
  Mode mode;
  const char* name;   // in saved layouts
  const char* label;  // in the mode box
};
// In the order of PlotPanel::Mode (the mode box's rows).
constexpr ModeRow kModes[] = {
    {Mode::Time, "time", QT_TRANSLATE_NOOP("bagscope::widgets::PlotPanel", "Time")},
    {Mode::XY, "xy", QT_TRANSLATE_NOOP("bagscope::widgets::PlotPanel", "XY")},
    {Mode::Spectrum, "spectrum", QT_TRANSLATE_NOOP("bagscope::widgets::PlotPanel", "Spectrum (FFT)")},
    {Mode::Histogram, "histogram", QT_TRANSLATE_NOOP("bagscope::widgets::PlotPanel", "Histogram")},
    {Mode::States, "states", QT_TRANSLATE_NOOP("bagscope::widgets::PlotPanel", "States")},
};

}  // namespace

namespace plot_detail {

const char* modeName(Mode mode) { return kModes[static_cast<std::size_t>(mode)].name; }
QString modeLabel(Mode mode) { return PlotPanel::tr(kModes[static_cast<std::size_t>(mode)].label); }
Mode modeNamed(const QString& name) {
  for (const auto& m : kModes)
    if (name == QLatin1String(m.name)) return m.mode;
  return Mode::Time;
}

}  // namespace plot_detail

// ---- What the modes share -------------------------------------------------------------

QCPGraph::LineStyle PlotPanel::PlotMode::lineStyle(const Series& s) const {
  return s.style == QLatin1String("points") ? QCPGraph::lsNone : QCPGraph::lsLine;
}

QCPAbstractPlottable* PlotPanel::PlotMode::makePlottable(const Series& s) {
  auto* graph = p.plot_->addGraph();
  p.plot_->legend->removeItem(p.plot_->legend->itemWithPlottable(graph));  // one that shows its value
  p.plot_->legend->addItem(new ValueLegendItem(p.plot_->legend, graph));
  graph->setPen(QPen(s.colour, 1));  // 1 px lines take QPainter's fast path
  graph->setName(p.seriesName(s));
  graph->setLineStyle(lineStyle(s));
  return graph;
}

void PlotPanel::PlotMode::fit() {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (auto& s : p.series_)
    if (!s->x.empty()) {
      auto [a, b] = s->xPath.isEmpty() ? std::pair{s->x.front(), s->x.back()}
                                       : std::pair{*std::min_element(s->x.begin(), s->x.end()),
                                                   *std::max_element(s->x.begin(), s->x.end())};
      lo = std::min(lo, a), hi = std::max(hi, b);
    }
  if (!std::isfinite(lo)) return;
  hi = fitEnd(hi);
  if (hi <= lo) hi = lo + 1;
  p.settingRange_ = true;
  p.plot_->xAxis->setRange(lo, hi);
  p.settingRange_ = false;
  p.redraw();
  if (timeAxis()) emit p.timeRangeChanged(lo, hi);
}

QString PlotPanel::PlotMode::readout(const Series& s, double at, bool playhead) const {
  auto i = sampleAt(s.x, at, playhead);
  if (!i) return {};
  return QStringLiteral("%1 = %2 (%3)").arg(p.seriesName(s), number(s.y[*i]), p.timeText(s.x[*i]));
}

exporters::Series PlotPanel::PlotMode::csvSeries(const Series& s) const {
  QString name = s.derive.isEmpty() ? s.topic + QLatin1Char('/') + s.path : p.seriesName(s);
  return {name.toStdString(), s.x, s.y, {}};
}

void PlotPanel::PlotMode::addChosen(const FieldDialog& dialog) {
  for (const QString& path : dialog.paths()) {
    if (!path.endsWith(FieldDialog::kRpySuffix)) {
      p.addSeries(dialog.topic(), path);
      continue;
    }
    for (const char* angle : {"roll", "pitch", "yaw"})
      p.addDerivedSeries(dialog.topic(), path.chopped(FieldDialog::kRpySuffix.size()), QString::fromLatin1(angle));
  }
}

// ---- Time: fields over time -----------------------------------------------------------

class PlotPanel::TimeMode final : public PlotMode {
public:
  using PlotMode::PlotMode;
  Mode id() const override { return Mode::Time; }
  bool timeAxis() const override { return true; }
  bool valuesOverTime() const override { return true; }
  QString xLabel() const override { return p.timeAxisLabel(); }
  std::pair<const char*, const char*> csvColumns() const override { return {"time_s", "value"}; }

  // Back from its spectrum or histogram: the range they were made from.
  void enter() override {
    p.settingRange_ = true;
    p.plot_->xAxis->setRange(p.timeRange_.first, p.timeRange_.second);
    p.settingRange_ = false;
    p.redraw();
  }
  // What the spectrum and the histogram will cover.
  void leave() override { p.timeRange_ = {p.plot_->xAxis->range().lower, p.plot_->xAxis->range().upper}; }

  void redraw() override {
    p.drawCurves();
    // Each y axis titled by what it shows: fields, or derivations with their units (cut to
    // the plot's height when drawn).
    QStringList titles[2];
    for (const auto& s : p.series_) {
      QString what = s->derive.isEmpty() ? s->path : derivedLabel(s->derive);  // an expression as it is
      if (!titles[s->rightAxis ? 1 : 0].contains(what)) titles[s->rightAxis ? 1 : 0] << what;
    }
    for (std::size_t k = 0; k < 2; ++k) p.axisTitles_[k] = titles[k].join(QStringLiteral(", "));
    p.updateStatistics();
  }
};

// ---- XY: one field against another ----------------------------------------------------

class PlotPanel::XYMode final : public PlotMode {
public:
  using PlotMode::PlotMode;
  Mode id() const override { return Mode::XY; }
  Group group() const override { return Group::XY; }
  QString xLabel() const override { return {}; }
  FieldDialog::Purpose fieldPurpose() const override { return FieldDialog::Purpose::XY; }
  std::pair<const char*, const char*> csvColumns() const override { return {"x", "y"}; }

  QCPAbstractPlottable* makePlottable(const Series& s) override {
    auto* curve = new QCPCurve(p.plot_->xAxis, p.plot_->yAxis);
    curve->setPen(QPen(s.colour, 1.2));
    curve->setName(QStringLiteral("%1 %2 / %3 %4").arg(s.topic, s.path, s.topic, s.xPath));
    return curve;
  }

  void redraw() override {
    p.drawCurves();
    if (p.equalAspect_) p.plot_->yAxis->setScaleRatio(p.plot_->xAxis, 1.0);  // trajectories true to shape
    // Each axis titled by its fields, as PlotJuggler's XY curves are.
    QStringList xs, ys;
    for (const auto& s : p.series_) {
      const bool other = !s->xTopic.isEmpty() && s->xTopic != s->topic;
      QString x = (other ? s->xTopic + QLatin1Char(' ') : QString()) + s->xPath;
      QString y = (other ? s->topic + QLatin1Char(' ') : QString()) + s->path;
      if (!xs.contains(x)) xs << x;
      if (!ys.contains(y)) ys << y;
    }
    p.plot_->xAxis->setLabel(xs.join(QStringLiteral(", ")));
    p.plot_->yAxis->setLabel(ys.join(QStringLiteral(", ")));
    p.updateStatistics();  // none here: hides them
  }

  // The point of each series at the playhead (its last message at or before it).
  void drawCursor() override {
    if (!p.marker_) {
      p.marker_ = p.plot_->addGraph();
      p.marker_->setLineStyle(QCPGraph::lsNone);
      p.marker_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(220, 30, 30), 9));
      p.marker_->removeFromLegend();
    }
    QVector<double> kx, vy;
    auto session = p.document_->session();
    for (auto& s : p.series_) {
      const TopicInfo* topic = p.document_->topicByName(s->xTopic.isEmpty() ? s->topic : s->xTopic);
      if (!session || !topic || s->x.empty()) continue;
      auto row = session->atOrBefore(topic->id, p.document_->playheadNs());
      if (row && *row < s->x.size()) kx << s->x[*row], vy << s->y[*row];
    }
    p.marker_->setData(kx, vy);
  }

  exporters::Series csvSeries(const Series& s) const override {
    exporters::Series one = PlotMode::csvSeries(s);
    one.name += " vs " + s.xPath.toStdString();
    return one;
  }

  void addChosen(const FieldDialog& dialog) override {
    QStringList paths = dialog.paths();
    if (!dialog.xTopic().isEmpty() && paths.size() == 1)
      p.addXYSeries(dialog.xTopic(), dialog.xField(), dialog.topic(), paths[0]);
    else if (dialog.xTopic().isEmpty() && paths.size() == 2) p.addSeries(dialog.topic(), paths[1], paths[0]);
    else
      QMessageBox::information(&p, PlotPanel::tr("Add XY Series"),
                               PlotPanel::tr("Choose two fields, x then y, or an x field of another topic and one y "
                                             "field."));
  }

  // A single field is a time series. Choosing the time mode ends this one: nothing of it
  // may be used after.
  void addDropped(const QString& topic, const QString& path) override {
    PlotPanel& panel = p;
    panel.setMode(Mode::Time);
    panel.addSeries(topic, path);
  }
};

// ---- Spectrum and histogram: of the time series, over the range shown when chosen -----

class PlotPanel::ViewMode final : public PlotMode {
public:
  ViewMode(PlotPanel& panel, Mode mode) : PlotMode(panel), mode_(mode) {}
  Mode id() const override { return mode_; }
  QString xLabel() const override { return spectrum() ? PlotPanel::tr("frequency (Hz)") : PlotPanel::tr("value"); }
  QString yLabel() const override { return spectrum() ? PlotPanel::tr("amplitude") : PlotPanel::tr("samples"); }
  QCPGraph::LineStyle lineStyle(const Series& s) const override {
    return spectrum() ? PlotMode::lineStyle(s) : QCPGraph::lsStepLeft;
  }
  std::pair<const char*, const char*> csvColumns() const override {
    return spectrum() ? std::pair{"hz", "amplitude"} : std::pair{"bin_start", "samples"};
  }

  void redraw() override {
    const auto [from, to] = p.timeRange_;
    for (auto& s : p.series_) {
      QVector<double> keys, values;
      if (spectrum()) {
        auto sp = analysis::spectrum(s->x, s->y, from, to);
        keys = QVector<double>(sp.hz.begin(), sp.hz.end());
        values = QVector<double>(sp.amplitude.begin(), sp.amplitude.end());
      } else {
        auto h = analysis::histogram(s->x, s->y, from, to, 50);
        for (std::size_t b = 0; b < h.counts.size(); ++b)
          keys << h.edges[b], values << static_cast<double>(h.counts[b]);
        if (!h.counts.empty())
          keys << h.edges.back(), values << static_cast<double>(h.counts.back());  // the last step's end
      }
      static_cast<QCPGraph*>(s->plottable)->setData(keys, values, true);
      s->drawn = static_cast<int>(keys.size());
    }
    p.stats_->setText(PlotPanel::tr("Over %1 s to %2 s of the time plot").arg(number(from), number(to)));
    p.stats_->setVisible(!p.series_.empty());
  }

  void fit() override {
    redraw();
    p.plot_->rescaleAxes(true);
    p.plot_->xAxis->scaleRange(1.04);  // the first and last bins off the frame
    p.plot_->yAxis->setRangeUpper(p.plot_->yAxis->range().upper * 1.05);
    p.plot_->replot();
  }

  // What is drawn, not the samples.
  exporters::Series csvSeries(const Series& s) const override {
    exporters::Series one = PlotMode::csvSeries(s);
    one.x.clear(), one.y.clear();
    for (const auto& point : *static_cast<QCPGraph*>(s.plottable)->data())
      one.x.push_back(point.key), one.y.push_back(point.value);
    return one;
  }

private:
  bool spectrum() const { return mode_ == Mode::Spectrum; }
  Mode mode_;
};

// ---- States: fields as lanes of spans over time ---------------------------------------

class PlotPanel::StatesMode final : public PlotMode {
public:
  using PlotMode::PlotMode;
  Mode id() const override { return Mode::States; }
  Group group() const override { return Group::Lanes; }
  bool timeAxis() const override { return true; }
  bool showsLegend() const override { return false; }
  QString xLabel() const override { return p.timeAxisLabel(); }
  QSharedPointer<QCPAxisTicker> yTicker() const override {
    return QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
  }
  FieldDialog::Purpose fieldPurpose() const override { return FieldDialog::Purpose::States; }
  std::pair<const char*, const char*> csvColumns() const override { return {"time_s", "state"}; }

  // A lane: named on the y axis, drawn as spans.
  QCPAbstractPlottable* makePlottable(const Series& s) override {
    auto* graph = PlotMode::makePlottable(s);
    graph->removeFromLegend();
    return graph;
  }

  // Each series a lane (y = its index from the top): a coloured span per run of equal
  // values, labelled where it is wide enough; runs narrower than a pixel merge into a grey span.
  void redraw() override {
    QCustomPlot* plot = p.plot_;
    for (auto* item : p.laneItems_) plot->removeItem(item);
    p.laneItems_.clear();
    QCPRange range = plot->xAxis->range();
    const double pixel = range.size() / std::max(1, plot->axisRect()->width());
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot->yAxis->ticker());
    if (ticker) ticker->clear();
    const int n = p.seriesCount();
    plot->yAxis->setRange(-0.5, std::max(1, n) - 0.5);
    plot->yAxis->setRangeReversed(true);
    const QFontMetrics metrics(p.font());
    for (int lane = 0; lane < n; ++lane) {
      Series& s = *p.series_[static_cast<std::size_t>(lane)];
      if (ticker) ticker->addTick(lane, metrics.elidedText(p.seriesName(s), Qt::ElideMiddle, 240));
      if (!s.visible) continue;
      std::map<std::string, int> colourOf;  // by first appearance in the lane
      for (const auto& k : s.keys) colourOf.emplace(k, static_cast<int>(colourOf.size()));
      auto spans = analysis::stateSpans(s.x, s.keys, p.recordingEnd());
      auto add = [&](double a, double b, const QColor& colour, const QString& label) {
        auto* rect = new QCPItemRect(plot);
        rect->topLeft->setCoords(a, lane - 0.35);
        rect->bottomRight->setCoords(std::max(b, a + pixel), lane + 0.35);
        rect->setPen(QPen(colour.darker(130)));
        rect->setBrush(colour);
        rect->setSelectable(false);
        p.laneItems_.push_back(rect);
        if (label.isEmpty() || (b - a) / pixel < metrics.horizontalAdvance(label) + 6) return;
        auto* text = new QCPItemText(plot);
        text->position->setCoords((std::max(a, range.lower) + std::min(b, range.upper)) / 2, lane);
        text->setText(label);
        text->setColor(Qt::black);
        text->setSelectable(false);
        p.laneItems_.push_back(text);
      };
      double crowdFrom = 0, crowdTo = -1;  // a run of spans under a pixel wide
      for (const auto& span : spans) {
        if (span.end < range.lower || span.begin > range.upper) continue;
        if (p.laneItems_.size() > 4000) break;  // a lane that changes on every sample: the grey runs carry it
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
    p.stats_->hide();
  }

  // The state at that time: its last sample at or before it.
  QString readout(const Series& s, double at, bool) const override {
    auto after = std::upper_bound(s.x.begin(), s.x.end(), at);
    if (after == s.x.begin() || s.keys.empty()) return {};
    return QStringLiteral("%1 = %2").arg(p.seriesName(s),
                                         toQt(s.keys[static_cast<std::size_t>(after - s.x.begin() - 1)]));
  }

  exporters::Series csvSeries(const Series& s) const override {
    exporters::Series one = PlotMode::csvSeries(s);
    one.labels = s.keys;
    return one;
  }

  void addChosen(const FieldDialog& dialog) override {
    for (const QString& path : dialog.paths()) p.addStateLane(dialog.topic(), path);
  }
  void addDropped(const QString& topic, const QString& path) override { p.addStateLane(topic, path); }

protected:
  double fitEnd(double dataEnd) const override { return std::max(dataEnd, p.recordingEnd()); }  // the last states hold
};

std::unique_ptr<PlotPanel::PlotMode> PlotPanel::makeMode(Mode mode, PlotPanel& panel) {
  switch (mode) {
    case Mode::XY: return std::make_unique<XYMode>(panel);
    case Mode::Spectrum:
    case Mode::Histogram: return std::make_unique<ViewMode>(panel, mode);
    case Mode::States: return std::make_unique<StatesMode>(panel);
    case Mode::Time: break;
  }
  return std::make_unique<TimeMode>(panel);
}

}  // namespace bagscope::widgets
