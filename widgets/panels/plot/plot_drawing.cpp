// Drawing the plot panel in each mode (time, XY, spectrum, histogram, state lanes), the
// playhead's cursor, the readout and statistics, and saving what is shown (image, CSV).

#include "widgets/panels/plot/plot_panel_parts.hpp"

namespace bagscope::widgets {

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

}  // namespace bagscope::widgets
