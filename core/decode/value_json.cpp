// JSON text of decoded values, in the form of the fixtures' .expected.jsonl files.

#include <charconv>

#include "core/base/digest.hpp"
#include "core/base/json_text.hpp"
#include "decoder.hpp"

namespace bagscope::decode {
namespace {

template <typename T>
void appendInt(T v, std::string& out) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

void appendJson(const Value& v, std::string& out, BytesMode bytes) {
  switch (v.kind) {
    case Value::Kind::Bool: out += v.b ? "true" : "false"; return;
    case Value::Kind::Int: appendInt(v.i, out); return;
    case Value::Kind::UInt: appendInt(v.u, out); return;
    case Value::Kind::Float: appendJsonDouble(v.f, out); return;
    case Value::Kind::String: appendJsonString(v.text, out); return;
    case Value::Kind::Time:
    case Value::Kind::Duration:
      out += "{\"sec\":";
      appendInt(v.t.sec, out);
      out += ",\"nsec\":";
      appendInt(v.t.nsec, out);
      out += '}';
      return;
    case Value::Kind::Bytes:
      if (bytes == BytesMode::Base64) {
        out += '"';
        out += base64(v.bytes);
        out += '"';
      } else if (v.bytes.size() > 64) {
        out += "{\"len\":";
        appendInt(v.bytes.size(), out);
        out += ",\"sha256\":\"";
        out += sha256Hex(v.bytes);
        out += "\"}";
      } else {
        out += '[';
        for (std::size_t i = 0; i < v.bytes.size(); ++i) {
          if (i) out += ',';
          appendInt(static_cast<unsigned>(v.bytes[i]), out);
        }
        out += ']';
      }
      return;
    case Value::Kind::Array:
      out += '[';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        appendJson(v.items[i], out, bytes);
      }
      out += ']';
      return;
    case Value::Kind::Struct:
      out += '{';
      for (std::size_t i = 0, shown = 0; i < v.items.size(); ++i) {
        if (v.type && i < v.type->fields.size() && v.type->fields[i].hidden) continue;
        if (shown++) out += ',';
        appendJsonString(v.type->fields[i].name, out);
        out += ':';
        appendJson(v.items[i], out, bytes);
      }
      out += '}';
      return;
  }
}

}  // namespace bagscope::decode
