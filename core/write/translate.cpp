// ROS 1 messages as ROS 2 messages: the type a ROS 1 type becomes (renamed packages, pkg/msg/
// names, the standard interfaces where they exist, definitions made from the bag's own for
// the rest), and each message decoded, mapped field by field onto the ROS 2 type and encoded
// as CDR.

#include <algorithm>
#include <cctype>
#include <map>

#include "core/decode/decoder.hpp"
#include "core/schema/builtin_types.hpp"
#include "detail/translate.hpp"

namespace bagscope::write::detail {
namespace {

using decode::Value;
using schema::Primitive;

// Types ROS 2 renamed or moved, by their ROS 1 names.
const std::map<std::string, std::string, std::less<>>& typeRenames() {
  static const std::map<std::string, std::string, std::less<>> kRenames = {
      {"tf/tfMessage", "tf2_msgs/TFMessage"},
      {"rosgraph_msgs/Log", "rcl_interfaces/Log"},
      {"uuid_msgs/UniqueID", "unique_identifier_msgs/UUID"},
  };
  return kRenames;
}

// "pkg/Type" as ROS 2 names it: renamed where ROS 2 moved it, with "/msg/".
std::string ros2Name(std::string_view ros1Type) {
  std::string name = normalTypeName(ros1Type);
  if (auto it = typeRenames().find(name); it != typeRenames().end()) name = it->second;
  auto slash = name.find('/');
  return slash == std::string::npos ? name : name.substr(0, slash) + "/msg" + name.substr(slash);
}

// One line of a ROS 1 .msg rewritten for ROS 2: time and duration as builtin_interfaces, a bare
// Header as std_msgs/Header, byte (int8 in ROS 1) and char (uint8) by their meaning, renamed
// types by their new names.
std::string ros2Line(std::string_view line) {
  auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos || line[first] == '#') return std::string(line);
  auto end = line.find_first_of(" \t", first);
  if (end == std::string_view::npos) return std::string(line);
  std::string_view token = line.substr(first, end - first);
  auto suffix = token.find_first_of("[<");
  std::string_view base = token.substr(0, suffix);
  std::string_view array = suffix == std::string_view::npos ? "" : token.substr(suffix);
  std::string type(base);
  if (base == "time") type = "builtin_interfaces/Time";
  else if (base == "duration") type = "builtin_interfaces/Duration";
  else if (base == "Header") type = "std_msgs/Header";
  else if (base == "byte") type = "int8";
  else if (base == "char") type = "uint8";
  else if (auto it = typeRenames().find(base); it != typeRenames().end()) type = it->second;
  return std::string(line.substr(0, first)) + type + std::string(array) + std::string(line.substr(end));
}

// The sections of a ROS 1 definition (root first) as ROS 2 .msg texts by "pkg/Type".
std::map<std::string, std::string> ros2Sections(std::string_view rootType, std::string_view definition) {
  std::map<std::string, std::string> out;
  std::string name = normalTypeName(rootType), text;
  auto flush = [&] {
    if (!name.empty()) out[name] = text;
    text.clear();
  };
  for (std::size_t pos = 0; pos <= definition.size();) {
    auto end = definition.find('\n', pos);
    if (end == std::string_view::npos) end = definition.size();
    std::string_view line = definition.substr(pos, end - pos);
    pos = end + 1;
    if (line.size() >= 3 && line.find_first_not_of('=') == std::string_view::npos) {
      flush();
      name.clear();
      continue;
    }
    if (name.empty() && line.starts_with("MSG: ")) {
      name = normalTypeName(line.substr(5));
      if (auto it = typeRenames().find(name); it != typeRenames().end()) name = it->second;
      continue;
    }
    text += ros2Line(line) + "\n";
  }
  flush();
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string ros2TopicName(std::string_view topic) {
  std::string out;
  std::size_t tokenStart = 0;
  for (char c : topic) {
    if (c == '/') {
      out += '/';
      tokenStart = out.size();
      continue;
    }
    if (out.size() == tokenStart && std::isdigit(static_cast<unsigned char>(c))) out += '_';
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '~' ? c : '_';
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out.empty() || out.front() != '/') out.insert(out.begin(), '/');
  return out;
}

Result<std::unique_ptr<Ros2Translation>> Ros2Translation::make(const storage::Connection& ros1,
                                                               std::shared_ptr<const decode::Decoder> ros1Decoder,
                                                               std::span<const std::filesystem::path> msgPaths) {
  auto t = std::unique_ptr<Ros2Translation>(new Ros2Translation());
  t->source_ = std::move(ros1Decoder);
  storage::Connection& c = t->connection_;
  c = ros1;
  c.type = ros2Name(ros1.type);
  c.topic = ros2TopicName(ros1.topic);
  c.messageEncoding = "cdr";
  c.schemaEncoding = "ros2msg";
  c.md5sum.clear();
  // The standard interfaces (or the user's .msg folders) where they define the type and what
  // it uses; the bag's own definitions, rewritten, for the rest.
  auto sections = ros2Sections(ros1.type, ros1.definition);
  std::vector<std::filesystem::path> folders(msgPaths.begin(), msgPaths.end());
  auto text = schema::findDefinition(c.type, folders, sections);
  if (!text)
    return makeError(ErrorCode::MissingDefinition, "no ROS 2 definition of '" + c.type +
                                                       "' or a type it uses could be made from '" + ros1.type + "'");
  c.definition = std::move(*text);
  auto decoder = decode::compileFor(c.type, "cdr", "ros2msg", c.definition, msgPaths);
  if (!decoder) return decoder.error();
  t->target_ = std::move(decoder).value();
  c.typeHash = schema::typeHash(t->target_->schema());
  if (ros1.latching) {
    // rosbag2's profile for a latched topic: reliable, transient local, as rosbags writes it.
    c.offeredQos =
        "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 1\n"
        "  deadline:\n    sec: 2147483647\n    nsec: 4294967295\n"
        "  lifespan:\n    sec: 2147483647\n    nsec: 4294967295\n  liveliness: 1\n"
        "  liveliness_lease_duration:\n    sec: 2147483647\n    nsec: 4294967295\n"
        "  avoid_ros_namespace_conventions: false\n";
  }
  t->plan(*t->source_->schema().root, *t->target_->schema().root);
  return t;
}

// Which source field fills each target field: the same name, else the same name in lower case
// (CameraInfo's D K R P became d k r p), else a header's stamp for a `stamp` (Log). Source
// fields left over are dropped (a Header's seq), and said once per type.
const std::vector<int>& Ros2Translation::plan(const schema::MessageType& from, const schema::MessageType& to) {
  auto key = std::make_pair(&from, &to);
  if (auto it = plans_.find(key); it != plans_.end()) return it->second;
  std::vector<int> fields;
  std::vector<bool> used(from.fields.size(), false);
  for (const auto& f : to.fields) {
    int found = -1;
    for (std::size_t k = 0; k < from.fields.size() && found < 0; ++k)
      if (from.fields[k].name == f.name) found = static_cast<int>(k);
    for (std::size_t k = 0; k < from.fields.size() && found < 0; ++k)
      if (lower(from.fields[k].name) == lower(f.name)) found = static_cast<int>(k);
    if (found < 0 && f.name == "stamp" && !from.fields.empty() && from.fields[0].name == "header" &&
        schema::startsWithHeader(from))
      found = kHeaderStamp;
    if (found >= 0) used[static_cast<std::size_t>(found)] = true;
    if (found == kHeaderStamp) used[0] = true;
    if (found == -1 && !f.hidden) notes_.push_back(to.name + "." + f.name + " has no ROS 1 field: left zero");
    fields.push_back(found);
  }
  for (std::size_t k = 0; k < from.fields.size(); ++k)
    if (!used[k] && !(from.fields[k].name == "seq" && normalTypeName(from.name) == "std_msgs/Header"))
      notes_.push_back(from.name + "." + from.fields[k].name + " has no ROS 2 field: dropped");
  return plans_.emplace(key, std::move(fields)).first->second;
}

Result<void> Ros2Translation::value(const Value& from, const schema::Field& to, Value& out) {
  if (to.array != schema::ArrayKind::None) {
    if (from.kind == Value::Kind::Bytes) {
      out = from;
      return {};
    }
    out.kind = Value::Kind::Array;
    out.items.resize(from.items.size());
    for (std::size_t i = 0; i < from.items.size(); ++i)
      if (auto r = element(from.items[i], to, out.items[i]); !r) return r;
    return {};
  }
  return element(from, to, out);
}

Result<void> Ros2Translation::element(const Value& from, const schema::Field& to, Value& out) {
  if (to.type != Primitive::Message) {
    out = from;
    return {};
  }
  if (decode::isTimeField(to) && (from.kind == Value::Kind::Time || from.kind == Value::Kind::Duration)) {
    out = decode::zeroValue(*to.message);
    out.items[0].kind = Value::Kind::Int;
    out.items[0].i = from.t.sec;
    out.items[1].kind = Value::Kind::Int;
    out.items[1].i = from.t.nsec;
    return {};
  }
  if (from.kind != Value::Kind::Struct || !from.type)
    return makeError(ErrorCode::Unsupported, "'" + to.name + "' cannot be translated to " + to.message->name);
  return message(from, *to.message, out);
}

Result<void> Ros2Translation::message(const Value& from, const schema::MessageType& to, Value& out) {
  const auto& fields = plan(*from.type, to);
  out = decode::zeroValue(to);
  const bool log = normalTypeName(from.type->name) == "rosgraph_msgs/Log";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const int k = fields[i];
    if (k == -1) continue;
    const Value& source = k == kHeaderStamp ? from.items[0].items[1] : from.items[static_cast<std::size_t>(k)];
    if (auto r = value(source, to.fields[i], out.items[i]); !r) {
      Error e = r.error();
      e.message = to.fields[i].name + ": " + e.message;
      return e;
    }
    // rosgraph_msgs/Log's levels are powers of two (1..16), rcl_interfaces/Log's tens (10..50).
    if (log && to.fields[i].name == "level") {
      Value& v = out.items[i];
      std::int64_t level = v.kind == Value::Kind::Int ? v.i : static_cast<std::int64_t>(v.u), tens = 0;
      while (level > 1 && tens < 4) level >>= 1, ++tens;
      v.kind = Value::Kind::UInt;
      v.u = static_cast<std::uint64_t>(10 * (tens + 1));
    }
  }
  return {};
}

Result<void> Ros2Translation::translate(std::span<const std::byte> ros1, std::vector<std::byte>& cdr) {
  auto decoded = source_->decode(ros1);
  if (!decoded) return decoded.error();
  Value out;
  if (auto r = message(*decoded, *target_->schema().root, out); !r) return r;
  return decode::encode(*target_, out, cdr);
}

}  // namespace bagscope::write::detail
