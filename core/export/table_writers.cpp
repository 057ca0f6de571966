// CSV and NumPy tables: one row per message, its fields flattened to columns (table.hpp).
// The first message's definition names the columns; another connection's (another file's
// definition) is matched to them by name.

#include <algorithm>
#include <fstream>
#include <map>

#include "core/base/byte_source.hpp"
#include "detail/topic_writers.hpp"
#include "table.hpp"

namespace bagscope::exporters::detail {
namespace {

using decode::Value;

class TableWriter : public TopicWriter {
public:
  explicit TableWriter(const TopicWriterSetup& setup) : setup_(setup) {}

  std::optional<RowFailure> add(const TopicRow& row) override {
    const auto& paths = setup_.options.paths;
    if (columns_.empty()) {
      if (paths.empty()) {
        columns_ = planColumns(*row.decoder.schema().root, setup_.options.arrayLimit);
      } else {
        for (const auto& path : paths)
          for (auto& one : decode::MessagePath::expandSlices(path, kMaxPathColumns))
            columns_.push_back({std::move(one), Column::Kind::Float, {}});
      }
      withStamp_ = row.header.has_value();
      if (auto failed = start()) return failed;
    }
    if (!paths.empty()) {
      auto& selectors = selectors_[row.message.connection];
      if (selectors.empty())
        for (const auto& c : columns_) {
          auto p = decode::MessagePath::compile(c.name, *row.decoder.schema().root);
          if (!p) return RowFailure{"message path does not fit the type", p.error().message, true};
          selectors.push_back(std::move(p).value());
        }
      ++rows_;
      return writeSelected(row, selectors, row.header ? row.header->stampNs : 0);
    }
    auto& plan = plans_[row.message.connection];
    if (plan.empty()) plan = matchColumns(columns_, *row.decoder.schema().root, setup_.options.arrayLimit);
    ++rows_;
    return write(row, plan, row.header ? row.header->stampNs : 0);
  }

protected:
  virtual std::optional<RowFailure> start() = 0;
  virtual std::optional<RowFailure> write(const TopicRow& row, const std::vector<Column>& plan,
                                          std::int64_t stampNs) = 0;
  /// A row of the columns the message paths select (CSV only: the exporter checks).
  virtual std::optional<RowFailure> writeSelected(const TopicRow&, const std::vector<decode::MessagePath>&,
                                                  std::int64_t) {
    return RowFailure{"message paths are written to CSV only", "", true};
  }
  static constexpr std::size_t kMaxPathColumns = 4096;

  const TopicWriterSetup& setup_;
  std::vector<Column> columns_;  // named by the first message's definition
  bool withStamp_ = false;       // the type has a header: a stamp column
  std::uint64_t rows_ = 0;

private:
  std::map<const storage::Connection*, std::vector<Column>> plans_;  // per connection
  std::map<const storage::Connection*, std::vector<decode::MessagePath>> selectors_;
};

class CsvWriter final : public TableWriter {
public:
  using TableWriter::TableWriter;
  std::ofstream out;

  Result<void> finish() override {
    out.close();
    if (!out) return fileError(ErrorCode::Write, "writing failed (disk full?)", utf8(setup_.path));
    return {};
  }

private:
  std::optional<RowFailure> start() override {
    const auto& o = setup_.options;
    line_.clear();
    const char* unit = o.timeInSeconds ? "" : "_ns";
    if (o.timeColumns != TimeColumns::Stamp) line_ += std::string("log_time") + unit + ",";
    if (o.timeColumns != TimeColumns::LogTime && withStamp_) line_ += std::string("stamp") + unit + ",";
    for (const auto& c : columns_) {
      appendCsvText(c.name, line_);
      line_ += ',';
    }
    line_.back() = '\n';
    out << line_;
    return std::nullopt;
  }

  // Starts a line with the row's time columns.
  void startLine(const TopicRow& row, std::int64_t stampNs) {
    const auto& o = setup_.options;
    line_.clear();
    auto time = [&](std::int64_t ns) {
      appendCsvTime(ns, o.timeInSeconds, line_);
      line_ += ',';
    };
    if (o.timeColumns != TimeColumns::Stamp) time(row.message.logTimeNs);
    if (o.timeColumns != TimeColumns::LogTime && withStamp_) time(stampNs);
  }

  std::optional<RowFailure> writeSelected(const TopicRow& row, const std::vector<decode::MessagePath>& selectors,
                                          std::int64_t stampNs) override {
    startLine(row, stampNs);
    std::string cell;
    for (const auto& path : selectors) {
      leaves_.clear();
      path.select(row.value, leaves_);
      cell.clear();
      for (const auto& leaf : leaves_) {
        if (!cell.empty()) cell += ';';
        if (path.textLeaf()) cell += leaf.text;
        else if (leaf.integer) cell += std::to_string(static_cast<std::int64_t>(leaf.number));
        else appendCsvNumber(leaf.number, cell);
      }
      appendCsvText(cell, line_);
      line_ += ',';
    }
    line_.back() = '\n';
    out << line_;
    return std::nullopt;
  }

  std::optional<RowFailure> write(const TopicRow& row, const std::vector<Column>& plan, std::int64_t stampNs) override {
    const auto& o = setup_.options;
    startLine(row, stampNs);
    for (const auto& c : plan) {
      std::uint8_t byte = 0;
      bool isByte = false;
      // Found first: the byte and isByte it sets are passed by value (argument order is unspecified).
      const Value* value = columnValue(row.value, c, byte, isByte);
      appendCsv(value, byte, isByte, c, o.timeInSeconds, line_);
      line_ += ',';
    }
    line_.back() = '\n';
    out << line_;
    return std::nullopt;
  }

  std::string line_;
  std::vector<decode::MessagePath::Leaf> leaves_;
};

class NpyTableWriter final : public TableWriter {
public:
  using TableWriter::TableWriter;

  Result<void> finish() override {
    std::vector<std::pair<std::string, std::string>> fields{{"log_time_ns", "<i8"}};
    if (withStamp_) fields.emplace_back("stamp_ns", "<i8");
    for (const auto& c : columns_)
      if (*npyType(c)) fields.emplace_back(c.name, npyType(c));
    std::string preamble = npyPreamble(fields, std::to_string(rows_) + ",");
    if (preamble.empty())
      return fileError(ErrorCode::Unsupported, "too many columns for a NumPy 1.0 header", utf8(setup_.path));
    std::ofstream npy(setup_.temp, std::ios::binary);
    npy << preamble;
    npy.write(rows.data(), static_cast<std::streamsize>(rows.size()));
    npy.close();
    if (!npy) return fileError(ErrorCode::Write, "writing failed (disk full?)", utf8(setup_.path));
    return {};
  }

private:
  std::optional<RowFailure> start() override { return std::nullopt; }

  std::optional<RowFailure> write(const TopicRow& row, const std::vector<Column>& plan, std::int64_t stampNs) override {
    auto put = [&](std::int64_t x) { rows.append(reinterpret_cast<const char*>(&x), 8); };
    put(row.message.logTimeNs);
    if (withStamp_) put(stampNs);
    for (const auto& c : plan) {
      if (!*npyType(c)) continue;
      std::uint8_t byte = 0;
      bool isByte = false;
      const Value* value = columnValue(row.value, c, byte, isByte);  // before byte and isByte are read
      appendNpy(value, byte, isByte, c, rows);
    }
    return std::nullopt;
  }

  std::string rows;  // the array's data, written after the header once the row count is known
};

}  // namespace

Result<std::unique_ptr<TopicWriter>> makeCsvWriter(const TopicWriterSetup& setup) {
  auto writer = std::make_unique<CsvWriter>(setup);
  writer->out.open(setup.temp, std::ios::binary);
  if (!writer->out) return fileError(ErrorCode::Write, "cannot create a file here", utf8(setup.path));
  return std::unique_ptr<TopicWriter>(std::move(writer));
}

std::unique_ptr<TopicWriter> makeNpyTableWriter(const TopicWriterSetup& setup) {
  return std::make_unique<NpyTableWriter>(setup);
}

}  // namespace bagscope::exporters::detail
