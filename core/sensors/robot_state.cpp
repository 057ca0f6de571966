// What a robot says about itself: log lines (rosout), diagnostics, and the TF tree's edges.

#include <algorithm>

#include "sensors.hpp"

namespace bagscope::sensors {

using decode::Value;

namespace {

double number(const Value* v) {
  if (!v) return 0;
  switch (v->kind) {
    case Value::Kind::Bool: return v->b ? 1 : 0;
    case Value::Kind::Int: return static_cast<double>(v->i);
    case Value::Kind::UInt: return static_cast<double>(v->u);
    case Value::Kind::Float: return v->f;
    default: return 0;
  }
}
std::string text(const Value* v) { return v && v->kind == Value::Kind::String ? v->text : std::string(); }

}  // namespace

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
  const auto l = static_cast<int>(number(level));
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
  e.node = text(field(m, "name"));
  e.message = text(msg);
  e.file = text(field(m, "file"));
  e.function = text(field(m, "function"));
  e.line = static_cast<std::uint32_t>(number(field(m, "line")));
  return e;
}

Result<std::vector<DiagnosticStatus>> readDiagnostics(const Value& m) {
  const Value* status = field(m, "status");
  if (!status || status->kind != Value::Kind::Array)
    return makeError(ErrorCode::Format, "not a diagnostic_msgs/DiagnosticArray (no status list)");
  std::vector<DiagnosticStatus> out;
  for (const auto& s : status->items) {
    DiagnosticStatus d;
    d.level = static_cast<int>(number(field(s, "level")));
    d.name = text(field(s, "name"));
    d.message = text(field(s, "message"));
    d.hardwareId = text(field(s, "hardware_id"));
    if (const Value* values = field(s, "values"); values && values->kind == Value::Kind::Array)
      for (const auto& kv : values->items) d.values.emplace_back(text(field(kv, "key")), text(field(kv, "value")));
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

}  // namespace bagscope::sensors
