// What a robot says about itself: log lines (rosout), diagnostics, the TF tree's edges, and
// satellite fixes placed on a local east-north-up grid.

#include <algorithm>
#include <cmath>

#include "sensors.hpp"

namespace bagscope::sensors {

using decode::Value;

const char* levelName(LogLevel level) {
  static const char* const kNames[] = {"DEBUG", "INFO", "WARN", "ERROR", "FATAL", "?"};
  return kNames[static_cast<int>(level)];
}

Result<LogEntry> readLog(const Value& m) {
  LogEntry e;
  const Value* level = field(m, "level");
  const Value* msg = field(m, "msg");
  if (!msg) msg = field(m, "message");  // foxglove.Log
  if (!level || !msg) return makeError(ErrorCode::Format, "not a log message (no level and msg)");
  const auto l = static_cast<int>(numberOf(level));
  if (auto h = headerOf(m)) e.stampNs = h->stampNs;                                         // ROS 1: header.stamp
  else if (const Value* stamp = field(m, "stamp")) e.stampNs = timeNs(*stamp).value_or(0);  // ROS 2
  else if (const Value* ts = field(m, "timestamp")) e.stampNs = timeNs(*ts).value_or(0);    // Foxglove
  // ROS 1 levels are bits (1 … 16), ROS 2's tens (10 … 50), Foxglove's 1 … 5.
  static constexpr std::pair<int, LogLevel> kLevels[] = {
      {1, LogLevel::Debug},  {2, LogLevel::Info},  {4, LogLevel::Warn},  {8, LogLevel::Error},  {16, LogLevel::Fatal},
      {10, LogLevel::Debug}, {20, LogLevel::Info}, {30, LogLevel::Warn}, {40, LogLevel::Error}, {50, LogLevel::Fatal}};
  const bool foxglove = field(m, "timestamp") && !field(m, "header");
  if (foxglove && l >= 1 && l <= 5) e.level = static_cast<LogLevel>(l - 1);
  for (auto [value, named] : kLevels)
    if (!foxglove && value == l) e.level = named;
  e.node = textOf(field(m, "name"));
  e.message = textOf(msg);
  e.file = textOf(field(m, "file"));
  e.function = textOf(field(m, "function"));
  e.line = static_cast<std::uint32_t>(numberOf(field(m, "line")));
  return e;
}

Result<std::vector<DiagnosticStatus>> readDiagnostics(const Value& m) {
  const Value* status = field(m, "status");
  if (!status || status->kind != Value::Kind::Array)
    return makeError(ErrorCode::Format, "not a diagnostic_msgs/DiagnosticArray (no status list)");
  std::vector<DiagnosticStatus> out;
  for (const auto& s : status->items) {
    DiagnosticStatus d;
    d.level = static_cast<int>(numberOf(field(s, "level")));
    d.name = textOf(field(s, "name"));
    d.message = textOf(field(s, "message"));
    d.hardwareId = textOf(field(s, "hardware_id"));
    if (const Value* values = field(s, "values"); values && values->kind == Value::Kind::Array)
      for (const auto& kv : values->items) d.values.emplace_back(textOf(field(kv, "key")), textOf(field(kv, "value")));
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<TfBuffer::EdgeInfo> TfBuffer::edges() const {
  std::vector<EdgeInfo> out;
  for (const auto& [child, e] : edges_)
    if (!e.samples.empty())
      out.push_back({child, e.parent, e.isStatic, e.samples.size(), e.samples.front().timeNs, e.samples.back().timeNs});
  return out;
}

Result<NavSatFix> readNavSatFix(const decode::Value& m) {
  const decode::Value* lat = field(m, "latitude");
  const decode::Value* lon = field(m, "longitude");
  if (!lat || !lon) return makeError(ErrorCode::Format, "not a NavSatFix (no latitude and longitude)");
  NavSatFix f;
  if (auto h = headerOf(m)) f.stampNs = h->stampNs;
  f.latitude = numberOf(lat), f.longitude = numberOf(lon), f.altitude = numberOf(field(m, "altitude"));
  if (const decode::Value* st = field(m, "status"); st && st->kind == decode::Value::Kind::Struct)
    f.status = static_cast<int>(numberOf(field(*st, "status")));
  if (const decode::Value* c = field(m, "position_covariance"); c && c->kind == decode::Value::Kind::Array)
    for (std::size_t i = 0; i < 9 && i < c->items.size(); ++i) f.covariance[i] = numberOf(&c->items[i]);
  f.covarianceType = static_cast<int>(numberOf(field(m, "position_covariance_type")));
  return f;
}

std::array<double, 3> enuFrom(const std::array<double, 3>& origin, const std::array<double, 3>& position) {
  constexpr double a = 6378137.0, f = 1 / 298.257223563, e2 = f * (2 - f);  // WGS-84
  constexpr double deg = 3.14159265358979323846 / 180;
  auto ecef = [&](const std::array<double, 3>& p) {
    double lat = p[0] * deg, lon = p[1] * deg, n = a / std::sqrt(1 - e2 * std::sin(lat) * std::sin(lat));
    return std::array<double, 3>{(n + p[2]) * std::cos(lat) * std::cos(lon), (n + p[2]) * std::cos(lat) * std::sin(lon),
                                 (n * (1 - e2) + p[2]) * std::sin(lat)};
  };
  auto o = ecef(origin), q = ecef(position);
  double dx = q[0] - o[0], dy = q[1] - o[1], dz = q[2] - o[2];
  double lat = origin[0] * deg, lon = origin[1] * deg;
  return {-std::sin(lon) * dx + std::cos(lon) * dy,
          -std::sin(lat) * std::cos(lon) * dx - std::sin(lat) * std::sin(lon) * dy + std::cos(lat) * dz,
          std::cos(lat) * std::cos(lon) * dx + std::cos(lat) * std::sin(lon) * dy + std::sin(lat) * dz};
}

}  // namespace bagscope::sensors
