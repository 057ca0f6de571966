#pragma once
// Timing diagnostics per topic: how regularly a topic was recorded, where it paused,
// whether its log times go backwards in the file, and how late messages were logged after
// their header stamp. What `bagscope-cli stats` prints and the app's Stats dialog shows.
// And two runs set against each other in time and per topic (`diff`, the app's compare view).

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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

/// How run B's times are set against run A's.
struct RunAlignment {
  enum class Mode : std::uint8_t { Start, Offset, Event } mode = Mode::Start;
  std::int64_t offsetNs = 0;  ///< Offset: B moved this much later after the starts are aligned
  std::string topic, path;    ///< Event: the first message of topic, or the first crossing of path
  char op = 0;                ///< '>' or '<': the crossing's direction
  double value = 0;
  std::string text = "start";  ///< as it was given
};
/// "start", "offset:S", "event:TOPIC" or "event:TOPIC:PATH>VALUE" (or "<VALUE"); nothing when
/// it does not read.
std::optional<RunAlignment> parseRunAlignment(std::string_view text);
/// What B's log times add to be A's under `align`: the anchors' difference (starts, or the
/// event in each run: a topic's first message, or the first time the path crosses the value,
/// interpolated between the messages around it), plus the offset. Errors (InvalidArgument)
/// name the run ("A", "B") and the event it lacks.
Result<std::int64_t> runShiftNs(const Session& a, const Session& b, const RunAlignment& align);

/// A topic's figures in one run, as `stats` gives them.
struct RunTopic {
  std::string type, definition, schemaEncoding;
  std::uint64_t count = 0;
  double rateHz = 0;
  double largestGapS = 0;
};
/// One topic of either run: its figures in the runs that have it, and what changed.
struct TopicComparison {
  enum Change : std::uint8_t { Type = 1, Definition = 2, Count = 4, Rate = 8, Gap = 16 };
  std::string topic;
  std::optional<RunTopic> a, b;
  std::uint8_t changes = 0;  ///< Change flags, for topics both have
};
/// A's topics in its order, then those only B has. Types compare as one across ROS 1 and ROS
/// 2 spellings; definitions (of one encoding) without their outer whitespace; rates and
/// largest gaps when they differ by more than `tolerance`, a fraction of the larger.
std::vector<TopicComparison> compareTopics(const Session& a, const Session& b, double tolerance);

}  // namespace bagscope::session
