// A topic as typed columns in memory: the CSV export's columns (table.hpp), for notebooks.

#include <algorithm>
#include <cmath>
#include <map>

#include "export.hpp"
#include "table.hpp"

namespace bagscope::exporters {

using decode::Value;
using detail::Column;

namespace {

TableColumn::Kind kindOf(Column::Kind kind) {
  switch (kind) {
    case Column::Kind::Int:
    case Column::Kind::Time: return TableColumn::Kind::Int;
    case Column::Kind::UInt: return TableColumn::Kind::UInt;
    case Column::Kind::Bool: return TableColumn::Kind::Bool;
    case Column::Kind::String: return TableColumn::Kind::String;
    case Column::Kind::Float: return TableColumn::Kind::Float;
  }
  return TableColumn::Kind::Float;
}

// Appends one row's value; a value the message lacks is a zero marked missing.
void append(TableColumn& out, const Column& c, const Value* v, std::uint8_t byte, bool isByte) {
  bool absent = !v;
  if (v && !isByte && c.kind == Column::Kind::Time) absent = !sensors::timeNs(*v);
  out.missing.push_back(absent);  // cleared at the end when nothing is missing
  auto integer = [&]() -> std::int64_t {
    if (absent) return 0;
    if (isByte) return byte;
    if (c.kind == Column::Kind::Time) return *sensors::timeNs(*v);
    return v->kind == Value::Kind::Int ? v->i : v->kind == Value::Kind::Bool ? v->b : static_cast<std::int64_t>(v->u);
  };
  switch (out.kind) {
    case TableColumn::Kind::Int:
    case TableColumn::Kind::Bool: out.ints.push_back(integer()); break;
    case TableColumn::Kind::UInt:
      out.uints.push_back(absent                         ? 0
                          : isByte                       ? byte
                          : v->kind == Value::Kind::UInt ? v->u
                                                         : static_cast<std::uint64_t>(v->i));
      break;
    case TableColumn::Kind::Float:
      out.floats.push_back(absent || v->kind != Value::Kind::Float ? std::nan("") : v->f);
      break;
    case TableColumn::Kind::String: out.texts.push_back(absent ? std::string() : v->text); break;
  }
}

}  // namespace

Result<std::vector<TableColumn>> readTable(const session::Session& session, session::TopicId topic,
                                           const session::Selection& range, std::uint32_t arrayLimit, StopToken stop) {
  session::Selection selection = range;
  selection.topics = {topic};
  std::vector<Column> columns;  // named by the first message's definition
  std::map<const storage::Connection*, std::vector<Column>> plans;
  std::vector<TableColumn> out;
  bool withStamp = false;
  std::size_t rows = 0;
  std::optional<Error> failed;
  auto r = session.forEach(
      selection,
      [&](const session::Message& m) {
        auto decoder = session.decoder(*m.connection);
        auto value = decoder ? (*decoder)->decode(m.bytes) : Result<Value>(decoder.error());
        if (!value) {
          failed = value.error();
          failed->topic = m.connection->topic;
          failed->logTimeNs = m.logTimeNs;
          return false;
        }
        const auto& root = *(*decoder)->schema().root;
        if (rows == 0) {
          columns = detail::planColumns(root, arrayLimit);
          withStamp = schema::startsWithHeader(root);
          out.push_back({"log_time_ns", TableColumn::Kind::Int, {}, {}, {}, {}, {}});
          if (withStamp) out.push_back({"stamp_ns", TableColumn::Kind::Int, {}, {}, {}, {}, {}});
          for (const auto& c : columns) out.push_back({c.name, kindOf(c.kind), {}, {}, {}, {}, {}});
        }
        auto& plan = plans[m.connection];
        if (plan.empty()) plan = detail::matchColumns(columns, root, arrayLimit);
        std::size_t k = 0;
        out[k++].ints.push_back(m.logTimeNs);
        if (withStamp) {
          auto header = sensors::headerOf(*value);
          out[k++].ints.push_back(header ? header->stampNs : 0);
        }
        for (const auto& c : plan) {
          std::uint8_t byte = 0;
          bool isByte = false;
          const Value* v = detail::columnValue(*value, c, byte, isByte);
          append(out[k++], c, v, byte, isByte);
        }
        ++rows;
        return true;
      },
      {}, stop);
  if (failed) return *failed;
  if (!r) return r.error();
  for (auto& c : out)
    if (std::find(c.missing.begin(), c.missing.end(), true) == c.missing.end()) c.missing.clear();
  return out;
}

}  // namespace bagscope::exporters
