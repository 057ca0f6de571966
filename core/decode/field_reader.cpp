// FieldReader: a plan per message type that reads only the requested leaves and skips the
// rest — fixed-size runs of unrequested fields in one step, and nothing at all after the last
// requested field.

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "decoder.hpp"
#include "detail/program.hpp"
#include "detail/wire_cursor.hpp"

namespace bagscope::decode {

using detail::Op;
using detail::Program;
using schema::ArrayKind;
using schema::Primitive;

struct FieldReader::Plan {
  struct Pick;
  struct Step {
    // Run: leaves of one number type next to each other on the wire (an orientation's x, y,
    // z, w), read after one bounds check; `op` is the first's, `runColumns` theirs in order.
    enum class Kind : std::uint8_t { SkipBytes, SkipField, Leaf, Run, Descend, Pick };
    Kind kind = Kind::SkipBytes;
    std::uint64_t bytes = 0;  // SkipBytes
    const Op* op = nullptr;
    std::uint32_t column = 0;  // Leaf
    std::vector<std::uint32_t> runColumns;
    std::unique_ptr<Plan> sub;  // Descend
    std::vector<Pick> picks;    // Pick: sorted by index
  };
  struct Pick {
    std::uint32_t index = 0;
    std::uint32_t column = 0;   // when sub is null
    std::unique_ptr<Plan> sub;  // for message elements
  };

  const Program* program = nullptr;
  // Foreign formats (JSON, protobuf) have no program: per column, the fields (and element
  // indexes, -1 for none) from the root to the leaf of a decoded Value.
  std::vector<std::vector<std::pair<std::uint32_t, std::int64_t>>> valuePaths;
  std::vector<Step> steps;
  std::size_t nextOp = 0;              // first op the steps do not cover
  std::vector<std::uint32_t> columns;  // every column this plan fills, for NaN on absence
};

namespace {

using Plan = FieldReader::Plan;

// What is asked of one message type: per field, a whole leaf, nested fields, or elements.
struct Request {
  struct Element {
    std::int64_t column = -1;
    std::unique_ptr<Request> sub;
  };
  struct FieldAsk {
    std::int64_t column = -1;
    std::unique_ptr<Request> sub;
    std::map<std::uint32_t, Element> elements;
  };
  std::map<std::size_t, FieldAsk> fields;  // by op index
};

bool isNumericLeaf(Primitive p) { return p != Primitive::String && p != Primitive::Message; }

// ROS 2 times are messages (int32 sec, uint32 nanosec); a path ending at one reads it as
// seconds, like a ROS 1 time.
bool isRos2Time(const Program* p) {
  if (!p || p->ops.size() != 2) return false;
  const std::string& name = p->type->name;
  return (name == "builtin_interfaces/Time" || name == "builtin_interfaces/Duration") &&
         p->ops[0].type == Primitive::Int32 && p->ops[1].type == Primitive::UInt32 &&
         p->ops[0].array == ArrayKind::None && p->ops[1].array == ArrayKind::None;
}

// One step of a field path: "name" or "name[index]", split off the front of `rest`.
struct PathStep {
  std::string_view name;
  std::optional<std::uint32_t> index;
};
std::optional<PathStep> nextStep(std::string_view& rest, std::string& why) {
  auto dot = rest.find('.');
  std::string_view seg = rest.substr(0, dot);
  rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  PathStep step{seg.substr(0, seg.find('[')), std::nullopt};
  if (step.name.size() < seg.size()) {
    std::string_view inside = seg.substr(step.name.size() + 1);
    std::uint32_t idx = 0;
    auto r = std::from_chars(inside.data(), inside.data() + inside.size(), idx);
    if (r.ec != std::errc() || r.ptr == inside.data() || *r.ptr != ']' || r.ptr + 1 != inside.data() + inside.size()) {
      why = "bad index in '" + std::string(seg) + "'";
      return std::nullopt;
    }
    step.index = idx;
  }
  return step;
}

Result<void> addPath(const Program& root, Request& req, std::string_view path, std::uint32_t column) {
  auto bad = [&](std::string why) {
    return makeError(ErrorCode::InvalidArgument, "field path '" + std::string(path) + "': " + why);
  };
  const Program* prog = &root;
  Request* cur = &req;
  std::string_view rest = path;
  while (true) {
    std::string why;
    auto step = nextStep(rest, why);
    if (!step) return bad(why);
    std::string_view name = step->name;
    std::optional<std::uint32_t> index = step->index;
    std::size_t opIndex = prog->ops.size();
    for (std::size_t i = 0; i < prog->ops.size(); ++i)
      if (prog->ops[i].field->name == name) opIndex = i;
    if (opIndex == prog->ops.size()) return bad("'" + prog->type->name + "' has no field '" + std::string(name) + "'");
    const Op& op = prog->ops[opIndex];
    if (index && op.array == ArrayKind::None) return bad("'" + std::string(name) + "' is not an array");
    if (!index && op.array != ArrayKind::None)
      return bad("'" + std::string(name) + "' is an array: pick an element, e.g. " + std::string(name) + "[0]");
    auto& ask = cur->fields[opIndex];
    bool last = rest.empty();
    if (op.type == Primitive::Message && !(last && isRos2Time(op.nested))) {
      if (last) return bad("'" + std::string(name) + "' is a message, not a number");
      std::unique_ptr<Request>& sub = index ? ask.elements[*index].sub : ask.sub;
      if (!sub) sub = std::make_unique<Request>();
      cur = sub.get();
      prog = op.nested;
      continue;
    }
    if (!last) return bad("'" + std::string(name) + "' has no fields");
    if (!isNumericLeaf(op.type) && !isRos2Time(op.nested))
      return bad("'" + std::string(name) + "' is a string, not a number");
    if (index) ask.elements[*index].column = column;
    else ask.column = column;
    return {};
  }
}

// fn(T{}) with the C++ type of plain number `p`.
template <typename Fn>
bool withNumberType(Primitive p, Fn&& fn) {
  switch (p) {
    case Primitive::Bool:
    case Primitive::UInt8: return fn(std::uint8_t{});
    case Primitive::Int8: return fn(std::int8_t{});
    case Primitive::Int16: return fn(std::int16_t{});
    case Primitive::UInt16: return fn(std::uint16_t{});
    case Primitive::Int32: return fn(std::int32_t{});
    case Primitive::UInt32: return fn(std::uint32_t{});
    case Primitive::Int64: return fn(std::int64_t{});
    case Primitive::UInt64: return fn(std::uint64_t{});
    case Primitive::Float32: return fn(float{});
    case Primitive::Float64: return fn(double{});
    default: return false;
  }
}

// Consecutive Leaf steps of one number type become a Run: nothing lies between them on the
// wire (a skipped field would be a step between), and in CDR a number that follows one of its
// own size needs no padding.
void mergeRuns(std::vector<Plan::Step>& steps) {
  std::vector<Plan::Step> merged;
  for (auto& s : steps) {
    bool leaf = s.kind == Plan::Step::Kind::Leaf && schema::isPlainNumber(s.op->type);
    if (leaf && !merged.empty()) {
      auto& last = merged.back();
      bool extends =
          (last.kind == Plan::Step::Kind::Leaf || last.kind == Plan::Step::Kind::Run) && last.op->type == s.op->type;
      if (extends) {
        if (last.kind == Plan::Step::Kind::Leaf) {
          last.kind = Plan::Step::Kind::Run;
          last.runColumns = {last.column};
        }
        last.runColumns.push_back(s.column);
        continue;
      }
    }
    merged.push_back(std::move(s));
  }
  steps = std::move(merged);
}

// `packed`: the wire has no alignment (ROS 1), so fixed-size fields have fixed offsets and
// runs of them can be skipped or read in line. In CDR padding depends on the position.
std::unique_ptr<Plan> buildPlan(const Program& prog, const Request& req, bool packed) {
  auto plan = std::make_unique<Plan>();
  plan->program = &prog;
  std::size_t end = req.fields.empty() ? 0 : req.fields.rbegin()->first + 1;
  auto pushSkip = [&](const Op& op) {
    if (op.fixed && packed) {
      if (!plan->steps.empty() && plan->steps.back().kind == Plan::Step::Kind::SkipBytes) {
        plan->steps.back().bytes += op.fixedBytes;
      } else {
        Plan::Step s;
        s.kind = Plan::Step::Kind::SkipBytes;
        s.bytes = op.fixedBytes;
        plan->steps.push_back(std::move(s));
      }
    } else {
      Plan::Step s;
      s.kind = Plan::Step::Kind::SkipField;
      s.op = &op;
      plan->steps.push_back(std::move(s));
    }
  };
  for (std::size_t i = 0; i < end; ++i) {
    const Op& op = prog.ops[i];
    auto it = req.fields.find(i);
    if (it == req.fields.end()) {
      pushSkip(op);
      continue;
    }
    const auto& ask = it->second;
    Plan::Step s;
    s.op = &op;
    if (op.array == ArrayKind::None) {
      if (ask.sub) {
        auto sub = buildPlan(*op.nested, *ask.sub, packed);
        plan->columns.insert(plan->columns.end(), sub->columns.begin(), sub->columns.end());
        if (op.nested->fixed && packed) {
          // A fixed-size message is read in line: its steps, then a skip to its end.
          std::uint64_t used = 0;
          for (auto& step : sub->steps) {
            using Kind = Plan::Step::Kind;
            used += step.kind == Kind::SkipBytes ? step.bytes
                    : step.kind == Kind::Run     ? step.op->fixedBytes * step.runColumns.size()
                                                 : step.op->fixedBytes;  // a leaf, or a fixed array whole
            if (step.kind == Plan::Step::Kind::SkipBytes) {
              Op skip;
              skip.fixed = true;
              skip.fixedBytes = step.bytes;
              pushSkip(skip);
            } else {
              plan->steps.push_back(std::move(step));
            }
          }
          Op rest;
          rest.fixed = true;
          rest.fixedBytes = op.nested->fixedBytes - used;
          if (rest.fixedBytes > 0) pushSkip(rest);
          continue;
        }
        s.kind = Plan::Step::Kind::Descend;
        s.sub = std::move(sub);
      } else {
        s.kind = Plan::Step::Kind::Leaf;
        s.column = static_cast<std::uint32_t>(ask.column);
        plan->columns.push_back(s.column);
      }
    } else {
      s.kind = Plan::Step::Kind::Pick;
      for (const auto& [index, el] : ask.elements) {
        Plan::Pick pick;
        pick.index = index;
        if (el.sub) {
          pick.sub = buildPlan(*op.nested, *el.sub, packed);
          plan->columns.insert(plan->columns.end(), pick.sub->columns.begin(), pick.sub->columns.end());
        } else {
          pick.column = static_cast<std::uint32_t>(el.column);
          plan->columns.push_back(pick.column);
        }
        s.picks.push_back(std::move(pick));
      }
    }
    plan->steps.push_back(std::move(s));
  }
  plan->nextOp = end;
  mergeRuns(plan->steps);
  return plan;
}

class Runner {
public:
  Runner(detail::WireCursor cursor, std::span<double> out) : c_(cursor), out_(out) {}

  bool fail(const char* what) {
    error_ = what;
    return false;
  }

  // Runs `plan`; with `toEnd`, leaves the cursor after the whole message.
  bool run(const Plan& plan, bool toEnd, int depth) {
    if (depth > detail::kMaxDepth) return fail("nesting too deep");
    std::size_t start = c_.pos();
    for (const auto& s : plan.steps) {
      switch (s.kind) {
        case Plan::Step::Kind::SkipBytes:
          if (!c_.skip(static_cast<std::size_t>(s.bytes))) return fail("message too short");
          break;
        case Plan::Step::Kind::SkipField:
          if (!skipField(*s.op, depth)) return false;
          break;
        case Plan::Step::Kind::Leaf:
          if (!leaf(s.op->type, out_[s.column])) return false;
          break;
        case Plan::Step::Kind::Run:
          if (!numbers(s.op->type, s.runColumns)) return false;
          break;
        case Plan::Step::Kind::Descend:
          if (!run(*s.sub, true, depth + 1)) return false;
          break;
        case Plan::Step::Kind::Pick:
          if (!pick(s, depth)) return false;
          break;
      }
    }
    if (!toEnd) return true;
    const Program& prog = *plan.program;
    if (prog.fixed && !c_.cdr()) {
      std::size_t used = c_.pos() - start;
      return c_.skip(static_cast<std::size_t>(prog.fixedBytes) - used) || fail("message too short");
    }
    for (std::size_t i = plan.nextOp; i < prog.ops.size(); ++i)
      if (!skipField(prog.ops[i], depth)) return false;
    return true;
  }

  const char* error_ = nullptr;
  detail::WireCursor c_;
  std::uint32_t emptyLeft_ = kMaxEmptyElements;

private:
  bool leaf(Primitive p, double& out) {
    if (schema::isPlainNumber(p)) return withNumberType(p, [&](auto type) { return num<decltype(type)>(out); });
    switch (p) {
      case Primitive::Time: {
        std::uint32_t s = 0, ns = 0;
        if (!c_.read(s) || !c_.read(ns)) return fail("message too short");
        out = static_cast<double>(s) + static_cast<double>(ns) * 1e-9;
        return true;
      }
      case Primitive::Duration: {
        std::int32_t s = 0, ns = 0;
        if (!c_.read(s) || !c_.read(ns)) return fail("message too short");
        out = static_cast<double>(s) + static_cast<double>(ns) * 1e-9;
        return true;
      }
      case Primitive::Message: {  // a ROS 2 time (checked when the path was compiled)
        std::int32_t s = 0;
        std::uint32_t ns = 0;
        if (!c_.read(s) || !c_.read(ns)) return fail("message too short");
        out = static_cast<double>(s) + static_cast<double>(ns) * 1e-9;
        return true;
      }
      default: break;  // strings (refused when the path was compiled)
    }
    return fail("not a number");
  }

  bool numbers(Primitive p, const std::vector<std::uint32_t>& columns) {
    if (!schema::isPlainNumber(p)) return fail("not a number");
    return withNumberType(p, [&](auto type) { return run<decltype(type)>(columns); });
  }

  template <typename T>
  bool run(const std::vector<std::uint32_t>& columns) {
    if (!c_.align(sizeof(T)) || c_.remaining() < columns.size() * sizeof(T)) [[unlikely]]
      return fail("message too short");
    for (auto column : columns) {
      T v{};
      c_.read(v);  // cannot fail: checked above, and no padding lies between
      out_[column] = static_cast<double>(v);
    }
    return true;
  }

  template <typename T>
  bool num(double& out) {
    T v;
    if (!c_.read(v)) [[unlikely]]
      return fail("message too short");
    out = static_cast<double>(v);
    return true;
  }

  // Primitive elements are contiguous: in CDR aligned once, before the first.
  static bool contiguous(const Op& op) { return op.elementFixed && op.type != Primitive::Message; }

  bool arrayLength(const Op& op, std::uint32_t& n) {
    n = op.fixedLength;
    if (op.array != ArrayKind::Fixed && !c_.read(n)) return fail("message too short");
    if (std::uint64_t{n} * op.elementMinBytes > c_.remaining()) return fail("array longer than message");
    if (op.elementMinBytes == 0) {
      if (n > emptyLeft_) return fail("too many elements that take no bytes");
      emptyLeft_ -= n;
    }
    if (n > 0 && contiguous(op) && !c_.align(op.elementBytes)) return fail("message too short");
    return true;
  }

  bool skipElement(const Op& op, int depth) {
    if (contiguous(op)) return (c_.align(op.elementBytes) && c_.skip(op.elementBytes)) || fail("message too short");
    if (op.elementFixed && !c_.cdr()) return c_.skip(op.elementBytes) || fail("message too short");
    if (op.type == Primitive::String) {
      std::uint32_t n = 0;
      return (c_.read(n) && c_.skip(n)) || fail("string longer than message");
    }
    if (depth > detail::kMaxDepth) return fail("nesting too deep");
    for (const auto& o : op.nested->ops)
      if (!skipField(o, depth + 1)) return false;
    return true;
  }

  bool skipField(const Op& op, int depth) {
    if (op.fixed && !c_.cdr()) return c_.skip(static_cast<std::size_t>(op.fixedBytes)) || fail("message too short");
    if (op.array == ArrayKind::None) return skipElement(op, depth);
    std::uint32_t n = 0;
    if (!arrayLength(op, n)) return false;
    if (contiguous(op) || (op.elementFixed && !c_.cdr()))
      return c_.skip(std::size_t{n} * op.elementBytes) || fail("message too short");
    for (std::uint32_t i = 0; i < n; ++i)
      if (!skipElement(op, depth)) return false;
    return true;
  }

  void fillNaN(const Plan::Pick& p) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    if (!p.sub) {
      out_[p.column] = kNaN;
      return;
    }
    for (auto col : p.sub->columns) out_[col] = kNaN;
  }

  bool readElement(const Op& op, const Plan::Pick& p, int depth) {
    if (p.sub) return run(*p.sub, true, depth + 1);
    return leaf(op.type, out_[p.column]);
  }

  bool pick(const Plan::Step& s, int depth) {
    const Op& op = *s.op;
    std::uint32_t n = 0;
    if (!arrayLength(op, n)) return false;
    if (contiguous(op) || (op.elementFixed && !c_.cdr())) {
      std::size_t base = c_.pos();
      for (const auto& p : s.picks) {
        if (p.index >= n) {
          fillNaN(p);
          continue;
        }
        c_.seek(base + std::size_t{p.index} * op.elementBytes);
        if (!readElement(op, p, depth)) return false;
      }
      c_.seek(base);
      return c_.skip(std::size_t{n} * op.elementBytes) || fail("message too short");
    }
    auto next = s.picks.begin();
    for (std::uint32_t i = 0; i < n; ++i) {
      if (next != s.picks.end() && next->index == i) {
        if (!readElement(op, *next, depth)) return false;
        ++next;
      } else if (!skipElement(op, depth)) {
        return false;
      }
    }
    for (; next != s.picks.end(); ++next) fillNaN(*next);
    return true;
  }

  std::span<double> out_;
};

}  // namespace

FieldReader::FieldReader(FieldReader&&) noexcept = default;
FieldReader& FieldReader::operator=(FieldReader&&) noexcept = default;
FieldReader::~FieldReader() = default;

namespace {

// A time as a struct of two integers (google.protobuf.Timestamp, Foxglove's JSON time, ...).
bool isTimeStruct(const schema::MessageType* t) {
  if (!t || t->fields.size() != 2) return false;
  const auto& a = t->fields[0].name;
  const auto& b = t->fields[1].name;
  bool names = (a == "sec" || a == "seconds") && (b == "nsec" || b == "nanosec" || b == "nanos");
  auto integral = [](const schema::Field& f) {
    return f.array == ArrayKind::None && f.type != Primitive::String && f.type != Primitive::Message &&
           f.type != Primitive::Float32 && f.type != Primitive::Float64;
  };
  return names && integral(t->fields[0]) && integral(t->fields[1]);
}

// The same path language as addPath(), resolved against a schema's types.
Result<std::vector<std::pair<std::uint32_t, std::int64_t>>> valuePath(const schema::MessageType& root,
                                                                      std::string_view path) {
  auto bad = [&](std::string why) {
    return makeError(ErrorCode::InvalidArgument, "field path '" + std::string(path) + "': " + why);
  };
  std::vector<std::pair<std::uint32_t, std::int64_t>> steps;
  const schema::MessageType* type = &root;
  std::string_view rest = path;
  while (true) {
    std::string why;
    auto step = nextStep(rest, why);
    if (!step) return bad(why);
    std::string_view name = step->name;
    std::int64_t index = step->index ? std::int64_t{*step->index} : -1;
    std::size_t at = type->fields.size();
    for (std::size_t i = 0; i < type->fields.size(); ++i)
      if (type->fields[i].name == name) at = i;
    if (at == type->fields.size()) return bad("'" + type->name + "' has no field '" + std::string(name) + "'");
    const schema::Field& f = type->fields[at];
    if (index >= 0 && f.array == ArrayKind::None) return bad("'" + std::string(name) + "' is not an array");
    if (index < 0 && f.array != ArrayKind::None)
      return bad("'" + std::string(name) + "' is an array: pick an element, e.g. " + std::string(name) + "[0]");
    steps.emplace_back(static_cast<std::uint32_t>(at), index);
    bool last = rest.empty();
    if (f.type == Primitive::Message && !(last && isTimeStruct(f.message))) {
      if (last) return bad("'" + std::string(name) + "' is a message, not a number");
      type = f.message;
      continue;
    }
    if (!last) return bad("'" + std::string(name) + "' has no fields");
    if (f.type == Primitive::String) return bad("'" + std::string(name) + "' is a string, not a number");
    return steps;
  }
}

double numberOf(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Bool: return v.b ? 1.0 : 0.0;
    case Value::Kind::Int: return static_cast<double>(v.i);
    case Value::Kind::UInt: return static_cast<double>(v.u);
    case Value::Kind::Float: return v.f;
    case Value::Kind::Time:
    case Value::Kind::Duration: return static_cast<double>(v.t.sec) + static_cast<double>(v.t.nsec) * 1e-9;
    case Value::Kind::Struct:
      if (v.items.size() == 2) return numberOf(v.items[0]) + numberOf(v.items[1]) * 1e-9;  // a time struct
      return std::numeric_limits<double>::quiet_NaN();
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace

Result<FieldReader> FieldReader::compile(std::shared_ptr<const Decoder> decoder,
                                         const std::vector<std::string>& paths) {
  if (!decoder) return makeError(ErrorCode::InvalidArgument, "no decoder");
  if (decoder->isForeign()) {
    FieldReader reader;
    reader.plan_ = std::make_unique<Plan>();
    for (const auto& p : paths) {
      auto steps = valuePath(*decoder->schema().root, p);
      BAGSCOPE_TRY(steps);
      reader.plan_->valuePaths.push_back(std::move(steps).value());
    }
    reader.decoder_ = std::move(decoder);
    reader.columns_ = paths.size();
    return reader;
  }
  Request req;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (auto r = addPath(decoder->rootProgram(), req, paths[i], static_cast<std::uint32_t>(i)); !r)
      return std::move(r).error();
  }
  FieldReader reader;
  reader.plan_ = buildPlan(decoder->rootProgram(), req, decoder->format() == WireFormat::Ros1);
  reader.decoder_ = std::move(decoder);
  reader.columns_ = paths.size();
  return reader;
}

Result<void> FieldReader::read(std::span<const std::byte> bytes, std::span<double> out) const {
  if (out.size() < columns_) return makeError(ErrorCode::InvalidArgument, "output has too few columns");
  if (decoder_->isForeign()) {
    // JSON and protobuf have no fixed layout to skip through: decode, then pick.
    auto value = decoder_->decode(bytes);
    BAGSCOPE_TRY(value);
    for (std::size_t c = 0; c < columns_; ++c) {
      const Value* v = &*value;
      double x = std::numeric_limits<double>::quiet_NaN();  // an element past the end stays NaN
      for (const auto& [field, index] : plan_->valuePaths[c]) {
        v = field < v->items.size() ? &v->items[field] : nullptr;
        if (v && index >= 0) {
          auto i = static_cast<std::size_t>(index);
          if (v->kind == Value::Kind::Bytes) {  // an element of a byte array
            if (i < v->bytes.size()) x = static_cast<double>(static_cast<std::uint8_t>(v->bytes[i]));
            v = nullptr;
            break;
          }
          v = i < v->items.size() ? &v->items[i] : nullptr;
        }
        if (!v) break;
      }
      out[c] = v ? numberOf(*v) : x;
    }
    return {};
  }
  auto wire = detail::openWire(bytes, decoder_->format());
  BAGSCOPE_TRY(wire);
  Runner r(*wire, out);
  if (!r.run(*plan_, false, 0)) [[unlikely]] {
    return makeError(ErrorCode::Decode, std::string(r.error_) + " at offset " + std::to_string(r.c_.pos()) + " of " +
                                            std::to_string(bytes.size()) + "-byte message");
  }
  return {};
}

}  // namespace bagscope::decode
