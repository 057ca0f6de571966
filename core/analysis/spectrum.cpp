// The plot's other views of a series: its spectrum, its histogram, and its state spans.

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include "derive.hpp"

namespace bagscope::analysis {
namespace {

// In-place iterative radix-2 FFT; a.size() is a power of two.
void fft(std::vector<std::complex<double>>& a) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const double angle = -2 * std::numbers::pi / static_cast<double>(len);
    const std::complex<double> step(std::cos(angle), std::sin(angle));
    for (std::size_t i = 0; i < n; i += len) {
      std::complex<double> w(1);
      for (std::size_t k = 0; k < len / 2; ++k, w *= step) {
        auto u = a[i + k], x = a[i + k + len / 2] * w;
        a[i + k] = u + x;
        a[i + k + len / 2] = u - x;
      }
    }
  }
}

}  // namespace

Spectrum spectrum(std::span<const double> t, std::span<const double> v, double lo, double hi) {
  std::vector<double> ts, vs;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i] >= lo && t[i] <= hi && std::isfinite(v[i])) {
      ts.push_back(t[i]);
      vs.push_back(v[i]);
    }
  Spectrum out;
  if (ts.size() < 4) return out;
  std::vector<double> gaps;
  for (std::size_t i = 1; i < ts.size(); ++i)
    if (ts[i] > ts[i - 1]) gaps.push_back(ts[i] - ts[i - 1]);
  if (gaps.empty()) return out;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  const double dt = gaps[gaps.size() / 2];
  const auto m = static_cast<std::size_t>(std::floor((ts.back() - ts.front()) / dt)) + 1;
  if (m < 4 || m > (std::size_t{1} << 26)) return out;  // 64 M samples: beyond what a plot shows
  std::vector<double> at(m);
  for (std::size_t i = 0; i < m; ++i) at[i] = ts.front() + static_cast<double>(i) * dt;
  std::vector<double> even = valuesAt(ts, vs, at);
  double mean = 0;
  for (double x : even) mean += x;
  mean /= static_cast<double>(m);
  std::size_t n = 1;
  while (n < m) n <<= 1;
  std::vector<std::complex<double>> a(n);
  double windowSum = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const double w =
        m > 1 ? 0.5 - 0.5 * std::cos(2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(m - 1)) : 1;
    windowSum += w;
    a[i] = (even[i] - mean) * w;
  }
  fft(a);
  out.sampleRateHz = 1 / dt;
  for (std::size_t k = 0; k <= n / 2; ++k) {
    out.hz.push_back(static_cast<double>(k) * out.sampleRateHz / static_cast<double>(n));
    out.amplitude.push_back((k == 0 || k == n / 2 ? 1 : 2) * std::abs(a[k]) / windowSum);
  }
  return out;
}

Histogram histogram(std::span<const double> t, std::span<const double> v, double lo, double hi, std::size_t bins) {
  Histogram out;
  double mn = std::numeric_limits<double>::infinity(), mx = -mn;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i] >= lo && t[i] <= hi && std::isfinite(v[i])) {
      mn = std::min(mn, v[i]);
      mx = std::max(mx, v[i]);
    }
  if (bins == 0 || !(mn <= mx)) return out;
  if (mn == mx) {  // one value: one bin around it
    mn -= 0.5;
    mx += 0.5;
  }
  const double width = (mx - mn) / static_cast<double>(bins);
  for (std::size_t b = 0; b <= bins; ++b) out.edges.push_back(b == bins ? mx : mn + static_cast<double>(b) * width);
  out.counts.assign(bins, 0);
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i] >= lo && t[i] <= hi && std::isfinite(v[i]))
      ++out.counts[std::min(bins - 1, static_cast<std::size_t>((v[i] - mn) / width))];
  return out;
}

std::vector<StateSpan> stateSpans(std::span<const double> t, std::span<const std::string> keys, double until) {
  std::vector<StateSpan> out;
  for (std::size_t i = 0; i < t.size() && i < keys.size(); ++i) {
    if (!out.empty() && keys[out.back().first] == keys[i]) continue;
    if (!out.empty()) out.back().end = t[i];
    out.push_back({t[i], t[i], i});
  }
  if (!out.empty()) out.back().end = std::max(until, t[std::min(t.size(), keys.size()) - 1]);
  return out;
}

}  // namespace bagscope::analysis
