// The plot panel in saved layouts: its mode, series and settings.

#include "widgets/panels/plot/plot_panel_parts.hpp"

namespace bagscope::widgets {
namespace {

PlotPanel::Run runNamed(const QString& name) {
  for (std::size_t k = 0; k < kRunNames.size(); ++k)
    if (name == QLatin1String(kRunNames[k])) return static_cast<PlotPanel::Run>(k);
  return PlotPanel::Run::A;
}

}  // namespace

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
                              {QStringLiteral("run"), QLatin1String(kRunNames[static_cast<std::size_t>(s->run)])},
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
                               {QStringLiteral("run"), QLatin1String(kRunNames[static_cast<std::size_t>(spec.run)])},
                               {QStringLiteral("inputs"), inputs}});
    }
    parked[QLatin1String(kSeriesGroupNames[g])] = specs;
  }
  return {{QStringLiteral("mode"), QLatin1String(modeName(mode()))},
          {QStringLiteral("otherModes"), parked},
          {QStringLiteral("timeRange"), QJsonArray{timeRange_.first, timeRange_.second}},
          {QStringLiteral("logY"), logScale()},
          {QStringLiteral("equalAspect"), equalAspect_},
          {QStringLiteral("legendOutside"), legendOutside_},
          {QStringLiteral("series"), series}};
}

void PlotPanel::restoreSettings(const QJsonObject& settings) {
  QJsonArray range = settings.value(QStringLiteral("timeRange")).toArray();
  if (range.size() == 2 && range[0].toDouble() < range[1].toDouble())
    timeRange_ = {range[0].toDouble(), range[1].toDouble()};
  setMode(modeNamed(settings.value(QStringLiteral("mode")).toString()));
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
    if (Run run = runNamed(o.value(QStringLiteral("run")).toString()); run != Run::A) setRun(s, run);
    else if (!s.xTopic.isEmpty() || !s.inputs.empty()) {  // read again with them
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
    if (g == static_cast<std::size_t>(mode_->group())) continue;
    parked_[g].clear();
    for (const auto& v : parked.value(QLatin1String(kSeriesGroupNames[g])).toArray()) {
      QJsonObject o = v.toObject();
      SeriesSpec spec{o.value(QStringLiteral("topic")).toString(),  o.value(QStringLiteral("path")).toString(),
                      o.value(QStringLiteral("xPath")).toString(),  o.value(QStringLiteral("derive")).toString(),
                      o.value(QStringLiteral("xTopic")).toString(), {}};
      for (const auto& input : o.value(QStringLiteral("inputs")).toArray())
        spec.inputs.emplace_back(input.toArray().at(0).toString(), input.toArray().at(1).toString());
      spec.run = runNamed(o.value(QStringLiteral("run")).toString());
      if (!spec.topic.isEmpty()) parked_[g].push_back(std::move(spec));
    }
  }
  setLogScale(settings.value(QStringLiteral("logY")).toBool());
  setEqualAspect(settings.value(QStringLiteral("equalAspect")).toBool());
  setLegendOutside(settings.value(QStringLiteral("legendOutside")).toBool());
}

}  // namespace bagscope::widgets
