// Drawing the plot panel: through its mode (plot_modes.cpp), the curves of time and XY, the
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
    auto i = mode_->valuesOverTime() && s->xPath.isEmpty() ? sampleAt(s->x, playhead, true) : std::nullopt;
    entry->value = i ? QStringLiteral("= ") + number(s->y[*i]) : QString();
  }
  for (const auto& s : series_) {
    if (!s->visible || s->x.empty() || !s->xPath.isEmpty()) continue;
    if (QString value = mode_->readout(*s, at, !hoverX_); !value.isEmpty()) values << value;
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
    if (s->run == Run::Difference && s->reference.size() == s->y.size()) {  // A against B at A's times
      std::vector<double> b(s->y.size());
      for (std::size_t k = 0; k < b.size(); ++k) b[k] = s->reference[k] + s->y[k];
      auto d = analysis::compareSeries({s->x, s->reference}, {s->x, b}, range.lower, range.upper);
      lines << tr("%1: %n sample(s), RMS %2, max |Δ| %3, mean %4, correlation %5", nullptr, static_cast<int>(d.count))
                   .arg(seriesName(*s), number(d.rms), number(d.maxAbs), number(d.mean), number(d.correlation));
      continue;
    }
    auto st = analysis::statistics(s->x, s->y, range.lower, range.upper);
    lines << tr("%1: %n sample(s), min %2, max %3, mean %4, std %5, %6 Hz", nullptr, static_cast<int>(st.count))
                 .arg(seriesName(*s), number(st.min), number(st.max), number(st.mean), number(st.stddev),
                      number(st.rateHz));
  }
  stats_->setVisible(mode_->valuesOverTime() && !lines.isEmpty());
  stats_->setText(lines.join(QLatin1Char('\n')));
}

QString PlotPanel::legendValue(int i) const {
  auto* entry = dynamic_cast<ValueLegendItem*>(
      plot_->legend->itemWithPlottable(series_.at(static_cast<std::size_t>(i))->plottable));
  return entry ? entry->value : QString();
}

void PlotPanel::fitAll() { mode_->fit(); }

void PlotPanel::redraw() {
  mode_->redraw();
  updateCursor();
}

// Time and XY: each series decimated to the plot's columns (time) or whole (XY, thinned
// beyond 200,000 points); each y axis follows its series' visible data.
void PlotPanel::drawCurves() {
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
}

void PlotPanel::updateCursor() {
  updateReadout();
  double t = static_cast<double>(document_->playheadNs() - document_->startNs()) / 1e9;
  cursor_->setVisible(timeAxis() && document_->session() && !series_.empty());
  plot_->legend->setVisible(!series_.empty() && mode_->showsLegend());
  cursor_->point1->setCoords(t, 0);
  cursor_->point2->setCoords(t, 1);
  mode_->drawCursor();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotPanel::exportVisibleCsv(const QString& path) {
  // A copy of the points, written on a background thread (a plot may hold millions).
  // Time, XY and lanes: the samples; the spectrum and the histogram: what is drawn.
  std::vector<exporters::Series> series;
  for (const auto& s : series_) series.push_back(mode_->csvSeries(*s));
  const bool time = timeAxis();
  QCPRange range = plot_->xAxis->range();
  double lo = time ? range.lower : -std::numeric_limits<double>::infinity();
  double hi = time ? range.upper : std::numeric_limits<double>::infinity();
  const auto [xName, yName] = mode_->csvColumns();
  saveInBackground(this, path, [series = std::move(series), xName, yName, lo, hi, path] {
    return exporters::writeSeriesCsv(toPath(path), series, xName, yName, lo, hi, true);
  });
}

void PlotPanel::exportAlignedCsv(const QString& path) {
  // Time mode's visible series on the first one's sample times, each the last sample at or
  // before a row (pandas merge_asof), over the visible range: one table for a notebook.
  std::vector<exporters::Series> series;
  for (const auto& s : series_)
    if (s->visible) series.push_back(mode_->csvSeries(*s));
  QCPRange range = plot_->xAxis->range();
  saveInBackground(this, path, [series = std::move(series), range, path] {
    return exporters::writeAlignedSeriesCsv(toPath(path), series, 0, exporters::Fill::Previous, "time_s", range.lower,
                                            range.upper, true);
  });
}

bool PlotPanel::saveImage(const QString& path, QString* error, QSize size) const {
  if (!size.isValid()) size = plot_->size();
  // Axis titles cut to the saved picture's height, as the screen's are to the widget's: the
  // axis rect keeps its margins.
  const int margins = plot_->height() - plot_->axisRect()->height();
  elideAxisTitles(size.height() - margins);
  const QString suffix = QFileInfo(path).suffix().toLower();
  QSaveFile file(path);
  bool ok = file.open(QIODevice::WriteOnly);
  if (ok && suffix == QLatin1String("svg")) {
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setResolution(96);  // as browsers take CSS pixels: the drawing is `size` pixels there
    svg.setViewBox(QRect(QPoint(0, 0), size));
    QCPPainter painter(&svg);
    plot_->toPainter(&painter, size.width(), size.height());
    painter.end();
  } else if (ok && suffix == QLatin1String("pdf")) {
    // A page the plot's size, in points at 96 dpi as the screen draws it; text stays text.
    QPdfWriter pdf(&file);
    pdf.setResolution(96);
    pdf.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
    pdf.setPageMargins({});
    QCPPainter painter(&pdf);
    plot_->toPainter(&painter, size.width(), size.height());
    painter.end();
  } else if (ok) {
    ok = plot_->toPixmap(size.width(), size.height()).save(&file, "PNG");
  }
  ok = ok && file.commit();
  elideAxisTitles(plot_->axisRect()->height());
  if (!ok && error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
  return ok;
}

}  // namespace bagscope::widgets
