#pragma once
// The kinds of derived series a plot offers (PlotJuggler's transforms): each one row in
// derived_series.cpp — its id, how the legend names it, its menu entries, the parameter it
// asks for and how it is computed. A series keeps its derivation as text, "<id>" or
// "<id>:<argument>" ("derivative", "average:10", "lowpass:2"), which is what layouts save.
// Custom expressions ("expr:…", several inputs) are the plot's own and not kinds.

#include <QCoreApplication>
#include <QString>

#include <optional>
#include <span>
#include <vector>

#include "core/base/result.hpp"

namespace bagscope::widgets {

struct DerivedSeriesKind {
  const char* id;
  /// The members of the field that are read (a quaternion's "x", "y", "z", "w"), in order,
  /// or none: the field itself.
  std::vector<const char*> members;
  /// The legend's and the CSV's name, given the argument (translated).
  QString (*label)(const QString& argument);
  /// The series' menu: each entry's text (PlotPanel context, translated when shown) and its
  /// argument ("" for none); an entry whose argument is null asks for `parameter` first.
  struct MenuEntry {
    const char* text;
    const char* argument;
  };
  std::vector<MenuEntry> menu;
  struct Parameter {
    const char* prompt;  ///< PlotPanel context
    double value, min, max;
    int decimals;
  };
  std::optional<Parameter> parameter;
  /// The values at times `t` (seconds) from the columns read (one per member, or the field);
  /// an argument it cannot use is an InvalidArgument error naming it.
  Result<std::vector<double>> (*compute)(const QString& argument, std::span<const double> t,
                                         const std::vector<std::vector<double>>& columns);
};

/// Every kind, in menu order.
std::span<const DerivedSeriesKind> derivedSeriesKinds();
/// The kind of a derivation ("average:10" → average), or an InvalidArgument error that names
/// the id and the known ones.
Result<const DerivedSeriesKind*> derivedSeriesKind(const QString& derive);
/// The argument of a derivation ("average:10" → "10").
QString derivationArgument(const QString& derive);
/// How a derived series is named in the legend and the CSV (an unknown id as it is).
QString derivedLabel(const QString& derive);

bool isExpression(const QString& derive);
QString expressionOf(const QString& derive);

}  // namespace bagscope::widgets
