#pragma once
// The overview of a recording that `bagscope-cli info` prints and the app shows: like
// `rosbag info`, as text or as a JSON object with the same content.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/storage/source.hpp"

namespace bagscope::storage {

/// The rate Bagscope shows everywhere (info, stats, the app's topics): the intervals
/// between a topic's first and last log time per second, (count - 1) / span; 0 below two
/// messages or over a zero span. Stats gives the rate of the median interval beside it.
double rateHz(std::uint64_t count, std::int64_t firstNs, std::int64_t lastNs);

struct TopicSummary {
  std::string topic;
  std::vector<std::string> types;  ///< usually one; more when connections disagree
  std::uint64_t messageCount = 0;
  std::uint32_t connectionCount = 0;
  double frequencyHz = 0;              ///< rateHz() of its messages
  std::string offeredQos;              ///< ROS 2: YAML text of the first connection that has it
  std::optional<std::uint64_t> bytes;  ///< its messages' bytes, when measured (measureTopicBytes)
};

struct TypeSummary {
  std::string type;
  std::string md5sum;
};

struct RecordingSummary {
  SourceInfo info;
  ChunkStats chunks;
  std::vector<TypeSummary> types;    ///< sorted by name (and md5)
  std::vector<TopicSummary> topics;  ///< sorted by topic
};

/// Gathers the summary: chunk headers and Source::connectionSpans() (the full message index
/// only where the file's summary cannot say).
Result<RecordingSummary> summarize(Source& source);
/// Reads every message to fill in each topic's bytes (what `mcap du` shows). Chunks that
/// cannot be read are skipped and added to the summary's problems.
Result<void> measureTopicBytes(Source& source, RecordingSummary& summary);

std::string formatSummaryText(const RecordingSummary& summary);
std::string formatSummaryJson(const RecordingSummary& summary);

/// "2023-11-14 22:13:20.000 UTC" for a time in ns since the Unix epoch.
std::string formatUtc(std::int64_t ns);

}  // namespace bagscope::storage
