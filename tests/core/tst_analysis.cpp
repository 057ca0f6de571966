// Derived series against values worked out by hand here: roll/pitch/yaw of quaternions built
// from known angles (including both gimbal locks, checked by rebuilding the rotation), the
// derivative of a known polynomial, the integral of a line, moving averages and medians of
// known sequences over sample and time windows, and how a NaN sample stays contained.

#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "core/analysis/derive.hpp"

using namespace bagscope::analysis;

namespace {

constexpr double kPi = 3.14159265358979323846;
double deg(double d) { return d * kPi / 180; }

using Quat = std::array<double, 4>;  // x, y, z, w
Quat multiply(const Quat& a, const Quat& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}
// R = Rz(yaw) Ry(pitch) Rx(roll), as a quaternion.
Quat fromRpy(double roll, double pitch, double yaw) {
  Quat qx{std::sin(roll / 2), 0, 0, std::cos(roll / 2)};
  Quat qy{0, std::sin(pitch / 2), 0, std::cos(pitch / 2)};
  Quat qz{0, 0, std::sin(yaw / 2), std::cos(yaw / 2)};
  return multiply(qz, multiply(qy, qx));
}
// The same rotation: q and -q, component by component.
bool sameRotation(const Quat& a, const Quat& b) {
  double plus = 0, minus = 0;
  for (int i = 0; i < 4; ++i) plus += std::abs(a[i] - b[i]), minus += std::abs(a[i] + b[i]);
  return std::min(plus, minus) < 1e-9;
}

bool near(double a, double b, double eps = 1e-12) { return std::abs(a - b) <= eps; }

}  // namespace

class TestAnalysis : public QObject {
  Q_OBJECT

private slots:
  void rollPitchYawOfKnownRotations() {
    const double s = std::sqrt(0.5);
    auto r = rollPitchYaw(0, 0, 0, 1);
    QVERIFY(near(r[0], 0) && near(r[1], 0) && near(r[2], 0));
    r = rollPitchYaw(s, 0, 0, s);  // 90° about x
    QVERIFY(near(r[0], kPi / 2) && near(r[1], 0) && near(r[2], 0));
    r = rollPitchYaw(0, 0, s, s);  // 90° about z
    QVERIFY(near(r[0], 0) && near(r[1], 0) && near(r[2], kPi / 2));
    r = rollPitchYaw(0, std::sin(deg(15)), 0, std::cos(deg(15)));  // 30° about y
    QVERIFY(near(r[1], deg(30)));
    for (auto [roll, pitch, yaw] : {std::array<double, 3>{10, 20, 30}, {-170, 45, 120}, {5, -80, -95}}) {
      Quat q = fromRpy(deg(roll), deg(pitch), deg(yaw));
      r = rollPitchYaw(2 * q[0], 2 * q[1], 2 * q[2], 2 * q[3]);  // not normalised: the same
      QVERIFY2(near(r[0], deg(roll), 1e-9) && near(r[1], deg(pitch), 1e-9) && near(r[2], deg(yaw), 1e-9),
               qPrintable(QString("%1 %2 %3").arg(r[0]).arg(r[1]).arg(r[2])));
    }
    auto nan = rollPitchYaw(0, 0, 0, 0);
    QVERIFY(std::isnan(nan[0]) && std::isnan(nan[1]) && std::isnan(nan[2]));
  }

  void gimbalLockKeepsTheRotation() {
    // Pitch +90° with yaw 30°: yaw becomes 0 and roll -30° (only roll - yaw is defined);
    // pitch -90° with roll 40° and yaw 25°: roll 65° (roll + yaw).
    Quat up = fromRpy(0, deg(90), deg(30));
    auto r = rollPitchYaw(up[0], up[1], up[2], up[3]);
    QVERIFY(near(r[1], kPi / 2) && near(r[2], 0) && near(r[0], deg(-30), 1e-9));
    QVERIFY(sameRotation(fromRpy(r[0], r[1], r[2]), up));
    Quat down = fromRpy(deg(40), deg(-90), deg(25));
    r = rollPitchYaw(down[0], down[1], down[2], down[3]);
    QVERIFY(near(r[1], -kPi / 2) && near(r[2], 0) && near(r[0], deg(65), 1e-9));
    QVERIFY(sameRotation(fromRpy(r[0], r[1], r[2]), down));
  }

  void derivativeOfAPolynomial() {
    // v = 3t² + 2t + 1 every 0.1 s: exactly 6t + 2 inside; (v(h) - v(0)) / h = 3h + 2 at the start.
    std::vector<double> t, v;
    for (int i = 0; i <= 10; ++i) t.push_back(i * 0.1), v.push_back(3 * t.back() * t.back() + 2 * t.back() + 1);
    auto d = derivative(t, v);
    for (int i = 1; i < 10; ++i) QVERIFY2(near(d[i], 6 * t[i] + 2, 1e-9), qPrintable(QString::number(d[i])));
    QVERIFY(near(d[0], 3 * 0.1 + 2, 1e-9));
    QVERIFY(near(d[10], 3 * (1.0 + 0.9) + 2, 1e-9));  // (v(1) - v(0.9)) / 0.1
    QVERIFY(std::isnan(derivative(std::vector<double>{1}, std::vector<double>{2})[0]));
  }

  void integralOfALine() {
    // ∫ 2t dt from 0 = t² (trapezoids are exact for a line).
    std::vector<double> t{0, 0.25, 0.5, 1.0, 1.5}, v;
    for (double x : t) v.push_back(2 * x);
    auto r = integral(t, v);
    for (std::size_t i = 0; i < t.size(); ++i) QVERIFY(near(r[i], t[i] * t[i]));
  }

  void movingAverageAndMedian() {
    std::vector<double> t{0, 0.1, 0.2, 0.3, 0.4};
    QCOMPARE(movingAverage(t, std::vector<double>{1, 2, 3, 4, 5}, {3, 0}), (std::vector<double>{1, 1.5, 2, 3, 4}));
    // A 0.25 s window holds the samples less than 0.25 s old: 1, 2 or 3 of them.
    auto seconds = movingAverage(t, std::vector<double>{1, 2, 3, 4, 5}, {0, 0.25});
    QVERIFY(near(seconds[0], 1) && near(seconds[1], 1.5) && near(seconds[2], 2) && near(seconds[3], 3) &&
            near(seconds[4], 4));
    QCOMPARE(movingMedian(t, std::vector<double>{5, 1, 4, 2, 3}, {3, 0}), (std::vector<double>{5, 3, 4, 2, 3}));
    // A NaN sample makes only the windows holding it NaN.
    auto withNan = movingAverage(t, std::vector<double>{1, NAN, 3, 4, 5}, {2, 0});
    QVERIFY(near(withNan[0], 1) && std::isnan(withNan[1]) && std::isnan(withNan[2]) && near(withNan[3], 3.5) &&
            near(withNan[4], 4.5));
    auto medianNan = movingMedian(t, std::vector<double>{1, NAN, 3, 4, 5}, {2, 0});
    QVERIFY(std::isnan(medianNan[2]) && near(medianNan[4], 4.5));
  }

  // The RC filter's answers worked out here: a unit step on even steps approaches 1 as
  // 1 - (1 - a)^n; a sine at the cutoff comes out at 1/√2 of its amplitude, a tenth of it
  // nearly whole and ten times it at about a tenth (|H| = 1 / √(1 + (f/fc)²)).
  void lowPassFollowsAnRcFilter() {
    const double fc = 2, dt = 0.01, rc = 1 / (2 * std::numbers::pi * fc), a = dt / (rc + dt);
    std::vector<double> t, step;
    for (int i = 0; i < 50; ++i) t.push_back(i * dt), step.push_back(i == 0 ? 0 : 1);
    auto y = lowPass(t, step, fc);
    for (int n = 0; n < 50; ++n) QVERIFY(near(y[static_cast<std::size_t>(n)], 1 - std::pow(1 - a, n)));

    for (double f : {fc, fc / 10, fc * 10}) {
      std::vector<double> ts, sine;
      for (int i = 0; i < 20000; ++i)
        ts.push_back(i * 1e-4), sine.push_back(std::sin(2 * std::numbers::pi * f * i * 1e-4));
      auto out = lowPass(ts, sine, fc);
      double peak = *std::max_element(out.begin() + 10000, out.end());  // after the filter settles
      double expected = 1 / std::sqrt(1 + (f / fc) * (f / fc));
      QVERIFY2(std::abs(peak - expected) < 0.01 * expected, qPrintable(QString::number(peak)));
    }

    // NaN stays where it is; the next sample steps from the last finite output, over its own dt.
    std::vector<double> tn{0, 0.01, 0.02, 0.03}, vn{0, NAN, 1, 1};
    auto withNan = lowPass(tn, vn, fc);
    const double a2 = 0.02 / (rc + 0.02);
    QVERIFY(withNan[0] == 0 && std::isnan(withNan[1]) && near(withNan[2], a2) && near(withNan[3], a2 + a * (1 - a2)));
    QVERIFY(lowPass({}, {}, fc).empty());
  }

  void statisticsOfTheVisibleRange() {
    // Samples at 0..5 s of 2, 4, NaN, 4, 5, 7; the range 1..5 s holds 4, NaN, 4, 5, 7.
    std::vector<double> t{0, 1, 2, 3, 4, 5}, v{2, 4, NAN, 4, 5, 7};
    auto s = statistics(t, v, 1, 5);
    QCOMPARE(s.count, std::size_t{4});
    QCOMPARE(s.min, 4.0);
    QCOMPARE(s.max, 7.0);
    QCOMPARE(s.mean, 5.0);
    QVERIFY(near(s.stddev, std::sqrt((1 + 1 + 0 + 4) / 4.0)));
    QVERIFY(near(s.rateHz, 3.0 / 4.0));  // 4 finite samples from 1 s to 5 s
    auto none = statistics(t, v, 10, 20);
    QCOMPARE(none.count, std::size_t{0});
    QVERIFY(std::isnan(none.mean));
    QCOMPARE(nearestSample(t, 2.4), std::size_t{2});
    QCOMPARE(nearestSample(t, 2.6), std::size_t{3});
    QCOMPARE(nearestSample(t, -3), std::size_t{0});
    QCOMPARE(nearestSample(t, 9), std::size_t{5});
  }

  void valuesAtOtherTimes() {
    // v = 10 t at 0, 1, 2, 4 s; asked at -1, 0, 0.5, 3, 4, 5 s: outside NaN, inside on the line.
    std::vector<double> t{0, 1, 2, 4}, v{0, 10, 20, 40};
    auto r = valuesAt(t, v, std::vector<double>{-1, 0, 0.5, 3, 4, 5});
    QVERIFY(std::isnan(r[0]) && std::isnan(r[5]));
    QCOMPARE(r[1], 0.0);
    QCOMPARE(r[2], 5.0);
    QCOMPARE(r[3], 30.0);
    QCOMPARE(r[4], 40.0);
  }

  void samplesATableTakesByRule() {
    // Samples at 10, 20, 20, 40 ns; rows at 5, 10, 15, 20, 30, 40, 45.
    std::vector<std::int64_t> t{10, 20, 20, 40}, at{5, 10, 15, 20, 30, 40, 45};
    auto previous = samplesAt(t, at, Fill::Previous);
    // Before the first and after the last: nothing; of the two at 20, the second (merge_asof's).
    std::vector<int> index;
    for (const auto& s : previous) index.push_back(s.found ? static_cast<int>(s.index) : -1);
    QCOMPARE(index, (std::vector<int>{-1, 0, 0, 2, 2, 3, -1}));
    auto none = samplesAt(t, at, Fill::None);
    index.clear();
    for (const auto& s : none) index.push_back(s.found ? static_cast<int>(s.index) : -1);
    QCOMPARE(index, (std::vector<int>{-1, 0, -1, 2, -1, 3, -1}));
    auto linear = samplesAt(t, at, Fill::Linear);
    QVERIFY(linear[2].found && linear[2].index == 0 && linear[2].weight == 0.5);  // 15: halfway 10 → 20
    QVERIFY(linear[4].found && linear[4].index == 2 && linear[4].weight == 0.5);  // 30: halfway 20 → 40
    QVERIFY(linear[5].found && linear[5].weight == 0 && !linear[6].found && !linear[0].found);
    const auto empty = samplesAt({}, at, Fill::Previous);
    QVERIFY(empty.size() == at.size() &&
            std::none_of(empty.begin(), empty.end(), [](const SampleAt& s) { return s.found; }));
  }

  void twoRunsCompared() {
    // A: v = t at 0..4 s; B = A + 0.5 sampled at half-seconds from 1 s to 3 s: A's samples at
    // 1, 2, 3 s overlap, each delta 0.5, perfectly correlated.
    std::vector<double> ta{0, 1, 2, 3, 4}, va{0, 1, 2, 3, 4};
    std::vector<double> tb{1, 1.5, 2, 2.5, 3}, vb{1.5, 2, 2.5, 3, 3.5};
    auto d = compareSeries({ta, va}, {tb, vb}, 0, 4);
    QCOMPARE(d.count, std::size_t{3});
    QCOMPARE(d.rms, 0.5);
    QCOMPARE(d.maxAbs, 0.5);
    QCOMPARE(d.mean, 0.5);
    QVERIFY(std::abs(d.correlation - 1.0) < 1e-12);
    // B = 4 - A at 1, 2, 3 s: deltas 2, 0, -2 (RMS sqrt(8/3), mean 0), correlation -1.
    // Only the visible range counts: [1.5, 2] holds one of A's samples.
    std::vector<double> vc{3, 2, 1};
    auto e = compareSeries({ta, va}, {std::span(ta).subspan(1, 3), vc}, 0, 4);
    QCOMPARE(e.count, std::size_t{3});
    QVERIFY(std::abs(e.rms - std::sqrt(8.0 / 3.0)) < 1e-12 && e.maxAbs == 2 && e.mean == 0);
    QVERIFY(std::abs(e.correlation + 1.0) < 1e-12);
    QCOMPARE(compareSeries({ta, va}, {tb, vb}, 1.5, 2).count, std::size_t{1});
    auto apart = compareSeries({ta, va}, {std::vector<double>{10, 11}, std::vector<double>{0, 1}}, 0, 4);
    QVERIFY(apart.count == 0 && std::isnan(apart.rms));
  }

  void pointwiseSeries() {
    std::vector<double> v{-2, 0.5, 3};
    QCOMPARE(scaleOffset(v, 2, 1), (std::vector<double>{-3, 2, 7}));
    QCOMPARE(absolute(v), (std::vector<double>{2, 0.5, 3}));
    auto d = difference(v);
    QVERIFY(std::isnan(d[0]) && d[1] == 2.5 && d[2] == 2.5);
  }

  void expressionsOverSeriesAlignedByTime() {
    // a at 0..3 s, b at 0.5 s steps (b = 2 t): b interpolated at a's times, NaN past its end.
    std::vector<double> ta{0, 1, 2, 3}, va{3, 4, 0, -1}, tb{0, 0.5, 1, 1.5, 2, 2.5}, vb{0, 1, 2, 3, 4, 5};
    std::vector<std::string> names{"a", "b"};
    std::vector<SeriesView> in{{ta, va}, {tb, vb}};
    auto r = evaluateExpression("sqrt(a^2 + b^2) + 0*t", names, in);
    QVERIFY2(r, r ? "" : r.error().message.c_str());
    QCOMPARE((*r)[0], 3.0);                  // sqrt(9 + 0)
    QCOMPARE((*r)[1], std::sqrt(16.0 + 4));  // b(1) = 2
    QCOMPARE((*r)[2], 4.0);                  // sqrt(0 + 16)
    QVERIFY(std::isnan((*r)[3]));            // b ends at 2.5 s: not extrapolated
    auto diff = evaluateExpression("a - b", names, in);
    QVERIFY(diff);
    QCOMPARE((*diff)[1], 2.0);
    auto time = evaluateExpression("t * 10", std::span(names).first(1), std::span(in).first(1));
    QVERIFY(time);
    QCOMPARE(*time, (std::vector<double>{0, 10, 20, 30}));
    auto bad = evaluateExpression("a + * b", names, in);
    QVERIFY(!bad);
    QVERIFY2(QString::fromStdString(bad.error().message).contains("at column 5"), bad.error().message.c_str());
    auto unknown = evaluateExpression("a + c", names, in);
    QVERIFY(!unknown);
    QVERIFY2(QString::fromStdString(unknown.error().message).contains("c"), unknown.error().message.c_str());
  }

  void spectrumFindsASinesFrequencyAndAmplitude() {
    // 3 Hz, amplitude 2, plus 0.5 at 11 Hz, sampled at 100 Hz for 10 s: peaks there, at those sizes.
    std::vector<double> t, v;
    for (int i = 0; i < 1000; ++i) {
      t.push_back(i / 100.0);
      v.push_back(5 + 2 * std::sin(2 * kPi * 3 * t.back()) + 0.5 * std::sin(2 * kPi * 11 * t.back()));
    }
    auto s = spectrum(t, v, 0, 10);
    QCOMPARE(s.sampleRateHz, 100.0);
    auto peakNear = [&](double hz) {
      std::size_t best = 0;
      for (std::size_t k = 0; k < s.hz.size(); ++k)
        if (std::abs(s.hz[k] - hz) < 0.5 && s.amplitude[k] > s.amplitude[best]) best = k;
      return best;
    };
    std::size_t p3 = peakNear(3), p11 = peakNear(11);
    QVERIFY2(std::abs(s.hz[p3] - 3) < 0.1, qPrintable(QString::number(s.hz[p3])));
    QVERIFY2(std::abs(s.amplitude[p3] - 2) < 0.3, qPrintable(QString::number(s.amplitude[p3])));
    QVERIFY2(std::abs(s.hz[p11] - 11) < 0.1, qPrintable(QString::number(s.hz[p11])));
    QVERIFY2(std::abs(s.amplitude[p11] - 0.5) < 0.1, qPrintable(QString::number(s.amplitude[p11])));
    QVERIFY2(s.amplitude[0] < 0.05, qPrintable(QString::number(s.amplitude[0])));  // the mean (5) is removed
    // Between the peaks, nothing large.
    for (std::size_t k = 0; k < s.hz.size(); ++k)
      if (s.hz[k] > 5 && s.hz[k] < 9) QVERIFY(s.amplitude[k] < 0.05);
    QVERIFY(spectrum(t, v, 0, 0.02).hz.empty());  // 3 samples: none
  }

  void histogramCountsByHand() {
    std::vector<double> t{0, 1, 2, 3, 4, 5, 6}, v{0, 1, 1, 2, NAN, 4, 100};
    auto h = histogram(t, v, 0, 5, 4);  // values 0 1 1 2 4 (100 is at 6 s, outside)
    QCOMPARE(h.edges, (std::vector<double>{0, 1, 2, 3, 4}));
    QCOMPARE(h.counts, (std::vector<std::size_t>{1, 2, 1, 1}));  // 4, the max, in the last bin
    auto one = histogram(t, v, 1, 2, 3);                         // only 1s: one value
    QCOMPARE(one.counts[0] + one.counts[1] + one.counts[2], std::size_t{2});
    QVERIFY(histogram(t, v, 10, 20, 3).counts.empty());
  }

  void stateSpansMergeEqualNeighbours() {
    std::vector<double> t{0, 1, 2, 3, 4};
    std::vector<std::string> k{"idle", "idle", "run", "run", "idle"};
    auto s = stateSpans(t, k);
    QCOMPARE(s.size(), std::size_t{3});
    QCOMPARE(s[0].begin, 0.0);
    QCOMPARE(s[0].end, 2.0);
    QCOMPARE(s[1].first, std::size_t{2});
    QCOMPARE(s[1].end, 4.0);
    QCOMPARE(s[2].begin, 4.0);
    QCOMPARE(s[2].end, 4.0);
    QCOMPARE(stateSpans(t, k, 9).back().end, 9.0);  // the last state holds to the end
    QCOMPARE(stateSpans(t, k, 3).back().end, 4.0);  // never before its own sample
    QVERIFY(stateSpans({}, {}).empty());
  }
};

QTEST_MAIN(TestAnalysis)
#include "tst_analysis.moc"
