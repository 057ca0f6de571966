// The decoder's inverse: a Value written as ROS 1 or CDR bytes by the same compiled program,
// so that bytes decoded and encoded again come back identical. CDR is written little-endian
// with zeroed padding, aligned from the payload start as the decoder reads it.

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

std::string describe(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::Bool: return v.b ? "true" : "false";
    case K::Int: return std::to_string(v.i);
    case K::UInt: return std::to_string(v.u);
    case K::Float: {
      std::string text;
      appendJsonDouble(v.f, text);
      return text;
    }
    case K::String: return "a string";
    case K::Time:
    case K::Duration: return "a time";
    case K::Bytes: return "bytes";
    case K::Array: return "an array";
    case K::Struct: return "a message";
  }
  return "a value";
}

class ValueEncoder {
public:
  ValueEncoder(std::vector<std::byte>& out, bool cdr) : out_(out), cdr_(cdr), origin_(out.size()) {}

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

  std::string error_;
  std::string path_;

private:
  bool fail(std::string what) {
    error_ = std::move(what);
    return false;
  }

  void align(std::size_t size) {  // size: 1, 2, 4 or 8
    if (!cdr_ || size <= 1) return;
    if (std::size_t pad = (origin_ - out_.size()) & (size - 1)) out_.resize(out_.size() + pad);
  }
  template <typename T>
  void put(T x) {
    align(sizeof(T));
    if constexpr (std::endian::native == std::endian::little) {
      const std::size_t at = out_.size();
      out_.resize(at + sizeof(T));
      std::memcpy(out_.data() + at, &x, sizeof(T));
    } else {
      const auto* p = reinterpret_cast<const std::byte*>(&x);
      for (std::size_t k = sizeof(T); k-- > 0;) out_.push_back(p[k]);
    }
  }

  bool length(const Op& op, std::size_t n) {
    const schema::Field& f = *op.field;
    if (f.array == ArrayKind::Fixed && n != f.arrayLength)
      return fail("takes exactly " + std::to_string(f.arrayLength) + " elements, not " + std::to_string(n));
    if (f.array == ArrayKind::Bounded && n > f.arrayLength)
      return fail("takes at most " + std::to_string(f.arrayLength) + " elements, not " + std::to_string(n));
    if (n > std::numeric_limits<std::uint32_t>::max()) return fail("has more than 2^32 - 1 elements");
    if (f.array != ArrayKind::Fixed) put(static_cast<std::uint32_t>(n));
    return true;
  }

  bool field(const Op& op, const Value& v, int depth) {
    if (op.array == ArrayKind::None) return element(op, v, depth);
    if (op.field->isByteArray() && v.kind == Value::Kind::Bytes) {
      if (!length(op, v.bytes.size())) return false;
      out_.insert(out_.end(), v.bytes.begin(), v.bytes.end());
      return true;
    }
    if (v.kind != Value::Kind::Array) return fail("expects an array, not " + describe(v));
    if (!length(op, v.items.size())) return false;
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      if (!element(op, v.items[i], depth)) {
        path_ = "[" + std::to_string(i) + "]" + (path_.empty() || path_.front() == '[' ? "" : ".") + path_;
        return false;
      }
    }
    return true;
  }

  // A number of any kind into an integer field of range [lo, hi]: whole and in range.
  template <typename T>
  bool integer(const Op& op, const Value& v) {
    using K = Value::Kind;
    constexpr auto lo = std::numeric_limits<T>::min();
    constexpr auto hi = std::numeric_limits<T>::max();
    bool fits = false;
    T x = 0;
    if (v.kind == K::Bool) {
      fits = true;
      x = static_cast<T>(v.b);
    } else if (v.kind == K::Int) {
      fits = std::is_signed_v<T> ? v.i >= static_cast<std::int64_t>(lo) && v.i <= static_cast<std::int64_t>(hi)
                                 : v.i >= 0 && static_cast<std::uint64_t>(v.i) <= static_cast<std::uint64_t>(hi);
      x = static_cast<T>(v.i);
    } else if (v.kind == K::UInt) {
      fits = v.u <= static_cast<std::uint64_t>(hi);
      x = static_cast<T>(v.u);
    } else if (v.kind == K::Float) {
      // 2^63 and 2^64 are exact doubles: the bounds are compared there, not at hi.
      const double top = std::ldexp(1.0, std::numeric_limits<T>::digits);
      fits = std::trunc(v.f) == v.f && v.f >= static_cast<double>(lo) && v.f < top;
      if (fits) x = static_cast<T>(v.f);
    } else {
      return fail("expects a number (" + std::string(schema::primitiveName(op.type)) + "), not " + describe(v));
    }
    if (!fits)
      return fail(describe(v) + " is not a whole number that fits " + std::string(schema::primitiveName(op.type)));
    put(x);
    return true;
  }

  bool real(const Value& v, double& x) {
    using K = Value::Kind;
    switch (v.kind) {
      case K::Bool: x = v.b; return true;
      case K::Int: x = static_cast<double>(v.i); return true;
      case K::UInt: x = static_cast<double>(v.u); return true;
      case K::Float: x = v.f; return true;
      default: return fail("expects a number, not " + describe(v));
    }
  }

  bool element(const Op& op, const Value& v, int depth) {
    switch (op.type) {
      case Primitive::Bool: {
        double x;
        if (!real(v, x)) return false;
        if (x != 0 && x != 1) return fail(describe(v) + " is not a bool (true, false, 0 or 1)");
        put(static_cast<std::uint8_t>(x));
        return true;
      }
      case Primitive::Int8: return integer<std::int8_t>(op, v);
      case Primitive::UInt8: return integer<std::uint8_t>(op, v);
      case Primitive::Int16: return integer<std::int16_t>(op, v);
      case Primitive::UInt16: return integer<std::uint16_t>(op, v);
      case Primitive::Int32: return integer<std::int32_t>(op, v);
      case Primitive::UInt32: return integer<std::uint32_t>(op, v);
      case Primitive::Int64: return integer<std::int64_t>(op, v);
      case Primitive::UInt64: return integer<std::uint64_t>(op, v);
      case Primitive::Float32: {
        double x;
        if (!real(v, x)) return false;
        put(static_cast<float>(x));
        return true;
      }
      case Primitive::Float64: {
        double x;
        if (!real(v, x)) return false;
        put(x);
        return true;
      }
      case Primitive::Time:
      case Primitive::Duration: {
        if (v.kind != Value::Kind::Time && v.kind != Value::Kind::Duration)
          return fail("expects a time {sec, nsec}, not " + describe(v));
        const bool time = op.type == Primitive::Time;
        const std::int64_t lo = time ? 0 : INT32_MIN, hi = time ? UINT32_MAX : INT32_MAX;
        if (v.t.sec < lo || v.t.sec > hi || v.t.nsec < lo || v.t.nsec > hi)
          return fail("sec " + std::to_string(v.t.sec) + ", nsec " + std::to_string(v.t.nsec) + " do not fit a ROS 1 " +
                      std::string(schema::primitiveName(op.type)));
        if (time) {
          put(static_cast<std::uint32_t>(v.t.sec));
          put(static_cast<std::uint32_t>(v.t.nsec));
        } else {
          put(static_cast<std::int32_t>(v.t.sec));
          put(static_cast<std::int32_t>(v.t.nsec));
        }
        return true;
      }
      case Primitive::String: {
        if (v.kind != Value::Kind::String) return fail("expects a string, not " + describe(v));
        const std::uint32_t bound = op.field->stringBound;
        if (bound != 0 && v.text.size() > bound)
          return fail("takes at most " + std::to_string(bound) + " bytes of text, not " +
                      std::to_string(v.text.size()));
        if (v.text.size() >= std::numeric_limits<std::uint32_t>::max()) return fail("is longer than 4 GiB");
        put(static_cast<std::uint32_t>(v.text.size() + (cdr_ ? 1 : 0)));  // CDR counts the closing NUL
        const auto* p = reinterpret_cast<const std::byte*>(v.text.data());
        out_.insert(out_.end(), p, p + v.text.size());
        if (cdr_) out_.push_back(std::byte{0});
        return true;
      }
      case Primitive::Message:
        if (depth >= detail::kMaxDepth) return fail("nesting deeper than " + std::to_string(detail::kMaxDepth));
        return message(*op.nested, v, depth + 1);
    }
    return fail("unknown field type");
  }

  std::vector<std::byte>& out_;
  bool cdr_;
  std::size_t origin_;
};

}  // namespace

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
  const bool cdr = decoder.format() == WireFormat::Cdr;
  if (cdr) out.insert(out.end(), {std::byte{0}, std::byte{1}, std::byte{0}, std::byte{0}});  // little-endian CDR
  ValueEncoder encoder(out, cdr);
  if (!encoder.message(decoder.rootProgram(), message, 0))
    return makeError(ErrorCode::InvalidArgument,
                     decoder.schema().root->name + (encoder.path_.empty() ? ": " : " field '" + encoder.path_ + "': ") +
                         encoder.error_);
  return {};
}

}  // namespace bagscope::decode
