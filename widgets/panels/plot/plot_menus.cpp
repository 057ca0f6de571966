// The plot panel's menus (More, a series' own), the Add Series dialog and drops, and the
// settings they change.

#include "widgets/panels/plot/plot_panel_parts.hpp"

namespace bagscope::widgets {

// More ▸ Export Visible Range, Save as Image, Remove All Series.
QMenu* PlotPanel::makeMoreMenu() {
  auto* menu = new QMenu(this);
  menu->addAction(tr("Export Visible Range as CSV…"), this, [this] {
    askAndSave(tr("Export Visible Range as CSV"), QStringLiteral("plot.csv"), tr("CSV files (*.csv)"),
               [this](const QString& path) { exportVisibleCsv(path); });
  });
  auto* aligned = menu->addAction(tr("Export Aligned Table…"), this, [this] {
    askAndSave(tr("Export Aligned Table"), QStringLiteral("aligned.csv"), tr("CSV files (*.csv)"),
               [this](const QString& path) { exportAlignedCsv(path); });
  });
  aligned->setToolTip(
      tr("The visible series as one table: a row at each sample of the first, the others' last "
         "value at or before it (as pandas' merge_asof)"));
  connect(menu, &QMenu::aboutToShow, aligned,
          [this, aligned] { aligned->setEnabled(mode() == Mode::Time && !series_.empty()); });
  menu->addAction(tr("Save as Image…"), this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Save Plot as Image"), QStringLiteral("plot.png"),
                                                tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
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
  if (mode_->valuesOverTime()) {
    QAction* right = menu->addAction(tr("Right Y Axis"));
    right->setCheckable(true);
    right->setChecked(base.rightAxis);
    connect(right, &QAction::toggled, this, [this, index](bool on) {
      if (int k = index(); k >= 0) setSeriesOnRightAxis(k, on);
    });
  }
  if (mode_->valuesOverTime() && typeHasStamp(base.topic)) {
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
  if (document_->comparison() && mode_->valuesOverTime() && base.run == Run::A) {
    menu->addSeparator();
    for (auto [run, text] : {std::pair{Run::B, tr("Run B Beside It")}, {Run::Difference, tr("Difference B − A")}})
      menu->addAction(text, this, [this, index, run] {
        if (int k = index(); k >= 0) addComparedSeries(k, run);
      });
  }
  if (!mode_->valuesOverTime() || !base.derive.isEmpty()) return menu;  // derived from fields over time only
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

void PlotPanel::addComparedSeries(int i, Run run) {
  const Series& base = *series_.at(static_cast<std::size_t>(i));
  if (!mode_->valuesOverTime() || base.run != Run::A || run == Run::A) return;
  const auto inputs = base.inputs;
  const QColor colour = base.colour;
  const bool right = base.rightAxis, stamp = base.stamp;
  addSeries(base.topic, base.path, base.xPath, base.derive);
  const int k = seriesCount() - 1;
  Series& s = *series_.back();
  s.inputs = inputs;
  s.stamp = stamp;
  if (run == Run::B) setSeriesColour(k, colour);  // B − A keeps a colour of its own
  if (right) setSeriesOnRightAxis(k, true);
  setRun(s, run);
}

PlotPanel::Run PlotPanel::seriesRun(int i) const { return series_.at(static_cast<std::size_t>(i))->run; }

void PlotPanel::setRun(Series& s, Run run) {
  s.run = run;
  QPen pen = s.plottable->pen();
  pen.setStyle(run == Run::B ? Qt::DashLine : Qt::SolidLine);
  s.plottable->setPen(pen);
  s.plottable->setName(seriesName(s));
  s.x.clear();
  s.y.clear();
  s.loaded = false;
  load(s);
}

void PlotPanel::comparisonChanged() {
  for (auto& s : series_)
    if (s->run != Run::A) setRun(*s, s->run);
  onLoaded();
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
  if (!mode_->valuesOverTime()) return;
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

void PlotPanel::setLogScale(bool log) {
  for (QCPAxis* axis : {plot_->yAxis, plot_->yAxis2}) {
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    // Linear: the mode's own ticker where it has one (state lanes name their lanes).
    auto own = axis == plot_->yAxis && !log ? mode_->yTicker() : nullptr;
    axis->setTicker(log   ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                    : own ? own
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

void PlotPanel::showAddDialog() {
  if (!document_->session()) return;
  FieldDialog dialog(*document_, mode_->fieldPurpose(), this);
  if (int t = document_->currentTopic(); t >= 0)
    dialog.selectTopic(document_->topics()[static_cast<std::size_t>(t)].name);
  if (dialog.exec() == QDialog::Accepted) mode_->addChosen(dialog);
}

void PlotPanel::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasFormat(QString::fromLatin1(kFieldMimeType))) event->acceptProposedAction();
}

void PlotPanel::dropEvent(QDropEvent* event) {
  QStringList parts =
      QString::fromUtf8(event->mimeData()->data(QString::fromLatin1(kFieldMimeType))).split(QLatin1Char('\n'));
  if (parts.size() != 2) return;
  event->acceptProposedAction();
  mode_->addDropped(parts[0], parts[1]);
}

}  // namespace bagscope::widgets
