// Parser for the .msg language (ROS 1: http://wiki.ros.org/msg, ROS 2: "Interface
// definition" in design.ros2.org), as bags store it: the root definition, then for each
// dependency a line of '=' and "MSG: pkg/Type" followed by that type's definition.

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>

#include "detail/schema_rules.hpp"
#include "schema.hpp"

namespace bagscope::schema {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string_view stripComment(std::string_view s) {
  auto hash = s.find('#');
  return hash == std::string_view::npos ? s : s.substr(0, hash);
}

bool isSeparator(std::string_view line) {
  line = trim(line);
  return line.size() >= 3 && line.find_first_not_of('=') == std::string_view::npos;
}

// "pkg/msg/Type" (ROS 2 style) -> "pkg/Type".
std::string normalizeName(std::string_view name) {
  std::string s(name);
  if (auto pos = s.find("/msg/"); pos != std::string::npos) s.erase(pos, 4);
  return s;
}

std::string_view packageOf(std::string_view name) {
  auto slash = name.find('/');
  return slash == std::string_view::npos ? std::string_view{} : name.substr(0, slash);
}

bool parsePrimitive(std::string_view t, Dialect dialect, Primitive& out) {
  static const std::pair<std::string_view, Primitive> kCommon[] = {
      {"bool", Primitive::Bool},       {"int8", Primitive::Int8},       {"uint8", Primitive::UInt8},
      {"int16", Primitive::Int16},     {"uint16", Primitive::UInt16},   {"int32", Primitive::Int32},
      {"uint32", Primitive::UInt32},   {"int64", Primitive::Int64},     {"uint64", Primitive::UInt64},
      {"float32", Primitive::Float32}, {"float64", Primitive::Float64}, {"string", Primitive::String},
      {"char", Primitive::UInt8},
  };
  for (const auto& [name, p] : kCommon) {
    if (t == name) {
      out = p;
      return true;
    }
  }
  if (dialect == Dialect::Ros1) {
    if (t == "byte") out = Primitive::Int8;  // deprecated ROS 1 alias of int8
    else if (t == "time") out = Primitive::Time;
    else if (t == "duration") out = Primitive::Duration;
    else return false;
    return true;
  }
  if (t == "byte") out = Primitive::UInt8;  // ROS 2 octet
  else if (t == "wstring") out = Primitive::String;
  else return false;
  return true;
}

bool parseUint(std::string_view s, std::uint32_t& out) {
  s = trim(s);
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

struct Section {
  std::string name;
  std::vector<std::string_view> lines;
  std::size_t firstLine = 0;  // 1-based line number in the full text
};

class Parser {
public:
  Parser(Dialect dialect, std::shared_ptr<MessageSchema> schema) : dialect_(dialect), schema_(std::move(schema)) {}

  Result<void> run(std::string_view typeName, std::string_view text) {
    std::vector<Section> sections;
    sections.push_back({normalizeName(typeName), {}, 1});
    std::size_t lineNo = 0;
    bool expectMsgLine = false;
    std::size_t start = 0;
    while (start <= text.size()) {
      auto end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      ++lineNo;
      start = end + 1;
      if (isSeparator(line)) {
        expectMsgLine = true;
        continue;
      }
      if (expectMsgLine) {
        std::string_view t = trim(line);
        if (t.empty()) continue;
        if (t.substr(0, 4) != "MSG:")
          return fail(lineNo, "expected 'MSG: pkg/Type' after a separator line, found '" + std::string(t) + "'");
        sections.push_back({normalizeName(trim(t.substr(4))), {}, lineNo + 1});
        expectMsgLine = false;
        continue;
      }
      sections.back().lines.push_back(line);
      if (end == text.size()) break;
    }

    std::map<std::string, MessageType*, std::less<>> byName;
    for (const auto& s : sections) {
      if (byName.count(s.name)) continue;  // repeated dependency: the first one wins
      schema_->types.push_back(std::make_unique<MessageType>());
      schema_->types.back()->name = s.name;
      byName[s.name] = schema_->types.back().get();
    }
    schema_->root = schema_->types.front().get();
    byName_ = &byName;
    for (const auto& s : sections) {
      MessageType* t = byName.at(s.name);
      if (!t->fields.empty() || !t->constants.empty()) continue;
      if (auto r = parseSection(s, *t); !r) return r;
    }
    return detail::checkNoCycles(*schema_);
  }

private:
  Error fail(std::size_t line, std::string what) const {
    return makeError(ErrorCode::Schema, "line " + std::to_string(line) + ": " + what);
  }

  Result<void> parseSection(const Section& s, MessageType& type) {
    for (std::size_t i = 0; i < s.lines.size(); ++i) {
      std::size_t lineNo = s.firstLine + i;
      std::string_view raw = trim(s.lines[i]);
      if (raw.empty() || raw.front() == '#') continue;
      auto ws = raw.find_first_of(" \t");
      if (ws == std::string_view::npos) return fail(lineNo, "'" + std::string(raw) + "' has a type but no field name");
      std::string_view typeTok = raw.substr(0, ws);
      std::string_view rest = trim(raw.substr(ws));

      Field f;
      f.typeText = std::string(typeTok);
      if (auto r = parseType(typeTok, packageOf(s.name), lineNo, f); !r) return r;

      if (auto eq = rest.find('=');
          eq != std::string_view::npos && rest.substr(0, eq).find('#') == std::string_view::npos) {
        Constant c;
        c.name = std::string(trim(rest.substr(0, eq)));
        c.type = f.type;
        c.typeText = f.typeText;
        std::string_view value = rest.substr(eq + 1);
        // A string constant's value is the rest of the line, '#' included (ROS 1 rule).
        c.value = std::string(trim(f.type == Primitive::String ? value : stripComment(value)));
        if (f.array != ArrayKind::None || f.type == Primitive::Message)
          return fail(lineNo, "constant '" + c.name + "' must have a primitive type");
        type.constants.push_back(std::move(c));
        continue;
      }
      rest = trim(stripComment(rest));
      auto nameEnd = rest.find_first_of(" \t");
      f.name = std::string(rest.substr(0, nameEnd));  // a ROS 2 default value may follow
      if (f.name.empty()) return fail(lineNo, "field of type '" + f.typeText + "' has no name");
      type.fields.push_back(std::move(f));
    }
    return {};
  }

  Result<void> parseType(std::string_view tok, std::string_view pkg, std::size_t lineNo, Field& f) {
    std::string_view base = tok;
    if (auto open = tok.find('['); open != std::string_view::npos) {
      if (tok.back() != ']') return fail(lineNo, "malformed array type '" + std::string(tok) + "'");
      std::string_view inside = tok.substr(open + 1, tok.size() - open - 2);
      base = tok.substr(0, open);
      if (inside.empty()) {
        f.array = ArrayKind::Dynamic;
      } else if (inside.substr(0, 2) == "<=") {
        f.array = ArrayKind::Bounded;
        if (!parseUint(inside.substr(2), f.arrayLength))
          return fail(lineNo, "bad array bound in '" + std::string(tok) + "'");
      } else {
        f.array = ArrayKind::Fixed;
        if (!parseUint(inside, f.arrayLength)) return fail(lineNo, "bad array length in '" + std::string(tok) + "'");
      }
    }
    if (auto le = base.find("<="); le != std::string_view::npos) {
      if (!parseUint(base.substr(le + 2), f.stringBound))
        return fail(lineNo, "bad string bound in '" + std::string(tok) + "'");
      base = base.substr(0, le);
    }
    if (parsePrimitive(base, dialect_, f.type)) return {};

    f.type = Primitive::Message;
    std::string full;
    if (dialect_ == Dialect::Ros1 && base == "Header") full = "std_msgs/Header";
    else if (base.find('/') != std::string_view::npos) full = normalizeName(base);
    else full = std::string(pkg) + "/" + std::string(base);
    auto it = byName_->find(full);
    if (it == byName_->end()) {
      // Some writers qualify dependencies differently; accept a unique match by type name.
      std::string suffix = "/" + std::string(base.substr(base.rfind('/') + 1));
      const MessageType* match = nullptr;
      for (const auto& [name, t] : *byName_) {
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
          if (match) {
            match = nullptr;
            break;
          }
          match = t;
        }
      }
      if (!match) return fail(lineNo, "type '" + std::string(base) + "' is used but its definition is not included");
      f.message = match;
      return {};
    }
    f.message = it->second;
    return {};
  }

  Dialect dialect_;
  std::shared_ptr<MessageSchema> schema_;
  const std::map<std::string, MessageType*, std::less<>>* byName_ = nullptr;
};

}  // namespace

std::string_view primitiveName(Primitive p) {
  static constexpr std::string_view kNames[] = {"bool",    "int8",   "uint8", "int16",    "uint16",
                                                "int32",   "uint32", "int64", "uint64",   "float32",
                                                "float64", "string", "time",  "duration", "message"};
  return kNames[static_cast<std::size_t>(p)];
}

bool isPrimitiveName(std::string_view name) {
  static constexpr std::string_view kNames[] = {"bool",   "byte",    "char",    "int8",   "uint8",
                                                "int16",  "uint16",  "int32",   "uint32", "int64",
                                                "uint64", "float32", "float64", "string", "wstring"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

std::uint32_t primitiveSize(Primitive p) {
  switch (p) {
    case Primitive::Bool:
    case Primitive::Int8:
    case Primitive::UInt8: return 1;
    case Primitive::Int16:
    case Primitive::UInt16: return 2;
    case Primitive::Int32:
    case Primitive::UInt32:
    case Primitive::Float32: return 4;
    case Primitive::Int64:
    case Primitive::UInt64:
    case Primitive::Float64:
    case Primitive::Time:
    case Primitive::Duration: return 8;
    case Primitive::String:
    case Primitive::Message: return 0;
  }
  return 0;
}

bool isPlainNumber(Primitive p) { return primitiveSize(p) > 0 && p != Primitive::Time && p != Primitive::Duration; }

Result<std::shared_ptr<const MessageSchema>> parseDefinition(std::string_view typeName, std::string_view text,
                                                             Dialect dialect) {
  auto schema = std::make_shared<MessageSchema>();
  schema->dialect = dialect;
  Parser parser(dialect, schema);
  if (auto r = parser.run(typeName, text); !r) {
    Error e = std::move(r).error();
    e.message = "definition of '" + std::string(typeName) + "', " + e.message;
    return e;
  }
  if (dialect == Dialect::Ros2) detail::addPlaceholderMembers(*schema);
  return std::shared_ptr<const MessageSchema>(std::move(schema));
}

Result<void> detail::checkNoCycles(const MessageSchema& schema) {
  // 0 = unvisited, 1 = on the current path, 2 = done.
  std::map<const MessageType*, int> state;
  std::function<bool(const MessageType*)> visit = [&](const MessageType* t) {
    int& s = state[t];
    if (s == 1) return false;
    if (s == 2) return true;
    s = 1;
    for (const auto& f : t->fields)
      if (f.message && !visit(f.message)) return false;
    state[t] = 2;
    return true;
  };
  for (const auto& t : schema.types) {
    if (!visit(t.get())) return makeError(ErrorCode::Schema, "type '" + t->name + "' contains itself");
  }
  return {};
}

void detail::addPlaceholderMembers(MessageSchema& schema) {
  for (auto& t : schema.types) {
    if (!t->fields.empty()) continue;
    Field f;
    f.name = std::string(kPlaceholderMember);
    f.type = Primitive::UInt8;
    f.typeText = "uint8";
    f.hidden = true;
    t->fields.push_back(std::move(f));
  }
}

}  // namespace bagscope::schema
