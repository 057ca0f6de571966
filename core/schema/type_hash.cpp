// RIHS01, the ROS 2 type description hash (REP 2011) that Jazzy stores with every topic:
// SHA-256 of the type description as JSON, in the field order and spacing rosidl writes
// (Python's json.dumps), nested types listed after the root sorted by name. Constants and
// default values are not part of it.

#include <map>

#include "core/base/digest.hpp"
#include "schema.hpp"

namespace bagscope::schema {
namespace {

// "pkg/Type" and "pkg/msg/Type" both as "pkg/msg/Type".
std::string ros2Name(const std::string& name) {
  auto slash = name.find('/');
  if (slash == std::string::npos || name.find('/', slash + 1) != std::string::npos) return name;
  return name.substr(0, slash) + "/msg" + name.substr(slash);
}

// The type id of rosidl's type_description_interfaces/FieldType for one element.
int elementTypeId(const Field& f) {
  std::string_view base = f.typeText;
  base = base.substr(0, base.find_first_of("[<"));
  if (base == "byte") return 16;
  if (base == "char") return 13;
  switch (f.type) {
    case Primitive::Int8: return 2;
    case Primitive::UInt8: return 3;
    case Primitive::Int16: return 4;
    case Primitive::UInt16: return 5;
    case Primitive::Int32: return 6;
    case Primitive::UInt32: return 7;
    case Primitive::Int64: return 8;
    case Primitive::UInt64: return 9;
    case Primitive::Float32: return 10;
    case Primitive::Float64: return 11;
    case Primitive::Bool: return 15;
    case Primitive::String: return f.stringBound ? 21 : 17;
    case Primitive::Message: return 1;
    case Primitive::Time:
    case Primitive::Duration: return 0;  // ROS 1 only; never in a ROS 2 type
  }
  return 0;
}

void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

std::string describe(const MessageType& t) {
  std::string out = "{\"type_name\": ";
  appendJsonString(out, ros2Name(t.name));
  out += ", \"fields\": [";
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    const Field& f = t.fields[i];
    int id = elementTypeId(f);
    std::uint32_t capacity = 0;
    if (f.array == ArrayKind::Fixed) id += 48, capacity = f.arrayLength;
    else if (f.array == ArrayKind::Bounded) id += 96, capacity = f.arrayLength;
    else if (f.array == ArrayKind::Dynamic) id += 144;
    out += i ? ", {\"name\": " : "{\"name\": ";
    appendJsonString(out, f.name);
    out += ", \"type\": {\"type_id\": " + std::to_string(id) + ", \"capacity\": " + std::to_string(capacity) +
           ", \"string_capacity\": " + std::to_string(f.type == Primitive::String ? f.stringBound : 0) +
           ", \"nested_type_name\": ";
    appendJsonString(out, f.type == Primitive::Message && f.message ? ros2Name(f.message->name) : "");
    out += "}}";
  }
  return out + "]}";
}

}  // namespace

std::string typeHash(const MessageSchema& schema) {
  std::map<std::string, std::string> referenced;  // sorted by name, as rosidl lists them
  for (const auto& t : schema.types)
    if (t.get() != schema.root) referenced.emplace(ros2Name(t->name), describe(*t));
  std::string json = "{\"type_description\": " + describe(*schema.root) + ", \"referenced_type_descriptions\": [";
  bool first = true;
  for (const auto& [name, text] : referenced) {
    json += first ? "" : ", ";
    json += text;
    first = false;
  }
  json += "]}";
  return "RIHS01_" + sha256Hex(std::as_bytes(std::span(json.data(), json.size())));
}

namespace {
// genmsg's md5 text: "type name=value" per constant, then "type name" per field, where a
// nested message's type (and any array suffix) is replaced by that type's md5sum.
std::string ros1Md5Of(const MessageType& type, std::map<const MessageType*, std::string>& done) {
  if (auto it = done.find(&type); it != done.end()) return it->second;
  std::string text;
  for (const auto& c : type.constants) text += c.typeText + " " + c.name + "=" + c.value + "\n";
  for (const auto& f : type.fields) {
    if (f.hidden) continue;
    text += (f.message ? ros1Md5Of(*f.message, done) : f.typeText) + " " + f.name + "\n";
  }
  if (!text.empty()) text.pop_back();
  return done[&type] = md5Hex(std::as_bytes(std::span(text)));
}
}  // namespace

std::string ros1Md5(const MessageSchema& schema) {
  std::map<const MessageType*, std::string> done;
  return schema.root ? ros1Md5Of(*schema.root, done) : std::string();
}

}  // namespace bagscope::schema
