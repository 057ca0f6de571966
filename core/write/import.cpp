// Tables in: a CSV file whose columns are message paths becomes messages, encoded by the
// core's encoder and written through a recording writer. The table the CSV export writes
// (log_time_ns, stamp_ns, then every field as a.b.c and name[i]) comes back as the messages
// it was made from.

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <iterator>

#include <fast_float/fast_float.h>

#include "core/base/byte_source.hpp"
#include "core/decode/decoder.hpp"
#include "detail/writers.hpp"
#include "write.hpp"

namespace bagscope::write {
namespace fs = std::filesystem;
using decode::Value;
using schema::ArrayKind;
using schema::Primitive;

namespace {

// The time columns the CSV export writes: never fields.
constexpr std::array<std::string_view, 4> kTimeColumns = {"log_time_ns", "log_time", "stamp_ns", "stamp"};

// RFC 4180 records: fields split by commas, quoted fields may hold commas, quotes (doubled)
// and line breaks; CRLF or LF ends a record.
class CsvReader {
public:
  explicit CsvReader(std::string text) : text_(std::move(text)) {}
  std::size_t line() const { return line_; }
  double fraction() const {
    return text_.empty() ? 1.0 : static_cast<double>(pos_) / static_cast<double>(text_.size());
  }
  bool next(std::vector<std::string>& fields) {
    fields.clear();
    if (pos_ >= text_.size()) return false;
    ++line_;
    std::string field;
    bool quoted = false;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (quoted) {
        if (c == '"' && pos_ < text_.size() && text_[pos_] == '"') field += '"', ++pos_;
        else if (c == '"') quoted = false;
        else field += c;
        if (c == '\n') ++line_;
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.push_back(std::move(field));
        field.clear();
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
        break;
      } else {
        field += c;
      }
    }
    fields.push_back(std::move(field));
    return true;
  }

private:
  std::string text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
};

// A time as text in ns, or in seconds with up to nine decimals (parsed as digits, exactly).
bool parseTime(std::string_view text, TimeUnit unit, std::int64_t& ns) {
  if (unit == TimeUnit::Ns) {
    auto r = std::from_chars(text.data(), text.data() + text.size(), ns);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
  }
  bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  auto dot = text.find('.');
  std::string_view whole = text.substr(0, dot), fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || fraction.size() > 9) return false;
  std::int64_t sec = 0, frac = 0;
  auto r = std::from_chars(whole.data(), whole.data() + whole.size(), sec);
  if (r.ec != std::errc() || r.ptr != whole.data() + whole.size() || sec > INT64_MAX / 1'000'000'000 - 1) return false;
  if (!fraction.empty()) {
    auto f = std::from_chars(fraction.data(), fraction.data() + fraction.size(), frac);
    if (f.ec != std::errc() || f.ptr != fraction.data() + fraction.size() || fraction.front() == '-') return false;
    for (std::size_t k = fraction.size(); k < 9; ++k) frac *= 10;
  }
  ns = sec * 1'000'000'000 + frac;
  if (negative) ns = -ns;
  return true;
}

// One column's way into a message: a field index at each level, and an element index where
// the field is an array.
struct Step {
  std::size_t field;
  const schema::Field* def;
  std::optional<std::uint32_t> element;
};
struct ColumnPlan {
  std::size_t column;  // in the table
  std::string name;    // the path, without the topic prefix
  std::vector<Step> steps;
};

Result<ColumnPlan> planColumn(const schema::MessageType& root, std::size_t column, std::string_view path) {
  ColumnPlan plan{column, std::string(path), {}};
  const schema::MessageType* type = &root;
  std::string_view rest = path;
  while (true) {
    if (!type) return makeError(ErrorCode::InvalidArgument, "goes inside a field that has no fields");
    auto end = rest.find_first_of(".[");
    std::string_view name = rest.substr(0, end);
    auto it = std::find_if(type->fields.begin(), type->fields.end(), [&](const auto& f) { return f.name == name; });
    if (it == type->fields.end() || it->hidden)
      return makeError(ErrorCode::InvalidArgument, type->name + " has no field '" + std::string(name) + "'");
    Step step{static_cast<std::size_t>(it - type->fields.begin()), &*it, std::nullopt};
    rest = end == std::string_view::npos ? "" : rest.substr(end);
    if (!rest.empty() && rest.front() == '[') {
      auto close = rest.find(']');
      std::uint32_t index = 0;
      auto r = std::from_chars(rest.data() + 1, rest.data() + (close == std::string_view::npos ? 1 : close), index);
      if (close == std::string_view::npos || r.ptr != rest.data() + close || it->array == ArrayKind::None)
        return makeError(
            ErrorCode::InvalidArgument,
            "'" + std::string(name) + (it->array == ArrayKind::None ? "' is no array" : "' has a bad index"));
      if (it->array != ArrayKind::Dynamic && index >= it->arrayLength)
        return makeError(ErrorCode::InvalidArgument,
                         "'" + std::string(name) + "' has at most " + std::to_string(it->arrayLength) + " elements");
      step.element = index;
      rest.remove_prefix(close + 1);
    } else if (it->array != ArrayKind::None) {
      return makeError(ErrorCode::InvalidArgument,
                       "'" + std::string(name) + "' is an array: name its elements ('" + std::string(name) + "[0]')");
    }
    plan.steps.push_back(step);
    if (rest.empty()) break;
    if (rest.front() != '.') return makeError(ErrorCode::InvalidArgument, "is no message path");
    rest.remove_prefix(1);
    if (it->type != Primitive::Message) type = nullptr;
    else type = it->message;
  }
  const schema::Field& leaf = *plan.steps.back().def;
  if (leaf.type == Primitive::Message && !decode::isTimeField(leaf))
    return makeError(ErrorCode::InvalidArgument, "is a message, not a value: name its fields");
  return plan;
}

// Sets the value a column plans from its cell; an error says what the cell should hold.
Result<void> setCell(Value& message, const ColumnPlan& plan, std::string_view cell, TimeUnit unit) {
  Value* v = &message;
  for (const Step& step : plan.steps) {
    v = &v->items[step.field];
    if (step.element) {
      if (*step.element >= v->items.size()) v->items.resize(*step.element + 1, decode::zeroElement(*step.def));
      v = &v->items[*step.element];
    }
  }
  const schema::Field& f = *plan.steps.back().def;
  auto bad = [&](const char* what) {
    return makeError(ErrorCode::InvalidArgument, "'" + std::string(cell) + "' is not " + what);
  };
  if (decode::isTimeField(f)) {
    std::int64_t ns = 0;
    if (!parseTime(cell, unit, ns)) return bad(unit == TimeUnit::Ns ? "a time in ns" : "a time in seconds");
    *v = decode::timeValue(f, ns);
    return {};
  }
  switch (f.type) {
    case Primitive::String: v->text.assign(cell); return {};
    case Primitive::Bool:
      if (cell == "True" || cell == "true" || cell == "1") v->b = true;
      else if (cell == "False" || cell == "false" || cell == "0") v->b = false;
      else return bad("a bool (True, False, 1, 0)");
      return {};
    case Primitive::Float32:
    case Primitive::Float64: {
      std::string_view text = cell.starts_with('+') ? cell.substr(1) : cell;
      auto r = fast_float::from_chars(text.data(), text.data() + text.size(), v->f);
      if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return bad("a number");
      return {};
    }
    default: {
      // Integers: signed or unsigned by the field; the encoder checks the range.
      auto parse = [&](auto& out) {
        auto r = std::from_chars(cell.data(), cell.data() + cell.size(), out);
        return r.ec == std::errc() && r.ptr == cell.data() + cell.size();
      };
      if (!cell.empty() && cell.front() == '-') {
        v->kind = Value::Kind::Int;
        if (!parse(v->i)) return bad("a whole number");
      } else {
        v->kind = Value::Kind::UInt;
        if (!parse(v->u)) return bad("a whole number");
      }
      return {};
    }
  }
}

struct TopicPlan {
  const ImportTopic* topic;
  storage::Connection connection;
  std::shared_ptr<const decode::Decoder> decoder;
  ChannelId channel = 0;
  std::vector<ColumnPlan> columns;
};

struct Row {
  std::int64_t timeNs;
  std::size_t topic;
  std::vector<std::byte> bytes;
};

}  // namespace

Result<ImportReport> importTable(const ImportRequest& request, StopToken stop, const session::ProgressFn& progress) {
  const std::string file = utf8(request.table);
  auto fail = [&](std::string what, std::size_t line = 0) {
    return fileError(ErrorCode::InvalidArgument, (line ? "line " + std::to_string(line) + ": " : "") + what, file);
  };
  if (request.topics.empty()) return fail("no topic to import into");
  std::ifstream in(request.table, std::ios::binary);
  if (!in) return fileError(ErrorCode::Io, "cannot be opened", file);
  CsvReader csv(std::string(std::istreambuf_iterator<char>(in), {}));
  std::vector<std::string> header, cells;
  if (!csv.next(header) || header.empty() || (header.size() == 1 && header[0].empty())) return fail("is empty");

  // The time column: the one asked for, else the export's log time, else its stamp.
  std::optional<std::size_t> timeColumn;
  auto column = [&](std::string_view name) -> std::optional<std::size_t> {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::nullopt : std::optional(static_cast<std::size_t>(it - header.begin()));
  };
  if (!request.timeColumn.empty()) {
    timeColumn = column(request.timeColumn);
    if (!timeColumn) return fail("has no column '" + request.timeColumn + "' (the time column)");
  }
  for (std::size_t k = 0; k < kTimeColumns.size() && !timeColumn; ++k) timeColumn = column(kTimeColumns[k]);
  if (!timeColumn) return fail("has no time column (log_time_ns, log_time, stamp_ns or stamp): name one");
  const TimeUnit unit =
      request.timeUnit.value_or(header[*timeColumn].ends_with("_ns") ? TimeUnit::Ns : TimeUnit::Seconds);

  // Each topic's type and columns: "topic/path", or a bare path when there is one topic.
  std::vector<TopicPlan> topics;
  for (const auto& t : request.topics) {
    auto made = encodedTopic(t.topic, t.type, t.definition, request.writer.container, request.msgPaths);
    if (!made) return made.error();
    made->connection.id = static_cast<std::uint32_t>(topics.size());
    topics.push_back({&t, std::move(made->connection), std::move(made->codec), 0, {}});
  }
  for (std::size_t k = 0; k < header.size(); ++k) {
    if (k == *timeColumn || std::find(kTimeColumns.begin(), kTimeColumns.end(), header[k]) != kTimeColumns.end())
      continue;
    std::string_view name = header[k];
    // The longest topic name that prefixes the column; a bare path for a single topic.
    TopicPlan* owner = nullptr;
    std::string_view path = name;
    for (auto& t : topics) {
      const std::string& topic = t.topic->topic;
      if (name.size() > topic.size() + 1 && name.starts_with(topic) && name[topic.size()] == '/' &&
          (!owner || topic.size() > owner->topic->topic.size())) {
        owner = &t;
        path = name.substr(topic.size() + 1);
      }
    }
    if (!owner && topics.size() == 1 && !name.starts_with('/')) owner = &topics.front();
    if (!owner) return fail("column '" + std::string(name) + "' names none of the topics (TOPIC/path)", 1);
    auto plan = planColumn(*owner->decoder->schema().root, k, path);
    if (!plan) return fail("column '" + std::string(name) + "': " + plan.error().message, 1);
    owner->columns.push_back(std::move(*plan));
  }

  // Every row into messages, then written in time order (rows may come in any order).
  std::vector<Row> rows;
  std::vector<std::byte> encoded;
  std::uint64_t seen = 0;
  while (csv.next(cells)) {
    if (cells.size() == 1 && cells[0].empty()) continue;  // a blank line
    const std::size_t line = csv.line();
    if (cells.size() != header.size())
      return fail("has " + std::to_string(cells.size()) + " cells, the header " + std::to_string(header.size()), line);
    std::int64_t timeNs = 0;
    if (!parseTime(cells[*timeColumn], unit, timeNs))
      return fail("'" + cells[*timeColumn] + "' in column '" + header[*timeColumn] + "' is not a time in " +
                      (unit == TimeUnit::Ns ? "ns" : "seconds"),
                  line);
    for (std::size_t t = 0; t < topics.size(); ++t) {
      auto& plan = topics[t];
      bool any = topics.size() == 1;
      for (const auto& c : plan.columns) any = any || !cells[c.column].empty();
      if (!any) continue;  // no cell of this topic on the row: no message
      Value message = decode::zeroValue(*plan.decoder->schema().root);
      for (const auto& c : plan.columns) {
        if (cells[c.column].empty()) continue;
        if (auto set = setCell(message, c, cells[c.column], unit); !set)
          return fail("column '" + header[c.column] + "': " + set.error().message, line);
      }
      if (auto e = decode::encode(*plan.decoder, message, encoded); !e)
        return fail(plan.topic->topic + ": " + e.error().message, line);
      rows.push_back({timeNs, t, encoded});
    }
    if (stop.stop_requested()) return makeError(ErrorCode::Cancelled, "stopped");
    if (progress && ++seen % 4096 == 0) progress(0.5 * csv.fraction());
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.timeNs < b.timeNs; });

  auto writer = openWriter(request.output, request.writer);
  if (!writer) return writer.error();
  ImportReport report;
  for (auto& t : topics) {
    auto channel = (*writer)->addConnection(t.connection);
    if (!channel) return channel.error();
    t.channel = *channel;
    report.perTopic[t.connection.topic] = 0;
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (auto w = (*writer)->write(topics[rows[i].topic].channel, rows[i].timeNs, rows[i].bytes); !w) return w.error();
    ++report.perTopic[topics[rows[i].topic].topic->topic];
    if (stop.stop_requested()) return makeError(ErrorCode::Cancelled, "stopped");
    if (progress && i % 4096 == 0) progress(0.5 + 0.5 * static_cast<double>(i) / static_cast<double>(rows.size()));
  }
  if (auto done = (*writer)->finish(); !done) return done.error();
  if (progress) progress(1.0);
  report.messagesWritten = rows.size();
  report.bytesWritten = detail::outputSize(request.output);
  return report;
}

}  // namespace bagscope::write
