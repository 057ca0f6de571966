#pragma once
// Session: one or many recordings as one timeline. Consumers (panels, exporters, the CLI)
// ask it for messages by topic and time; none of them touches a storage reader.
//
// - Topics with the same name and type in several files are one topic (ROS 1
//   "pkg/Type" and ROS 2 "pkg/msg/Type" are the same type); one name with different types
//   gives one topic per type, and a problem saying so.
// - The message index is per topic: compact (log time, source, location) arrays, sorted by
//   log time, built at open from the files' own indexes.
// - Reads go through a chunk cache with a memory budget (decompressed chunks shared,
//   pinned while a message uses them, least recently used evicted).
// - Work runs on a pool of worker threads; long reads report throttled progress and stop
//   when asked (within 100 ms).
//
// Thread-safe: every const member and every member documented so can be called from any
// thread at once.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>
#include "core/base/job.hpp"
#include "core/base/stop.hpp"

#include "core/base/result.hpp"
#include "core/session/detail/chunk_cache.hpp"
#include "core/storage/source.hpp"
#include "core/storage/summary.hpp"

namespace bagscope::decode {
class Decoder;
}

namespace bagscope::session {

/// Fraction done in [0, 1]; called at most about ten times a second, and once with 1.
using bagscope::ProgressFn;

struct SessionOptions {
  bool recursive = false;                         ///< look for bags in the subfolders of folders given
  std::size_t cacheBytes = std::size_t{1} << 30;  ///< chunk cache budget
  unsigned workers = 0;                           ///< 0: one per hardware thread (at least 2), plus one
  /// Where to find definitions files lack: folders of .msg files (DIR/pkg/msg/Type.msg), or
  /// recordings whose stored definitions are borrowed.
  std::vector<std::filesystem::path> msgPaths;
  /// A named file that cannot be opened is skipped and listed in Session::failures()
  /// instead of failing the open (the desktop app opens the others); the open still fails
  /// when nothing could be opened. A msgPaths recording that cannot be read is then left out
  /// and named in problems().
  bool skipFailedInputs = false;
  /// Shifts each file's log times so that all start together, at the earliest file's start
  /// (recordings of different days compared side by side). Message bytes are unchanged.
  bool alignStarts = false;
  StopToken stop;       ///< opening returns Cancelled soon after a stop is requested
  ProgressFn progress;  ///< opening progress (files opened of files found, then the index)
};

/// A file that could not be opened, and why.
struct OpenFailure {
  std::string path;
  std::string reason;
};

using TopicId = std::uint32_t;

/// One topic of the session: a name and a type, over any number of files and connections.
struct Topic {
  std::string name;
  std::string type;  ///< as the first file spells it
  std::uint64_t messageCount = 0;
  struct Member {
    std::uint32_t source;
    const storage::Connection* connection;
  };
  std::vector<Member> members;
};

/// Where a message of a topic is (24 bytes).
struct MessageRef {
  std::int64_t logTimeNs = 0;
  std::uint32_t source = 0;
  storage::MessageLocation location;
};

/// A message read through the session: a view pinned by `pin` (the cached chunk).
struct Message : storage::MessageView {
  TopicId topic = 0;
};

struct Selection {
  std::vector<TopicId> topics;                                      ///< empty: all
  std::int64_t startNs = std::numeric_limits<std::int64_t>::min();  ///< inclusive
  std::int64_t endNs = std::numeric_limits<std::int64_t>::max();    ///< inclusive
  bool pinned = false;  ///< forEach: messages come with `pin` set where the file allows (chunks)
};

/// Numeric columns of one topic: log time and one column per field path, row i from the
/// topic's i-th message in the range.
struct FieldColumns {
  std::vector<std::string> paths;
  std::vector<std::int64_t> logTimeNs;
  std::vector<std::vector<double>> values;  ///< values[path][row]
  std::uint64_t unreadable = 0;             ///< messages that could not be read or decoded (NaN rows)
  std::string firstProblem;                 ///< what went wrong with the first of them
};

/// What a message path (decode::MessagePath) selects in one topic: a sample per selected
/// leaf, so a message gives none (a filter matched nothing), one, or several (a slice).
struct PathSamples {
  std::string path;
  bool textLeaf = false;                ///< string leaves: in `texts`, `values` are NaN
  std::vector<std::int64_t> logTimeNs;  ///< per sample, the log time of its message
  std::vector<std::uint32_t> rows;      ///< per sample, its message's row in the range
  std::vector<double> values;
  std::vector<std::string> texts;  ///< per sample when textLeaf
  std::uint64_t messages = 0;      ///< messages in the range
  std::uint64_t unmatched = 0;     ///< messages where the path selected nothing
  std::uint64_t unreadable = 0;    ///< messages that could not be read or decoded
  std::string firstProblem;
};

class Session {
public:
  /// Opens files (ROS 1 .bag, .mcap), rosbag2 folders and folders of bags (their direct
  /// entries, or every subfolder with `recursive`). A named file that cannot be opened is
  /// an error; one found in a folder is skipped with a problem. The message index is built
  /// here, from the files' indexes.
  static Result<std::unique_ptr<Session>> open(const std::vector<std::filesystem::path>& inputs,
                                               const SessionOptions& options = {});
  /// The same over readers opened already (tests, fuzzing).
  static Result<std::unique_ptr<Session>> open(std::vector<std::unique_ptr<storage::Source>> sources,
                                               const SessionOptions& options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // What is open.
  std::size_t sourceCount() const;
  const storage::SourceInfo& sourceInfo(std::uint32_t source) const;
  std::span<const Topic> topics() const;
  /// The first topic of this name (several when its type differs between files).
  std::optional<TopicId> findTopic(std::string_view name) const;
  std::int64_t startNs() const;
  std::int64_t endNs() const;
  std::uint64_t messageCount() const;
  /// Type conflicts, skipped files, and every file's own problems (prefixed with its name).
  const std::vector<std::string>& problems() const;
  /// Those of problems() that are the session's own (type conflicts, definitions not used),
  /// not one file's nor a skipped file's.
  const std::vector<std::string>& ownProblems() const;
  /// Files skipped because they could not be opened (found in folders, or named with
  /// skipFailedInputs).
  const std::vector<OpenFailure>& failures() const;

  // The index and random access.
  std::span<const MessageRef> index(TopicId topic) const;
  /// Position of the last message at or before `timeNs` / the first at or after it.
  std::optional<std::size_t> atOrBefore(TopicId topic, std::int64_t timeNs) const;
  std::optional<std::size_t> atOrAfter(TopicId topic, std::int64_t timeNs) const;
  /// The n-th message of a topic (previous / next: n - 1, n + 1). Thread-safe.
  Result<Message> read(TopicId topic, std::size_t n) const;

  /// Messages of `selection` in log-time order across all files (ties: file order within a
  /// file, then the order files were given). Runs on the calling thread, reading ahead on the
  /// workers; stops early when `onMessage` returns false or `stop` is requested (then
  /// Cancelled). Damaged chunks go to `onProblem` and are skipped. Thread-safe. A file read
  /// message by message (rosbag2 SQLite, where every read takes the file's lock) is read in
  /// batches of 256 messages (8 MB at most) under the lock, `onMessage` called without it:
  /// other threads' reads go between batches, never wait for the whole pass.
  Result<void> forEach(const Selection& selection, const std::function<bool(const Message&)>& onMessage,
                       const storage::ProblemFn& onProblem = {}, StopToken stop = {}) const;

  /// Loads, on the workers, the chunks holding the messages of `topics` in [timeNs, timeNs +
  /// aheadNs] into the cache, so that reading them later costs no I/O (for playback).
  void prefetch(std::span<const TopicId> topics, std::int64_t timeNs, std::int64_t aheadNs) const;

  /// Numeric columns for `paths` (e.g. "pose.position.x", "ranges[10]", "header.stamp" in
  /// seconds) over the topic's messages in [startNs, endNs], decoded in parallel by chunk
  /// without building value trees. Unknown or non-numeric paths are an error; a message
  /// that cannot be decoded gives a NaN row, counted in `unreadable`. Thread-safe.
  Result<FieldColumns> extractFields(TopicId topic, const std::vector<std::string>& paths,
                                     std::int64_t startNs = std::numeric_limits<std::int64_t>::min(),
                                     std::int64_t endNs = std::numeric_limits<std::int64_t>::max(), StopToken stop = {},
                                     const ProgressFn& progress = {}) const;

  /// The samples a message path (Foxglove's syntax, with slices and filters: see
  /// decode::MessagePath) selects in the topic's messages in [startNs, endNs], each message
  /// decoded whole on the workers. A path the type does not have is an error naming the
  /// column; a message that cannot be decoded is counted in `unreadable`. Thread-safe.
  Result<PathSamples> extractPath(TopicId topic, const std::string& path,
                                  std::int64_t startNs = std::numeric_limits<std::int64_t>::min(),
                                  std::int64_t endNs = std::numeric_limits<std::int64_t>::max(), StopToken stop = {},
                                  const ProgressFn& progress = {}) const;

  /// Calls onMessage(topic, row, message) for every message of `selection` (row 0 is the
  /// topic's first message in the time range), on several threads at once, each chunk's
  /// messages on one thread, each chunk loaded once: how consumers decode whole topics on
  /// every core. A message that cannot be read comes as its error. Cancelled when `stop`
  /// is requested.
  using ParallelMessageFn = std::function<void(TopicId, std::size_t, const Result<Message>&)>;
  Result<void> forEachParallel(const Selection& selection, const ParallelMessageFn& onMessage, StopToken stop = {},
                               const ProgressFn& progress = {}) const;

  /// The compiled decoder for a message's connection (cached). Thread-safe. The definition
  /// is the file's own, else the same type as another open file (or a recording in msgPaths)
  /// defines it, else from the msgPaths folders or the standard interfaces. Where there is
  /// more than one, a definition that does not decode the connection's first message exactly
  /// is replaced by the next one that does, and decodeNotes() says so (once per connection).
  Result<std::shared_ptr<const decode::Decoder>> decoder(const storage::Connection& connection) const;
  /// What choosing decoders found: stored definitions that did not fit, and what was used
  /// instead. Thread-safe (a copy).
  std::vector<std::string> decodeNotes() const;

  /// The storage overview of one file, as `bagscope-cli info` prints it (reads its chunk
  /// headers). Thread-safe.
  Result<storage::RecordingSummary> summary(std::uint32_t source) const;

  /// The metadata records and attachments of one file (MCAP), read now. Thread-safe.
  Result<storage::FileExtras> extras(std::uint32_t source) const;

  CacheStats cacheStats() const;
  void setCacheBudget(std::size_t bytes);

  struct State;

private:
  explicit Session(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

/// The recordings in `folder`, in name order: .bag and .mcap files and rosbag2 folders
/// (not looked into), and with `recursive` those of its subfolders.
std::vector<std::filesystem::path> findRecordings(const std::filesystem::path& folder, bool recursive);
/// What a batch's inputs name, in order: a file or a rosbag2 recording as itself, another
/// folder as findRecordings of it, and a quoted glob ("logs/*.bag", for shells that do not
/// expand; '*' and '?' in the last part only) as the paths it matches, sorted. An error
/// names the input that matches nothing or is a folder without recordings.
Result<std::vector<std::filesystem::path>> expandInputs(const std::vector<std::filesystem::path>& inputs,
                                                        bool recursive);
/// What a path is (a ROS 1 bag, an MCAP file, a rosbag2 recording, another folder, …): the
/// storage readers' answer, for the CLI and the app, which see storage through the session.
using storage::classify;
using storage::containerFormatOf;
using storage::PathKind;
using storage::recordingFilePatterns;
/// A topic's rate, defined once for bagscope-cli info and the app's topic list.
using storage::rateHz;

/// The overview `bagscope-cli info` prints (as `rosbag info` does), read from the recording's
/// own index or summary without building a session: the light way to look at one file.
/// `withTopicBytes` reads every message too, for each topic's size (as `mcap du`).
Result<storage::RecordingSummary> summarizeRecording(const std::filesystem::path& path, bool withTopicBytes = false);
using storage::formatSummaryJson;
using storage::formatSummaryText;

}  // namespace bagscope::session
