#pragma once
// Timing diagnostics per topic: how regularly a topic was recorded, where it paused,
// whether its log times go backwards in the file, and how late messages were logged after
// their header stamp. What `bagscope-cli stats` prints and the app's Stats dialog shows.

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/session/session.hpp"

namespace bagscope::session {

struct Gap {
  std::int64_t fromNs = 0;  ///< log time of the message before the gap
  std::int64_t toNs = 0;    ///< log time of the message after it
  std::int64_t lengthNs() const { return toNs - fromNs; }
};

struct Latency {
  std::int64_t minNs = 0, medianNs = 0, maxNs = 0;  ///< log time - header stamp
};

struct TopicTiming {
  std::string topic;
  std::string type;
  std::uint64_t count = 0;
  double meanRateHz = 0;           ///< storage::rateHz: (count - 1) / (last - first log time)
  double medianRateHz = 0;         ///< 1 / the median interval; 0 below 2 messages
  double jitterNs = 0;             ///< standard deviation of the intervals between log times
  std::vector<Gap> largestGaps;    ///< the 5 longest intervals, longest first
  std::uint64_t outOfOrder = 0;    ///< messages logged earlier than one written before them
  bool hasHeader = false;          ///< the type starts with a std_msgs/Header
  std::uint64_t zeroStamps = 0;    ///< messages whose header stamp is 0
  std::uint64_t unreadable = 0;    ///< messages whose stamp could not be read (damaged data)
  std::string readError;           ///< why, for the first of them
  std::optional<Latency> latency;  ///< over messages with a non-zero stamp
};

/// A stamp that could not be read: counted in `unreadable`, not as a zero stamp.
inline constexpr std::int64_t kUnreadStamp = std::numeric_limits<std::int64_t>::min();

/// The diagnostics from one topic's log times in file (write) order and, when the type has
/// a header, the stamps of the same messages (0 = unset, kUnreadStamp = unreadable). Pure;
/// for tests and the session.
TopicTiming computeTiming(std::vector<std::int64_t> logTimesInFileOrder, const std::vector<std::int64_t>& stamps);

/// Diagnostics for the topics `only` (in that order), or for every topic of the session in
/// its topic order. Reads every message of header-bearing types for its stamp, on every
/// core. Out-of-order counts are within each file, in the order its messages were written.
Result<std::vector<TopicTiming>> timingStats(const Session& session, StopToken stop = {},
                                             std::span<const TopicId> only = {});

/// As text (a table) and as a JSON array.
std::string formatTimingText(const std::vector<TopicTiming>& stats);
std::string formatTimingJson(const std::vector<TopicTiming>& stats);

}  // namespace bagscope::session
