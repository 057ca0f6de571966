// ROS 1 serialization (http://wiki.ros.org/msg#Serialization): little-endian, no padding,
// strings and dynamic arrays prefixed by a uint32 count, time/duration as two 32-bit ints.
// CDR (OMG DDS-XTypes 1.3, 7.4.1, "XCDR1"), as ROS 2 writes it: a 4-byte encapsulation
// header (0x00 0x01 little-endian, 0x00 0x00 big-endian), then fields with each primitive
// aligned to its size; strings as uint32 length including the terminating NUL.

#include "decoder.hpp"

#include <map>
#include <optional>

#include "core/base/byte_cursor.hpp"
#include "core/base/digest.hpp"

#include "core/schema/builtin_types.hpp"
#include "detail/foreign.hpp"
#include "detail/program.hpp"
#include "detail/wire_cursor.hpp"

namespace bagscope::decode {

using detail::Op;
using detail::Program;
using schema::ArrayKind;
using schema::Primitive;

Decoder::~Decoder() = default;

namespace {

class Compiler {
public:
  explicit Compiler(std::vector<std::unique_ptr<Program>>& out) : out_(out) {}

  const Program* compile(const schema::MessageType& type) {
    if (auto it = done_.find(&type); it != done_.end()) return it->second;
    out_.push_back(std::make_unique<Program>());
    Program* p = out_.back().get();
    done_[&type] = p;
    p->type = &type;
    for (const auto& f : type.fields) {
      Op op;
      op.field = &f;
      op.type = f.type;
      op.array = f.array;
      op.fixedLength = f.array == ArrayKind::Fixed ? f.arrayLength : 0;
      if (f.type == Primitive::Message) {
        op.nested = compile(*f.message);  // no cycles: the schema parser rejects them
        op.elementFixed = op.nested->fixed;
        op.elementBytes = static_cast<std::uint32_t>(op.nested->fixedBytes);
        op.elementMinBytes = static_cast<std::uint32_t>(op.nested->minBytes);
      } else if (f.type == Primitive::String) {
        op.elementFixed = false;
        op.elementMinBytes = 4;
      } else {
        op.elementFixed = true;
        op.elementBytes = op.elementMinBytes = schema::primitiveSize(f.type);
      }
      switch (f.array) {
        case ArrayKind::None:
          op.fixed = op.elementFixed;
          op.fixedBytes = op.elementBytes;
          p->minBytes += op.elementMinBytes;
          break;
        case ArrayKind::Fixed:
          op.fixed = op.elementFixed;
          op.fixedBytes = std::uint64_t{op.elementBytes} * op.fixedLength;
          p->minBytes += std::uint64_t{op.elementMinBytes} * op.fixedLength;
          break;
        case ArrayKind::Dynamic:
        case ArrayKind::Bounded:  // ROS 1 has no bounded arrays; read as dynamic
          op.fixed = false;
          p->minBytes += 4;
          break;
      }
      p->fixed = p->fixed && op.fixed;
      if (op.fixed) p->fixedBytes += op.fixedBytes;
      p->ops.push_back(op);
    }
    if (!p->fixed) p->fixedBytes = 0;
    return p;
  }

private:
  std::vector<std::unique_ptr<Program>>& out_;
  std::map<const schema::MessageType*, const Program*> done_;
};

// Decodes into Values; on failure records what and where, and the path is built on unwinding.
class ValueDecoder {
public:
  explicit ValueDecoder(detail::WireCursor cursor) : c_(cursor) {}

  bool message(const Program& p, Value& out, int depth) {
    out.kind = Value::Kind::Struct;
    out.type = p.type;
    out.items.resize(p.ops.size());
    for (std::size_t i = 0; i < p.ops.size(); ++i) {
      if (!field(p.ops[i], out.items[i], depth)) {
        path_ = p.ops[i].field->name + (path_.empty() || path_.front() == '[' ? "" : ".") + path_;
        return false;
      }
    }
    return true;
  }

  std::size_t remaining() const { return c_.remaining(); }

  std::string error_;
  std::string path_;
  std::size_t errorOffset_ = 0;

private:
  bool fail(std::string what) {
    error_ = std::move(what);
    errorOffset_ = c_.pos();
    return false;
  }

  bool field(const Op& op, Value& v, int depth) {
    if (op.array == ArrayKind::None) return element(op, v, depth);
    std::uint32_t n = op.fixedLength;
    if (op.array != ArrayKind::Fixed) {
      if (!c_.read(n)) return fail("array length needs 4 bytes, " + std::to_string(c_.remaining()) + " remain");
    }
    if (!alignElements(op, n)) return false;
    // Check the length against what is left before allocating anything for it.
    std::uint64_t least = std::uint64_t{n} * op.elementMinBytes;
    if (least > c_.remaining()) {
      return fail("array length " + std::to_string(n) + " needs at least " + std::to_string(least) + " bytes, " +
                  std::to_string(c_.remaining()) + " remain");
    }
    if (op.elementMinBytes == 0) {
      if (n > emptyLeft_)
        return fail("array length " + std::to_string(n) + " of elements that take no bytes: more than " +
                    std::to_string(kMaxEmptyElements) + " in one message");
      emptyLeft_ -= n;
    }
    if (op.field->isByteArray()) {
      v.kind = Value::Kind::Bytes;
      c_.take(n, v.bytes);  // cannot fail: checked above
      return true;
    }
    v.kind = Value::Kind::Array;
    v.items.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!element(op, v.items[i], depth)) {
        path_ = "[" + std::to_string(i) + "]" + (path_.empty() || path_.front() == '[' ? "" : ".") + path_;
        return false;
      }
    }
    return true;
  }

  template <typename T>
  bool scalar(T& out) {
    if (!c_.read(out)) [[unlikely]]
      return fail("needs " + std::to_string(sizeof(T)) + " bytes, " + std::to_string(c_.remaining()) + " remain");
    return true;
  }

  // CDR aligns an array of primitives once, before its first element.
  bool alignElements(const Op& op, std::uint32_t n) {
    if (n == 0 || !op.elementFixed || op.type == Primitive::Message) return true;
    return c_.align(op.elementBytes) || fail("array padding runs past the end");
  }

  bool element(const Op& op, Value& v, int depth) {
    switch (op.type) {
      case Primitive::Bool: {
        std::uint8_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::Bool;
        v.b = x != 0;
        return true;
      }
      case Primitive::Int8: {
        std::int8_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::Int;
        v.i = x;
        return true;
      }
      case Primitive::UInt8: {
        std::uint8_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::UInt;
        v.u = x;
        return true;
      }
      case Primitive::Int16: {
        std::int16_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::Int;
        v.i = x;
        return true;
      }
      case Primitive::UInt16: {
        std::uint16_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::UInt;
        v.u = x;
        return true;
      }
      case Primitive::Int32: {
        std::int32_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::Int;
        v.i = x;
        return true;
      }
      case Primitive::UInt32: {
        std::uint32_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::UInt;
        v.u = x;
        return true;
      }
      case Primitive::Int64: {
        std::int64_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::Int;
        v.i = x;
        return true;
      }
      case Primitive::UInt64: {
        std::uint64_t x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::UInt;
        v.u = x;
        return true;
      }
      case Primitive::Float32: {
        float x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::Float;
        v.f = x;
        return true;
      }
      case Primitive::Float64: {
        double x;
        if (!scalar(x)) return false;
        v.kind = Value::Kind::Float;
        v.f = x;
        return true;
      }
      case Primitive::Time: {
        std::uint32_t s, ns;
        if (!scalar(s) || !scalar(ns)) return false;
        v.kind = Value::Kind::Time;
        v.t = {s, ns};
        return true;
      }
      case Primitive::Duration: {
        std::int32_t s, ns;
        if (!scalar(s) || !scalar(ns)) return false;
        v.kind = Value::Kind::Duration;
        v.t = {s, ns};
        return true;
      }
      case Primitive::String: {
        std::uint32_t n;
        if (!scalar(n)) return false;
        std::span<const std::byte> s;
        if (!c_.take(n, s))
          return fail("string length " + std::to_string(n) + " exceeds " + std::to_string(c_.remaining()) +
                      " remaining bytes");
        // CDR counts the terminating NUL; some writers send 0 for an empty string.
        if (c_.cdr() && !s.empty() && s.back() == std::byte{0}) s = s.first(s.size() - 1);
        v.kind = Value::Kind::String;
        v.text.assign(asText(s));
        return true;
      }
      case Primitive::Message:
        if (depth >= detail::kMaxDepth) return fail("nesting deeper than " + std::to_string(detail::kMaxDepth));
        return message(*op.nested, v, depth + 1);
    }
    return fail("unknown field type");
  }

  detail::WireCursor c_;
  std::uint32_t emptyLeft_ = kMaxEmptyElements;
};

}  // namespace

Result<detail::WireCursor> detail::openWire(std::span<const std::byte> bytes, WireFormat format) {
  if (format == WireFormat::Ros1) return detail::WireCursor(bytes, 0, false, false);
  // CDR encapsulation: representation identifier (2 bytes, big-endian) and options (2 bytes).
  if (bytes.size() < 4)
    return makeError(ErrorCode::Decode, "CDR message of " + std::to_string(bytes.size()) +
                                            " bytes is shorter than its 4-byte encapsulation header");
  auto id = static_cast<unsigned>(bytes[0]) << 8 | static_cast<unsigned>(bytes[1]);
  if (id > 1) {
    std::string found = "bytes " + hexBytes(bytes.first(2)) + " at offset 0";
    // 0x0002..0x000b are the other representations of DDS-XTypes 7.6.3.1.2.
    static constexpr const char* kOther[] = {
        "PL_CDR", "PL_CDR", "", "", "XCDR2", "XCDR2", "delimited XCDR2", "delimited XCDR2", "PL_XCDR2", "PL_XCDR2"};
    if (id <= 0x0b && *kOther[id - 2])
      return makeError(ErrorCode::Decode, "CDR encapsulation " + found + " is " + kOther[id - 2] +
                                              ", which is not supported (only plain CDR, XCDR1: 00 00 or 00 01)");
    return makeError(ErrorCode::Decode, "no CDR encapsulation header: " + found +
                                            " are not a representation identifier (expected 00 00 or 00 01)");
  }
  return detail::WireCursor(bytes, 4, true, id == 0);
}

Result<std::shared_ptr<const Decoder>> Decoder::compile(std::shared_ptr<const schema::MessageSchema> schema,
                                                        WireFormat format) {
  if (!schema || !schema->root) return makeError(ErrorCode::InvalidArgument, "no message definition to compile");
  std::shared_ptr<Decoder> d(new Decoder());
  d->schema_ = std::move(schema);
  d->format_ = format;
  Compiler(d->programs_).compile(*d->schema_->root);
  return std::shared_ptr<const Decoder>(std::move(d));
}

Result<std::shared_ptr<const Decoder>> compileFor(std::string_view type, std::string_view messageEncoding,
                                                  std::string_view schemaEncoding, std::string_view definition,
                                                  std::span<const std::filesystem::path> msgPaths) {
  schema::Dialect dialect;
  WireFormat format;
  if (messageEncoding == "ros1" && (schemaEncoding == "ros1msg" || schemaEncoding.empty())) {
    dialect = schema::Dialect::Ros1;
    format = WireFormat::Ros1;
  } else if (messageEncoding == "json" && (schemaEncoding == "jsonschema" || schemaEncoding.empty())) {
    if (definition.empty())
      return makeError(ErrorCode::Unsupported,
                       "JSON messages without a JSON Schema cannot be decoded (the channel has no schema)");
    return detail::compileJson(type, definition);
  } else if (messageEncoding == "protobuf" && schemaEncoding == "protobuf") {
    return detail::compileProtobuf(type, definition);
  } else if (messageEncoding == "cdr" && schemaEncoding == "ros2idl" && !definition.empty()) {
    auto parsed = schema::parseIdl(type, definition);
    BAGSCOPE_TRY(parsed);
    return Decoder::compile(std::move(parsed).value(), WireFormat::Cdr);
  } else if (messageEncoding == "cdr" && (schemaEncoding == "ros2msg" || schemaEncoding.empty())) {
    dialect = schema::Dialect::Ros2;
    format = WireFormat::Cdr;
  } else {
    return makeError(ErrorCode::Unsupported, "messages encoded as '" + std::string(messageEncoding) + "' with '" +
                                                 std::string(schemaEncoding) +
                                                 "' definitions cannot be decoded (only ros1/ros1msg, cdr/ros2msg or "
                                                 "ros2idl, json/jsonschema and protobuf/protobuf)");
  }
  std::optional<std::string> builtin;
  if (dialect == schema::Dialect::Ros2 && !definition.empty()) {
    // A service event topic stores its .srv text; decode the event message built from it.
    if (auto event = schema::serviceEventDefinition(type, definition)) {
      builtin = std::move(event);
      definition = *builtin;
    }
  }
  // Older rosbag2 files name types without defining them: use the standard interfaces. (ROS 1
  // always stores the text: an empty one is a type without fields, such as std_msgs/Empty.)
  if (definition.empty() && dialect == schema::Dialect::Ros2) {
    builtin = schema::findDefinition(type, msgPaths);
    if (!builtin)
      return makeError(ErrorCode::MissingDefinition, "the file has no definition of '" + std::string(type) +
                                                         "', which is not a standard ROS 2 interface");
    definition = *builtin;
  }
  auto parsed = schema::parseDefinition(type, definition, dialect);
  BAGSCOPE_TRY(parsed);
  return Decoder::compile(std::move(parsed).value(), format);
}

std::shared_ptr<const Decoder> Decoder::overReader(std::shared_ptr<const schema::MessageSchema> schema,
                                                   WireFormat format,
                                                   std::shared_ptr<const detail::ForeignReader> reader) {
  std::shared_ptr<Decoder> d(new Decoder());
  d->schema_ = std::move(schema);
  d->format_ = format;
  d->foreign_ = std::move(reader);
  return d;
}

Result<Value> Decoder::decode(std::span<const std::byte> bytes) const {
  if (foreign_) return foreign_->decode(bytes);
  auto wire = detail::openWire(bytes, format_);
  BAGSCOPE_TRY(wire);
  ValueDecoder vd(*wire);
  Value root;
  if (!vd.message(rootProgram(), root, 0)) [[unlikely]] {
    return makeError(ErrorCode::Decode, "field '" + vd.path_ + "': " + vd.error_ + " at offset " +
                                            std::to_string(vd.errorOffset_) + " of " + std::to_string(bytes.size()) +
                                            "-byte message");
  }
  // What is left must be CDR's closing padding (under 4 bytes) or nothing: more means the
  // definition is not the one the message was written with, and the values read are wrong.
  if (std::size_t left = vd.remaining(); left > (format_ == WireFormat::Cdr ? 3u : 0u)) [[unlikely]] {
    return makeError(ErrorCode::Decode, std::to_string(left) + " of " + std::to_string(bytes.size()) +
                                            " bytes are left after the last field (from offset " +
                                            std::to_string(bytes.size() - left) +
                                            "): the definition does not fit this message");
  }
  return root;
}

std::optional<std::int64_t> peekHeaderStamp(std::span<const std::byte> bytes, WireFormat format) {
  // ROS 1: uint32 seq, uint32 sec, uint32 nsec. CDR: the 4-byte encapsulation header
  // (its second byte says the byte order), then int32 sec, uint32 nanosec.
  if (bytes.size() < 12) return std::nullopt;
  if (format == WireFormat::Ros1)
    return std::int64_t{loadLE<std::uint32_t>(bytes.data() + 4)} * 1'000'000'000 +
           loadLE<std::uint32_t>(bytes.data() + 8);
  bool big = bytes[1] == std::byte{0};
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = loadLE<std::uint32_t>(bytes.data() + at);
    return big ? ((v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24)) : v;
  };
  return std::int64_t{static_cast<std::int32_t>(u32(4))} * 1'000'000'000 + u32(8);
}

}  // namespace bagscope::decode
