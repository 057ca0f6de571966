#include "table.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/json_text.hpp"
#include "core/sensors/sensors.hpp"

namespace bagscope::exporters::detail {
namespace {

using decode::Value;
using schema::Primitive;

bool isTimeType(const schema::MessageType* t) {
  return t && (t->name == "builtin_interfaces/Time" || t->name == "builtin_interfaces/Duration" ||
               t->name == "builtin_interfaces/msg/Time" || t->name == "builtin_interfaces/msg/Duration");
}

void plan(const schema::MessageType& type, const std::string& prefix, std::vector<std::uint32_t> path,
          std::uint32_t limit, std::vector<Column>& out, int depth) {
  if (depth > 32) return;
  for (std::uint32_t fi = 0; fi < type.fields.size(); ++fi) {
    const auto& f = type.fields[fi];
    if (f.hidden) continue;
    auto leaf = [&](const std::string& name, std::vector<std::uint32_t> p) {
      if (f.type == Primitive::Message && f.message && !isTimeType(f.message)) {
        plan(*f.message, name + ".", std::move(p), limit, out, depth + 1);
        return;
      }
      Column c{name, Column::Kind::Float, std::move(p)};
      switch (f.type) {
        case Primitive::Bool: c.kind = Column::Kind::Bool; break;
        case Primitive::Int8:
        case Primitive::Int16:
        case Primitive::Int32:
        case Primitive::Int64: c.kind = Column::Kind::Int; break;
        case Primitive::UInt8:
        case Primitive::UInt16:
        case Primitive::UInt32:
        case Primitive::UInt64: c.kind = Column::Kind::UInt; break;
        case Primitive::String: c.kind = Column::Kind::String; break;
        case Primitive::Time:
        case Primitive::Duration:
        case Primitive::Message: c.kind = Column::Kind::Time; break;
        default: break;
      }
      out.push_back(std::move(c));
    };
    auto here = path;
    here.push_back(fi);
    if (f.array == schema::ArrayKind::None) {
      leaf(prefix + f.name, here);
      continue;
    }
    std::uint32_t n = f.array == schema::ArrayKind::Fixed     ? f.arrayLength
                      : f.array == schema::ArrayKind::Bounded ? std::min(f.arrayLength, limit)
                                                              : limit;
    for (std::uint32_t i = 0; i < n; ++i) {
      auto element = here;
      element.push_back(i);
      leaf(prefix + f.name + "[" + std::to_string(i) + "]", std::move(element));
    }
  }
}

}  // namespace

std::vector<Column> planColumns(const schema::MessageType& type, std::uint32_t arrayLimit) {
  std::vector<Column> out;
  plan(type, "", {}, arrayLimit, out, 0);
  return out;
}

std::vector<Column> matchColumns(const std::vector<Column>& columns, const schema::MessageType& type,
                                 std::uint32_t arrayLimit) {
  auto own = planColumns(type, arrayLimit);
  std::vector<Column> plan;
  for (const auto& c : columns) {
    auto it = std::find_if(own.begin(), own.end(), [&](const Column& x) { return x.name == c.name; });
    plan.push_back(it != own.end() ? *it : Column{c.name, c.kind, {0xFFFFFFFFu}});
  }
  return plan;
}

const Value* columnValue(const Value& message, const Column& column, std::uint8_t& byte, bool& isByte) {
  const Value* v = &message;
  isByte = false;
  for (std::uint32_t step : column.path) {
    if (v->kind == Value::Kind::Bytes) {  // uint8[] kept as bytes: the element is a byte
      if (step >= v->bytes.size()) return nullptr;
      byte = static_cast<std::uint8_t>(v->bytes[step]);
      isByte = true;
      return v;
    }
    if (v->kind != Value::Kind::Struct && v->kind != Value::Kind::Array) return nullptr;
    if (step >= v->items.size()) return nullptr;
    v = &v->items[step];
  }
  return v;
}

void appendCsvText(std::string_view text, std::string& out) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

void appendCsvNumber(double v, std::string& out) {
  if (std::isnan(v)) out += "nan";
  else if (std::isinf(v)) out += v > 0 ? "inf" : "-inf";
  else appendJsonDouble(v, out);
}

void appendCsv(const Value* v, std::uint8_t byte, bool isByte, const Column& c, bool seconds, std::string& out) {
  if (!v) return;
  if (isByte) {
    out += std::to_string(byte);
    return;
  }
  switch (v->kind) {
    case Value::Kind::Bool: out += v->b ? "True" : "False"; return;
    case Value::Kind::Int: out += std::to_string(v->i); return;
    case Value::Kind::UInt: out += std::to_string(v->u); return;
    case Value::Kind::Float: return appendCsvNumber(v->f, out);
    case Value::Kind::String: return appendCsvText(v->text, out);
    default: break;
  }
  if (c.kind == Column::Kind::Time)
    if (auto ns = sensors::timeNs(*v)) appendCsvTime(*ns, seconds, out);
}

void appendCsvTime(std::int64_t ns, bool seconds, std::string& out) {
  if (!seconds) {
    out += std::to_string(ns);
    return;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%lld.%09lld", ns < 0 ? "-" : "", std::llabs(ns) / 1'000'000'000LL,
                std::llabs(ns) % 1'000'000'000LL);
  out += buf;
}

const char* npyType(const Column& c) {
  switch (c.kind) {
    case Column::Kind::Int:
    case Column::Kind::Time: return "<i8";
    case Column::Kind::UInt: return "<u8";
    case Column::Kind::Float: return "<f8";
    case Column::Kind::Bool: return "|b1";
    case Column::Kind::String: return "";
  }
  return "";
}

void appendNpy(const Value* v, std::uint8_t byte, bool isByte, const Column& c, std::string& out) {
  auto put = [&](auto x) { out.append(reinterpret_cast<const char*>(&x), sizeof x); };
  switch (c.kind) {
    case Column::Kind::Int:
      put(static_cast<std::int64_t>(!v                            ? 0
                                    : isByte                      ? byte
                                    : v->kind == Value::Kind::Int ? v->i
                                                                  : static_cast<std::int64_t>(v->u)));
      break;
    case Column::Kind::UInt:
      put(static_cast<std::uint64_t>(!v                             ? 0
                                     : isByte                       ? byte
                                     : v->kind == Value::Kind::UInt ? v->u
                                                                    : static_cast<std::uint64_t>(v->i)));
      break;
    case Column::Kind::Float: put(!v ? std::nan("") : v->kind == Value::Kind::Float ? v->f : 0.0); break;
    case Column::Kind::Bool: put(static_cast<std::uint8_t>(v && v->kind == Value::Kind::Bool && v->b)); break;
    case Column::Kind::Time: put(static_cast<std::int64_t>(v ? sensors::timeNs(*v).value_or(0) : 0)); break;
    case Column::Kind::String: break;
  }
}

std::string npyPreamble(const std::vector<std::pair<std::string, std::string>>& fields, const std::string& shape) {
  std::string header = "{'descr': [";
  for (const auto& [name, type] : fields) header += "('" + name + "', '" + type + "'), ";
  header += "], 'fortran_order': False, 'shape': (" + shape + "), }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 0xFFFF) return {};
  std::string out("\x93NUMPY\x01\x00", 8);
  auto len = static_cast<std::uint16_t>(header.size());
  out.append(reinterpret_cast<const char*>(&len), 2);
  return out + header;
}

}  // namespace bagscope::exporters::detail
