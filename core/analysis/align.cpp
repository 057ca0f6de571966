// Setting series against each other in time: the samples an aligned table takes, and the
// difference of two runs' series.

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "derive.hpp"

namespace bagscope::analysis {

std::vector<SampleAt> samplesAt(std::span<const std::int64_t> t, std::span<const std::int64_t> at, Fill fill) {
  std::vector<SampleAt> out(at.size());
  if (t.empty()) return out;
  auto next = t.begin();  // `at` is sorted: the search goes on from the last one
  for (std::size_t k = 0; k < at.size(); ++k) {
    const std::int64_t time = at[k];
    next = std::upper_bound(next, t.end(), time);
    if (next == t.begin() || time > t.back()) continue;
    SampleAt& s = out[k];
    s.index = static_cast<std::size_t>(next - t.begin()) - 1;
    const bool exact = t[s.index] == time;
    if (fill == Fill::None && !exact) continue;
    if (fill == Fill::Linear && !exact)  // time < t.back(): a sample follows
      s.weight = static_cast<double>(time - t[s.index]) / static_cast<double>(t[s.index + 1] - t[s.index]);
    s.found = true;
  }
  return out;
}

SeriesDifference compareSeries(SeriesView a, SeriesView b, double lo, double hi) {
  std::vector<double> times, av;
  for (std::size_t i = 0; i < a.t.size(); ++i)
    if (a.t[i] >= lo && a.t[i] <= hi) {
      times.push_back(a.t[i]);
      av.push_back(a.v[i]);
    }
  const std::vector<double> bv = valuesAt(b.t, b.v, times);
  std::vector<std::pair<double, double>> pairs;  // (A, B) where both are numbers
  for (std::size_t i = 0; i < times.size(); ++i)
    if (std::isfinite(bv[i] - av[i])) pairs.emplace_back(av[i], bv[i]);
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (pairs.empty()) return {0, kNaN, kNaN, kNaN, kNaN};
  SeriesDifference d;
  d.count = pairs.size();
  const double n = static_cast<double>(d.count);
  double sumSq = 0, sum = 0, meanA = 0, meanB = 0;
  for (const auto& [x, y] : pairs) {
    sum += y - x;
    sumSq += (y - x) * (y - x);
    d.maxAbs = std::max(d.maxAbs, std::abs(y - x));
    meanA += x / n;
    meanB += y / n;
  }
  d.rms = std::sqrt(sumSq / n);
  d.mean = sum / n;
  double saa = 0, sbb = 0, sab = 0;  // deviations from the means: no cancellation on large offsets
  for (const auto& [x, y] : pairs) {
    saa += (x - meanA) * (x - meanA);
    sbb += (y - meanB) * (y - meanB);
    sab += (x - meanA) * (y - meanB);
  }
  d.correlation = saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : kNaN;
  return d;
}

}  // namespace bagscope::analysis
