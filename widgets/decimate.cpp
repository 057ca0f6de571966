#include "decimate.hpp"

#include <algorithm>
#include <cmath>

namespace bagscope::widgets {

std::vector<PlotPoint> decimateMinMax(std::span<const double> x, std::span<const double> y, double x0, double x1,
                                      int columns) {
  std::vector<PlotPoint> out;
  std::size_t n = std::min(x.size(), y.size());
  if (n == 0 || columns <= 0 || !(x1 > x0)) return out;
  auto first = static_cast<std::size_t>(std::lower_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), x0) - x.begin());
  auto last = static_cast<std::size_t>(std::upper_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), x1) - x.begin());
  // One neighbour outside on each side: the line reaches the plot's edges.
  std::size_t from = first > 0 ? first - 1 : 0, to = std::min(n, last + 1);
  auto keep = [&](std::size_t i) {
    if (!std::isnan(y[i])) out.push_back({x[i], y[i]});
  };
  if (to - from <= 4 * static_cast<std::size_t>(columns)) {
    out.reserve(to - from);
    for (std::size_t i = from; i < to; ++i) keep(i);
    return out;
  }
  out.reserve(4 * static_cast<std::size_t>(columns) + 2);
  if (from < first) keep(from);
  double perColumn = (x1 - x0) / columns;
  std::size_t i = first;
  while (i < last) {
    // The column of point i, and the run of points in it.
    auto column = std::min(static_cast<long>(std::floor((x[i] - x0) / perColumn)), static_cast<long>(columns - 1));
    double columnEnd = x0 + static_cast<double>(column + 1) * perColumn;
    std::size_t j = i, lo = n, hi = n, firstValid = n, lastValid = n;
    for (; j < last && (x[j] < columnEnd || column == columns - 1); ++j) {
      if (std::isnan(y[j])) continue;
      if (firstValid == n) firstValid = j;
      lastValid = j;
      if (lo == n || y[j] < y[lo]) lo = j;
      if (hi == n || y[j] > y[hi]) hi = j;
    }
    if (firstValid != n) {
      std::size_t picks[4] = {firstValid, lo, hi, lastValid};
      std::sort(std::begin(picks), std::end(picks));
      for (std::size_t k = 0; k < 4; ++k)
        if (k == 0 || picks[k] != picks[k - 1]) out.push_back({x[picks[k]], y[picks[k]]});
    }
    i = std::max(j, i + 1);
  }
  if (to > last) keep(last);
  return out;
}

}  // namespace bagscope::widgets
