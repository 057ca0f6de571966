#pragma once
// Series derived from extracted columns (session::FieldColumns), for the plot and the CSV
// export: orientation as roll/pitch/yaw, derivative, integral, moving average and median,
// a low-pass filter, scale/offset, absolute value, differences. Plain arithmetic on (time, value) samples; a NaN
// sample (a message that could not be read) stays NaN and does not spread further than the
// samples that use it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

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

/// A first-order low-pass filter (an RC filter) with its cutoff at `cutoffHz`, stepped over
/// the samples' own intervals so that uneven sampling is followed: y[0] = v[0],
/// y[i] = y[i-1] + a (v[i] - y[i-1]) with a = dt / (RC + dt), RC = 1 / (2π cutoffHz). A NaN
/// sample is NaN and the filter goes on from the last finite output.
std::vector<double> lowPass(std::span<const double> t, std::span<const double> v, double cutoffHz);

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

/// A series of samples: times (sorted, seconds) and values.
struct SeriesView {
  std::span<const double> t, v;
};

/// How a table takes a series' value at a time (aligned tables: `export --join`).
enum class Fill : std::uint8_t {
  Previous,  ///< the last sample at or before it (pandas merge_asof, direction backward)
  Linear,    ///< between the samples either side (numpy.interp)
  None,      ///< only a sample at exactly that time
};
/// Where the value at one time comes from: v[index] + weight * (v[index + 1] - v[index]).
struct SampleAt {
  std::size_t index = 0;
  double weight = 0;   ///< 0 unless Linear falls between two samples
  bool found = false;  ///< false before the first sample or after the last (never extrapolated)
};
/// For each time of `at`, the sample of `t` (both sorted, ns) that `fill` takes; of equal
/// times, the last.
std::vector<SampleAt> samplesAt(std::span<const std::int64_t> t, std::span<const std::int64_t> at, Fill fill);

/// Run B set against run A over A's samples with lo <= t <= hi that B spans: B interpolated at
/// A's times (valuesAt, never extrapolated), delta = B - A. Count of finite deltas, their RMS,
/// largest magnitude and mean, and the Pearson correlation of A with B (NaN when either is
/// constant). NaN figures when no sample overlaps.
struct SeriesDifference {
  std::size_t count = 0;
  double rms = 0, maxAbs = 0, mean = 0, correlation = 0;
};
SeriesDifference compareSeries(SeriesView a, SeriesView b, double lo, double hi);

/// `expression` (muparser's syntax: + - * / ^, sqrt, abs, sin … atan2, min, max, a?b:c) at
/// every sample of inputs[0], the other inputs interpolated at its times (valuesAt: NaN
/// outside them, never extrapolated); input k is the variable names[k], and `t` is the time.
/// Errors (InvalidArgument) quote muparser's message and the column of the fault (from 1).
Result<std::vector<double>> evaluateExpression(std::string_view expression, std::span<const std::string> names,
                                               std::span<const SeriesView> inputs);

/// The amplitude spectrum of the samples with lo <= t <= hi: resampled evenly at their median
/// interval (linear interpolation, NaN samples skipped), mean removed, a Hann window, a
/// radix-2 FFT of the next power of two (zero-padded). Amplitudes are scaled so that a sine
/// of amplitude A filling the range shows as a peak of about A. Empty with fewer than 4
/// samples.
struct Spectrum {
  std::vector<double> hz, amplitude;
  double sampleRateHz = 0;
};
Spectrum spectrum(std::span<const double> t, std::span<const double> v, double lo, double hi);

/// A histogram of the finite values with lo <= t <= hi in `bins` equal bins from their min to
/// their max (the max in the last bin). `edges` has bins + 1 entries; empty when no value.
struct Histogram {
  std::vector<double> edges;
  std::vector<std::size_t> counts;
};
Histogram histogram(std::span<const double> t, std::span<const double> v, double lo, double hi, std::size_t bins);

/// Runs of equal values (state lanes): each span from its first sample's time to the next
/// span's first sample; the last span to `until` (a state holds until it changes: the end of
/// the recording), or its last sample when that is later. `keys` holds one value per sample
/// (a string or a number as text); equal neighbours merge.
struct StateSpan {
  double begin = 0, end = 0;
  std::size_t first = 0;  ///< index of its first sample, whose key it shows
};
std::vector<StateSpan> stateSpans(std::span<const double> t, std::span<const std::string> keys,
                                  double until = -std::numeric_limits<double>::infinity());

}  // namespace bagscope::analysis
