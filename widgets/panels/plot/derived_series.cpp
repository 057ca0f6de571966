#include "widgets/panels/plot/derived_series.hpp"

#include <algorithm>
#include <array>

#include "core/analysis/derive.hpp"

namespace bagscope::widgets {
namespace {

using Columns = std::vector<std::vector<double>>;

// "10" (samples) or "0.5s" (seconds) as a trailing window.
Result<analysis::Window> windowOf(const QString& argument) {
  bool ok = false;
  if (argument.endsWith(QLatin1Char('s'))) {
    double seconds = argument.chopped(1).toDouble(&ok);
    if (ok && seconds > 0) return analysis::Window{0, seconds};
  } else if (int samples = argument.toInt(&ok); ok && samples > 0) {
    return analysis::Window{static_cast<std::size_t>(samples), 0};
  }
  return makeError(ErrorCode::InvalidArgument,
                   "'" + argument.toStdString() + "' is not a window: a number of samples (10) or of seconds (0.5s)");
}

template <int Angle>
Result<std::vector<double>> angle(const QString&, std::span<const double> t, const Columns& c) {
  std::vector<double> out(t.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = analysis::rollPitchYaw(c[0][i], c[1][i], c[2][i], c[3][i])[Angle];
  return out;
}

// Kinds that are a function of the field's samples over time, or of each sample alone.
template <std::vector<double> (*Fn)(std::span<const double>, std::span<const double>)>
Result<std::vector<double>> overTime(const QString&, std::span<const double> t, const Columns& c) {
  return Fn(t, c[0]);
}
template <std::vector<double> (*Fn)(std::span<const double>)>
Result<std::vector<double>> perSample(const QString&, std::span<const double>, const Columns& c) {
  return Fn(c[0]);
}

template <std::vector<double> (*Moving)(std::span<const double>, std::span<const double>, analysis::Window)>
Result<std::vector<double>> moving(const QString& argument, std::span<const double> t, const Columns& c) {
  auto window = windowOf(argument);
  BAGSCOPE_TRY(window);
  return Moving(t, c[0], *window);
}

Result<std::vector<double>> lowPass(const QString& argument, std::span<const double> t, const Columns& c) {
  bool ok = false;
  double hz = argument.toDouble(&ok);
  if (!ok || !(hz > 0) || !std::isfinite(hz))
    return makeError(ErrorCode::InvalidArgument, "'" + argument.toStdString() + "' is not a cutoff frequency in Hz");
  return analysis::lowPass(t, c[0], hz);
}

const std::vector<const char*> kQuaternion{"x", "y", "z", "w"};

const std::array kKinds{
    DerivedSeriesKind{"roll",
                      kQuaternion,
                      [](const QString&) { return QCoreApplication::translate("PlotPanel", "roll (rad)"); },
                      {},
                      {},
                      angle<0>},
    DerivedSeriesKind{"pitch",
                      kQuaternion,
                      [](const QString&) { return QCoreApplication::translate("PlotPanel", "pitch (rad)"); },
                      {},
                      {},
                      angle<1>},
    DerivedSeriesKind{"yaw",
                      kQuaternion,
                      [](const QString&) { return QCoreApplication::translate("PlotPanel", "yaw (rad)"); },
                      {},
                      {},
                      angle<2>},
    DerivedSeriesKind{"derivative",
                      {},
                      [](const QString&) { return QCoreApplication::translate("PlotPanel", "derivative (per s)"); },
                      {{QT_TRANSLATE_NOOP("PlotPanel", "Derivative"), ""}},
                      {},
                      overTime<analysis::derivative>},
    DerivedSeriesKind{"integral",
                      {},
                      [](const QString&) { return QCoreApplication::translate("PlotPanel", "integral (× s)"); },
                      {{QT_TRANSLATE_NOOP("PlotPanel", "Integral"), ""}},
                      {},
                      overTime<analysis::integral>},
    DerivedSeriesKind{
        "average",
        {},
        [](const QString& arg) { return QCoreApplication::translate("PlotPanel", "moving average (%1)").arg(arg); },
        {{QT_TRANSLATE_NOOP("PlotPanel", "Moving Average (10 samples)"), "10"},
         {QT_TRANSLATE_NOOP("PlotPanel", "Moving Average (1 s)"), "1s"}},
        {},
        moving<analysis::movingAverage>},
    DerivedSeriesKind{
        "median",
        {},
        [](const QString& arg) { return QCoreApplication::translate("PlotPanel", "moving median (%1)").arg(arg); },
        {{QT_TRANSLATE_NOOP("PlotPanel", "Moving Median (10 samples)"), "10"}},
        {},
        moving<analysis::movingMedian>},
    DerivedSeriesKind{
        "lowpass",
        {},
        [](const QString& arg) { return QCoreApplication::translate("PlotPanel", "low-pass filter (%1 Hz)").arg(arg); },
        {{QT_TRANSLATE_NOOP("PlotPanel", "Low-Pass Filter…"), nullptr}},
        DerivedSeriesKind::Parameter{QT_TRANSLATE_NOOP("PlotPanel", "Cutoff frequency (Hz):"), 1.0, 0.001, 1e6, 3},
        lowPass},
    DerivedSeriesKind{"abs",
                      {},
                      [](const QString&) { return QCoreApplication::translate("PlotPanel", "absolute value"); },
                      {{QT_TRANSLATE_NOOP("PlotPanel", "Absolute Value"), ""}},
                      {},
                      perSample<analysis::absolute>},
    DerivedSeriesKind{"difference",
                      {},
                      [](const QString&) { return QCoreApplication::translate("PlotPanel", "difference"); },
                      {{QT_TRANSLATE_NOOP("PlotPanel", "Difference of Consecutive Samples"), ""}},
                      {},
                      perSample<analysis::difference>},
};

}  // namespace

std::span<const DerivedSeriesKind> derivedSeriesKinds() { return kKinds; }

Result<const DerivedSeriesKind*> derivedSeriesKind(const QString& derive) {
  QString id = derive.section(QLatin1Char(':'), 0, 0);
  auto found = std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& k) { return id == QLatin1String(k.id); });
  if (found != kKinds.end()) return &*found;
  std::string known;
  for (const auto& k : kKinds) known += (known.empty() ? "" : ", ") + std::string(k.id);
  return makeError(ErrorCode::InvalidArgument,
                   "no derived series is called '" + id.toStdString() + "' (there are " + known + ")");
}

QString derivationArgument(const QString& derive) { return derive.section(QLatin1Char(':'), 1); }

QString derivedLabel(const QString& derive) {
  if (isExpression(derive)) return expressionOf(derive);
  auto kind = derivedSeriesKind(derive);
  return kind ? (*kind)->label(derivationArgument(derive)) : derive;
}

bool isExpression(const QString& derive) { return derive.startsWith(QLatin1String("expr:")); }
QString expressionOf(const QString& derive) { return isExpression(derive) ? derive.mid(5) : QString(); }

}  // namespace bagscope::widgets
