#pragma once
// Recordings out: writers of MCAP, ROS 1 bags and rosbag2 folders (MCAP or SQLite storage),
// and the job that copies a session's messages through them — what filter, merge, convert and
// recover are. Payload bytes are copied untouched and never decoded; every output is written
// under a temporary name and moved into place when complete.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include "core/base/stop.hpp"

#include "core/base/result.hpp"
#include "core/compress/decompress.hpp"
#include "core/schema/schema.hpp"
#include "core/session/session.hpp"
#include "core/storage/source.hpp"

namespace bagscope::decode {
class Decoder;
}

namespace bagscope::write {

enum class Container : std::uint8_t { Mcap, Ros1Bag, Rosbag2Mcap, Rosbag2Db3 };

struct WriterOptions;
class RecordingWriter;
/// Where a container's writer writes, under a temporary name (detail/writers.hpp).
struct WriterTarget;

/// One row of the writers' table: what `--format` names, what it holds, how it compresses,
/// and its writer.
struct ContainerInfo {
  Container container;
  std::string_view name;                ///< "mcap", "bag", "rosbag2", "rosbag2-db3"
  std::string_view label;               ///< "MCAP file"
  std::string_view extension;           ///< ".mcap", ".bag"; empty for a folder
  std::string_view encoding;            ///< the message encoding it takes: "ros1", "cdr"; empty for any
  std::vector<compress::Codec> codecs;  ///< the first is the default
  std::string_view readAs;              ///< how its reader names it (SourceInfo::format starts so)
  /// Its writer over `target`, with the options' compression decided.
  std::unique_ptr<RecordingWriter> (*make)(WriterTarget& target, const WriterOptions& options);
};
std::span<const ContainerInfo> containers();
const ContainerInfo& containerInfo(Container container);
/// The container `--format NAME` names; an error lists the names.
Result<Container> containerFromName(std::string_view name);
/// "mcap, bag, rosbag2, rosbag2-db3" for usage texts.
std::string containerNames();

/// The ROS 2 release whose tools are to read a rosbag2 recording: Jazzy (metadata version 9,
/// QoS policies by name, type hashes) or Humble (version 5, QoS as rmw's numbers, no hashes,
/// an SQLite layout without the tables Iron added), which refuses Jazzy's metadata.
enum class RosDistro : std::uint8_t { Jazzy, Humble };
/// "humble" or "jazzy"; an error names both.
Result<RosDistro> rosDistroFromName(std::string_view name);

struct WriterOptions {
  Container container = Container::Mcap;
  RosDistro distro = RosDistro::Jazzy;         ///< rosbag2 and ROS 2 MCAP: whose tools read the output
  std::optional<compress::Codec> compression;  ///< unset: the container's default
  std::uint64_t chunkBytes = 0;                ///< 0: the container's default (MCAP 4 MiB, ROS 1 768 KiB)
  std::uint64_t splitBytes = 0;                ///< rosbag2: start a new file past this size; 0 never
  bool overwrite = false;                      ///< replace an existing output of ours
  std::string mcapProfile;                     ///< MCAP header profile ("ros1", "ros2", ""), chosen by the job
};

using ChannelId = std::uint32_t;

/// A recording being written. Messages come in log-time order; a connection is added before
/// its first message. Nothing appears under the final name until finish() succeeds; a writer
/// destroyed unfinished removes what it wrote.
class RecordingWriter {
public:
  virtual ~RecordingWriter() = default;
  /// A channel for messages of `connection` (equal connections share one). Errors when the
  /// container cannot hold it (a ROS 2 message in a ROS 1 bag).
  virtual Result<ChannelId> addConnection(const storage::Connection& connection) = 0;
  virtual Result<void> write(ChannelId channel, std::int64_t logTimeNs, std::span<const std::byte> bytes) = 0;
  /// Metadata records and attachments (MCAP's), before the messages. False: this container
  /// has no place for them (nothing is written).
  virtual Result<bool> addExtras(const storage::FileExtras&) { return false; }
  /// Completes the file (indexes, summary) and moves it to its final name.
  virtual Result<void> finish() = 0;
  /// Bytes in the output so far.
  virtual std::uint64_t bytesWritten() const = 0;
};

/// A writer of `options.container` whose output is `path` (a file, or for rosbag2 a folder).
/// Fails when `path` exists and `overwrite` is not set, or its folder does not exist.
Result<std::unique_ptr<RecordingWriter>> openWriter(const std::filesystem::path& path, const WriterOptions& options);

/// The container of a session's first recording (what an output is by default): MCAP for
/// anything that is not a ROS 1 bag or a rosbag2 recording.
Container containerOf(const session::Session& session);

/// The container a path's name asks for: ".bag" a ROS 1 bag, ".mcap" MCAP, anything else
/// nothing (the caller decides: a folder name means rosbag2).
std::optional<Container> containerForName(const std::filesystem::path& path);

// ---- The copy job: filter, merge, convert, recover ---------------------------------------

/// Topics by name or, written /…/, by regular expression (ECMAScript, whole name).
struct TopicPatterns {
  std::vector<std::string> include;  ///< empty: every topic
  std::vector<std::string> exclude;
};
/// The topics of `session` the patterns choose. A pattern that is not a valid expression, or
/// an included name that matches no topic, is an error naming it.
Result<std::vector<session::TopicId>> selectTopics(const session::Session& session, const TopicPatterns& patterns);

/// The user's names for translation (`--rename FILE`), as ROS 1 names to ROS 2 names; a
/// translation to ROS 1 applies them backwards. Beside ROS 2's own renames (tf/tfMessage, ...).
struct Renames {
  std::map<std::string, std::string> packages;  ///< "old_msgs" -> "new_msgs": every type of it
  std::map<std::string, std::string> types;     ///< "pkg/Old" -> "pkg/New"
  /// By the ROS 1 "pkg/Type": its fields' ROS 1 names -> ROS 2 names.
  std::map<std::string, std::map<std::string, std::string>> fields;
};

/// A rename file: YAML with optional maps `packages`, `types` and `fields` (type -> {old: new}).
/// Errors name the file and what is wrong.
Result<Renames> readRenames(const std::filesystem::path& file);

struct CopyRequest {
  std::filesystem::path output;
  WriterOptions writer;
  session::Selection selection;  ///< topics (empty: all) and time range
  std::uint64_t every = 1;       ///< keep every n-th message of each topic
  /// A ROS 2 topic whose file carries no definition (rosbag2 before Iron) gets one written
  /// with it, from these folders of .msg files or else the standard interfaces, so that tools
  /// that read definitions only from the file (Foxglove, rosbags) decode it.
  std::vector<std::filesystem::path> msgPaths;
  /// Messages translated to the other dialect when set. To ROS 2: ROS 1 messages as CDR in ROS 2
  /// types and definitions, latched topics transient-local: the standard interfaces where ROS 2
  /// has the type (fields matched by name, CameraInfo's D as d, time as builtin_interfaces/Time,
  /// Header without seq, tf/tfMessage as tf2_msgs/TFMessage, rosgraph_msgs/Log as
  /// rcl_interfaces/Log), definitions made from the bag's for the rest. To ROS 1: CDR messages
  /// back, with definitions in ROS 1's words and md5sums as ROS 1 computes them (transient-local
  /// topics latched). A type that cannot be translated is said, and kept as it is where the
  /// container can hold it.
  std::optional<schema::Dialect> translateTo;
  Renames renames;  ///< the user's, for translateTo
};

struct CopyReport {
  std::uint64_t messagesWritten = 0;
  std::uint64_t bytesWritten = 0;  ///< the output's size
  std::map<std::string, std::uint64_t> perTopic;
  /// What could not be read from the inputs (damaged chunks, cut records), each with its file
  /// and offset: counted here so that nothing is dropped without a word.
  std::vector<std::string> lost;
  /// Skipped topics whose messages the container cannot hold, and metadata or attachments
  /// it has no place for, and why.
  std::vector<std::string> skipped;
  std::uint64_t metadataWritten = 0, attachmentsWritten = 0;
  /// What the output holds that the input did not say, or lacks: definitions added, and the
  /// types still written without one.
  std::vector<std::string> notes;
};

/// Writes the selected messages of `session` in log-time order to `request.output`. Refuses an
/// output that is, or is inside, one of the session's inputs. Cancelled when `stop` is
/// requested (nothing is left under the output's name).
Result<CopyReport> copyRecording(const session::Session& session, const CopyRequest& request, StopToken stop = {},
                                 const session::ProgressFn& progress = {});

// ---- Messages made from values: CSV tables, the Python Writer ------------------------------

/// A topic whose messages are encoded from values (decode::encode) into a `container`: its
/// connection — the container's message and schema encodings, the full definition (the one
/// given, else from `msgPaths` or the standard ROS 2 interfaces; a ROS 1 bag needs it given),
/// the md5sum or the type hash — and the decoder whose program encodes them. Errors:
/// InvalidArgument (a ROS 1 type without its definition), MissingDefinition (found nowhere),
/// Schema (a definition that does not parse).
struct EncodedTopic {
  storage::Connection connection;
  std::shared_ptr<const decode::Decoder> codec;
};
Result<EncodedTopic> encodedTopic(const std::string& topic, const std::string& type, const std::string& definition,
                                  Container container, std::span<const std::filesystem::path> msgPaths);

// ---- Tables in: a CSV file as messages ---------------------------------------------------

struct ImportTopic {
  std::string topic;       ///< "/imu"
  std::string type;        ///< "sensor_msgs/msg/Imu"
  std::string definition;  ///< empty: from the message folders or the standard ROS 2 interfaces
};
enum class TimeUnit : std::uint8_t { Ns, Seconds };
struct ImportRequest {
  std::filesystem::path table;  ///< a CSV file with a header line
  /// Its columns are message paths of these topics' types ("linear_acceleration.x",
  /// "covariance[3]", a time field as one column): "TOPIC/path" with several topics, a bare
  /// path too with one. A field no column names is zero; a row makes a message of each topic
  /// it has a cell for.
  std::vector<ImportTopic> topics;
  std::filesystem::path output;
  WriterOptions writer;
  /// The log time's column; empty: log_time_ns, log_time, stamp_ns or stamp (the export's).
  std::string timeColumn;
  /// Of the time column and of time fields; unset: ns for a column named *_ns, else seconds.
  std::optional<TimeUnit> timeUnit;
  std::vector<std::filesystem::path> msgPaths;
};
struct ImportReport {
  std::uint64_t messagesWritten = 0;
  std::uint64_t bytesWritten = 0;
  std::map<std::string, std::uint64_t> perTopic;
};
/// Writes the table's rows as messages (in log-time order, whatever the rows' order) to
/// `request.output`. Errors name the file, the line and the column, and leave no output: a
/// column that is no field, a cell that is not what its field holds, a value out of range.
Result<ImportReport> importTable(const ImportRequest& request, StopToken stop = {},
                                 const session::ProgressFn& progress = {});

}  // namespace bagscope::write
