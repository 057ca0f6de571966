// The subset of OMG IDL 4.2 that rosidl generates for ROS 2 interfaces (rosidl_adapter's
// msg.idl.em): modules, structs, typedefs (of arrays, mostly), constant modules
// ("Type_Constants"), enums, sequences bounded and unbounded, fixed arrays, bounded strings
// and wstrings, annotations (@default, @key, @verbatim, ... are skipped). rosbag2 and MCAP
// store it as sections "=====...", "IDL: pkg/msg/Type", then the file's text; the sections are
// read as one document (every name in them is fully scoped).

#include <charconv>
#include <map>
#include <optional>

#include "detail/schema_rules.hpp"
#include "schema.hpp"

namespace bagscope::schema {
namespace {

constexpr int kMaxNesting = 64;

struct Token {
  enum class Kind : std::uint8_t { Word, Number, Text, Punct, End };
  Kind kind = Kind::End;
  std::string text;  // a word ("a::b::C" joined), a number, a string's contents, or one punctuation
  std::size_t line = 0;
};

// Splits the text into tokens; skips comments, preprocessor lines and section headers.
Result<std::vector<Token>> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0, line = 1;
  auto fail = [&](const std::string& what) {
    return makeError(ErrorCode::Schema, "IDL line " + std::to_string(line) + ": " + what);
  };
  auto atLineStart = [&](std::size_t at) {
    while (at > 0 && (s[at - 1] == ' ' || s[at - 1] == '\t')) --at;
    return at == 0 || s[at - 1] == '\n';
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
    } else if (s.compare(i, 2, "//") == 0 ||
               (atLineStart(i) && (c == '#' || s.compare(i, 3, "===") == 0 || s.compare(i, 4, "IDL:") == 0))) {
      while (i < s.size() && s[i] != '\n') ++i;  // comment, #include/#pragma, section header
    } else if (s.compare(i, 2, "/*") == 0) {
      auto end = s.find("*/", i + 2);
      if (end == std::string_view::npos) return fail("comment not closed");
      for (std::size_t k = i; k < end; ++k) line += s[k] == '\n';
      i = end + 2;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (c == ':' && s.compare(i, 2, "::") == 0)) {
      Token t{Token::Kind::Word, {}, line};
      while (i < s.size()) {
        if (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_') {
          t.text += s[i++];
        } else if (s.compare(i, 2, "::") == 0) {
          t.text += "::";
          i += 2;
        } else {
          break;
        }
      }
      out.push_back(std::move(t));
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               ((c == '-' || c == '+' || c == '.') && i + 1 < s.size() &&
                (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '.'))) {
      Token t{Token::Kind::Number, {}, line};
      t.text += s[i++];
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                              ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        t.text += s[i++];
      out.push_back(std::move(t));
    } else if (c == '"' || (c == 'L' && i + 1 < s.size() && s[i + 1] == '"')) {
      // String literal; adjacent literals ("a" "b") are one string.
      Token t{Token::Kind::Text, {}, line};
      while (i < s.size() && (s[i] == '"' || (s[i] == 'L' && i + 1 < s.size() && s[i + 1] == '"'))) {
        if (s[i] == 'L') ++i;
        ++i;
        while (true) {
          if (i >= s.size()) return fail("string not closed");
          char ch = s[i++];
          if (ch == '"') break;
          if (ch == '\n') ++line;
          if (ch == '\\' && i < s.size()) {
            char e = s[i++];
            t.text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
          } else {
            t.text += ch;
          }
        }
        std::size_t k = i;
        while (k < s.size() && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r' || s[k] == '\n')) ++k;
        if (k < s.size() && s[k] == '"') {
          for (std::size_t m = i; m < k; ++m) line += s[m] == '\n';
          i = k;
        }
      }
      out.push_back(std::move(t));
    } else if (c == '\'') {
      // Character literal: kept as its text.
      auto end = s.find('\'', i + 1);
      if (end == std::string_view::npos) return fail("character literal not closed");
      out.push_back({Token::Kind::Text, std::string(s.substr(i + 1, end - i - 1)), line});
      i = end + 1;
    } else if (std::string_view("{}[]()<>;,=@:").find(c) != std::string_view::npos) {
      out.push_back({Token::Kind::Punct, std::string(1, c), line});
      ++i;
    } else {
      return fail(std::string("unexpected character '") + c + "'");
    }
  }
  out.push_back({Token::Kind::End, {}, line});
  return out;
}

// A type as written: a base name (keyword or scoped name), its bound, or a sequence of one.
struct TypeSpec {
  std::string name;                   // "double", "string", "sequence", "a::b::C"
  std::uint32_t bound = 0;            // string<N>, sequence<T, N>
  std::unique_ptr<TypeSpec> element;  // sequence
};

struct Member {
  std::shared_ptr<TypeSpec> type;
  std::string name;
  std::vector<std::uint32_t> dims;
  std::string scope;  // where it was declared, for name lookup
  std::size_t line;
};

struct StructDecl {
  std::string scope;  // "a::b"
  std::string name;
  std::vector<Member> members;
};

struct TypedefDecl {
  std::shared_ptr<TypeSpec> type;
  std::vector<std::uint32_t> dims;
  std::string scope;
};

struct ConstDecl {
  std::string scope;  // of the module holding it ("pkg::msg::Type_Constants")
  std::shared_ptr<TypeSpec> type;
  std::string name, value;
};

class IdlParser {
public:
  explicit IdlParser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Result<void> parseDocument() { return definitions("", 0, true); }

  std::map<std::string, StructDecl> structs;  // by full name "a::b::C"
  std::vector<std::string> structOrder;
  std::map<std::string, TypedefDecl> typedefs;
  std::map<std::string, std::string> enums;  // full name -> scope
  std::vector<ConstDecl> constants;

private:
  const Token& peek() const { return t_[pos_]; }
  const Token& next() { return t_[pos_ < t_.size() - 1 ? pos_++ : pos_]; }
  bool isPunct(const char* p) const { return peek().kind == Token::Kind::Punct && peek().text == p; }
  bool isWord(const char* w) const { return peek().kind == Token::Kind::Word && peek().text == w; }
  Error fail(const std::string& what) const {
    return makeError(ErrorCode::Schema,
                     "IDL line " + std::to_string(peek().line) + ": " + what +
                         (peek().kind == Token::Kind::End ? " (at the end)" : ", found '" + peek().text + "'"));
  }
  Result<void> expect(const char* p) {
    if (!isPunct(p)) return fail(std::string("expected '") + p + "'");
    next();
    return {};
  }
  Result<std::string> word(const char* what) {
    if (peek().kind != Token::Kind::Word) return fail(std::string("expected ") + what);
    return next().text;
  }
  static std::string join(const std::string& scope, const std::string& name) {
    return scope.empty() ? name : scope + "::" + name;
  }

  // @name or @name(...) with balanced parentheses.
  Result<void> skipAnnotations() {
    while (isPunct("@")) {
      next();
      BAGSCOPE_TRY(word("an annotation name"));
      if (isPunct("(")) {
        int depth = 0;
        do {
          if (peek().kind == Token::Kind::End) return fail("annotation not closed");
          if (isPunct("(")) ++depth;
          if (isPunct(")")) --depth;
          next();
        } while (depth > 0);
      }
    }
    return {};
  }

  Result<void> definitions(const std::string& scope, int depth, bool topLevel) {
    if (depth > kMaxNesting) return fail("modules nested deeper than " + std::to_string(kMaxNesting));
    while (true) {
      if (auto r = skipAnnotations(); !r) return r;
      if (topLevel ? peek().kind == Token::Kind::End : isPunct("}")) return {};
      if (isPunct(";")) {
        next();
        continue;
      }
      auto kw = word("a definition (module, struct, typedef, const, enum)");
      BAGSCOPE_TRY(kw);
      Result<void> r;
      if (*kw == "module") r = module(scope, depth);
      else if (*kw == "struct") r = structure(scope);
      else if (*kw == "typedef") r = typedefinition(scope);
      else if (*kw == "const") r = constant(scope);
      else if (*kw == "enum") r = enumeration(scope);
      else
        return makeError(ErrorCode::Schema, "IDL line " + std::to_string(t_[pos_ - 1].line) + ": '" + *kw +
                                                "' definitions are not supported");
      if (!r) return r;
    }
  }

  Result<void> module(const std::string& scope, int depth) {
    auto name = word("a module name");
    BAGSCOPE_TRY(name);
    if (auto r = expect("{"); !r) return r;
    if (auto r = definitions(join(scope, *name), depth + 1, false); !r) return r;
    if (auto r = expect("}"); !r) return r;
    return expect(";");
  }

  Result<std::shared_ptr<TypeSpec>> typeSpec(int depth = 0) {
    if (depth > kMaxNesting) return fail("sequences nested too deep");
    auto spec = std::make_shared<TypeSpec>();
    auto w = word("a type");
    BAGSCOPE_TRY(w);
    spec->name = *w;
    // Multi-word integer types.
    if (spec->name == "unsigned") {
      auto w2 = word("short, long or long long");
      BAGSCOPE_TRY(w2);
      spec->name = "unsigned " + *w2;
      if (*w2 == "long" && isWord("long")) spec->name = "unsigned long long", next();
    } else if (spec->name == "long" && isWord("long")) {
      next();
      spec->name = "long long";
    } else if (spec->name == "long" && isWord("double")) {
      return fail("long double is not supported");
    }
    if (spec->name == "sequence") {
      BAGSCOPE_TRY(expect("<"));
      auto element = typeSpec(depth + 1);
      BAGSCOPE_TRY(element);
      spec->element = std::make_unique<TypeSpec>(std::move(**element));
      if (isPunct(",")) {
        next();
        auto n = number();
        BAGSCOPE_TRY(n);
        spec->bound = *n;
      }
      BAGSCOPE_TRY(expect(">"));
    } else if ((spec->name == "string" || spec->name == "wstring") && isPunct("<")) {
      next();
      auto n = number();
      BAGSCOPE_TRY(n);
      spec->bound = *n;
      BAGSCOPE_TRY(expect(">"));
    }
    return spec;
  }

  Result<std::uint32_t> number() {
    if (peek().kind != Token::Kind::Number) return fail("expected a number");
    const std::string& text = next().text;
    std::uint32_t v = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
      return makeError(ErrorCode::Schema,
                       "IDL line " + std::to_string(t_[pos_ - 1].line) + ": '" + text + "' is not a length");
    return v;
  }

  Result<std::vector<std::uint32_t>> dimensions() {
    std::vector<std::uint32_t> dims;
    while (isPunct("[")) {
      next();
      auto n = number();
      BAGSCOPE_TRY(n);
      dims.push_back(*n);
      BAGSCOPE_TRY(expect("]"));
    }
    return dims;
  }

  Result<void> structure(const std::string& scope) {
    auto name = word("a struct name");
    BAGSCOPE_TRY(name);
    if (isPunct(";")) {  // forward declaration
      next();
      return {};
    }
    if (isPunct(":")) return fail("struct inheritance is not supported");
    StructDecl decl{scope, *name, {}};
    if (auto r = expect("{"); !r) return r;
    while (true) {
      if (auto r = skipAnnotations(); !r) return r;
      if (isPunct("}")) break;
      std::size_t line = peek().line;
      auto type = typeSpec();
      BAGSCOPE_TRY(type);
      // One type, several declarators: "double x, y;".
      while (true) {
        auto member = word("a member name");
        BAGSCOPE_TRY(member);
        auto dims = dimensions();
        BAGSCOPE_TRY(dims);
        decl.members.push_back({*type, *member, std::move(*dims), scope, line});
        if (!isPunct(",")) break;
        next();
      }
      if (auto r = expect(";"); !r) return r;
    }
    next();
    if (auto r = expect(";"); !r) return r;
    std::string full = join(scope, *name);
    if (!structs.count(full)) structOrder.push_back(full);
    structs[full] = std::move(decl);
    return {};
  }

  Result<void> typedefinition(const std::string& scope) {
    auto type = typeSpec();
    BAGSCOPE_TRY(type);
    auto name = word("a typedef name");
    BAGSCOPE_TRY(name);
    auto dims = dimensions();
    BAGSCOPE_TRY(dims);
    typedefs[join(scope, *name)] = {*type, std::move(*dims), scope};
    return expect(";");
  }

  Result<void> constant(const std::string& scope) {
    auto type = typeSpec();
    BAGSCOPE_TRY(type);
    auto name = word("a constant name");
    BAGSCOPE_TRY(name);
    if (auto r = expect("="); !r) return r;
    // The value: everything up to ';' (a literal, possibly signed or an expression).
    std::string value;
    while (!isPunct(";")) {
      if (peek().kind == Token::Kind::End) return fail("constant not ended by ';'");
      value += next().text;
    }
    next();
    constants.push_back({scope, *type, *name, std::move(value)});
    return {};
  }

  Result<void> enumeration(const std::string& scope) {
    auto name = word("an enum name");
    BAGSCOPE_TRY(name);
    if (auto r = expect("{"); !r) return r;
    while (!isPunct("}")) {
      if (auto r = skipAnnotations(); !r) return r;
      BAGSCOPE_TRY(word("an enumerator"));
      if (isPunct(",")) next();
      else if (!isPunct("}")) return fail("expected ',' or '}'");
    }
    next();
    enums[join(scope, *name)] = scope;
    return expect(";");
  }

  std::vector<Token> t_;
  std::size_t pos_ = 0;
};

std::optional<Primitive> basicType(const std::string& name) {
  static const std::map<std::string, Primitive, std::less<>> kBasic = {
      {"boolean", Primitive::Bool},
      {"octet", Primitive::UInt8},
      {"char", Primitive::UInt8},
      {"int8", Primitive::Int8},
      {"uint8", Primitive::UInt8},
      {"int16", Primitive::Int16},
      {"uint16", Primitive::UInt16},
      {"int32", Primitive::Int32},
      {"uint32", Primitive::UInt32},
      {"int64", Primitive::Int64},
      {"uint64", Primitive::UInt64},
      {"short", Primitive::Int16},
      {"unsigned short", Primitive::UInt16},
      {"long", Primitive::Int32},
      {"unsigned long", Primitive::UInt32},
      {"long long", Primitive::Int64},
      {"unsigned long long", Primitive::UInt64},
      {"float", Primitive::Float32},
      {"double", Primitive::Float64},
      {"string", Primitive::String},
      {"wstring", Primitive::String},
      {"wchar", Primitive::UInt16},
  };
  auto it = kBasic.find(name);
  if (it == kBasic.end()) return std::nullopt;
  return it->second;
}

// "pkg::msg::Type" -> "pkg/Type" (the name the .msg parser gives the same type).
std::string typeName(const std::string& scoped) {
  std::string s;
  for (std::size_t i = 0; i < scoped.size(); ++i) {
    if (scoped.compare(i, 2, "::") == 0) {
      s += '/';
      ++i;
    } else {
      s += scoped[i];
    }
  }
  if (auto pos = s.find("/msg/"); pos != std::string::npos) s.erase(pos, 4);
  return s;
}

class Builder {
public:
  Builder(const IdlParser& p, MessageSchema& schema) : p_(p), schema_(schema) {}

  Result<void> build(std::string_view rootName) {
    for (const auto& full : p_.structOrder) {
      schema_.types.push_back(std::make_unique<MessageType>());
      schema_.types.back()->name = typeName(full);
      byFull_[full] = schema_.types.back().get();
    }
    std::string root = typeName(std::string(rootName));
    for (const auto& t : schema_.types)
      if (t->name == root) schema_.root = t.get();
    if (!schema_.root && schema_.types.size() == 1) schema_.root = schema_.types.front().get();
    if (!schema_.root) return makeError(ErrorCode::Schema, "the IDL defines no struct '" + std::string(rootName) + "'");
    // The root first, as the .msg parser orders them.
    for (auto& t : schema_.types)
      if (t.get() == schema_.root) std::swap(t, schema_.types.front());
    for (const auto& full : p_.structOrder) {
      const StructDecl& decl = p_.structs.at(full);
      MessageType& type = *byFull_.at(full);
      for (const auto& m : decl.members) {
        Field f;
        f.name = m.name;
        if (auto r = resolve(*m.type, m.scope, m.dims, f, m.line, 0); !r) return r;
        type.fields.push_back(std::move(f));
      }
    }
    // "Type_Constants" modules hold the constants of "Type" beside them.
    for (const auto& c : p_.constants) {
      static constexpr std::string_view kSuffix = "_Constants";
      if (!c.scope.ends_with(kSuffix)) continue;
      auto it = byFull_.find(c.scope.substr(0, c.scope.size() - kSuffix.size()));
      if (it == byFull_.end()) continue;
      Constant k;
      k.name = c.name;
      auto basic = basicType(c.type->name);
      k.type = basic.value_or(Primitive::Int32);
      k.value = c.value;
      it->second->constants.push_back(std::move(k));
    }
    return {};
  }

private:
  Error fail(std::size_t line, const std::string& what) const {
    return makeError(ErrorCode::Schema, "IDL line " + std::to_string(line) + ": " + what);
  }

  // Looks `name` up from `scope` outwards, as IDL scoping does.
  template <typename Map>
  auto lookup(const Map& map, const std::string& name, std::string scope) const -> decltype(map.find(name)) {
    std::string bare = name.starts_with("::") ? name.substr(2) : name;
    while (true) {
      auto it = map.find(scope.empty() ? bare : scope + "::" + bare);
      if (it != map.end() || scope.empty()) return it;
      auto cut = scope.rfind("::");
      scope = cut == std::string::npos ? std::string() : scope.substr(0, cut);
    }
  }

  Result<void> resolve(const TypeSpec& spec, const std::string& scope, std::vector<std::uint32_t> dims, Field& f,
                       std::size_t line, int depth) {
    if (depth > kMaxNesting) return fail(line, "typedefs nested too deep");
    if (dims.size() > 1) return fail(line, "arrays of arrays are not supported");
    auto setArray = [&](schema::ArrayKind kind, std::uint32_t n) -> Result<void> {
      if (f.array != ArrayKind::None) return fail(line, "arrays of arrays are not supported");
      f.array = kind;
      f.arrayLength = n;
      return {};
    };
    if (!dims.empty())
      if (auto r = setArray(ArrayKind::Fixed, dims.front()); !r) return r;
    if (spec.name == "sequence") {
      if (auto r = setArray(spec.bound ? ArrayKind::Bounded : ArrayKind::Dynamic, spec.bound); !r) return r;
      return resolve(*spec.element, scope, {}, f, line, depth + 1);
    }
    if (auto basic = basicType(spec.name)) {
      f.type = *basic;
      f.stringBound = *basic == Primitive::String ? spec.bound : 0;
      f.typeText = spec.name + (spec.bound && *basic == Primitive::String ? "<=" + std::to_string(spec.bound) : "") +
                   (f.array == ArrayKind::Fixed     ? "[" + std::to_string(f.arrayLength) + "]"
                    : f.array == ArrayKind::Bounded ? "[<=" + std::to_string(f.arrayLength) + "]"
                    : f.array == ArrayKind::Dynamic ? "[]"
                                                    : "");
      return {};
    }
    if (auto it = lookup(p_.typedefs, spec.name, scope); it != p_.typedefs.end()) {
      const TypedefDecl& td = it->second;
      if (!td.dims.empty())
        if (auto r = setArray(ArrayKind::Fixed, td.dims.front()); !r) return r;
      if (td.dims.size() > 1) return fail(line, "arrays of arrays are not supported");
      return resolve(*td.type, td.scope, {}, f, line, depth + 1);
    }
    if (auto it = lookup(p_.enums, spec.name, scope); it != p_.enums.end()) {
      f.type = Primitive::UInt32;  // XCDR1 writes an enum as a 32-bit integer
      f.typeText = typeName(it->first);
      return {};
    }
    if (auto it = lookup(byFull_, spec.name, scope); it != byFull_.end()) {
      f.type = Primitive::Message;
      f.message = it->second;
      f.typeText = it->second->name;
      return {};
    }
    return fail(line, "type '" + spec.name + "' is used but not defined");
  }

  const IdlParser& p_;
  MessageSchema& schema_;
  std::map<std::string, MessageType*> byFull_;
};

}  // namespace

Result<std::shared_ptr<const MessageSchema>> parseIdl(std::string_view typeName, std::string_view text) {
  auto fail = [&](Error e) {
    e.message = "IDL definition of '" + std::string(typeName) + "', " + e.message;
    return e;
  };
  auto tokens = tokenize(text);
  if (!tokens) return fail(std::move(tokens).error());
  IdlParser parser(std::move(tokens).value());
  if (auto r = parser.parseDocument(); !r) return fail(std::move(r).error());
  auto schema = std::make_shared<MessageSchema>();
  schema->dialect = Dialect::Ros2;
  if (auto r = Builder(parser, *schema).build(typeName); !r) return fail(std::move(r).error());
  if (auto r = detail::checkNoCycles(*schema); !r) return fail(std::move(r).error());
  detail::addPlaceholderMembers(*schema);
  return std::shared_ptr<const MessageSchema>(std::move(schema));
}

}  // namespace bagscope::schema
