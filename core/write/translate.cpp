// ROS 1 messages as ROS 2 messages and back: the type a type becomes (renamed packages, pkg/msg/
// names; to ROS 2 the standard interfaces where they exist and definitions made from the bag's
// own for the rest; to ROS 1 definitions written from the ROS 2 schema in ROS 1's words, as the
// standard ROS 1 packages have them), and each message decoded, mapped field by field onto the
// other type and encoded.

#include <algorithm>
#include <bit>
#include <cctype>
#include <climits>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include <yaml-cpp/yaml.h>

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

// A ROS 1 "pkg/Type" as ROS 2 names it (without "/msg/"): the user's type rename, else their
// package rename, else where ROS 2 moved it.
std::string ros2Type(const Renames& user, const std::string& ros1) {
  if (auto it = user.types.find(ros1); it != user.types.end()) return normalTypeName(it->second);
  auto slash = ros1.find('/');
  if (slash != std::string::npos)
    if (auto it = user.packages.find(ros1.substr(0, slash)); it != user.packages.end())
      return it->second + ros1.substr(slash);
  if (auto it = typeRenames().find(ros1); it != typeRenames().end()) return it->second;
  return ros1;
}

// "pkg/Type" as ROS 2 names it, with "/msg/".
std::string ros2Name(const Renames& user, std::string_view ros1Type) {
  std::string name = ros2Type(user, normalTypeName(ros1Type));
  auto slash = name.find('/');
  return slash == std::string::npos ? name : name.substr(0, slash) + "/msg" + name.substr(slash);
}

// "pkg/Type" as ROS 1 names a ROS 2 type: the renames undone (tf2_msgs/TFMessage exists in ROS 1
// and stays).
std::string ros1Name(const Renames& user, std::string_view ros2Type) {
  std::string name = normalTypeName(ros2Type);
  for (const auto& [ros1, ros2] : user.types)
    if (normalTypeName(ros2) == name) return ros1;
  auto slash = name.find('/');
  if (slash != std::string::npos)
    for (const auto& [ros1, ros2] : user.packages)
      if (ros2 == name.substr(0, slash)) return ros1 + name.substr(slash);
  for (const auto& [ros1, ros2] : typeRenames())
    if (ros2 == name && ros1 != "tf/tfMessage") return ros1;
  return name;
}

// The ROS 2 name of a field of a ROS 1 type (the user's rename, else its own), and back.
std::string ros2Field(const Renames& user, const std::string& ros1Type, const std::string& field) {
  auto type = user.fields.find(ros1Type);
  if (type == user.fields.end()) return field;
  auto it = type->second.find(field);
  return it == type->second.end() ? field : it->second;
}
std::string ros1Field(const Renames& user, const std::string& ros1Type, const std::string& field) {
  if (auto type = user.fields.find(ros1Type); type != user.fields.end())
    for (const auto& [ros1, ros2] : type->second)
      if (ros2 == field) return ros1;
  return field;
}

// One line of a ROS 1 .msg of package `package` rewritten for ROS 2: time and duration as
// builtin_interfaces, a bare Header as std_msgs/Header, byte (int8 in ROS 1) and char (uint8) by
// their meaning, types by their ROS 2 names (relative ones made full), fields of `type` by the
// user's renames.
std::string ros2Line(std::string_view line, const std::string& package, const std::string& type, const Renames& user) {
  auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos || line[first] == '#') return std::string(line);
  auto end = line.find_first_of(" \t", first);
  if (end == std::string_view::npos) return std::string(line);
  std::string_view token = line.substr(first, end - first);
  auto suffix = token.find_first_of("[<");
  std::string_view base = token.substr(0, suffix);
  std::string_view array = suffix == std::string_view::npos ? "" : token.substr(suffix);
  std::string written(base);
  if (base == "time") written = "builtin_interfaces/Time";
  else if (base == "duration") written = "builtin_interfaces/Duration";
  else if (base == "Header") written = "std_msgs/Header";
  else if (base == "byte") written = "int8";
  else if (base == "char") written = "uint8";
  else if (!schema::isPrimitiveName(base))
    written = ros2Type(
        user, base.find('/') == std::string_view::npos ? package + "/" + std::string(base) : normalTypeName(base));
  // The field's name, renamed (a constant, NAME=value, keeps its own).
  std::string rest(line.substr(end));
  auto nameStart = rest.find_first_not_of(" \t");
  if (nameStart != std::string::npos) {
    auto nameEnd = rest.find_first_of(" \t#=", nameStart);
    std::string name = rest.substr(nameStart, nameEnd == std::string::npos ? std::string::npos : nameEnd - nameStart);
    const auto equals = rest.find('=', nameStart), comment = rest.find('#', nameStart);
    if (equals == std::string::npos || equals > comment)  // a field, whatever its comment says
      rest = rest.substr(0, nameStart) + ros2Field(user, type, name) +
             (nameEnd == std::string::npos ? "" : rest.substr(nameEnd));
  }
  return std::string(line.substr(0, first)) + written + std::string(array) + rest;
}

// The sections of a ROS 1 definition (root first) as ROS 2 .msg texts by their ROS 2 "pkg/Type".
std::map<std::string, std::string> ros2Sections(std::string_view rootType, std::string_view definition,
                                                const Renames& user) {
  std::map<std::string, std::string> out;
  std::string name = normalTypeName(rootType), text;
  auto flush = [&] {
    if (!name.empty()) out[ros2Type(user, name)] = text;
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
      continue;
    }
    text += ros2Line(line, name.substr(0, name.find('/')), name, user) + "\n";
  }
  flush();
  return out;
}

// ROS 1 texts of the standard types ROS 2 changed beyond their names (comments dropped:
// ROS 1's md5sum ignores them): Header lost seq; Log moved to rcl_interfaces without its
// Header, powers-of-two levels and topics; CameraInfo's D K R P became d k r p, DisparityImage's
// T t; constants were added (NavSatStatus, BatteryState, Marker's ARROW_STRIP) or changed type
// (uint8 to int32 in Marker, ImageMarker, Range, InteractiveMarkerControl); Marker gained
// texture and mesh fields, SolidPrimitive its prism.
const std::map<std::string, std::string, std::less<>>& ros1Texts() {
  static const std::map<std::string, std::string, std::less<>> kTexts = {
      {"std_msgs/Header", "uint32 seq\ntime stamp\nstring frame_id\n"},
      {"rosgraph_msgs/Log",
       "byte DEBUG=1\nbyte INFO=2\nbyte WARN=4\nbyte ERROR=8\nbyte FATAL=16\nHeader header\nbyte level\n"
       "string name\nstring msg\nstring file\nstring function\nuint32 line\nstring[] topics\n"},
      {"sensor_msgs/CameraInfo",
       "Header header\nuint32 height\nuint32 width\nstring distortion_model\nfloat64[] D\nfloat64[9] K\n"
       "float64[9] R\nfloat64[12] P\nuint32 binning_x\nuint32 binning_y\nRegionOfInterest roi\n"},
      {"sensor_msgs/BatteryState",
       "uint8 POWER_SUPPLY_STATUS_UNKNOWN=0\nuint8 POWER_SUPPLY_STATUS_CHARGING=1\n"
       "uint8 POWER_SUPPLY_STATUS_DISCHARGING=2\nuint8 POWER_SUPPLY_STATUS_NOT_CHARGING=3\n"
       "uint8 POWER_SUPPLY_STATUS_FULL=4\nuint8 POWER_SUPPLY_HEALTH_UNKNOWN=0\nuint8 POWER_SUPPLY_HEALTH_GOOD=1\n"
       "uint8 POWER_SUPPLY_HEALTH_OVERHEAT=2\nuint8 POWER_SUPPLY_HEALTH_DEAD=3\n"
       "uint8 POWER_SUPPLY_HEALTH_OVERVOLTAGE=4\nuint8 POWER_SUPPLY_HEALTH_UNSPEC_FAILURE=5\n"
       "uint8 POWER_SUPPLY_HEALTH_COLD=6\nuint8 POWER_SUPPLY_HEALTH_WATCHDOG_TIMER_EXPIRE=7\n"
       "uint8 POWER_SUPPLY_HEALTH_SAFETY_TIMER_EXPIRE=8\nuint8 POWER_SUPPLY_TECHNOLOGY_UNKNOWN=0\n"
       "uint8 POWER_SUPPLY_TECHNOLOGY_NIMH=1\nuint8 POWER_SUPPLY_TECHNOLOGY_LION=2\n"
       "uint8 POWER_SUPPLY_TECHNOLOGY_LIPO=3\nuint8 POWER_SUPPLY_TECHNOLOGY_LIFE=4\n"
       "uint8 POWER_SUPPLY_TECHNOLOGY_NICD=5\nuint8 POWER_SUPPLY_TECHNOLOGY_LIMN=6\nHeader header\n"
       "float32 voltage\nfloat32 temperature\nfloat32 current\nfloat32 charge\nfloat32 capacity\n"
       "float32 design_capacity\nfloat32 percentage\nuint8 power_supply_status\nuint8 power_supply_health\n"
       "uint8 power_supply_technology\nbool present\nfloat32[] cell_voltage\nfloat32[] cell_temperature\n"
       "string location\nstring serial_number\n"},
      {"sensor_msgs/NavSatStatus",
       "int8 STATUS_NO_FIX=-1\nint8 STATUS_FIX=0\nint8 STATUS_SBAS_FIX=1\nint8 STATUS_GBAS_FIX=2\nint8 status\n"
       "uint16 SERVICE_GPS=1\nuint16 SERVICE_GLONASS=2\nuint16 SERVICE_COMPASS=4\nuint16 SERVICE_GALILEO=8\n"
       "uint16 service\n"},
      {"sensor_msgs/Range",
       "Header header\nuint8 ULTRASOUND=0\nuint8 INFRARED=1\nuint8 radiation_type\nfloat32 field_of_view\n"
       "float32 min_range\nfloat32 max_range\nfloat32 range\n"},
      {"shape_msgs/SolidPrimitive",
       "uint8 BOX=1\nuint8 SPHERE=2\nuint8 CYLINDER=3\nuint8 CONE=4\nuint8 type\nfloat64[] dimensions\n"
       "uint8 BOX_X=0\nuint8 BOX_Y=1\nuint8 BOX_Z=2\nuint8 SPHERE_RADIUS=0\nuint8 CYLINDER_HEIGHT=0\n"
       "uint8 CYLINDER_RADIUS=1\nuint8 CONE_HEIGHT=0\nuint8 CONE_RADIUS=1\n"},
      {"stereo_msgs/DisparityImage",
       "Header header\nsensor_msgs/Image image\nfloat32 f\nfloat32 T\nsensor_msgs/RegionOfInterest valid_window\n"
       "float32 min_disparity\nfloat32 max_disparity\nfloat32 delta_d\n"},
      {"visualization_msgs/ImageMarker",
       "uint8 CIRCLE=0\nuint8 LINE_STRIP=1\nuint8 LINE_LIST=2\nuint8 POLYGON=3\nuint8 POINTS=4\nuint8 ADD=0\n"
       "uint8 REMOVE=1\nHeader header\nstring ns\nint32 id\nint32 type\nint32 action\n"
       "geometry_msgs/Point position\nfloat32 scale\nstd_msgs/ColorRGBA outline_color\nuint8 filled\n"
       "std_msgs/ColorRGBA fill_color\nduration lifetime\ngeometry_msgs/Point[] points\n"
       "std_msgs/ColorRGBA[] outline_colors\n"},
      {"visualization_msgs/InteractiveMarkerControl",
       "string name\ngeometry_msgs/Quaternion orientation\nuint8 INHERIT=0\nuint8 FIXED=1\nuint8 VIEW_FACING=2\n"
       "uint8 orientation_mode\nuint8 NONE=0\nuint8 MENU=1\nuint8 BUTTON=2\nuint8 MOVE_AXIS=3\n"
       "uint8 MOVE_PLANE=4\nuint8 ROTATE_AXIS=5\nuint8 MOVE_ROTATE=6\nuint8 MOVE_3D=7\nuint8 ROTATE_3D=8\n"
       "uint8 MOVE_ROTATE_3D=9\nuint8 interaction_mode\nbool always_visible\nMarker[] markers\n"
       "bool independent_marker_orientation\nstring description\n"},
      {"visualization_msgs/Marker",
       "uint8 ARROW=0\nuint8 CUBE=1\nuint8 SPHERE=2\nuint8 CYLINDER=3\nuint8 LINE_STRIP=4\nuint8 LINE_LIST=5\n"
       "uint8 CUBE_LIST=6\nuint8 SPHERE_LIST=7\nuint8 POINTS=8\nuint8 TEXT_VIEW_FACING=9\n"
       "uint8 MESH_RESOURCE=10\nuint8 TRIANGLE_LIST=11\nuint8 ADD=0\nuint8 MODIFY=0\nuint8 DELETE=2\n"
       "uint8 DELETEALL=3\nHeader header\nstring ns\nint32 id\nint32 type\nint32 action\n"
       "geometry_msgs/Pose pose\ngeometry_msgs/Vector3 scale\nstd_msgs/ColorRGBA color\nduration lifetime\n"
       "bool frame_locked\ngeometry_msgs/Point[] points\nstd_msgs/ColorRGBA[] colors\nstring text\n"
       "string mesh_resource\nbool mesh_use_embedded_materials\n"},
  };
  return kTexts;
}

// A field's primitive type as a ROS 1 .msg writes it: as written where that is a .msg name
// (byte and char kept: ROS 1's md5sum hashes them), else by its kind (from IDL).
std::string ros1Primitive(const schema::Field& f) {
  std::string written = f.typeText.substr(0, f.typeText.find_first_of("[<"));
  if (schema::isPrimitiveName(written) && written != "wstring") return written;
  return std::string(schema::primitiveName(f.type));
}

// A ROS 2 schema as a ROS 1 full definition: root text, then each type it uses after a '='
// line and "MSG: pkg/Type". Written from the parsed schema (so ros2msg and IDL alike):
// builtin_interfaces' Time and Duration as time and duration, bounds dropped, defaults and
// comments gone (ROS 1's md5sum hashes neither).
std::string ros1Definition(const schema::MessageType& root, const Renames& user) {
  std::vector<std::pair<std::string, std::string>> sections;
  std::set<std::string> seen;
  std::function<void(const schema::MessageType&)> visit = [&](const schema::MessageType& type) {
    const std::string name = ros1Name(user, type.name);
    if (!seen.insert(name).second) return;
    const std::size_t at = sections.size();
    sections.emplace_back(name, "");
    if (auto fixed = ros1Texts().find(name); fixed != ros1Texts().end()) {
      // The types its ROS 1 fields use: those of the ROS 2 fields it kept, and Log's Header.
      sections[at].second = fixed->second;
      for (const auto& f : type.fields)
        if (f.message && !decode::isTimeField(f) && fixed->second.find(" " + f.name + "\n") != std::string::npos)
          visit(*f.message);
      if (fixed->second.find("Header header\n") != std::string::npos && seen.insert("std_msgs/Header").second)
        sections.emplace_back("std_msgs/Header", ros1Texts().find("std_msgs/Header")->second);
      return;
    }
    std::string text;
    for (const auto& c : type.constants) text += c.typeText + " " + c.name + "=" + c.value + "\n";
    for (const auto& f : type.fields) {
      if (f.hidden) continue;
      std::string base;
      if (decode::isTimeField(f))
        base =
            f.type == Primitive::Duration || (f.message && f.message->name.ends_with("Duration")) ? "duration" : "time";
      else if (f.message) base = ros1Name(user, f.message->name), visit(*f.message);
      else base = ros1Primitive(f);
      const std::string array = f.array == schema::ArrayKind::None    ? ""
                                : f.array == schema::ArrayKind::Fixed ? "[" + std::to_string(f.arrayLength) + "]"
                                                                      : "[]";
      text += base + array + " " + ros1Field(user, name, f.name) + "\n";
    }
    sections[at].second = std::move(text);
  };
  visit(root);
  std::string out = sections.front().second;
  for (std::size_t i = 1; i < sections.size(); ++i)
    out +=
        "================================================================================\nMSG: " + sections[i].first +
        "\n" + sections[i].second;
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

}  // namespace bagscope::write::detail

namespace bagscope::write {

Result<Renames> readRenames(const std::filesystem::path& file) {
  auto fail = [&](const std::string& why) { return fileError(ErrorCode::InvalidArgument, why, utf8(file)); };
  Renames out;
  try {
    YAML::Node root = YAML::LoadFile(utf8(file));
    if (!root.IsMap() && !root.IsNull()) return fail("a rename file is a map of packages, types and fields");
    for (const auto& entry : root) {
      const auto key = entry.first.as<std::string>();
      const YAML::Node& map = entry.second;
      if (key != "packages" && key != "types" && key != "fields")
        return fail("'" + key + "' is not one of packages, types, fields");
      if (!map.IsMap()) return fail("'" + key + "' is not a map");
      for (const auto& item : map) {
        const auto from = item.first.as<std::string>();
        if (key == "fields") {
          if (!item.second.IsMap()) return fail("fields of '" + from + "' are not a map of old: new names");
          for (const auto& f : item.second)
            out.fields[normalTypeName(from)][f.first.as<std::string>()] = f.second.as<std::string>();
        } else {
          if (!item.second.IsScalar()) return fail("'" + from + "' is renamed to no name");
          (key == "packages" ? out.packages : out.types)[key == "types" ? normalTypeName(from) : from] =
              item.second.as<std::string>();
        }
      }
    }
  } catch (const YAML::Exception& e) {
    return fail("not a rename file: " + std::string(e.what()));
  }
  return out;
}

}  // namespace bagscope::write

namespace bagscope::write::detail {

bool Translation::translates(schema::Dialect to, const storage::Connection& from) {
  return from.messageEncoding == (to == schema::Dialect::Ros2 ? "ros1" : "cdr");
}

Result<std::unique_ptr<Translation>> Translation::make(schema::Dialect to, const storage::Connection& from,
                                                       std::shared_ptr<const decode::Decoder> fromDecoder,
                                                       std::span<const std::filesystem::path> msgPaths,
                                                       const Renames& user) {
  auto t = std::unique_ptr<Translation>(new Translation());
  t->to_ = to;
  t->user_ = user;
  t->source_ = std::move(fromDecoder);
  storage::Connection& c = t->connection_;
  c = from;
  if (to == schema::Dialect::Ros1) {
    c.type = ros1Name(user, from.type);
    c.messageEncoding = "ros1";
    c.schemaEncoding = "ros1msg";
    c.definition = ros1Definition(*t->source_->schema().root, user);
    c.typeHash.clear();
    c.offeredQos.clear();
    c.latching = storage::latched(from);  // transient-local: latched
    auto decoder = decode::compileFor(c.type, "ros1", "ros1msg", c.definition);
    if (!decoder) return decoder.error();
    t->target_ = std::move(decoder).value();
    c.md5sum = schema::ros1Md5(t->target_->schema());
  } else {
    c.type = ros2Name(user, from.type);
    c.topic = ros2TopicName(from.topic);
    c.messageEncoding = "cdr";
    c.schemaEncoding = "ros2msg";
    c.md5sum.clear();
    // The standard interfaces (or the user's .msg folders) where they define the type and what
    // it uses; the bag's own definitions, rewritten, for the rest.
    auto sections = ros2Sections(from.type, from.definition, user);
    std::vector<std::filesystem::path> folders(msgPaths.begin(), msgPaths.end());
    auto text = schema::findDefinition(c.type, folders, sections);
    if (!text)
      return makeError(ErrorCode::MissingDefinition, "no ROS 2 definition of '" + c.type +
                                                         "' or a type it uses could be made from '" + from.type + "'");
    c.definition = std::move(*text);
    auto decoder = decode::compileFor(c.type, "cdr", "ros2msg", c.definition, msgPaths);
    if (!decoder) return decoder.error();
    t->target_ = std::move(decoder).value();
    c.typeHash = schema::typeHash(t->target_->schema());
    if (from.latching) {
      // rosbag2's profile for a latched topic: reliable, transient local, as rosbags writes it.
      c.offeredQos =
          "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 1\n"
          "  deadline:\n    sec: 2147483647\n    nsec: 4294967295\n"
          "  lifespan:\n    sec: 2147483647\n    nsec: 4294967295\n  liveliness: 1\n"
          "  liveliness_lease_duration:\n    sec: 2147483647\n    nsec: 4294967295\n"
          "  avoid_ros_namespace_conventions: false\n";
    }
  }
  t->plan(*t->source_->schema().root, *t->target_->schema().root);
  if (to == schema::Dialect::Ros2)
    t->direct_ = t->compileDirect(*t->source_->schema().root, *t->target_->schema().root);
  return t;
}

// Which source field fills each target field: the same name, else the same name in lower case
// (CameraInfo's D K R P became d k r p), else a header's stamp for a `stamp` and a `stamp` for
// a header (Log). Source fields left over are dropped, target fields without a source left
// zero, and both said once per type (a Header's seq aside).
const std::vector<int>& Translation::plan(const schema::MessageType& from, const schema::MessageType& to) {
  auto key = std::make_pair(&from, &to);
  if (auto it = plans_.find(key); it != plans_.end()) return it->second;
  const bool header = normalTypeName(to.name) == "std_msgs/Header";
  const char* fromName = to_ == schema::Dialect::Ros2 ? "ROS 1" : "ROS 2";
  const char* toName = to_ == schema::Dialect::Ros2 ? "ROS 2" : "ROS 1";
  // Source and target fields meet under their ROS 2 names (the user's field renames applied).
  auto sourceName = [&](std::size_t k) {
    const auto& name = from.fields[k].name;
    return to_ == schema::Dialect::Ros2 ? ros2Field(user_, normalTypeName(from.name), name) : name;
  };
  auto index = [&](std::string_view name) {
    for (std::size_t k = 0; k < from.fields.size(); ++k)
      if (sourceName(k) == name) return static_cast<int>(k);
    return -1;
  };
  std::vector<int> fields;
  std::vector<bool> used(from.fields.size(), false);
  for (std::size_t i = 0; i < to.fields.size(); ++i) {
    const auto& f = to.fields[i];
    const std::string wanted =
        to_ == schema::Dialect::Ros2 ? f.name : ros2Field(user_, normalTypeName(to.name), f.name);
    int found = index(wanted);
    for (std::size_t k = 0; k < from.fields.size() && found < 0; ++k)
      if (lower(sourceName(k)) == lower(wanted)) found = static_cast<int>(k);
    if (found < 0 && f.name == "stamp" && index("header") == 0 && schema::startsWithHeader(from)) found = kHeaderStamp;
    if (found < 0 && i == 0 && f.name == "header" && schema::startsWithHeader(to) && index("stamp") >= 0) {
      used[static_cast<std::size_t>(index("stamp"))] = true;
      found = kAsHeaderStamp - index("stamp");
    }
    if (found >= 0) used[static_cast<std::size_t>(found)] = true;
    if (found == kHeaderStamp) used[0] = true;
    if (found == -1 && !f.hidden && !(header && f.name == "seq"))
      notes_.push_back(to.name + "." + f.name + " has no " + fromName + " field: left zero");
    fields.push_back(found);
  }
  for (std::size_t k = 0; k < from.fields.size(); ++k)
    if (!used[k] && !from.fields[k].hidden &&
        !(from.fields[k].name == "seq" && normalTypeName(from.name) == "std_msgs/Header"))
      notes_.push_back(from.name + "." + from.fields[k].name + " has no " + toName + " field: dropped");
  return plans_.emplace(key, std::move(fields)).first->second;
}

Result<void> Translation::value(const Value& from, const schema::Field& to, Value& out) {
  if (to.array != schema::ArrayKind::None) {
    if (from.kind == Value::Kind::Bytes && to.isByteArray()) {
      out = from;
      return {};
    }
    if (from.kind == Value::Kind::Bytes) {  // ROS 2's byte[] (octets) as ROS 1's byte[] (int8)
      out.kind = Value::Kind::Array;
      out.items.resize(from.bytes.size());
      Value octet;
      octet.kind = Value::Kind::UInt;
      for (std::size_t i = 0; i < from.bytes.size(); ++i) {
        octet.u = static_cast<std::uint8_t>(from.bytes[i]);
        if (auto r = element(octet, to, out.items[i]); !r) return r;
      }
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

Result<void> Translation::element(const Value& from, const schema::Field& to, Value& out) {
  const bool fromTime = from.kind == Value::Kind::Time || from.kind == Value::Kind::Duration;
  if (to.type == Primitive::Time || to.type == Primitive::Duration) {
    // builtin_interfaces' {sec, nanosec} as a ROS 1 time.
    if (from.kind != Value::Kind::Struct || from.items.size() != 2)
      return makeError(ErrorCode::Unsupported, "'" + to.name + "' is not a time");
    out = Value{};
    out.kind = to.type == Primitive::Time ? Value::Kind::Time : Value::Kind::Duration;
    auto whole = [](const Value& v) { return v.kind == Value::Kind::Int ? v.i : static_cast<std::int64_t>(v.u); };
    out.t.sec = whole(from.items[0]);
    out.t.nsec = whole(from.items[1]);
    return {};
  }
  if (to.type != Primitive::Message) {
    out = from;
    // ROS 2's byte is unsigned, ROS 1's signed: the same bits.
    if (to.type == Primitive::Int8 && from.kind == Value::Kind::UInt) {
      out.kind = Value::Kind::Int;
      out.i = static_cast<std::int8_t>(static_cast<std::uint8_t>(from.u));
    } else if (to.type == Primitive::UInt8 && from.kind == Value::Kind::Int && from.i >= INT8_MIN && from.i < 0) {
      out.kind = Value::Kind::UInt;
      out.u = static_cast<std::uint8_t>(static_cast<std::int8_t>(from.i));
    }
    return {};
  }
  if (decode::isTimeField(to) && fromTime) {
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

Result<void> Translation::message(const Value& from, const schema::MessageType& to, Value& out) {
  const auto& fields = plan(*from.type, to);
  out = decode::zeroValue(to);
  const std::string fromType = normalTypeName(from.type->name);
  const bool log = fromType == "rosgraph_msgs/Log" || fromType == "rcl_interfaces/Log";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const int k = fields[i];
    if (k == -1) continue;
    Result<void> r;
    if (k <= kAsHeaderStamp) {  // ROS 1's Header: seq, stamp, frame_id
      r = element(from.items[static_cast<std::size_t>(kAsHeaderStamp - k)], to.fields[i].message->fields[1],
                  out.items[i].items[1]);
    } else {
      const Value& source = k == kHeaderStamp ? from.items[0].items[1] : from.items[static_cast<std::size_t>(k)];
      r = value(source, to.fields[i], out.items[i]);
    }
    if (!r) {
      Error e = r.error();
      e.message = to.fields[i].name + ": " + e.message;
      return e;
    }
    // rosgraph_msgs/Log's levels are powers of two (1..16), rcl_interfaces/Log's tens (10..50).
    if (log && to.fields[i].name == "level") {
      Value& v = out.items[i];
      std::int64_t level = v.kind == Value::Kind::Int ? v.i : static_cast<std::int64_t>(v.u), step = 0;
      if (to_ == schema::Dialect::Ros2) {
        while (level > 1 && step < 4) level >>= 1, ++step;
        v.kind = Value::Kind::UInt;
        v.u = static_cast<std::uint64_t>(10 * (step + 1));
      } else {
        step = std::clamp<std::int64_t>(level / 10, 1, 5) - 1;
        v.kind = Value::Kind::Int;
        v.i = std::int64_t{1} << step;
      }
    }
  }
  return {};
}

Result<void> Translation::translateByValues(std::span<const std::byte> in, std::vector<std::byte>& out) {
  auto decoded = source_->decode(in);
  if (!decoded) return decoded.error();
  Value translated;
  if (auto r = message(*decoded, *target_->schema().root, translated); !r) return r;
  return decode::encode(*target_, translated, out);
}

namespace {

// A number whose ROS 1 bytes are its CDR bytes (bool is normalised, time is two fields).
bool copiedAsBytes(Primitive p) { return schema::isPlainNumber(p) && p != Primitive::Bool; }

// ROS 1 bytes straight to little-endian CDR by a Direct: numbers copied, strings given their NUL,
// arrays and nested types walked, time as builtin_interfaces, fields ROS 2 added zero. Aligned
// from the payload's start as the encoder aligns. False on anything out of the way (cut input,
// a value that does not fit): the value path then says what.
class DirectTranscoder {
public:
  DirectTranscoder(std::span<const std::byte> in, std::vector<std::byte>& out) : in_(in), out_(out) {}

  bool run(const Translation::Direct& d) {
    out_.assign(4, std::byte{0});  // little-endian CDR: 00 01 00 00
    out_[1] = std::byte{1};
    return message(d, 0) && pos_ == in_.size();
  }

private:
  bool message(const Translation::Direct& d, int depth) {
    if (depth > 64) return false;
    std::size_t next = 0;  // the next source field not yet read
    for (std::size_t k = 0; k < d.fields.size(); ++k) {
      const auto& f = d.fields[k];
      if (f.source < 0) {
        zero(*f.to, depth);
        continue;
      }
      for (; next < static_cast<std::size_t>(f.source); ++next)
        if (!skip(d.from->fields[next], depth)) return false;
      if (f.run > 1) {
        const std::size_t size = schema::primitiveSize(f.from->type), bytes = f.run * size;
        if (bytes > in_.size() - pos_) return false;
        align(size);
        append(in_.data() + pos_, bytes);
        pos_ += bytes;
        next += f.run;
        k += f.run - 1;
        continue;
      }
      ++next;
      if (!field(f, depth)) return false;
    }
    for (; next < d.from->fields.size(); ++next)
      if (!skip(d.from->fields[next], depth)) return false;
    return true;
  }

  bool field(const Translation::Direct::Field& f, int depth) {
    const schema::Field& from = *f.from;
    if (from.array == schema::ArrayKind::None) return element(f, depth);
    std::uint32_t n = from.arrayLength;
    if (from.array != schema::ArrayKind::Fixed) {
      if (!read(n)) return false;
      if (f.to->array == schema::ArrayKind::Bounded && n > f.to->arrayLength) return false;
      put(n);
    }
    if (copiedAsBytes(from.type)) {
      const std::uint32_t size = schema::primitiveSize(from.type);
      const std::uint64_t bytes = std::uint64_t{n} * size;
      if (bytes > in_.size() - pos_) return false;
      if (n > 0) align(size);
      append(in_.data() + pos_, bytes);
      pos_ += bytes;
      return true;
    }
    if (n > in_.size() - pos_) return false;  // more elements than bytes left: the value path judges
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t at = pos_;
      if (!element(f, depth)) return false;
      // Elements that read nothing (empty messages) are bounded as the decoder bounds them.
      if (pos_ == at && emptyLeft_-- == 0) return false;
    }
    return true;
  }

  bool element(const Translation::Direct::Field& f, int depth) {
    switch (f.from->type) {
      case Primitive::String: {
        std::uint32_t len = 0;
        if (!read(len) || len > in_.size() - pos_ || (f.to->stringBound && len > f.to->stringBound)) return false;
        put(len + 1);
        append(in_.data() + pos_, len);
        out_.push_back(std::byte{0});
        pos_ += len;
        return true;
      }
      case Primitive::Time:
      case Primitive::Duration: {
        std::uint32_t sec = 0, nsec = 0;
        if (!read(sec) || !read(nsec)) return false;
        // ROS 2: int32 sec, uint32 nanosec. A time past 2038 or a negative duration nsec does not fit.
        if (f.from->type == Primitive::Time ? sec > INT32_MAX : nsec > INT32_MAX) return false;
        put(sec);
        put(nsec);
        return true;
      }
      case Primitive::Bool: {
        std::uint8_t b = 0;
        if (!read(b)) return false;
        out_.push_back(std::byte{b != 0});
        return true;
      }
      case Primitive::Message: return message(*f.nested, depth + 1);
      default: {
        const std::uint32_t size = schema::primitiveSize(f.from->type);
        if (size > in_.size() - pos_) return false;
        align(size);
        append(in_.data() + pos_, size);
        pos_ += size;
        return true;
      }
    }
  }

  // A ROS 1 field passed over (a Header's seq, fields ROS 2 dropped).
  bool skip(const schema::Field& f, int depth) {
    if (depth > 64) return false;
    std::uint32_t n = 1;
    if (f.array == schema::ArrayKind::Fixed) n = f.arrayLength;
    else if (f.array != schema::ArrayKind::None && !read(n)) return false;
    const std::uint32_t size =
        f.type == Primitive::Message || f.type == Primitive::String ? 0 : schema::primitiveSize(f.type);
    if (size > 0) {
      if (std::uint64_t{n} * size > in_.size() - pos_) return false;
      pos_ += std::uint64_t{n} * size;
      return true;
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t at = pos_;
      if (f.type == Primitive::String) {
        std::uint32_t len = 0;
        if (!read(len) || len > in_.size() - pos_) return false;
        pos_ += len;
      } else {
        for (const auto& nested : f.message->fields)
          if (!skip(nested, depth + 1)) return false;
      }
      if (pos_ == at) break;  // an element that read nothing has no lengths: so have the rest
    }
    return true;
  }

  // A target field without a source: what the encoder writes for a zero value.
  void zero(const schema::Field& f, int depth) {
    if (f.array == schema::ArrayKind::Dynamic || f.array == schema::ArrayKind::Bounded) {
      put(std::uint32_t{0});
      return;
    }
    const std::uint32_t n = f.array == schema::ArrayKind::Fixed ? f.arrayLength : 1;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (f.type == Primitive::String) {
        put(std::uint32_t{1});
        out_.push_back(std::byte{0});
      } else if (f.type == Primitive::Message) {
        if (depth < 64)
          for (const auto& nested : f.message->fields) zero(nested, depth + 1);
      } else {
        const std::uint32_t size = schema::primitiveSize(f.type);
        align(size);
        out_.resize(out_.size() + size);
      }
    }
  }

  template <typename T>
  bool read(T& x) {
    if (sizeof(T) > in_.size() - pos_) return false;
    std::memcpy(&x, in_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  void align(std::size_t size) {  // size: 1, 2, 4 or 8; from the payload after the 4-byte header
    if (size <= 1) return;
    if (std::size_t pad = (4 - out_.size()) & (size - 1)) out_.resize(out_.size() + pad);
  }
  void append(const std::byte* p, std::size_t n) {
    const std::size_t at = out_.size();
    out_.resize(at + n);
    std::memcpy(out_.data() + at, p, n);
  }
  template <typename T>
  void put(T x) {
    align(sizeof(T));
    append(reinterpret_cast<const std::byte*>(&x), sizeof(T));
  }

  std::span<const std::byte> in_;
  std::vector<std::byte>& out_;
  std::size_t pos_ = 0;
  std::uint32_t emptyLeft_ = decode::kMaxEmptyElements;
};

}  // namespace

// The direct way for a pair of types, or null where only values can translate them: a plan
// in source order without stamps moved between header and body, each pair of fields of one
// kind (the same number type, time as builtin_interfaces, strings, nested types themselves
// direct) and array kind (fixed of one length, dynamic as dynamic or bounded), and no Log
// (its levels are mapped).
const Translation::Direct* Translation::compileDirect(const schema::MessageType& from, const schema::MessageType& to) {
  auto key = std::make_pair(&from, &to);
  if (auto it = directs_.find(key); it != directs_.end()) return it->second.get();
  auto d = std::make_unique<Direct>();
  d->from = &from;
  bool ok = normalTypeName(from.name) != "rosgraph_msgs/Log";
  const auto& fields = plan(from, to);
  int last = -1;
  for (std::size_t i = 0; i < fields.size() && ok; ++i) {
    Direct::Field f;
    f.source = fields[i];
    f.to = &to.fields[i];
    if (f.source < -1 || (f.source >= 0 && f.source <= last)) ok = false;
    if (f.source < 0 || !ok) {
      d->fields.push_back(f);
      continue;
    }
    last = f.source;
    f.from = &from.fields[static_cast<std::size_t>(f.source)];
    const auto& a = *f.from;
    const auto& b = *f.to;
    const bool arrays =
        a.array == b.array || (a.array == schema::ArrayKind::Dynamic && b.array == schema::ArrayKind::Bounded);
    ok = arrays && (a.array != schema::ArrayKind::Fixed || a.arrayLength == b.arrayLength);
    if (a.type == Primitive::Time || a.type == Primitive::Duration)
      ok = ok && decode::isTimeField(b) && b.message &&
           b.message->name.ends_with(a.type == Primitive::Time ? "Time" : "Duration");
    else if (a.type == Primitive::Message)
      ok = ok && b.type == Primitive::Message && !decode::isTimeField(b) &&
           (f.nested = compileDirect(*a.message, *b.message)) != nullptr;
    else  // the same number type, or a byte signed in one and unsigned in the other (the same bits)
      ok = ok && (a.type == b.type || (schema::primitiveSize(a.type) == 1 && schema::primitiveSize(b.type) == 1 &&
                                       a.type != Primitive::Bool && b.type != Primitive::Bool));
    d->fields.push_back(f);
  }
  if (!ok) d.reset();
  auto scalar = [](const Direct::Field& f) {
    return f.source >= 0 && f.from->array == schema::ArrayKind::None && copiedAsBytes(f.from->type);
  };
  for (std::size_t i = d ? d->fields.size() : 0; i-- > 1;) {
    const auto& next = d->fields[i];
    auto& f = d->fields[i - 1];
    if (scalar(f) && scalar(next) && next.source == f.source + 1 &&
        schema::primitiveSize(next.from->type) == schema::primitiveSize(f.from->type))
      f.run = next.run + 1;
  }
  return directs_.emplace(key, std::move(d)).first->second.get();
}

Result<void> Translation::translate(std::span<const std::byte> in, std::vector<std::byte>& out) {
  if (direct_ && DirectTranscoder(in, out).run(*direct_)) return {};
  return translateByValues(in, out);
}

}  // namespace bagscope::write::detail
