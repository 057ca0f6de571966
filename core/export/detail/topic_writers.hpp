#pragma once
// The writers of one file per topic (CSV, NumPy tables, video), behind one interface: the
// exporter reads and decodes the messages, a writer turns them into its file. Each writes
// to the temporary name it is given; the exporter publishes it when finish() succeeds.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/export/export.hpp"

namespace bagscope::exporters::detail {

/// One message as the writer gets it.
struct TopicRow {
  const session::Message& message;
  const decode::Value& value;
  const decode::Decoder& decoder;
  const std::optional<sensors::Header>& header;
};

/// Why a message was not written: `reason` is counted in the report, `detail` listed; a
/// fatal failure ends the topic (a file that cannot be written).
struct RowFailure {
  std::string reason, detail;
  bool fatal = false;
};

class TopicWriter {
public:
  virtual ~TopicWriter() = default;
  virtual std::optional<RowFailure> add(const TopicRow& row) = 0;
  /// Completes the file after the last row (at least one was added).
  virtual Result<void> finish() = 0;
};

struct TopicWriterSetup {
  const ExportOptions& options;
  std::filesystem::path temp;                             ///< where to write
  std::filesystem::path path;                             ///< the final name, for messages
  sensors::SensorKind kind = sensors::SensorKind::Other;  ///< of the topic's type
  double meanRate = 0;  ///< messages per second in the exported range (video frame rate)
};

/// The writers the formats' rows name (formats.cpp): CSV, a NumPy table (table_writers.cpp),
/// a video (video_writer.cpp). `setup` must outlive each.
Result<std::unique_ptr<TopicWriter>> makeCsvWriter(const TopicWriterSetup& setup);
std::unique_ptr<TopicWriter> makeNpyTableWriter(const TopicWriterSetup& setup);
std::unique_ptr<TopicWriter> makeVideoWriter(const TopicWriterSetup& setup, sensors::VideoWriter::Codec codec);

}  // namespace bagscope::exporters::detail
