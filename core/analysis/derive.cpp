#include "derive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace bagscope::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// `reduce(first, end)` over the trailing window that ends at each sample.
template <typename Fn>
std::vector<double> overWindows(std::span<const double> t, std::span<const double> v, Window w, Fn&& reduce) {
  std::vector<double> out(v.size(), kNaN);
  std::size_t first = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (w.samples > 0) first = i + 1 >= w.samples ? i + 1 - w.samples : 0;
    else
      while (first < i && !(t[i] - t[first] < w.seconds)) ++first;
    out[i] = reduce(first, i + 1);
  }
  return out;
}

}  // namespace

std::array<double, 3> rollPitchYaw(double x, double y, double z, double w) {
  double n = std::sqrt(x * x + y * y + z * z + w * w);
  if (!(n > 0)) return {kNaN, kNaN, kNaN};
  x /= n, y /= n, z /= n, w /= n;
  // The rotation matrix entries the angles come from.
  double r20 = 2 * (x * z - w * y), r21 = 2 * (y * z + w * x), r22 = 1 - 2 * (x * x + y * y);
  double r10 = 2 * (x * y + w * z), r00 = 1 - 2 * (y * y + z * z);
  double r01 = 2 * (x * y - w * z), r11 = 1 - 2 * (x * x + z * z);
  constexpr double kHalfPi = 1.57079632679489661923;
  if (std::abs(r20) >= 1 - 1e-12) {
    // Pitch ±90°: only roll ∓ yaw is defined; yaw 0, and roll the whole turn about the vertical.
    if (r20 < 0) return {std::atan2(r01, r11), kHalfPi, 0.0};
    return {std::atan2(-r01, r11), -kHalfPi, 0.0};
  }
  return {std::atan2(r21, r22), -std::asin(r20), std::atan2(r10, r00)};
}

std::vector<double> derivative(std::span<const double> t, std::span<const double> v) {
  std::vector<double> out(v.size(), kNaN);
  if (v.size() < 2) return out;
  auto slope = [&](std::size_t a, std::size_t b) { return t[b] != t[a] ? (v[b] - v[a]) / (t[b] - t[a]) : kNaN; };
  out.front() = slope(0, 1);
  out.back() = slope(v.size() - 2, v.size() - 1);
  for (std::size_t i = 1; i + 1 < v.size(); ++i) out[i] = slope(i - 1, i + 1);
  return out;
}

std::vector<double> integral(std::span<const double> t, std::span<const double> v) {
  std::vector<double> out(v.size(), kNaN);
  if (v.empty()) return out;
  double sum = 0;
  out[0] = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    sum += 0.5 * (v[i] + v[i - 1]) * (t[i] - t[i - 1]);
    out[i] = sum;
  }
  return out;
}

std::vector<double> movingAverage(std::span<const double> t, std::span<const double> v, Window window) {
  // Running sums over the window; a NaN inside makes the window's average NaN.
  std::vector<double> prefix(v.size() + 1, 0.0);
  std::vector<std::size_t> nans(v.size() + 1, 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    bool nan = std::isnan(v[i]);
    prefix[i + 1] = prefix[i] + (nan ? 0 : v[i]);
    nans[i + 1] = nans[i] + (nan ? 1 : 0);
  }
  return overWindows(t, v, window, [&](std::size_t a, std::size_t b) {
    if (nans[b] != nans[a]) return kNaN;
    return (prefix[b] - prefix[a]) / static_cast<double>(b - a);
  });
}

std::vector<double> movingMedian(std::span<const double> t, std::span<const double> v, Window window) {
  std::vector<double> scratch;
  return overWindows(t, v, window, [&](std::size_t a, std::size_t b) {
    scratch.assign(v.begin() + static_cast<std::ptrdiff_t>(a), v.begin() + static_cast<std::ptrdiff_t>(b));
    if (std::any_of(scratch.begin(), scratch.end(), [](double x) { return std::isnan(x); })) return kNaN;
    auto mid = scratch.begin() + static_cast<std::ptrdiff_t>(scratch.size() / 2);
    std::nth_element(scratch.begin(), mid, scratch.end());
    if (scratch.size() % 2) return *mid;
    double upper = *mid;
    double lower = *std::max_element(scratch.begin(), mid);
    return 0.5 * (lower + upper);
  });
}

std::vector<double> scaleOffset(std::span<const double> v, double scale, double offset) {
  std::vector<double> out(v.size());
  std::transform(v.begin(), v.end(), out.begin(), [=](double x) { return x * scale + offset; });
  return out;
}

std::vector<double> absolute(std::span<const double> v) {
  std::vector<double> out(v.size());
  std::transform(v.begin(), v.end(), out.begin(), [](double x) { return std::abs(x); });
  return out;
}

std::vector<double> difference(std::span<const double> v) {
  std::vector<double> out(v.size(), kNaN);
  for (std::size_t i = 1; i < v.size(); ++i) out[i] = v[i] - v[i - 1];
  return out;
}

std::vector<double> lowPass(std::span<const double> t, std::span<const double> v, double cutoffHz) {
  std::vector<double> out(v.size(), kNaN);
  const double rc = 1 / (2 * std::numbers::pi * cutoffHz);
  std::size_t last = v.size();  // the last finite sample
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) continue;
    if (last == v.size()) {
      out[i] = v[i];
    } else {
      double dt = std::max(0.0, t[i] - t[last]);  // header stamps may step back
      out[i] = out[last] + dt / (rc + dt) * (v[i] - out[last]);
    }
    last = i;
  }
  return out;
}

Statistics statistics(std::span<const double> t, std::span<const double> v, double lo, double hi) {
  Statistics out;
  auto first = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), lo) - t.begin());
  auto last = static_cast<std::size_t>(std::upper_bound(t.begin(), t.end(), hi) - t.begin());
  double sum = 0, firstT = kNaN, lastT = kNaN;
  out.min = std::numeric_limits<double>::infinity();
  out.max = -out.min;
  for (std::size_t i = first; i < last && i < v.size(); ++i) {
    if (!std::isfinite(v[i])) continue;
    ++out.count;
    sum += v[i];
    out.min = std::min(out.min, v[i]);
    out.max = std::max(out.max, v[i]);
    if (std::isnan(firstT)) firstT = t[i];
    lastT = t[i];
  }
  if (out.count == 0) {
    out.min = out.max = out.mean = out.stddev = out.rateHz = kNaN;
    return out;
  }
  out.mean = sum / static_cast<double>(out.count);
  double squares = 0;
  for (std::size_t i = first; i < last && i < v.size(); ++i)
    if (std::isfinite(v[i])) squares += (v[i] - out.mean) * (v[i] - out.mean);
  out.stddev = std::sqrt(squares / static_cast<double>(out.count));
  out.rateHz = out.count > 1 && lastT > firstT ? static_cast<double>(out.count - 1) / (lastT - firstT) : 0;
  return out;
}

std::size_t nearestSample(std::span<const double> t, double at) {
  auto it = std::lower_bound(t.begin(), t.end(), at);
  if (it == t.end()) return t.size() - 1;
  auto i = static_cast<std::size_t>(it - t.begin());
  return i > 0 && at - t[i - 1] <= t[i] - at ? i - 1 : i;
}

std::vector<double> valuesAt(std::span<const double> t, std::span<const double> v, std::span<const double> at) {
  std::vector<double> out(at.size(), kNaN);
  std::size_t j = 0;
  for (std::size_t i = 0; i < at.size(); ++i) {
    while (j < t.size() && t[j] < at[i]) ++j;  // first sample at or after at[i]
    if (j == t.size()) break;
    if (t[j] == at[i]) out[i] = v[j];
    else if (j > 0) out[i] = v[j - 1] + (v[j] - v[j - 1]) * (at[i] - t[j - 1]) / (t[j] - t[j - 1]);
  }
  return out;
}

}  // namespace bagscope::analysis
