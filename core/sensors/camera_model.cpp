// The pinhole camera of sensor_msgs/CameraInfo, as image_geometry reads it: K and D for the
// raw image, R and P for the rectified one.

#include <cmath>

#include "sensors.hpp"

namespace bagscope::sensors {
namespace {

// Distorts normalised image coordinates (x, y) by the camera's model; false when it cannot.
bool distort(const CameraInfo& c, double& x, double& y) {
  auto d = [&c](std::size_t i) { return i < c.d.size() ? c.d[i] : 0.0; };
  if (c.distortionModel == "equidistant") {  // fisheye: k1 … k4 on the angle
    double r = std::hypot(x, y);
    if (r < 1e-12) return true;
    double th = std::atan(r), th2 = th * th;
    double thd = th * (1 + d(0) * th2 + d(1) * th2 * th2 + d(2) * th2 * th2 * th2 + d(3) * th2 * th2 * th2 * th2);
    x *= thd / r;
    y *= thd / r;
    return std::isfinite(x) && std::isfinite(y);
  }
  if (c.distortionModel != "plumb_bob" && c.distortionModel != "rational_polynomial") return true;
  const double r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
  double radial = 1 + d(0) * r2 + d(1) * r4 + d(4) * r6;
  if (c.distortionModel == "rational_polynomial") radial /= 1 + d(5) * r2 + d(6) * r4 + d(7) * r6;
  const double p1 = d(2), p2 = d(3);
  const double xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  const double yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  x = xd, y = yd;
  return std::isfinite(x) && std::isfinite(y);
}

}  // namespace

std::optional<std::array<double, 2>> projectPoint(const CameraInfo& c, const std::array<double, 3>& p, bool rectified) {
  if (!(p[2] > 0)) return std::nullopt;
  if (rectified) {
    const auto& P = c.p;
    double w = P[8] * p[0] + P[9] * p[1] + P[10] * p[2] + P[11];
    if (!(w > 0)) return std::nullopt;
    return std::array<double, 2>{(P[0] * p[0] + P[1] * p[1] + P[2] * p[2] + P[3]) / w,
                                 (P[4] * p[0] + P[5] * p[1] + P[6] * p[2] + P[7]) / w};
  }
  double x = p[0] / p[2], y = p[1] / p[2];
  if (!distort(c, x, y)) return std::nullopt;
  const auto& K = c.k;
  return std::array<double, 2>{K[0] * x + K[1] * y + K[2], K[4] * y + K[5]};
}

std::vector<float> undistortionMap(const CameraInfo& c) {
  std::vector<float> map(static_cast<std::size_t>(c.width) * c.height * 2, -1.0f);
  const auto& P = c.p;
  const auto& R = c.r;
  if (P[0] == 0 || P[5] == 0) return map;
  for (std::uint32_t v = 0; v < c.height; ++v)
    for (std::uint32_t u = 0; u < c.width; ++u) {
      // The rectified pixel's ray (P's intrinsics), back through R (R is raw -> rectified).
      double xr = (u - P[2]) / P[0], yr = (v - P[6]) / P[5];
      double X = R[0] * xr + R[3] * yr + R[6], Y = R[1] * xr + R[4] * yr + R[7], Z = R[2] * xr + R[5] * yr + R[8];
      auto px = projectPoint(c, {X, Y, Z}, false);
      float* out = &map[(static_cast<std::size_t>(v) * c.width + u) * 2];
      if (px) out[0] = static_cast<float>((*px)[0]), out[1] = static_cast<float>((*px)[1]);
    }
  return map;
}

}  // namespace bagscope::sensors
