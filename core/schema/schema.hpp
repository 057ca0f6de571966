#pragma once
// Message definitions: the .msg language of ROS 1 (and, with the Ros2 dialect, of ROS 2),
// parsed into resolved types. A definition as stored in a bag is the root type's text
// followed by each dependency after a line of '=' and a "MSG: pkg/Type" line.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/base/text.hpp"

namespace bagscope::schema {

enum class Dialect : std::uint8_t { Ros1, Ros2 };

enum class Primitive : std::uint8_t {
  Bool,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float32,
  Float64,
  String,    ///< UTF-8 text (ROS 2 bounded strings keep their bound in Field::stringBound)
  Time,      ///< ROS 1 time: uint32 sec, uint32 nsec
  Duration,  ///< ROS 1 duration: int32 sec, int32 nsec
  Message,   ///< a nested message type (Field::message)
};

/// Size in bytes on the wire of a fixed-size primitive; 0 for String and Message.
std::uint32_t primitiveSize(Primitive p);
/// A single number on the wire (bool included): not a string or message, nor ROS 1's time
/// or duration (two integers each).
bool isPlainNumber(Primitive p);
/// The .msg name of a primitive ("float64"; ROS 1's "time" and "duration"; "message").
std::string_view primitiveName(Primitive p);
/// Whether a .msg type name is a built-in one of either dialect (bool, byte, char, int8 ...
/// float64, string, wstring; not ROS 1's time and duration) rather than a message type.
bool isPrimitiveName(std::string_view name);

enum class ArrayKind : std::uint8_t { None, Fixed, Dynamic, Bounded };

struct MessageType;

struct Field {
  std::string name;
  Primitive type = Primitive::Int32;
  const MessageType* message = nullptr;  ///< for Primitive::Message
  ArrayKind array = ArrayKind::None;
  std::uint32_t arrayLength = 0;  ///< Fixed: the length; Bounded: the upper bound
  std::uint32_t stringBound = 0;  ///< string<=N; 0 = unbounded
  std::string typeText;           ///< as written ("float64[3]"), for display
  /// The member rosidl adds to a type without fields (kPlaceholderMember), not written in its
  /// definition: decoded (it takes its byte on the wire), never shown.
  bool hidden = false;
  /// ROS 1 uint8[]/char[] (and ROS 2 uint8[]/byte[]): raw bytes, shown as a blob.
  bool isByteArray() const { return array != ArrayKind::None && (type == Primitive::UInt8); }
};

struct Constant {
  std::string name;
  Primitive type = Primitive::Int32;
  std::string typeText;  ///< as written ("uint8", "byte"), which ROS 1's md5sum hashes
  std::string value;     ///< the literal as written (strings verbatim)
};

struct MessageType {
  std::string name;  ///< "pkg/Type"
  std::vector<Field> fields;
  std::vector<Constant> constants;
};

/// Whether `type` starts with a std_msgs/Header (ROS 1's "std_msgs/Header" or ROS 2's
/// "std_msgs/msg/Header"), as sensor messages do: what "header stamp" means for a topic.
inline bool startsWithHeader(const MessageType& type) {
  if (type.fields.empty()) return false;
  const Field& f = type.fields.front();
  return f.message && f.array == ArrayKind::None && normalTypeName(f.message->name) == "std_msgs/Header";
}

/// The uint8 member rosidl adds to a ROS 2 type that has no fields (the Ros2 dialect adds it
/// too, so that CDR decoding takes the byte such a message occupies).
inline constexpr std::string_view kPlaceholderMember = "structure_needs_at_least_one_member";

/// A root type and every type it uses, owned together. Pointers between types stay valid
/// for the schema's lifetime.
struct MessageSchema {
  const MessageType* root = nullptr;
  std::vector<std::unique_ptr<MessageType>> types;
  Dialect dialect = Dialect::Ros1;
};

/// Parses ROS 2 IDL (schema encoding "ros2idl"): the IDL rosidl generates, as one document or
/// as rosbag2's sections ("=====" line, "IDL: pkg/msg/Type", the file). The root is the
/// struct named `typeName` ("pkg/msg/Type"). Errors (Schema) name the line.
Result<std::shared_ptr<const MessageSchema>> parseIdl(std::string_view typeName, std::string_view text);

/// Parses a full definition (root text + "MSG:" sections) of type `typeName`.
/// Errors (Schema) name the type and the line.
Result<std::shared_ptr<const MessageSchema>> parseDefinition(std::string_view typeName, std::string_view text,
                                                             Dialect dialect);

/// The md5sum ROS 1 names the schema's root type by (genmsg's compute_md5): over the
/// definition's constants and fields as written, each nested type replaced by its own md5sum.
/// For a schema of the Ros1 dialect.
std::string ros1Md5(const MessageSchema& schema);

/// The ROS 2 type description hash of the schema's root type ("RIHS01_<sha256 hex>"), as Jazzy
/// stores it with each topic. For a schema of the Ros2 dialect (or IDL).
std::string typeHash(const MessageSchema& schema);

}  // namespace bagscope::schema
