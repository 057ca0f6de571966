#pragma once
// Min/max decimation for plotting: of the points whose x falls in a pixel column, only the
// first, the lowest, the highest and the last are drawn. A line through them looks the same
// as one through every point, so 10 million points draw as a few thousand.

#include <span>
#include <vector>

namespace bagscope::widgets {

struct PlotPoint {
  double x, y;
};

/// Points of (x, y) (x sorted ascending) for drawing [x0, x1] on `columns` pixel columns:
/// every point when there are few (≤ 4 per column on average); else per column the first,
/// min, max and last, in x order. One point either side of the range is kept so the line
/// continues to the edges. NaN y values are dropped (they would break the min/max).
std::vector<PlotPoint> decimateMinMax(std::span<const double> x, std::span<const double> y, double x0, double x1,
                                      int columns);

}  // namespace bagscope::widgets
