// Protobuf messages (MCAP message encoding "protobuf", schema encoding "protobuf": a binary
// google.protobuf.FileDescriptorSet). libprotobuf (Debian's libprotobuf-dev) parses the
// descriptor set into a DescriptorPool; each message descriptor becomes a MessageType, its
// fields in declaration order. The messages themselves are read here from the wire format
// (varint, 64-bit, length-delimited, 32-bit; packed repeated scalars), bounds-checked, so
// that `bytes` fields are views into the message (an image's data is not copied) as for the
// other formats. Absent fields take their default (zero, empty, a default sub-message).

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <map>

#include "detail/foreign.hpp"

namespace bagscope::decode::detail {
namespace {

namespace pb = google::protobuf;
using schema::ArrayKind;
using schema::Field;
using schema::MessageType;
using schema::Primitive;

// How a field sits on the wire, beside its schema Field.
struct WireField {
  std::uint32_t number = 0;
  pb::FieldDescriptor::Type type{};
  std::uint32_t index = 0;  // in the MessageType's fields
  bool repeated = false;
};

struct WireType {
  const MessageType* type = nullptr;
  std::vector<WireField> byNumber;      // sorted by number
  std::vector<const WireType*> nested;  // per field index: its message's WireType, or null
};

// Values one decode may create at most (defaults of deep sub-messages included).
constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 24;

class SchemaBuilder {
public:
  explicit SchemaBuilder(schema::MessageSchema& out) : out_(out) {}

  Result<const WireType*> build(const pb::Descriptor* d, int depth) {
    if (auto it = built_.find(d); it != built_.end()) {
      if (!it->second->type) return fail(d, "contains itself (recursive messages are not supported)");
      return it->second;
    }
    if (depth > kMaxForeignDepth) return fail(d, "nested deeper than " + std::to_string(kMaxForeignDepth));
    wire_.push_back(std::make_unique<WireType>());
    WireType* w = wire_.back().get();
    built_[d] = w;  // type still null: in progress
    out_.types.push_back(std::make_unique<MessageType>());
    MessageType* t = out_.types.back().get();
    t->name = d->full_name();
    std::vector<const WireType*> nested;
    for (int i = 0; i < d->field_count(); ++i) {
      const pb::FieldDescriptor* fd = d->field(i);
      Field f;
      f.name = fd->name();
      f.typeText = fd->type_name();
      WireField wf{static_cast<std::uint32_t>(fd->number()), fd->type(), static_cast<std::uint32_t>(i),
                   fd->is_repeated()};
      const WireType* sub = nullptr;
      switch (fd->type()) {
        case pb::FieldDescriptor::TYPE_DOUBLE: f.type = Primitive::Float64; break;
        case pb::FieldDescriptor::TYPE_FLOAT: f.type = Primitive::Float32; break;
        case pb::FieldDescriptor::TYPE_INT64:
        case pb::FieldDescriptor::TYPE_SFIXED64:
        case pb::FieldDescriptor::TYPE_SINT64: f.type = Primitive::Int64; break;
        case pb::FieldDescriptor::TYPE_UINT64:
        case pb::FieldDescriptor::TYPE_FIXED64: f.type = Primitive::UInt64; break;
        case pb::FieldDescriptor::TYPE_INT32:
        case pb::FieldDescriptor::TYPE_SFIXED32:
        case pb::FieldDescriptor::TYPE_SINT32:
        case pb::FieldDescriptor::TYPE_ENUM: f.type = Primitive::Int32; break;
        case pb::FieldDescriptor::TYPE_UINT32:
        case pb::FieldDescriptor::TYPE_FIXED32: f.type = Primitive::UInt32; break;
        case pb::FieldDescriptor::TYPE_BOOL: f.type = Primitive::Bool; break;
        case pb::FieldDescriptor::TYPE_STRING: f.type = Primitive::String; break;
        case pb::FieldDescriptor::TYPE_BYTES:
          // bytes: a uint8 array (shown as a blob); repeated bytes: strings of those bytes.
          f.type = fd->is_repeated() ? Primitive::String : Primitive::UInt8;
          if (!fd->is_repeated()) f.array = ArrayKind::Dynamic;
          break;
        case pb::FieldDescriptor::TYPE_MESSAGE: {
          auto r = build(fd->message_type(), depth + 1);
          BAGSCOPE_TRY(r);
          sub = *r;
          f.type = Primitive::Message;
          f.message = sub->type;
          f.typeText = fd->message_type()->full_name();
          break;
        }
        case pb::FieldDescriptor::TYPE_GROUP:
          return fail(d, "field '" + fd->name() + "' is a group (proto2 groups are not supported)");
      }
      if (fd->is_repeated()) f.array = ArrayKind::Dynamic;
      t->fields.push_back(std::move(f));
      w->byNumber.push_back(wf);
      nested.push_back(sub);
    }
    std::sort(w->byNumber.begin(), w->byNumber.end(),
              [](const WireField& a, const WireField& b) { return a.number < b.number; });
    w->nested = std::move(nested);
    w->type = t;
    return w;
  }

  std::vector<std::unique_ptr<WireType>> wire_;

private:
  Error fail(const pb::Descriptor* d, const std::string& what) const {
    return makeError(ErrorCode::Schema, "protobuf message '" + d->full_name() + "' " + what);
  }

  schema::MessageSchema& out_;
  std::map<const pb::Descriptor*, WireType*> built_;
};

class WireReader {
public:
  explicit WireReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  std::string error_;
  std::size_t errorAt_ = 0;

  bool message(const WireType& w, std::size_t end, Value& out, int depth) {
    if (depth > kMaxForeignDepth) return fail("nested deeper than " + std::to_string(kMaxForeignDepth));
    while (pos_ < end) {
      std::uint64_t key;
      if (!varint(key, end)) return false;
      auto number = static_cast<std::uint32_t>(key >> 3);
      unsigned wire = key & 7;
      auto it = std::lower_bound(w.byNumber.begin(), w.byNumber.end(), number,
                                 [](const WireField& f, std::uint32_t n) { return f.number < n; });
      if (it == w.byNumber.end() || it->number != number) {
        if (!skip(wire, end)) return false;
        continue;
      }
      const Field& f = w.type->fields[it->index];
      Value& v = out.items[it->index];
      if (!fieldValue(*it, f, w.nested[it->index], wire, end, v, depth)) {
        path_ = f.name + (path_.empty() || path_.front() == '[' ? "" : ".") + path_;
        return false;
      }
    }
    return true;
  }

  // The default value of `type` into `out` (zero, empty, sub-messages by default).
  bool defaults(const WireType& w, Value& out) {
    out.kind = Value::Kind::Struct;
    out.type = w.type;
    out.items.resize(w.type->fields.size());
    if ((made_ += out.items.size()) > kMaxValues) return fail("the message type is too large");
    for (std::size_t i = 0; i < w.type->fields.size(); ++i) {
      const Field& f = w.type->fields[i];
      Value& v = out.items[i];
      if (f.isByteArray()) {
        v.kind = Value::Kind::Bytes;
      } else if (f.array != ArrayKind::None) {
        v.kind = Value::Kind::Array;
      } else if (f.type == Primitive::Message) {
        if (!defaults(*w.nested[i], v)) return false;
      } else {
        scalarKind(f.type, v);
      }
    }
    return true;
  }

  std::string path_;

private:
  bool fail(std::string what) {
    error_ = std::move(what);
    errorAt_ = pos_;
    return false;
  }

  static void scalarKind(Primitive p, Value& v) {
    switch (p) {
      case Primitive::Bool:
        v.kind = Value::Kind::Bool;
        v.b = false;
        break;
      case Primitive::Int32:
      case Primitive::Int64:
        v.kind = Value::Kind::Int;
        v.i = 0;
        break;
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
      default: v.kind = Value::Kind::String; break;
    }
  }

  bool varint(std::uint64_t& out, std::size_t end) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= end) return fail("a varint runs past the end");
      auto b = static_cast<std::uint8_t>(bytes_[pos_++]);
      out |= std::uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return fail("a varint longer than 10 bytes");
  }

  bool fixed(std::size_t n, std::uint64_t& out, std::size_t end) {
    if (end - pos_ < n) return fail("needs " + std::to_string(n) + " bytes, " + std::to_string(end - pos_) + " remain");
    out = 0;
    for (std::size_t i = 0; i < n; ++i) out |= std::uint64_t{static_cast<std::uint8_t>(bytes_[pos_ + i])} << (8 * i);
    pos_ += n;
    return true;
  }

  bool length(std::size_t& n, std::size_t end) {
    std::uint64_t len;
    if (!varint(len, end)) return false;
    if (len > end - pos_)
      return fail("length " + std::to_string(len) + " exceeds the " + std::to_string(end - pos_) + " bytes left");
    n = static_cast<std::size_t>(len);
    return true;
  }

  bool skip(unsigned wire, std::size_t end) {
    std::uint64_t ignored;
    std::size_t n;
    switch (wire) {
      case 0: return varint(ignored, end);
      case 1: return fixed(8, ignored, end);
      case 2:
        if (!length(n, end)) return false;
        pos_ += n;
        return true;
      case 5: return fixed(4, ignored, end);
      default:
        return fail("wire type " + std::to_string(wire) + " is not one protobuf writes (groups are not supported)");
    }
  }

  static unsigned wireOf(pb::FieldDescriptor::Type t) {
    switch (t) {
      case pb::FieldDescriptor::TYPE_DOUBLE:
      case pb::FieldDescriptor::TYPE_FIXED64:
      case pb::FieldDescriptor::TYPE_SFIXED64: return 1;
      case pb::FieldDescriptor::TYPE_FLOAT:
      case pb::FieldDescriptor::TYPE_FIXED32:
      case pb::FieldDescriptor::TYPE_SFIXED32: return 5;
      case pb::FieldDescriptor::TYPE_STRING:
      case pb::FieldDescriptor::TYPE_BYTES:
      case pb::FieldDescriptor::TYPE_MESSAGE: return 2;
      default: return 0;
    }
  }

  // One scalar of `wf`'s type at the cursor, into v.
  bool scalar(const WireField& wf, Value& v, std::size_t end) {
    std::uint64_t raw;
    switch (wireOf(wf.type)) {
      case 0:
        if (!varint(raw, end)) return false;
        break;
      case 1:
        if (!fixed(8, raw, end)) return false;
        break;
      default:
        if (!fixed(4, raw, end)) return false;
        break;
    }
    switch (wf.type) {
      case pb::FieldDescriptor::TYPE_DOUBLE: {
        double d;
        std::memcpy(&d, &raw, 8);
        v.kind = Value::Kind::Float;
        v.f = d;
        break;
      }
      case pb::FieldDescriptor::TYPE_FLOAT: {
        auto r32 = static_cast<std::uint32_t>(raw);
        float x;
        std::memcpy(&x, &r32, 4);
        v.kind = Value::Kind::Float;
        v.f = x;
        break;
      }
      case pb::FieldDescriptor::TYPE_INT64:
      case pb::FieldDescriptor::TYPE_SFIXED64:
        v.kind = Value::Kind::Int;
        v.i = static_cast<std::int64_t>(raw);
        break;
      case pb::FieldDescriptor::TYPE_SINT64:
        v.kind = Value::Kind::Int;
        v.i = static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
        break;
      case pb::FieldDescriptor::TYPE_INT32:
      case pb::FieldDescriptor::TYPE_SFIXED32:
      case pb::FieldDescriptor::TYPE_ENUM:
        v.kind = Value::Kind::Int;
        v.i = static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
        break;
      case pb::FieldDescriptor::TYPE_SINT32: {
        auto z = static_cast<std::uint32_t>(raw);
        v.kind = Value::Kind::Int;
        v.i = static_cast<std::int32_t>((z >> 1) ^ (~(z & 1) + 1));
        break;
      }
      case pb::FieldDescriptor::TYPE_UINT32:
      case pb::FieldDescriptor::TYPE_FIXED32:
        v.kind = Value::Kind::UInt;
        v.u = static_cast<std::uint32_t>(raw);
        break;
      case pb::FieldDescriptor::TYPE_BOOL:
        v.kind = Value::Kind::Bool;
        v.b = raw != 0;
        break;
      default:
        v.kind = Value::Kind::UInt;
        v.u = raw;
        break;  // UINT64, FIXED64
    }
    return true;
  }

  bool fieldValue(const WireField& wf, const Field& f, const WireType* sub, unsigned wire, std::size_t end, Value& v,
                  int depth) {
    unsigned expected = wireOf(wf.type);
    bool packed = wf.repeated && expected != 2 && wire == 2;
    if (wire != expected && !packed)
      return fail("wire type " + std::to_string(wire) + " where its type writes " + std::to_string(expected));
    if (++made_ > kMaxValues) return fail("more values than " + std::to_string(kMaxValues));
    if (expected == 2) {
      std::size_t n;
      if (!length(n, end)) return false;
      std::span<const std::byte> content = bytes_.subspan(pos_, n);
      std::size_t stop = pos_ + n;
      Value* target = &v;
      if (wf.repeated) {
        v.items.emplace_back();
        target = &v.items.back();
      }
      if (wf.type == pb::FieldDescriptor::TYPE_MESSAGE) {
        // A repeated element starts from its defaults; a singular one merges into what it holds.
        if ((wf.repeated || target->type == nullptr) && !defaults(*sub, *target)) return false;
        if (!message(*sub, stop, *target, depth + 1)) return false;
      } else if (f.isByteArray()) {
        target->kind = Value::Kind::Bytes;
        target->bytes = content;
      } else {
        target->kind = Value::Kind::String;
        target->text.assign(reinterpret_cast<const char*>(content.data()), content.size());
      }
      pos_ = stop;
      return true;
    }
    if (packed) {
      std::size_t n;
      if (!length(n, end)) return false;
      std::size_t stop = pos_ + n;
      while (pos_ < stop) {
        if (++made_ > kMaxValues) return fail("more values than " + std::to_string(kMaxValues));
        v.items.emplace_back();
        if (!scalar(wf, v.items.back(), stop)) return false;
      }
      return true;
    }
    if (wf.repeated) {
      v.items.emplace_back();
      return scalar(wf, v.items.back(), end);
    }
    return scalar(wf, v, end);
  }

  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
  std::uint64_t made_ = 0;
};

// The first error of a file that does not build, instead of libprotobuf's log on stderr.
struct FirstError final : pb::DescriptorPool::ErrorCollector {
  std::string first;
  void AddError(const std::string&, const std::string& element, const pb::Message*, ErrorLocation,
                const std::string& message) override {
    if (first.empty()) first = "'" + element + "': " + message;
  }
};

class ProtobufReader final : public ForeignReader {
public:
  ProtobufReader(std::shared_ptr<const schema::MessageSchema> schema, std::vector<std::unique_ptr<WireType>> wire)
      : schema_(std::move(schema)), wire_(std::move(wire)) {}

  Result<Value> decode(std::span<const std::byte> bytes) const override {
    WireReader r(bytes);
    Value root;
    const WireType& w = *wire_.front();
    if (!r.defaults(w, root) || !r.message(w, bytes.size(), root, 0)) {
      return makeError(ErrorCode::Decode, (r.path_.empty() ? "" : "field '" + r.path_ + "': ") + r.error_ +
                                              " at offset " + std::to_string(r.errorAt_) + " of " +
                                              std::to_string(bytes.size()) + "-byte message");
    }
    return root;
  }

private:
  std::shared_ptr<const schema::MessageSchema> schema_;
  std::vector<std::unique_ptr<WireType>> wire_;  // the root's first
};

}  // namespace

Result<std::shared_ptr<const Decoder>> compileProtobuf(std::string_view type, std::string_view descriptorSet) {
  auto fail = [&](const std::string& what) {
    return makeError(ErrorCode::Schema, "protobuf schema of '" + std::string(type) + "': " + what);
  };
  pb::FileDescriptorSet set;
  if (descriptorSet.size() > static_cast<std::size_t>(INT32_MAX) ||
      !set.ParseFromArray(descriptorSet.data(), static_cast<int>(descriptorSet.size())))
    return fail("the schema data is not a serialized FileDescriptorSet");
  // Files in the order given (protoc --include_imports puts dependencies first); a file
  // whose dependencies come later is tried again after them.
  pb::DescriptorPool pool;
  std::vector<const pb::FileDescriptorProto*> pending;
  for (const auto& f : set.file()) pending.push_back(&f);
  while (!pending.empty()) {
    std::vector<const pb::FileDescriptorProto*> later;
    for (const auto* f : pending) {
      bool ready = std::all_of(f->dependency().begin(), f->dependency().end(),
                               [&](const std::string& dep) { return pool.FindFileByName(dep) != nullptr; });
      if (!ready) {
        later.push_back(f);
      } else if (FirstError errors; !pool.BuildFileCollectingErrors(*f, &errors)) {
        return fail("file '" + f->name() + "' does not build: " + errors.first);
      }
    }
    if (later.size() == pending.size())
      return fail("file '" + later.front()->name() + "' imports a file the set does not hold");
    pending = std::move(later);
  }
  const pb::Descriptor* root = pool.FindMessageTypeByName(std::string(type));
  if (!root) return fail("the descriptor set has no message '" + std::string(type) + "'");
  auto schema = std::make_shared<schema::MessageSchema>();
  schema->dialect = schema::Dialect::Ros2;
  SchemaBuilder builder(*schema);
  auto w = builder.build(root, 0);
  BAGSCOPE_TRY(w);
  schema->root = (*w)->type;
  std::shared_ptr<const schema::MessageSchema> done = std::move(schema);
  return Decoder::overReader(done, WireFormat::Protobuf,
                             std::make_shared<ProtobufReader>(done, std::move(builder.wire_)));
}

}  // namespace bagscope::decode::detail
