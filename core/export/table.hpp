#pragma once
// A message type flattened to columns, for CSV and NumPy tables: nested fields as a.b.c,
// arrays as name[i] (variable ones up to a limit), times as one column.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/decode/decoder.hpp"

namespace bagscope::exporters {
struct TableColumn;
}

namespace bagscope::exporters::detail {

struct Column {
  enum class Kind : std::uint8_t { Int, UInt, Float, Bool, Time, String };
  std::string name;
  Kind kind = Kind::Float;
  std::vector<std::uint32_t> path;  ///< field index or array element at each level
};

/// The columns of `type`; variable-length arrays get `arrayLimit` columns.
std::vector<Column> planColumns(const schema::MessageType& type, std::uint32_t arrayLimit);

/// The columns of `type` (another connection's definition) under the names of `columns` (the
/// table's, from its first message): a name `type` does not have reads as absent.
std::vector<Column> matchColumns(const std::vector<Column>& columns, const schema::MessageType& type,
                                 std::uint32_t arrayLimit);

/// The value of `column` in a decoded message; null when absent (a short array).
const decode::Value* columnValue(const decode::Value& message, const Column& column, std::uint8_t& byte, bool& isByte);

/// Appends `text` as one CSV field: quoted (quotes doubled) when it holds a comma, quote or
/// line break.
void appendCsvText(std::string_view text, std::string& out);
/// Appends `v` as a CSV number: its shortest exact form, or nan, inf, -inf.
void appendCsvNumber(double v, std::string& out);
/// Appends a time as the CSV export writes times: integer ns, or with `seconds`
/// seconds.nanoseconds exactly ("-1.500000000").
void appendCsvTime(std::int64_t ns, bool seconds, std::string& out);

/// Appends the value as CSV text (nothing when absent). Times in ns, or seconds.
void appendCsv(const decode::Value* value, std::uint8_t byte, bool isByte, const Column& column, bool seconds,
               std::string& out);

/// Appends the value as a NumPy little-endian field of the column's dtype (absent: 0 / NaN).
void appendNpy(const decode::Value* value, std::uint8_t byte, bool isByte, const Column& column, std::string& out);
/// The column's NumPy dtype ("<i8", "<u8", "<f8", "|b1"); empty for strings (not stored).
const char* npyType(const Column& column);

/// A NumPy 1.0 file's preamble for a structured array of `fields` (name, dtype) and `shape`
/// ("12," or "48, 64"): magic, version, header length and the header padded so that the
/// data starts 64-byte aligned. Empty when the header does not fit NumPy 1.0's 64 KiB.
std::string npyPreamble(const std::vector<std::pair<std::string, std::string>>& fields, const std::string& shape);

/// A table of columns (alignedTable()) as CSV: a missing cell empty, the first column (log
/// time) in seconds when `seconds`.
std::string tableCsv(const std::vector<TableColumn>& table, bool seconds);
/// The same as a NumPy structured array; text columns are left out, columns with missing cells
/// are float64 with NaN there. Empty when the header does not fit.
std::string tableNpy(const std::vector<TableColumn>& table);

}  // namespace bagscope::exporters::detail
