// JSON messages (MCAP message encoding "json", schema encoding "jsonschema"). The JSON Schema
// gives the type: object properties become fields in the order the schema lists them,
// "integer" int64, "number" float64, "boolean", "string" (base64 "contentEncoding": bytes),
// "array" of its "items", nested "object"s messages of their own; "$ref" to "#/$defs/…" or
// "#/definitions/…" is followed. A message is parsed with nlohmann::json (Debian's
// nlohmann-json3-dev) and read along that type: a property the message lacks takes its zero
// value (NaN for numbers); one of the wrong kind is an error naming it.

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <map>

#include "detail/foreign.hpp"

namespace bagscope::decode::detail {
namespace {

using Json = nlohmann::ordered_json;
using schema::ArrayKind;
using schema::Field;
using schema::MessageType;
using schema::Primitive;

// A schema whose $refs fan out (each object referring to itself twice) would otherwise
// grow without bound before the depth limit is reached.
constexpr std::size_t kMaxTypes = 10000;

class SchemaBuilder {
public:
  SchemaBuilder(const Json& root, schema::MessageSchema& out) : root_(root), out_(out) {}

  Result<const MessageType*> object(const Json& node, const std::string& name, int depth) {
    if (depth > kMaxForeignDepth) return fail(name, "nested deeper than " + std::to_string(kMaxForeignDepth));
    if (out_.types.size() >= kMaxTypes) return fail(name, "more than " + std::to_string(kMaxTypes) + " object types");
    out_.types.push_back(std::make_unique<MessageType>());
    MessageType* t = out_.types.back().get();
    t->name = name;
    if (auto props = node.find("properties"); props != node.end() && props->is_object()) {
      for (const auto& [key, value] : props->items()) {
        Field f;
        f.name = key;
        BAGSCOPE_TRY(field(value, name + "." + key, f, depth));
        t->fields.push_back(std::move(f));
      }
    }
    return t;
  }

private:
  Error fail(const std::string& where, const std::string& what) const {
    return makeError(ErrorCode::Schema, "JSON Schema at '" + where + "': " + what);
  }

  Result<const Json*> follow(const Json* node, const std::string& where) const {
    for (int hops = 0; node->is_object() && node->contains("$ref"); ++hops) {
      if (hops > kMaxForeignDepth) return fail(where, "$ref chain too long");
      const Json& ref = (*node)["$ref"];
      if (!ref.is_string()) return fail(where, "$ref is not a string");
      std::string r = ref.get<std::string>();
      const Json* target = nullptr;
      for (const char* prefix : {"#/$defs/", "#/definitions/"}) {
        std::string p = prefix;
        if (r.rfind(p, 0) == 0) {
          auto defs = root_.find(p.substr(2, p.size() - 3));
          if (defs != root_.end() && defs->is_object()) {
            auto it = defs->find(r.substr(p.size()));
            if (it != defs->end()) target = &*it;
          }
        }
      }
      if (r == "#") target = &root_;
      if (!target) return fail(where, "$ref '" + r + "' is not defined in the schema");
      node = target;
    }
    return node;
  }

  static std::string kindOf(const Json& node) {
    if (auto t = node.find("type"); t != node.end()) {
      if (t->is_string()) return t->get<std::string>();
      if (t->is_array())
        for (const auto& k : *t)
          if (k.is_string() && k.get<std::string>() != "null") return k.get<std::string>();
    }
    if (node.contains("properties")) return "object";
    if (node.contains("items")) return "array";
    if (auto e = node.find("enum"); e != node.end() && e->is_array() && !e->empty()) {
      const Json& first = e->front();
      return first.is_number_integer() ? "integer"
             : first.is_number()       ? "number"
             : first.is_boolean()      ? "boolean"
                                       : "string";
    }
    if (node.contains("const")) return node["const"].is_number() ? "number" : "string";
    return "";
  }

  Result<void> field(const Json& raw, const std::string& where, Field& f, int depth) {
    auto node = follow(&raw, where);
    BAGSCOPE_TRY(node);
    std::string kind = kindOf(**node);
    if (kind == "array") {
      if (f.array != ArrayKind::None) return fail(where, "arrays of arrays are not supported");
      f.array = ArrayKind::Dynamic;
      auto items = (*node)->find("items");
      if (items == (*node)->end() || !items->is_object()) return fail(where, "an array without 'items'");
      if (auto r = field(*items, where + "[]", f, depth + 1); !r) return r;
      f.typeText = f.typeText + "[]";
      return {};
    }
    f.typeText = kind.empty() ? "any" : kind;
    if (kind == "object") {
      auto t = object(**node, where, depth + 1);
      BAGSCOPE_TRY(t);
      f.type = Primitive::Message;
      f.message = *t;
    } else if (kind == "integer") {
      f.type = Primitive::Int64;
    } else if (kind == "number") {
      f.type = Primitive::Float64;
    } else if (kind == "boolean") {
      f.type = Primitive::Bool;
    } else if (kind == "string" && (*node)->value("contentEncoding", "") == "base64" && f.array == ArrayKind::None) {
      f.type = Primitive::UInt8;  // bytes: a uint8 array
      f.array = ArrayKind::Dynamic;
      f.typeText = "bytes";
    } else {
      f.type = Primitive::String;  // strings, and values of no declared type (kept as JSON text)
    }
    return {};
  }

  const Json& root_;
  schema::MessageSchema& out_;
};

// Reads a parsed message along the schema's type.
class Reader {
public:
  std::string error_;

  bool message(const Json* node, const MessageType& type, Value& out, int depth, const std::string& path) {
    out.kind = Value::Kind::Struct;
    out.type = &type;
    out.items.resize(type.fields.size());
    if (node && !node->is_object()) return fail(path, "expected an object", *node);
    for (std::size_t i = 0; i < type.fields.size(); ++i) {
      const Field& f = type.fields[i];
      const Json* child = nullptr;
      if (node) {
        auto it = node->find(f.name);
        if (it != node->end() && !it->is_null()) child = &*it;
      }
      if (!value(child, f, out.items[i], depth, path.empty() ? f.name : path + "." + f.name)) return false;
    }
    return true;
  }

private:
  bool fail(const std::string& path, const std::string& what, const Json& found) {
    error_ = "field '" + path + "': " + what + ", found " + std::string(found.type_name());
    return false;
  }

  bool value(const Json* node, const Field& f, Value& v, int depth, const std::string& path) {
    if (depth > kMaxForeignDepth) {
      error_ = "field '" + path + "': nested deeper than " + std::to_string(kMaxForeignDepth);
      return false;
    }
    if (f.array == ArrayKind::None) return element(node, f, v, depth, path);
    v.kind = Value::Kind::Array;
    if (!node) return true;
    if (f.isByteArray() && f.typeText == "bytes") return bytes(*node, v, path);
    if (!node->is_array()) return fail(path, "expected an array", *node);
    v.items.resize(node->size());
    for (std::size_t i = 0; i < node->size(); ++i) {
      const Json& item = (*node)[i];
      if (!element(item.is_null() ? nullptr : &item, f, v.items[i], depth + 1, path + "[" + std::to_string(i) + "]"))
        return false;
    }
    return true;
  }

  // base64 text as a uint8 array (Value items: JSON has no buffer a byte view could point into).
  bool bytes(const Json& node, Value& v, const std::string& path) {
    if (!node.is_string()) return fail(path, "expected base64 text", node);
    static const auto kDigit = [] {
      std::array<int, 256> d{};
      d.fill(-1);
      const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
      for (int i = 0; i < 64; ++i) d[static_cast<unsigned char>(a[i])] = i;
      return d;
    }();
    const std::string& text = node.get_ref<const std::string&>();
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
      if (c == '=') break;
      int d = kDigit[static_cast<unsigned char>(c)];
      if (d < 0) {
        error_ = "field '" + path + "': not base64 text";
        return false;
      }
      acc = (acc << 6) | static_cast<std::uint32_t>(d);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        Value b;
        b.kind = Value::Kind::UInt;
        b.u = (acc >> bits) & 0xFF;
        v.items.push_back(std::move(b));
      }
    }
    return true;
  }

  bool element(const Json* node, const Field& f, Value& v, int depth, const std::string& path) {
    switch (f.type) {
      case Primitive::Message: return message(node, *f.message, v, depth + 1, path);
      case Primitive::Bool:
        v.kind = Value::Kind::Bool;
        v.b = false;
        if (node && !node->is_boolean()) return fail(path, "expected a boolean", *node);
        if (node) v.b = node->get<bool>();
        return true;
      case Primitive::Int64:
        v.kind = Value::Kind::Int;
        v.i = 0;
        if (!node) return true;
        if (node->is_number_unsigned() &&
            node->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
          v.kind = Value::Kind::UInt;
          v.u = node->get<std::uint64_t>();
          return true;
        }
        if (!node->is_number_integer()) return fail(path, "expected an integer", *node);
        v.i = node->get<std::int64_t>();
        return true;
      case Primitive::Float64:
        v.kind = Value::Kind::Float;
        v.f = std::numeric_limits<double>::quiet_NaN();
        if (!node) return true;
        if (!node->is_number()) return fail(path, "expected a number", *node);
        v.f = node->get<double>();
        return true;
      default:
        v.kind = Value::Kind::String;
        if (node) v.text = node->is_string() ? node->get<std::string>() : node->dump();
        return true;
    }
  }
};

class JsonReader final : public ForeignReader {
public:
  explicit JsonReader(std::shared_ptr<const schema::MessageSchema> schema) : schema_(std::move(schema)) {}
  Result<Value> decode(std::span<const std::byte> bytes) const override {
    auto text = std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded())
      return makeError(ErrorCode::Decode, "the " + std::to_string(bytes.size()) + "-byte message is not valid JSON");
    Reader r;
    Value root;
    if (!r.message(&doc, *schema_->root, root, 0, "")) return makeError(ErrorCode::Decode, r.error_);
    return root;
  }

private:
  std::shared_ptr<const schema::MessageSchema> schema_;
};

}  // namespace

Result<std::shared_ptr<const Decoder>> compileJson(std::string_view type, std::string_view jsonSchema) {
  Json root = Json::parse(jsonSchema.begin(), jsonSchema.end(), nullptr, false);
  if (root.is_discarded() || !root.is_object())
    return makeError(ErrorCode::Schema, "the JSON Schema of '" + std::string(type) + "' is not a JSON object");
  auto schema = std::make_shared<schema::MessageSchema>();
  schema->dialect = schema::Dialect::Ros2;
  SchemaBuilder builder(root, *schema);
  auto t = builder.object(root, std::string(type), 0);
  BAGSCOPE_TRY(t);
  schema->root = *t;
  std::shared_ptr<const schema::MessageSchema> done = std::move(schema);
  return Decoder::overReader(done, WireFormat::Json, std::make_shared<JsonReader>(done));
}

}  // namespace bagscope::decode::detail
