// MessagePath: Foxglove's message path syntax, parsed and checked against a message type once,
// then walked over decoded Values. Field names are resolved to field indexes when compiling,
// so that selecting is index lookups, comparisons and copies of numbers.

#include <charconv>
#include <cmath>
#include <limits>

#include <fast_float/fast_float.h>

#include "decoder.hpp"

namespace bagscope::decode {

using schema::ArrayKind;
using schema::Field;
using schema::MessageType;
using schema::Primitive;

namespace {

// ROS 2 times are messages (int32 sec, uint32 nanosec); reached as a leaf they are seconds.
bool isRos2Time(const MessageType* type) {
  return type && (type->name == "builtin_interfaces/Time" || type->name == "builtin_interfaces/Duration" ||
                  type->name == "builtin_interfaces/msg/Time" || type->name == "builtin_interfaces/msg/Duration");
}

double numberOf(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Bool: return v.b ? 1 : 0;
    case Value::Kind::Int: return static_cast<double>(v.i);
    case Value::Kind::UInt: return static_cast<double>(v.u);
    case Value::Kind::Float: return v.f;
    case Value::Kind::Time:
    case Value::Kind::Duration: return static_cast<double>(v.t.sec) + static_cast<double>(v.t.nsec) / 1e9;
    case Value::Kind::Struct:
      if (v.items.size() == 2) return numberOf(v.items[0]) + numberOf(v.items[1]) / 1e9;  // a ROS 2 time
      break;
    default: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdent(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }

}  // namespace

struct MessagePath::Program {
  enum class Compare : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
  struct Filter {
    std::vector<std::uint32_t> fields;  // from the filtered struct to the compared leaf
    Compare compare = Compare::Eq;
    bool text = false;  // compares strings, else numbers
    double number = 0;
    std::string literal;
  };
  struct Step {
    enum class Kind : std::uint8_t { Field, Index, Slice, Filter };
    Kind kind = Kind::Field;
    std::uint32_t field = 0;            // Field
    std::int64_t lo = 0, hi = 0;        // Index (lo), Slice (inclusive)
    bool loSet = false, hiSet = false;  // Slice: [:hi], [lo:], [:]
    Filter filter;                      // Filter
  };
  std::string text;
  std::vector<Step> steps;
  bool textLeaf = false;

  void walk(const Value& v, std::size_t at, std::vector<Leaf>& out) const;
  bool passes(const Value& v, const Filter& f) const;
};

namespace {

// The parser: a cursor over the text and the type of what the path reaches so far.
class Parser {
public:
  Parser(std::string_view text, const MessageType& root) : text_(text), type_(&root) {}

  Result<std::unique_ptr<MessagePath::Program>> run() {
    auto prog = std::make_unique<MessagePath::Program>();
    prog->text = std::string(text_);
    bool first = true;
    while (true) {
      skipSpace();
      if (pos_ == text_.size()) break;
      char c = text_[pos_];
      if (c == '{') {
        if (state_ != State::Struct) return fail("a filter applies to a message or to elements picked with [:]");
        ++pos_;
        auto f = filter();
        BAGSCOPE_TRY(f);
        MessagePath::Program::Step s;
        s.kind = MessagePath::Program::Step::Kind::Filter;
        s.filter = std::move(*f);
        prog->steps.push_back(std::move(s));
      } else if (c == '[') {
        if (state_ != State::Array)
          return fail(state_ == State::Struct ? "'[' after a message, not an array"
                                              : "'[' after a single value, not an array");
        ++pos_;
        auto s = bracket();
        BAGSCOPE_TRY(s);
        prog->steps.push_back(*s);
        enterElement();
      } else {
        if (state_ == State::Array)
          return fail("'" + fieldName_ + "' is an array: pick elements first, e.g. [0] or [:]");
        if (state_ == State::Leaf) return fail("'" + fieldName_ + "' has no fields");
        if (c == '.') {
          if (first) return fail("a path starts with a field name");
          ++pos_;
          skipSpace();
        } else if (!first) {
          return fail("expected '.', '[' or '{'");
        }
        std::size_t at = pos_;
        auto name = ident();
        if (name.empty()) return fail("expected a field name");
        auto idx = fieldIndex(*type_, name);
        if (!idx) return failAt(at, "'" + type_->name + "' has no field '" + std::string(name) + "'");
        MessagePath::Program::Step s;
        s.kind = MessagePath::Program::Step::Kind::Field;
        s.field = *idx;
        prog->steps.push_back(s);
        enterField(type_->fields[*idx]);
      }
      first = false;
    }
    if (prog->steps.empty()) return fail("the path is empty");
    if (state_ == State::Array)
      return fail("'" + fieldName_ + "' is an array: pick elements, e.g. " + fieldName_ + "[0] or " + fieldName_ +
                  "[:]");
    if (state_ == State::Struct && !isRos2Time(type_))
      return fail("'" + fieldName_ + "' is a message (" + type_->name + "), not a value: add a field");
    prog->textLeaf = state_ == State::Leaf && leaf_ == Primitive::String;
    return prog;
  }

private:
  enum class State : std::uint8_t { Struct, Array, Leaf };

  Error failAt(std::size_t at, std::string why) const {
    return makeError(ErrorCode::InvalidArgument,
                     "path '" + std::string(text_) + "' at column " + std::to_string(at + 1) + ": " + why);
  }
  Error fail(std::string why) const { return failAt(pos_, std::move(why)); }

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  std::string_view ident() {
    std::size_t b = pos_;
    if (pos_ < text_.size() && isIdentStart(text_[pos_]))
      while (pos_ < text_.size() && isIdent(text_[pos_])) ++pos_;
    return text_.substr(b, pos_ - b);
  }
  static std::optional<std::uint32_t> fieldIndex(const MessageType& type, std::string_view name) {
    for (std::uint32_t i = 0; i < type.fields.size(); ++i)
      if (type.fields[i].name == name) return i;
    return std::nullopt;
  }
  void enterField(const Field& f) {
    field_ = &f;
    fieldName_ = f.name;
    if (f.array != ArrayKind::None) state_ = State::Array;
    else enterElement();
  }
  void enterElement() {
    if (field_->type == Primitive::Message) {
      type_ = field_->message;
      state_ = State::Struct;
    } else {
      leaf_ = field_->type;
      state_ = State::Leaf;
    }
  }
  std::optional<std::int64_t> integer() {
    skipSpace();
    std::int64_t v = 0;
    auto r = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (r.ec != std::errc() || r.ptr == text_.data() + pos_) return std::nullopt;
    pos_ = static_cast<std::size_t>(r.ptr - text_.data());
    skipSpace();
    return v;
  }
  Result<MessagePath::Program::Step> bracket() {
    using Step = MessagePath::Program::Step;
    Step s;
    auto lo = integer();
    if (pos_ < text_.size() && text_[pos_] == ':') {
      ++pos_;
      s.kind = Step::Kind::Slice;
      s.loSet = lo.has_value();
      s.lo = lo.value_or(0);
      auto hi = integer();
      s.hiSet = hi.has_value();
      s.hi = hi.value_or(0);
    } else if (lo) {
      s.kind = Step::Kind::Index;
      s.lo = *lo;
    } else {
      return fail("expected an index or a slice like 0:10 or :");
    }
    if (pos_ >= text_.size() || text_[pos_] != ']') return fail("expected ']'");
    ++pos_;
    return s;
  }
  Result<MessagePath::Program::Filter> filter() {
    using Filter = MessagePath::Program::Filter;
    using Compare = MessagePath::Program::Compare;
    Filter f;
    const MessageType* type = type_;
    const Field* leaf = nullptr;
    while (true) {
      skipSpace();
      std::size_t at = pos_;
      auto name = ident();
      if (name.empty()) return fail("expected a field name in the filter");
      auto idx = fieldIndex(*type, name);
      if (!idx) return failAt(at, "'" + type->name + "' has no field '" + std::string(name) + "'");
      leaf = &type->fields[*idx];
      f.fields.push_back(*idx);
      if (leaf->array != ArrayKind::None)
        return failAt(at, "a filter compares a single field, '" + leaf->name + "' is an array");
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == '.') {
        if (leaf->type != Primitive::Message || isRos2Time(leaf->message))
          return fail("'" + leaf->name + "' has no fields");
        type = leaf->message;
        ++pos_;
        continue;
      }
      break;
    }
    if (leaf->type == Primitive::Message && !isRos2Time(leaf->message))
      return fail("'" + leaf->name + "' is a message: compare one of its fields");
    static constexpr std::pair<std::string_view, Compare> kOps[] = {{"==", Compare::Eq}, {"!=", Compare::Ne},
                                                                    {"<=", Compare::Le}, {">=", Compare::Ge},
                                                                    {"<", Compare::Lt},  {">", Compare::Gt}};
    bool found = false;
    for (auto [op, cmp] : kOps)
      if (text_.substr(pos_, op.size()) == op) {
        f.compare = cmp;
        pos_ += op.size();
        found = true;
        break;
      }
    if (!found) return fail("expected ==, !=, <, <=, > or >=");
    skipSpace();
    std::size_t litAt = pos_;
    bool isText = leaf->type == Primitive::String;
    if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'')) {
      char quote = text_[pos_++];
      auto end = text_.find(quote, pos_);
      if (end == std::string_view::npos) return failAt(litAt, "the string is not closed");
      f.literal = std::string(text_.substr(pos_, end - pos_));
      pos_ = end + 1;
      if (!isText) return failAt(litAt, "'" + leaf->name + "' is a number, compared with a string");
      f.text = true;
    } else if (text_.substr(pos_, 4) == "true" || text_.substr(pos_, 5) == "false") {
      f.number = text_[pos_] == 't' ? 1 : 0;
      pos_ += text_[pos_] == 't' ? 4 : 5;
      if (isText) return failAt(litAt, "'" + leaf->name + "' is a string, compared with a boolean");
    } else {
      const char* b = text_.data() + pos_;
      auto r = fast_float::from_chars(b, text_.data() + text_.size(), f.number);  // portable, exact
      if (r.ec != std::errc() || r.ptr == b) return failAt(litAt, "expected a number, a quoted string, true or false");
      pos_ = static_cast<std::size_t>(r.ptr - text_.data());
      if (isText) return failAt(litAt, "'" + leaf->name + "' is a string, compared with a number");
    }
    if (f.text && f.compare != Compare::Eq && f.compare != Compare::Ne)
      return failAt(litAt, "strings compare with == or != only");
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '}') return fail("expected '}'");
    ++pos_;
    return f;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  State state_ = State::Struct;
  const MessageType* type_;
  const Field* field_ = nullptr;
  std::string fieldName_ = "the message";
  Primitive leaf_ = Primitive::Float64;
};

}  // namespace

bool MessagePath::Program::passes(const Value& v, const Filter& f) const {
  const Value* at = &v;
  for (std::uint32_t idx : f.fields) {
    if (at->kind != Value::Kind::Struct || idx >= at->items.size()) return false;
    at = &at->items[idx];
  }
  if (f.text) {
    bool eq = at->kind == Value::Kind::String && at->text == f.literal;
    return f.compare == Compare::Eq ? eq : !eq;
  }
  double x = numberOf(*at);
  switch (f.compare) {
    case Compare::Eq: return x == f.number;
    case Compare::Ne: return x != f.number;
    case Compare::Lt: return x < f.number;
    case Compare::Le: return x <= f.number;
    case Compare::Gt: return x > f.number;
    case Compare::Ge: return x >= f.number;
  }
  return false;
}

void MessagePath::Program::walk(const Value& v, std::size_t at, std::vector<Leaf>& out) const {
  if (at == steps.size()) {
    if (v.kind == Value::Kind::String) out.push_back({std::numeric_limits<double>::quiet_NaN(), v.text});
    else
      out.push_back(
          {numberOf(v), {}, v.kind == Value::Kind::Bool || v.kind == Value::Kind::Int || v.kind == Value::Kind::UInt});
    return;
  }
  const Step& s = steps[at];
  switch (s.kind) {
    case Step::Kind::Field:
      if (v.kind == Value::Kind::Struct && s.field < v.items.size()) walk(v.items[s.field], at + 1, out);
      return;
    case Step::Kind::Filter:
      if (passes(v, s.filter)) walk(v, at + 1, out);
      return;
    case Step::Kind::Index:
    case Step::Kind::Slice: {
      bool bytes = v.kind == Value::Kind::Bytes;
      if (!bytes && v.kind != Value::Kind::Array) return;
      const auto n = static_cast<std::int64_t>(bytes ? v.bytes.size() : v.items.size());
      auto resolve = [n](std::int64_t i) { return i < 0 ? n + i : i; };
      std::int64_t lo = resolve(s.lo), hi = s.kind == Step::Kind::Index ? lo : s.hiSet ? resolve(s.hi) : n - 1;
      if (s.kind == Step::Kind::Slice && !s.loSet) lo = 0;
      lo = std::max<std::int64_t>(lo, 0);
      hi = std::min<std::int64_t>(hi, n - 1);
      for (std::int64_t i = lo; i <= hi; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (!bytes) {
          walk(v.items[k], at + 1, out);
        } else {
          Value b;
          b.kind = Value::Kind::UInt;
          b.u = static_cast<std::uint8_t>(v.bytes[k]);
          walk(b, at + 1, out);
        }
      }
      return;
    }
  }
}

Result<MessagePath> MessagePath::compile(std::string_view text, const schema::MessageType& root) {
  auto prog = Parser(text, root).run();
  BAGSCOPE_TRY(prog);
  MessagePath path;
  path.program_ = std::move(prog).value();
  return path;
}

bool MessagePath::isPlain(std::string_view text) {
  bool inBracket = false;
  for (char c : text) {
    if (c == '[') inBracket = true;
    else if (c == ']') inBracket = false;
    else if (inBracket ? !(c >= '0' && c <= '9') : !(isIdent(c) || c == '.')) return false;
  }
  return !text.empty() && !inBracket;
}

std::vector<std::string> MessagePath::expandSlices(std::string_view text, std::size_t limit) {
  // The first [a:b] with both bounds written and not negative.
  for (std::size_t open = text.find('['); open != std::string_view::npos; open = text.find('[', open + 1)) {
    auto close = text.find(']', open);
    if (close == std::string_view::npos) break;
    std::string_view inside = text.substr(open + 1, close - open - 1);
    auto colon = inside.find(':');
    if (colon == std::string_view::npos) continue;
    std::uint32_t lo = 0, hi = 0;
    auto a = std::from_chars(inside.data(), inside.data() + colon, lo);
    auto b = std::from_chars(inside.data() + colon + 1, inside.data() + inside.size(), hi);
    if (a.ec != std::errc() || a.ptr != inside.data() + colon || b.ec != std::errc() ||
        b.ptr != inside.data() + inside.size() || colon == 0 || colon + 1 == inside.size() || hi < lo)
      continue;
    std::vector<std::string> out;
    for (std::uint64_t i = lo; i <= hi && out.size() < limit; ++i) {
      std::string one = std::string(text.substr(0, open + 1)) + std::to_string(i) + std::string(text.substr(close));
      for (auto& more : expandSlices(one, limit - out.size())) out.push_back(std::move(more));
    }
    return out;
  }
  return {std::string(text)};
}

MessagePath::MessagePath(MessagePath&&) noexcept = default;
MessagePath& MessagePath::operator=(MessagePath&&) noexcept = default;
MessagePath::~MessagePath() = default;

const std::string& MessagePath::text() const { return program_->text; }
bool MessagePath::textLeaf() const { return program_->textLeaf; }

void MessagePath::select(const Value& message, std::vector<Leaf>& out) const { program_->walk(message, 0, out); }

}  // namespace bagscope::decode
