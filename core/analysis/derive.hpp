#pragma once
// Series derived from extracted columns (session::FieldColumns), for the plot and the CSV
// export: orientation as roll/pitch/yaw, derivative, integral, moving average and median,
// scale/offset, absolute value, differences. Plain arithmetic on (time, value) samples; a NaN
// sample (a message that could not be read) stays NaN and does not spread further than the
// samples that use it.

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace bagscope::analysis {

/// Roll, pitch and yaw in radians of the rotation quaternion (x, y, z, w) — normalised first —
/// in the convention of tf2's Matrix3x3::getRPY (rotations about fixed x, y, z axes, applied in
/// that order: R = Rz(yaw) Ry(pitch) Rx(roll)). At pitch ±90° (gimbal lock) yaw is 0 and roll
/// carries the whole rotation about the vertical, as tf2 gives it. A zero quaternion is NaN.
std::array<double, 3> rollPitchYaw(double x, double y, double z, double w);

/// dv/dt at every sample: central differences inside, one-sided at the ends (exact for a
/// quadratic on evenly spaced times). Fewer than two samples, or equal times: NaN.
std::vector<double> derivative(std::span<const double> t, std::span<const double> v);
/// The running integral of v over t (trapezoids), 0 at the first sample.
std::vector<double> integral(std::span<const double> t, std::span<const double> v);

/// A trailing window: the last `samples` samples, or those less than `seconds` before (and
/// including) each one.
struct Window {
  std::size_t samples = 0;  ///< used when > 0
  double seconds = 0;       ///< used when samples is 0
};
std::vector<double> movingAverage(std::span<const double> t, std::span<const double> v, Window window);
std::vector<double> movingMedian(std::span<const double> t, std::span<const double> v, Window window);

std::vector<double> scaleOffset(std::span<const double> v, double scale, double offset);
std::vector<double> absolute(std::span<const double> v);
/// v[i] - v[i-1]; NaN at the first sample.
std::vector<double> difference(std::span<const double> v);

/// Figures of the samples with lo <= t <= hi (t sorted): how many (finite values), their min,
/// max, mean and standard deviation (of the population), and the rate (count - 1) / span of
/// their times, as Bagscope gives rates everywhere. NaN figures when there are none.
struct Statistics {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, stddev = 0, rateHz = 0;
};
Statistics statistics(std::span<const double> t, std::span<const double> v, double lo, double hi);

/// The index of the sample whose time is nearest to `at` (t sorted, not empty).
std::size_t nearestSample(std::span<const double> t, double at);

/// The series (t, v) at the times `at` (all sorted): linearly interpolated between the samples
/// around each time, NaN outside the series' first and last sample (never extrapolated). How a
/// field of one topic is set against a field of another (XY across topics).
std::vector<double> valuesAt(std::span<const double> t, std::span<const double> v, std::span<const double> at);

}  // namespace bagscope::analysis
