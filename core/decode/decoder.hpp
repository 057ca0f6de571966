#pragma once
// Decoding message bytes with a definition. A Decoder is compiled once per (type, wire
// format) into a flat program; it then turns bytes into a Value tree, and a FieldReader
// built from it pulls chosen numeric fields out without building a tree. Every read is
// bounds-checked; an error names the field and the byte offset.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/schema/schema.hpp"

namespace bagscope::decode {

enum class WireFormat : std::uint8_t {
  Ros1,      ///< ROS 1 serialization: little-endian, packed, uint32 lengths
  Cdr,       ///< ROS 2: CDR (XCDR1) with its 4-byte encapsulation header, either byte order
  Json,      ///< MCAP "json" messages, typed by a JSON Schema ("jsonschema")
  Protobuf,  ///< MCAP "protobuf" messages, typed by a FileDescriptorSet ("protobuf")
};

/// The most elements that take no bytes (empty messages) one message may hold, counted across
/// all its arrays: nothing on the wire bounds them, and nested arrays would multiply.
inline constexpr std::uint32_t kMaxEmptyElements = 1u << 16;

/// A decoded value. Struct items follow the definition's field order (names in `type`).
/// Lifetime: `bytes` (uint8[]/char[] contents) points into the decoded buffer and `type`
/// into the decoder's schema; keep both alive while the Value is used. Everything else is
/// owned.
struct Value {
  enum class Kind : std::uint8_t { Bool, Int, UInt, Float, String, Time, Duration, Bytes, Array, Struct };
  struct TimeValue {
    std::int64_t sec;
    std::int64_t nsec;
  };

  Kind kind = Kind::Struct;
  union {
    bool b;
    std::int64_t i;
    std::uint64_t u;
    double f;  ///< float32 values are widened exactly
    TimeValue t;
  };
  std::string text;                           ///< Kind::String
  std::span<const std::byte> bytes;           ///< Kind::Bytes
  std::vector<Value> items;                   ///< Kind::Array elements / Kind::Struct fields
  const schema::MessageType* type = nullptr;  ///< Kind::Struct

  Value() : t{0, 0} {}
};

namespace detail {
struct Program;
/// Decodes a self-describing or tag-based format (JSON, protobuf) into Values of a schema
/// built from its own schema language.
class ForeignReader {
public:
  virtual ~ForeignReader() = default;
  virtual Result<Value> decode(std::span<const std::byte> bytes) const = 0;
};
}  // namespace detail

class Decoder {
public:
  /// Compiles `schema` for `format`. Thread-safe to use once built (it is immutable).
  static Result<std::shared_ptr<const Decoder>> compile(std::shared_ptr<const schema::MessageSchema> schema,
                                                        WireFormat format);

  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  /// Decodes one message. Errors (Decode) name the field path and the offset in `bytes`.
  /// Bytes left over after the last field are an error (the definition does not fit the
  /// message), except CDR's closing padding of up to 3 bytes: a partial decode is never
  /// returned as the message.
  Result<Value> decode(std::span<const std::byte> bytes) const;

  /// Over a foreign format's reader (JSON, protobuf): decode() asks it; there is no program.
  static std::shared_ptr<const Decoder> overReader(std::shared_ptr<const schema::MessageSchema> schema,
                                                   WireFormat format,
                                                   std::shared_ptr<const detail::ForeignReader> reader);

  const schema::MessageSchema& schema() const { return *schema_; }
  /// The compiled program (ROS 1 and CDR only: check isForeign() first).
  const detail::Program& rootProgram() const { return *programs_.front(); }
  WireFormat format() const { return format_; }
  bool isForeign() const { return foreign_ != nullptr; }

private:
  Decoder() = default;
  std::shared_ptr<const detail::ForeignReader> foreign_;
  std::shared_ptr<const schema::MessageSchema> schema_;
  std::vector<std::unique_ptr<detail::Program>> programs_;
  WireFormat format_ = WireFormat::Ros1;
};

/// The decoder for messages of `type` as a file stores them: ROS 1 (message encoding
/// "ros1", definitions "ros1msg"), ROS 2 ("cdr", "ros2msg" or "ros2idl"), JSON ("json",
/// "jsonschema") or protobuf ("protobuf", a binary FileDescriptorSet). A ROS 2 type the file does
/// not define is looked up in `msgPaths`, then among the standard interfaces. Errors:
/// Unsupported for other encodings (naming them), Schema when the definition is missing
/// or malformed, MissingDefinition when nothing defines the type (the user can add it).
Result<std::shared_ptr<const Decoder>> compileFor(std::string_view type, std::string_view messageEncoding,
                                                  std::string_view schemaEncoding, std::string_view definition,
                                                  std::span<const std::filesystem::path> msgPaths = {});

/// The header stamp (ns) of a message whose type starts with std_msgs/Header, read
/// straight from its bytes; nullopt when they are too short.
std::optional<std::int64_t> peekHeaderStamp(std::span<const std::byte> bytes, WireFormat format);

/// Reads chosen numeric leaves of every message into doubles, skipping all else.
/// Paths: "pose.pose.position.x", "ranges[10]", "header.stamp" (time/duration as seconds).
/// Bools and integers are converted to double; an array index past the end gives NaN.
class FieldReader {
public:
  /// Errors (InvalidArgument) name the path and the part that does not exist or is not
  /// numeric.
  static Result<FieldReader> compile(std::shared_ptr<const Decoder> decoder, const std::vector<std::string>& paths);

  FieldReader(FieldReader&&) noexcept;
  FieldReader& operator=(FieldReader&&) noexcept;
  ~FieldReader();

  std::size_t columnCount() const { return columns_; }
  /// Fills `out` (columnCount() values) from one message. Thread-safe (no scratch state).
  Result<void> read(std::span<const std::byte> bytes, std::span<double> out) const;

  struct Plan;

private:
  FieldReader() = default;
  std::shared_ptr<const Decoder> decoder_;
  std::unique_ptr<Plan> plan_;
  std::size_t columns_ = 0;
};

/// A message path as Foxglove writes them, below the topic name: fields (`pose.position.x`),
/// indexes (`ranges[3]`, `ranges[-1]` counting from the end), inclusive slices (`ranges[0:10]`,
/// `markers[:]`, `points[-3:-1]`) and filters on a message or the elements a slice selects
/// (`markers[:]{id==3}.pose.position.x`, `status[0].values[:]{key=="temp"}.value`,
/// `{header.frame_id=="map"}.pose.x`), comparing a field with ==, !=, <, <=, >, >= to a
/// number, a quoted string or true/false. It selects every leaf it reaches: none, one or
/// several per message.
class MessagePath {
public:
  /// Errors (InvalidArgument) give the column (from 1) where the text goes wrong and why, or
  /// name the part `root` does not have.
  static Result<MessagePath> compile(std::string_view text, const schema::MessageType& root);
  /// Whether `text` is a path FieldReader reads (fields and non-negative indexes only).
  static bool isPlain(std::string_view text);
  /// The path with its first bounded, non-negative slice written out (`ranges[0:2]` ->
  /// `ranges[0]`, `ranges[1]`, `ranges[2]`), and so on for the next ones; at most `limit`
  /// paths. The text itself when it has no such slice.
  static std::vector<std::string> expandSlices(std::string_view text, std::size_t limit);

  MessagePath(MessagePath&&) noexcept;
  MessagePath& operator=(MessagePath&&) noexcept;
  ~MessagePath();

  const std::string& text() const;
  /// Whether the leaves are text (string fields); else numbers.
  bool textLeaf() const;

  /// One selected leaf: a number (bool 0/1, integer, float, time in seconds), or text.
  struct Leaf {
    double number = 0;
    std::string_view text;  ///< into the Value; for string leaves
    bool integer = false;   ///< from a bool or integer field (a number to print without ".0")
  };
  /// Appends the leaves it selects in `message` (a Value of the type it was compiled for).
  void select(const Value& message, std::vector<Leaf>& out) const;

  struct Program;

private:
  MessagePath() = default;
  std::unique_ptr<Program> program_;
};

/// Writes `message` (a Struct of the decoder's root type, items in field order as decode()
/// gives them) as a message in the decoder's wire format: ROS 1, or CDR little-endian with its
/// header and zeroed padding. The inverse of decode(): a decoded little-endian message encodes
/// to its own bytes. Values are checked against the definition — integers whole and in range,
/// fixed arrays their length, bounded arrays and strings their bound — and an error
/// (InvalidArgument) names the field. `out` is replaced.
Result<void> encode(const Decoder& decoder, const Value& message, std::vector<std::byte>& out);

/// A number as the encoder takes it, from a Value or from a foreign object (a Python int).
struct Number {
  enum class Kind : std::uint8_t { Bool, Int, UInt, Float };
  Kind kind = Kind::Int;
  union {
    bool b;
    std::int64_t i = 0;
    std::uint64_t u;
    double f;
  };
};

/// Writes one message's wire bytes — ROS 1, or CDR little-endian with its header and zeroed
/// padding — a field at a time in definition order, each value checked against its field as
/// encode() says. encode() walks a Value with it; the Python module walks dicts with it, so
/// that neither builds what the other reads. After a call returns false, error() says why
/// and the bytes are unusable.
class FieldEncoder {
public:
  /// The message is appended to `out`. `format`: Ros1 or Cdr.
  FieldEncoder(std::vector<std::byte>& out, WireFormat format);
  /// One element of a bool, integer or floating-point field.
  bool number(const schema::Field& field, Number n) {
    if (n.kind == Number::Kind::Float && field.type == schema::Primitive::Float64) {
      put(n.f);  // the common case, inline
      return true;
    }
    return anyNumber(field, n);
  }
  /// One element of a string field.
  bool text(const schema::Field& field, std::string_view text);
  /// One element of a ROS 1 time or duration field.
  bool time(const schema::Field& field, std::int64_t sec, std::int64_t nsec);
  /// An array field's length, before its elements: checked against a fixed length or a
  /// bound, written unless fixed.
  bool length(const schema::Field& field, std::size_t n);
  /// A uint8[] field's elements at once, after length().
  void bytes(std::span<const std::byte> bytes);
  /// The message's bytes, `out` cut to their end. Call once, when every field is written.
  std::span<const std::byte> finish();
  const std::string& error() const { return error_; }

private:
  bool fail(std::string what);
  bool anyNumber(const schema::Field& field, Number n);
  template <typename T>
  bool integer(const schema::Field& field, Number n);
  void grow(std::size_t size);

  // `size` bytes at the next multiple of `align` (1, 2, 4 or 8; CDR only) from the payload's
  // start, after the 4-byte header, as the decoder reads it.
  std::byte* room(std::size_t align, std::size_t size) {
    std::size_t at = size_;
    if (cdr_) at += (origin_ + 4 - at) & (align - 1);
    if (at + size > out_.size()) grow(at + size);
    size_ = at + size;
    return out_.data() + at;
  }
  template <typename T>
  void put(T x) {
    std::byte* at = room(sizeof(T), sizeof(T));
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(at, &x, sizeof(T));
    } else {
      const auto* p = reinterpret_cast<const std::byte*>(&x);
      for (std::size_t k = 0; k < sizeof(T); ++k) at[k] = p[sizeof(T) - 1 - k];
    }
  }

  // `out_` grows ahead of what is written, zero-filled, so that padding is zero; the message
  // is [origin_, size_).
  std::vector<std::byte>& out_;
  std::size_t origin_;
  std::size_t size_;
  bool cdr_;
  std::string error_;
};

/// A message of `type` with every number zero, every string and dynamic array empty and fixed
/// arrays at their length: what encode() takes for fields nobody set.
Value zeroValue(const schema::MessageType& type);
/// Whether `field` (its elements) holds a time: ROS 1 time or duration, or builtin_interfaces'
/// Time or Duration.
bool isTimeField(const schema::Field& field);
/// A time of `field`'s type (isTimeField) from nanoseconds: whole seconds rounded down, the
/// nanoseconds in [0, 1e9), as decode() gives a time.
Value timeValue(const schema::Field& field, std::int64_t ns);

/// One zero element of `field`'s type (a message, a number, an empty string): what an array
/// grows by.
Value zeroElement(const schema::Field& field);

/// How uint8[]/char[] arrays are written as JSON.
enum class BytesMode : std::uint8_t {
  Digest,  ///< up to 64 bytes as a list of ints, longer as {"len":N,"sha256":"<hex>"}
  Base64,  ///< a base64 string, any length
};

/// Appends `value` as JSON: fields in definition order, time as {"sec","nsec"}, floats in
/// their shortest round-trip form, NaN/Inf as "nan"/"inf"/"-inf".
void appendJson(const Value& value, std::string& out, BytesMode bytes = BytesMode::Digest);

}  // namespace bagscope::decode
