// The decoder's inverse: a Value written as ROS 1 or CDR bytes by the same compiled program,
// so that bytes decoded and encoded again come back identical. CDR is written little-endian
// with zeroed padding, aligned from the payload start as the decoder reads it.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/base/json_text.hpp"
#include "core/base/text.hpp"
#include "decoder.hpp"
#include "detail/program.hpp"

namespace bagscope::decode {

using detail::Op;
using detail::Program;
using schema::ArrayKind;
using schema::Primitive;

namespace {

std::string describe(Number n) {
  using K = Number::Kind;
  switch (n.kind) {
    case K::Bool: return n.b ? "true" : "false";
    case K::Int: return std::to_string(n.i);
    case K::UInt: return std::to_string(n.u);
    case K::Float: break;
  }
  std::string text;
  appendJsonDouble(n.f, text);
  return text;
}

std::string describe(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::Bool: return v.b ? "true" : "false";
    case K::Int: return std::to_string(v.i);
    case K::UInt: return std::to_string(v.u);
    case K::Float: return describe(Number{Number::Kind::Float, {.f = v.f}});
    case K::String: return "a string";
    case K::Time:
    case K::Duration: return "a time";
    case K::Bytes: return "bytes";
    case K::Array: return "an array";
    case K::Struct: return "a message";
  }
  return "a value";
}

// A Value walked in its program's order into a FieldEncoder; the error's field path is built
// on the way out.
class ValueEncoder {
public:
  explicit ValueEncoder(FieldEncoder& wire) : wire_(wire) {}

  bool message(const Program& p, const Value& v, int depth) {
    if (v.kind != Value::Kind::Struct) return fail("expects a message, not " + describe(v));
    if (v.items.size() != p.ops.size())
      return fail("a " + p.type->name + " has " + std::to_string(p.ops.size()) + " fields, the value " +
                  std::to_string(v.items.size()));
    for (std::size_t i = 0; i < p.ops.size(); ++i) {
      if (!field(p.ops[i], v.items[i], depth)) {
        path_ = p.ops[i].field->name + (path_.empty() || path_.front() == '[' ? "" : ".") + path_;
        return false;
      }
    }
    return true;
  }

  std::string error() const { return error_.empty() ? wire_.error() : error_; }
  std::string path_;

private:
  bool fail(std::string what) {
    error_ = std::move(what);
    return false;
  }

  bool field(const Op& op, const Value& v, int depth) {
    if (op.array == ArrayKind::None) return element(op, v, depth);
    if (op.field->isByteArray() && v.kind == Value::Kind::Bytes) {
      if (!wire_.length(*op.field, v.bytes.size())) return false;
      wire_.bytes(v.bytes);
      return true;
    }
    if (v.kind != Value::Kind::Array) return fail("expects an array, not " + describe(v));
    if (!wire_.length(*op.field, v.items.size())) return false;
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      if (!element(op, v.items[i], depth)) {
        path_ = "[" + std::to_string(i) + "]" + (path_.empty() || path_.front() == '[' ? "" : ".") + path_;
        return false;
      }
    }
    return true;
  }

  bool element(const Op& op, const Value& v, int depth) {
    using K = Value::Kind;
    switch (op.type) {
      case Primitive::Time:
      case Primitive::Duration:
        if (v.kind != K::Time && v.kind != K::Duration) return fail("expects a time {sec, nsec}, not " + describe(v));
        return wire_.time(*op.field, v.t.sec, v.t.nsec);
      case Primitive::String:
        if (v.kind != K::String) return fail("expects a string, not " + describe(v));
        return wire_.text(*op.field, v.text);
      case Primitive::Message:
        if (depth >= detail::kMaxDepth) return fail("nesting deeper than " + std::to_string(detail::kMaxDepth));
        return message(*op.nested, v, depth + 1);
      default: break;
    }
    Number n;
    switch (v.kind) {
      case K::Bool: n = {Number::Kind::Bool, {.b = v.b}}; break;
      case K::Int: n = {Number::Kind::Int, {.i = v.i}}; break;
      case K::UInt: n = {Number::Kind::UInt, {.u = v.u}}; break;
      case K::Float: n = {Number::Kind::Float, {.f = v.f}}; break;
      default:
        return fail("expects a number (" + std::string(schema::primitiveName(op.type)) + "), not " + describe(v));
    }
    return wire_.number(*op.field, n);
  }

  FieldEncoder& wire_;
  std::string error_;
};

}  // namespace

FieldEncoder::FieldEncoder(std::vector<std::byte>& out, WireFormat format)
    : out_(out), origin_(out.size()), size_(out.size()), cdr_(format == WireFormat::Cdr) {
  if (cdr_) std::memcpy(room(1, 4), "\0\1\0\0", 4);  // little-endian CDR
}

std::span<const std::byte> FieldEncoder::finish() {
  out_.resize(size_);
  return std::span<const std::byte>(out_).subspan(origin_);
}

bool FieldEncoder::fail(std::string what) {
  error_ = std::move(what);
  return false;
}

// Ahead by as much as the message holds, at least 256 bytes: few resizes for a large message,
// little zero-filling for a small one.
void FieldEncoder::grow(std::size_t size) { out_.resize(std::max(size, 2 * out_.size() - origin_) + 256); }

void FieldEncoder::bytes(std::span<const std::byte> bytes) {
  if (!bytes.empty()) std::memcpy(room(1, bytes.size()), bytes.data(), bytes.size());
}

bool FieldEncoder::length(const schema::Field& f, std::size_t n) {
  if (f.array == ArrayKind::Fixed && n != f.arrayLength)
    return fail("takes exactly " + std::to_string(f.arrayLength) + " elements, not " + std::to_string(n));
  if (f.array == ArrayKind::Bounded && n > f.arrayLength)
    return fail("takes at most " + std::to_string(f.arrayLength) + " elements, not " + std::to_string(n));
  if (n > std::numeric_limits<std::uint32_t>::max()) return fail("has more than 2^32 - 1 elements");
  if (f.array != ArrayKind::Fixed) put(static_cast<std::uint32_t>(n));
  return true;
}

// A number of any kind into an integer field of range [lo, hi]: whole and in range.
template <typename T>
bool FieldEncoder::integer(const schema::Field& f, Number n) {
  using K = Number::Kind;
  constexpr auto lo = std::numeric_limits<T>::min();
  constexpr auto hi = std::numeric_limits<T>::max();
  bool fits = false;
  T x = 0;
  if (n.kind == K::Bool) {
    fits = true;
    x = static_cast<T>(n.b);
  } else if (n.kind == K::Int) {
    fits = std::is_signed_v<T> ? n.i >= static_cast<std::int64_t>(lo) && n.i <= static_cast<std::int64_t>(hi)
                               : n.i >= 0 && static_cast<std::uint64_t>(n.i) <= static_cast<std::uint64_t>(hi);
    x = static_cast<T>(n.i);
  } else if (n.kind == K::UInt) {
    fits = n.u <= static_cast<std::uint64_t>(hi);
    x = static_cast<T>(n.u);
  } else {
    // 2^63 and 2^64 are exact doubles: the bounds are compared there, not at hi.
    const double top = std::ldexp(1.0, std::numeric_limits<T>::digits);
    fits = std::trunc(n.f) == n.f && n.f >= static_cast<double>(lo) && n.f < top;
    if (fits) x = static_cast<T>(n.f);
  }
  if (!fits)
    return fail(describe(n) + " is not a whole number that fits " + std::string(schema::primitiveName(f.type)));
  put(x);
  return true;
}

bool FieldEncoder::anyNumber(const schema::Field& f, Number n) {
  using K = Number::Kind;
  const double real = n.kind == K::Bool   ? n.b
                      : n.kind == K::Int  ? static_cast<double>(n.i)
                      : n.kind == K::UInt ? static_cast<double>(n.u)
                                          : n.f;
  switch (f.type) {
    case Primitive::Bool:
      if (real != 0 && real != 1) return fail(describe(n) + " is not a bool (true, false, 0 or 1)");
      put(static_cast<std::uint8_t>(real));
      return true;
    case Primitive::Int8: return integer<std::int8_t>(f, n);
    case Primitive::UInt8: return integer<std::uint8_t>(f, n);
    case Primitive::Int16: return integer<std::int16_t>(f, n);
    case Primitive::UInt16: return integer<std::uint16_t>(f, n);
    case Primitive::Int32: return integer<std::int32_t>(f, n);
    case Primitive::UInt32: return integer<std::uint32_t>(f, n);
    case Primitive::Int64: return integer<std::int64_t>(f, n);
    case Primitive::UInt64: return integer<std::uint64_t>(f, n);
    case Primitive::Float32: put(static_cast<float>(real)); return true;
    case Primitive::Float64: put(real); return true;
    default: return fail("expects " + std::string(schema::primitiveName(f.type)) + ", not a number");
  }
}

bool FieldEncoder::text(const schema::Field& f, std::string_view text) {
  const std::uint32_t bound = f.stringBound;
  if (bound != 0 && text.size() > bound)
    return fail("takes at most " + std::to_string(bound) + " bytes of text, not " + std::to_string(text.size()));
  if (text.size() >= std::numeric_limits<std::uint32_t>::max()) return fail("is longer than 4 GiB");
  put(static_cast<std::uint32_t>(text.size() + (cdr_ ? 1 : 0)));  // CDR counts the closing NUL
  std::byte* at = room(1, text.size() + (cdr_ ? 1 : 0));          // the NUL: zero already
  if (!text.empty()) std::memcpy(at, text.data(), text.size());
  return true;
}

bool FieldEncoder::time(const schema::Field& f, std::int64_t sec, std::int64_t nsec) {
  const bool isTime = f.type == Primitive::Time;
  const std::int64_t lo = isTime ? 0 : INT32_MIN, hi = isTime ? UINT32_MAX : INT32_MAX;
  if (sec < lo || sec > hi || nsec < lo || nsec > hi)
    return fail("sec " + std::to_string(sec) + ", nsec " + std::to_string(nsec) + " do not fit a ROS 1 " +
                std::string(schema::primitiveName(f.type)));
  if (isTime) {
    put(static_cast<std::uint32_t>(sec));
    put(static_cast<std::uint32_t>(nsec));
  } else {
    put(static_cast<std::int32_t>(sec));
    put(static_cast<std::int32_t>(nsec));
  }
  return true;
}

bool isTimeField(const schema::Field& f) {
  if (f.type == Primitive::Time || f.type == Primitive::Duration) return true;
  if (f.type != Primitive::Message || !f.message) return false;
  auto name = normalTypeName(f.message->name);
  return name == "builtin_interfaces/Time" || name == "builtin_interfaces/Duration";
}

Value timeValue(const schema::Field& f, std::int64_t ns) {
  const std::int64_t sec = ns >= 0 ? ns / 1'000'000'000 : -((-ns + 999'999'999) / 1'000'000'000);
  Value v = zeroElement(f);
  if (f.type == Primitive::Message) {
    v.items[0].kind = Value::Kind::Int;
    v.items[0].i = sec;
    v.items[1].kind = Value::Kind::Int;
    v.items[1].i = ns - sec * 1'000'000'000;
  } else {
    v.t = {sec, ns - sec * 1'000'000'000};
  }
  return v;
}

Value zeroElement(const schema::Field& f) {
  Value v;
  switch (f.type) {
    case Primitive::Bool:
      v.kind = Value::Kind::Bool;
      v.b = false;
      break;
    case Primitive::Int8:
    case Primitive::Int16:
    case Primitive::Int32:
    case Primitive::Int64:
      v.kind = Value::Kind::Int;
      v.i = 0;
      break;
    case Primitive::UInt8:
    case Primitive::UInt16:
    case Primitive::UInt32:
    case Primitive::UInt64:
      v.kind = Value::Kind::UInt;
      v.u = 0;
      break;
    case Primitive::Float32:
    case Primitive::Float64:
      v.kind = Value::Kind::Float;
      v.f = 0;
      break;
    case Primitive::String: v.kind = Value::Kind::String; break;
    case Primitive::Time: v.kind = Value::Kind::Time; break;
    case Primitive::Duration: v.kind = Value::Kind::Duration; break;
    case Primitive::Message: v = zeroValue(*f.message); break;
  }
  return v;
}

Value zeroValue(const schema::MessageType& type) {
  Value v;
  v.kind = Value::Kind::Struct;
  v.type = &type;
  v.items.reserve(type.fields.size());
  for (const auto& f : type.fields) {
    if (f.array == ArrayKind::None) {
      v.items.push_back(zeroElement(f));
      continue;
    }
    Value array;
    array.kind = Value::Kind::Array;
    if (f.array == ArrayKind::Fixed) array.items.assign(f.arrayLength, zeroElement(f));
    v.items.push_back(std::move(array));
  }
  return v;
}

Result<void> encode(const Decoder& decoder, const Value& message, std::vector<std::byte>& out) {
  if (decoder.isForeign() || (decoder.format() != WireFormat::Ros1 && decoder.format() != WireFormat::Cdr))
    return makeError(ErrorCode::Unsupported, "messages are encoded as ROS 1 or CDR only");
  out.clear();
  FieldEncoder wire(out, decoder.format());
  ValueEncoder encoder(wire);
  if (!encoder.message(decoder.rootProgram(), message, 0))
    return makeError(ErrorCode::InvalidArgument,
                     decoder.schema().root->name + (encoder.path_.empty() ? ": " : " field '" + encoder.path_ + "': ") +
                         encoder.error());
  wire.finish();
  return {};
}

}  // namespace bagscope::decode
