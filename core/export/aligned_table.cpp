// Several topics on one time axis: the rows are one topic's log times or a fixed rate, every
// other topic's columns taken at those times (merge_asof backward, numpy.interp, or exact), and
// never past a topic's first or last message.

#include <algorithm>
#include <cmath>
#include <optional>

#include "export.hpp"
#include "table.hpp"

namespace bagscope::exporters {

namespace {

using Kind = TableColumn::Kind;

// The most rows a rate may ask for: a typo (--rate 1e6 over an hour) is refused, not allocated.
constexpr std::uint64_t kMaxRows = 50'000'000;

struct Join {
  session::TopicId topic = 0;
  std::string name;
  std::vector<std::string> paths;  // empty: every column
};

Result<Join> parseJoin(const session::Session& s, std::string_view text) {
  Join j;
  auto colon = text.find(':');
  j.name = std::string(text.substr(0, colon));
  auto id = s.findTopic(j.name);
  if (!id) return makeError(ErrorCode::InvalidArgument, "the recording has no topic '" + j.name + "' to join");
  j.topic = *id;
  for (std::size_t at = colon == std::string_view::npos ? text.size() : colon + 1; at < text.size();) {
    auto comma = std::min(text.find(',', at), text.size());
    if (comma > at) j.paths.emplace_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  return j;
}

// A column a path names: the column itself, or those under it (pose.position: .x, .y, .z).
bool under(const std::string& column, const std::string& path) {
  return column == path || (column.size() > path.size() && column.starts_with(path) &&
                            (column[path.size()] == '.' || column[path.size()] == '['));
}

double number(const TableColumn& c, std::size_t i) {
  switch (c.kind) {
    case Kind::Int:
    case Kind::Bool: return static_cast<double>(c.ints[i]);
    case Kind::UInt: return static_cast<double>(c.uints[i]);
    case Kind::Float: return c.floats[i];
    case Kind::String: break;
  }
  return std::nan("");
}

bool missingAt(const TableColumn& c, std::size_t i) { return !c.missing.empty() && c.missing[i]; }

// Appends row `i` of `from` to `to` (of the same kind), or a missing cell.
void copyCell(const TableColumn& from, std::optional<std::size_t> i, TableColumn& to) {
  const bool absent = !i || missingAt(from, *i);
  to.missing.push_back(absent);
  switch (to.kind) {
    case Kind::Int:
    case Kind::Bool: to.ints.push_back(absent ? 0 : from.ints[*i]); break;
    case Kind::UInt: to.uints.push_back(absent ? 0 : from.uints[*i]); break;
    case Kind::Float: to.floats.push_back(absent ? std::nan("") : from.floats[*i]); break;
    case Kind::String: to.texts.push_back(absent ? std::string() : from.texts[*i]); break;
  }
}

}  // namespace

Result<std::vector<TableColumn>> alignedTable(const session::Session& session, const ExportOptions& options,
                                              StopToken stop) {
  if (options.joins.empty()) return makeError(ErrorCode::InvalidArgument, "an aligned table needs a topic to join");
  if ((options.alignOn.empty()) == (options.alignRateHz <= 0))
    return makeError(ErrorCode::InvalidArgument,
                     "an aligned table needs one of a topic whose times are its rows and a rate");
  session::Selection range;
  range.startNs = options.startNs;
  range.endNs = options.endNs;

  // Each joined topic's table, read as the CSV export flattens it, and the columns asked for.
  struct Joined {
    Join join;
    std::vector<TableColumn> table;  // [0] is log_time_ns
    std::vector<std::size_t> columns;
  };
  std::vector<Joined> joined;
  for (const auto& text : options.joins) {
    auto j = parseJoin(session, text);
    if (!j) return j.error();
    auto table = readTable(session, j->topic, range, options.arrayLimit, stop);
    if (!table) return table.error();
    Joined one{std::move(j).value(), std::move(table).value(), {}};
    // Every column, or those of each path in the order the paths are given.
    for (std::size_t c = 1; c < one.table.size() && one.join.paths.empty(); ++c)
      if (one.table[c].name != "stamp_ns" || options.timeColumns != TimeColumns::LogTime) one.columns.push_back(c);
    for (const auto& p : one.join.paths) {
      bool found = false;
      for (std::size_t c = 1; c < one.table.size(); ++c) {
        if (!under(one.table[c].name, p)) continue;
        found = true;
        if (std::find(one.columns.begin(), one.columns.end(), c) == one.columns.end()) one.columns.push_back(c);
      }
      if (!found) {
        std::string some;  // what it has, for the user to pick from
        for (std::size_t c = 1; c < one.table.size() && c <= 6; ++c) some += (c > 1 ? ", " : "") + one.table[c].name;
        return makeError(ErrorCode::InvalidArgument,
                         "'" + one.join.name + "' has no field '" + p + "'" +
                             (some.empty() ? " (no messages in the range)" : " (its columns: " + some + ", ...)"));
      }
    }
    joined.push_back(std::move(one));
  }

  // The rows' times: the --on topic's messages, or every 1/rate s over the joined topics' span.
  std::vector<std::int64_t> rows;
  if (!options.alignOn.empty()) {
    auto on = session.findTopic(options.alignOn);
    if (!on)
      return makeError(ErrorCode::InvalidArgument, "the recording has no topic '" + options.alignOn + "' for the rows");
    session::Selection only = range;
    only.topics = {*on};
    auto r = session.forEach(
        only,
        [&](const session::Message& m) {
          rows.push_back(m.logTimeNs);
          return true;
        },
        {}, stop);
    if (!r) return r.error();
  } else {
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    for (const auto& j : joined)
      if (!j.table.front().ints.empty()) {
        first = std::min(first, j.table.front().ints.front());
        last = std::max(last, j.table.front().ints.back());
      }
    if (first <= last) {
      const double step = 1e9 / options.alignRateHz;
      const double count = std::floor(static_cast<double>(last - first) / step) + 1;
      if (count > static_cast<double>(kMaxRows))
        return makeError(ErrorCode::InvalidArgument, "a rate of " + std::to_string(options.alignRateHz) + " Hz gives " +
                                                         std::to_string(static_cast<std::uint64_t>(count)) +
                                                         " rows, more than " + std::to_string(kMaxRows));
      rows.reserve(static_cast<std::size_t>(count));
      for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(count); ++i)
        rows.push_back(first + std::llround(static_cast<double>(i) * step));
    }
  }

  std::vector<TableColumn> out;
  out.push_back({"log_time_ns", Kind::Int, rows, {}, {}, {}, {}});
  for (const auto& j : joined) {
    const auto& times = j.table.front().ints;
    // Text and bools are never interpolated: they take the last message's, as Previous does.
    const auto picks = analysis::samplesAt(times, rows, options.fill);
    const auto stepped = options.fill == Fill::Linear ? analysis::samplesAt(times, rows, Fill::Previous) : picks;
    for (std::size_t c : j.columns) {
      const TableColumn& from = j.table[c];
      const bool linear = options.fill == Fill::Linear && from.kind != Kind::String && from.kind != Kind::Bool;
      TableColumn& to = out.emplace_back();
      to.name = j.join.name + "/" + from.name;
      to.kind = linear ? Kind::Float : from.kind;
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const analysis::SampleAt& p = linear ? picks[r] : stepped[r];
        if (!linear) {
          copyCell(from, p.found ? std::optional(p.index) : std::nullopt, to);
          continue;
        }
        const std::size_t i = p.index;
        const bool absent = !p.found || missingAt(from, i) || (p.weight > 0 && missingAt(from, i + 1));
        const double a = absent ? 0 : number(from, i);
        to.missing.push_back(absent);
        to.floats.push_back(absent ? std::nan("") : p.weight > 0 ? a + (number(from, i + 1) - a) * p.weight : a);
      }
    }
  }
  for (auto& c : out)
    if (std::find(c.missing.begin(), c.missing.end(), true) == c.missing.end()) c.missing.clear();
  return out;
}

Result<void> writeAlignedSeriesCsv(const std::filesystem::path& path, const std::vector<Series>& series, std::size_t on,
                                   Fill fill, std::string_view xName, double lo, double hi, bool overwrite) {
  if (on >= series.size()) return makeError(ErrorCode::InvalidArgument, "no series to take the rows' times from");
  auto ns = [](const std::vector<double>& seconds) {
    std::vector<std::int64_t> out;
    out.reserve(seconds.size());
    for (double x : seconds) out.push_back(std::llround(x * 1e9));
    return out;
  };
  const Series& rows = series[on];
  std::vector<double> rowSeconds;
  for (double x : rows.x)
    if (x >= lo && x <= hi) rowSeconds.push_back(x);
  const auto rowNs = ns(rowSeconds);
  std::vector<std::vector<analysis::SampleAt>> picks;
  for (const auto& s : series) picks.push_back(analysis::samplesAt(ns(s.x), rowNs, fill));
  std::string out;
  detail::appendCsvText(xName, out);
  for (const auto& s : series) {
    out += ',';
    detail::appendCsvText(s.name, out);
  }
  out += '\n';
  for (std::size_t r = 0; r < rowSeconds.size(); ++r) {
    detail::appendCsvNumber(rowSeconds[r], out);
    for (std::size_t k = 0; k < series.size(); ++k) {
      out += ',';
      const analysis::SampleAt& p = picks[k][r];
      const Series& s = series[k];
      if (!p.found || p.index >= s.y.size()) continue;
      if (p.index < s.labels.size()) detail::appendCsvText(s.labels[p.index], out);  // text: never interpolated
      else if (p.weight == 0 || p.index + 1 >= s.y.size()) detail::appendCsvNumber(s.y[p.index], out);
      else detail::appendCsvNumber(s.y[p.index] + (s.y[p.index + 1] - s.y[p.index]) * p.weight, out);
    }
    out += '\n';
  }
  return writeFileAtomically(path, out, overwrite);
}

namespace detail {

std::string tableCsv(const std::vector<TableColumn>& table, bool seconds) {
  std::string out;
  for (std::size_t c = 0; c < table.size(); ++c) {
    if (c) out += ',';
    appendCsvText(c == 0 && seconds ? std::string("log_time") : table[c].name, out);
  }
  out += '\n';
  const std::size_t rows = table.empty() ? 0 : table.front().ints.size();
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < table.size(); ++c) {
      const TableColumn& col = table[c];
      if (c) out += ',';
      if (missingAt(col, r)) continue;
      switch (col.kind) {
        case Kind::Int:
          if (c == 0) appendCsvTime(col.ints[r], seconds, out);  // the rows' log time
          else out += std::to_string(col.ints[r]);
          break;
        case Kind::Bool: out += col.ints[r] ? "True" : "False"; break;
        case Kind::UInt: out += std::to_string(col.uints[r]); break;
        case Kind::Float: appendCsvNumber(col.floats[r], out); break;
        case Kind::String: appendCsvText(col.texts[r], out); break;
      }
    }
    out += '\n';
  }
  return out;
}

std::string tableNpy(const std::vector<TableColumn>& table) {
  // A column with missing cells is float64 with NaN there, as pandas reads an empty CSV cell.
  std::vector<std::pair<std::string, std::string>> fields;
  std::vector<const TableColumn*> stored;
  for (const auto& c : table) {
    if (c.kind == Kind::String) continue;  // NumPy tables hold numbers only, as the per-topic ones
    const bool asFloat = c.kind == Kind::Float || !c.missing.empty();
    fields.emplace_back(c.name, asFloat ? "<f8" : c.kind == Kind::UInt ? "<u8" : c.kind == Kind::Bool ? "|b1" : "<i8");
    stored.push_back(&c);
  }
  const std::size_t rows = table.empty() ? 0 : table.front().ints.size();
  std::string out = npyPreamble(fields, std::to_string(rows) + ",");
  if (out.empty()) return out;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < stored.size(); ++k) {
      const TableColumn& c = *stored[k];
      auto put = [&](auto x) { out.append(reinterpret_cast<const char*>(&x), sizeof x); };
      if (fields[k].second == "<f8") put(missingAt(c, r) ? std::nan("") : number(c, r));
      else if (c.kind == Kind::UInt) put(c.uints[r]);
      else if (c.kind == Kind::Bool) put(static_cast<std::uint8_t>(c.ints[r] != 0));
      else put(c.ints[r]);
    }
  return out;
}

}  // namespace detail

}  // namespace bagscope::exporters
