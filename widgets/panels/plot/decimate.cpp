#include "widgets/panels/plot/decimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bagscope::widgets {

std::vector<PlotPoint> decimateMinMax(std::span<const double> x, std::span<const double> y, double x0, double x1,
                                      int columns) {
  std::vector<PlotPoint> out;
  std::size_t n = std::min(x.size(), y.size());
  if (n == 0 || columns <= 0 || !(x1 > x0)) return out;
  auto first =
      static_cast<std::size_t>(std::lower_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), x0) - x.begin());
  auto last =
      static_cast<std::size_t>(std::upper_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), x1) - x.begin());
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
  // Column by column: the run of points in it found by binary search, then one tight pass
  // over its y values for the lowest and highest.
  double perColumn = (x1 - x0) / columns;
  auto xEnd = x.begin() + static_cast<std::ptrdiff_t>(last);
  std::size_t i = first;
  for (int column = 0; column < columns && i < last; ++column) {
    double columnEnd = column == columns - 1 ? std::numeric_limits<double>::infinity() : x0 + (column + 1) * perColumn;
    auto j = static_cast<std::size_t>(std::lower_bound(x.begin() + static_cast<std::ptrdiff_t>(i), xEnd, columnEnd) -
                                      x.begin());
    if (j == i) continue;
    // Lowest and highest value in a branch-free pass (NaN never compares less or greater),
    // then where they first occur.
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (std::size_t k = i; k < j; ++k) {
      double v = y[k];
      low = v < low ? v : low;
      high = v > high ? v : high;
    }
    std::size_t lo = n, hi = n, firstValid = n, lastValid = n;
    if (low <= high) {
      for (std::size_t k = i; k < j && (lo == n || hi == n); ++k) {
        if (lo == n && y[k] == low) lo = k;
        if (hi == n && y[k] == high) hi = k;
      }
      for (firstValid = i; std::isnan(y[firstValid]); ++firstValid) {
      }
      for (lastValid = j - 1; std::isnan(y[lastValid]); --lastValid) {
      }
    }
    if (firstValid != n) {
      std::size_t picks[4] = {firstValid, lo, hi, lastValid};
      std::sort(std::begin(picks), std::end(picks));
      for (std::size_t k = 0; k < 4; ++k)
        if (k == 0 || picks[k] != picks[k - 1]) out.push_back({x[picks[k]], y[picks[k]]});
    }
    i = j;
  }
  if (to > last) keep(last);
  return out;
}

}  // namespace bagscope::widgets
