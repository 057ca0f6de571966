#pragma once
// Source: one recording file as connections, a time range and time-ordered messages.
// Every container (ROS 1 bag, rosbag2 SQLite, MCAP) has a reader behind this contract;
// nothing above core/storage knows which one it talks to.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/byte_buffer.hpp"
#include "core/base/byte_source.hpp"
#include "core/base/result.hpp"
#include "core/compress/decompress.hpp"

namespace bagscope::storage {

/// One publisher's stream: a topic with one type (a topic may have several connections,
/// even of different types).
struct Connection {
  std::uint32_t id = 0;  ///< the file's own id for it
  std::string topic;
  std::string type;             ///< "sensor_msgs/Imu"
  std::string messageEncoding;  ///< "ros1", "cdr"
  std::string schemaEncoding;   ///< "ros1msg", "ros2msg", "" when the file has none
  std::string definition;       ///< full definition text with dependencies
  std::string md5sum;           ///< ROS 1 only
  std::string callerid;         ///< ROS 1 publisher node
  bool latching = false;
  std::string offeredQos;          ///< ROS 2: the publishers' QoS profiles as YAML text, if stored
  std::string typeHash;            ///< ROS 2: the type description hash ("RIHS01_…"), if stored
  std::uint64_t messageCount = 0;  ///< from the file's index (or from the recovery scan)
};

/// Whether a connection's publishers keep their last message for late subscribers: ROS 1's
/// latching, or transient-local durability in ROS 2's QoS (rosbag2 writes it as 1 or by name).
inline bool latched(const Connection& c) {
  return c.latching || c.offeredQos.find("transient_local") != std::string::npos ||
         c.offeredQos.find("durability: 1") != std::string::npos;
}

/// What opening a file established, without reading messages.
struct SourceInfo {
  std::string path;
  std::string format;   ///< "ROS 1 bag"
  std::string version;  ///< "2.0"
  std::uint64_t sizeBytes = 0;
  std::int64_t startNs = 0;  ///< earliest log time (0 when there are no messages)
  std::int64_t endNs = 0;    ///< latest log time
  std::uint64_t messageCount = 0;
  /// False when the file had no usable index and was scanned to rebuild one.
  bool indexed = true;
  /// What could not be read or did not add up: lost bytes, a cut chunk, a header that
  /// disagrees with the index. Empty for a healthy file.
  std::vector<std::string> problems;
};

/// Storage statistics that need a look at every chunk header (not needed to open).
struct ChunkStats {
  std::uint64_t chunkCount = 0;
  std::vector<std::pair<std::string, std::uint64_t>> chunksByCompression;  ///< "lz4" -> 26
  std::uint64_t storedBytes = 0;                                           ///< chunk payloads as stored
  std::uint64_t uncompressedBytes = 0;                                     ///< chunk payloads decompressed
};

/// One message's bytes. Lifetime: `bytes` is valid only during the callback that receives
/// it (or, from Source::read, as long as `pin` is held).
struct MessageView {
  const Connection* connection = nullptr;
  std::int64_t logTimeNs = 0;
  std::span<const std::byte> bytes;
  std::shared_ptr<const void> pin;  ///< keeps `bytes` alive when set
};

struct ReadFilter {
  std::vector<std::uint32_t> connections;                           ///< connection ids; empty = all
  std::int64_t startNs = std::numeric_limits<std::int64_t>::min();  ///< inclusive
  std::int64_t endNs = std::numeric_limits<std::int64_t>::max();    ///< inclusive
  bool pin = false;  ///< messages of chunks come with `pin` set, so their bytes may be kept
};

/// Where a message is, in the reader's own terms.
struct MessageLocation {
  std::uint32_t chunk = 0;
  std::uint32_t offset = 0;
};

struct IndexEntry {
  std::int64_t logTimeNs = 0;
  MessageLocation location;
};

/// Per connection (in connections() order): its messages sorted by log time.
using MessageIndex = std::vector<std::vector<IndexEntry>>;

/// One connection's messages as a whole: how many, and the first and last log time (0 when
/// there are none).
struct ConnectionSpan {
  std::uint64_t count = 0;
  std::int64_t firstNs = 0, lastNs = 0;
  /// Widens this span by `more` (several connections of a topic, several files).
  void add(const ConnectionSpan& more) {
    if (more.count == 0) return;
    firstNs = count ? std::min(firstNs, more.firstNs) : more.firstNs;
    lastNs = count ? std::max(lastNs, more.lastNs) : more.lastNs;
    count += more.count;
  }
};

/// A message inside a loaded chunk.
struct ChunkMessage {
  std::int64_t logTimeNs;
  std::uint32_t offset;  ///< of the message bytes within the chunk data
  std::uint32_t size;
  std::uint32_t connIndex;     ///< index into the source's connections()
  std::uint32_t recordOffset;  ///< of its record within the chunk data (MessageLocation::offset)
};

/// A chunk decompressed, with its messages listed: the unit the session caches and shares.
struct LoadedChunk {
  ByteBuffer data;
  /// An uncompressed chunk in the mapped file, read in place (kept mapped by `viewOwner`);
  /// else its bytes are `data`.
  std::span<const std::byte> view;
  std::shared_ptr<const void> viewOwner;
  std::span<const std::byte> bytes() const { return view.empty() ? data.span() : view; }
  std::vector<ChunkMessage> messages;  ///< sorted by (log time, position in the chunk)
  std::uint32_t orphans = 0;           ///< messages on channels nothing defines: not listed, counted
  std::size_t memoryBytes() const { return data.capacity() + messages.capacity() * sizeof(ChunkMessage); }
};

/// The message of `chunk` that `entry` points at (its location's offset), or null.
const ChunkMessage* findMessage(const LoadedChunk& chunk, const IndexEntry& entry);

/// Per-thread state of a chunk loader: a read buffer and codec contexts.
struct LoadContext {
  ByteBuffer scratch;
  compress::Decompressor decompressor;
};

/// What a file holds besides messages (MCAP metadata records and attachments: calibration,
/// notes, a map), read on request so that a recording written from it keeps them.
struct FileMetadata {
  std::string name;
  std::vector<std::pair<std::string, std::string>> entries;
};
struct FileAttachment {
  std::int64_t logTimeNs = 0;
  std::int64_t createTimeNs = 0;
  std::string name;
  std::string mediaType;
  std::string data;
};
struct FileExtras {
  std::vector<FileMetadata> metadata;
  std::vector<FileAttachment> attachments;
};

/// Called per message in log-time order; return false to stop early.
using MessageFn = std::function<bool(const MessageView&)>;
/// Called for recoverable problems met while reading (a corrupt chunk is skipped).
using ProblemFn = std::function<void(const Error&)>;

class Source {
public:
  virtual ~Source() = default;

  virtual const SourceInfo& info() const = 0;
  virtual std::span<const Connection> connections() const = 0;

  /// Calls `onMessage` for every message that passes `filter`, in log-time order (ties in
  /// file order). Chunks that cannot be read are reported to `onProblem` and skipped.
  /// One thread at a time.
  virtual Result<void> readMessages(const ReadFilter& filter, const MessageFn& onMessage,
                                    const ProblemFn& onProblem) = 0;

  /// The per-connection message index, built on first call (reads index records or, for a
  /// recovered file, reuses the scan). One thread at a time.
  virtual Result<const MessageIndex*> messageIndex() = 0;

  /// Per connection (in connections() order): what `info` prints of it. Readers whose file
  /// has a summary (ROS 1 chunk infos, MCAP statistics and chunk indexes) answer from it and
  /// the index records of the few chunks that can hold a first or last message; otherwise,
  /// and wherever those disagree, from messageIndex(). One thread at a time.
  virtual Result<std::vector<ConnectionSpan>> connectionSpans();

  /// The message at `location` (from messageIndex()). One thread at a time.
  virtual Result<MessageView> read(const IndexEntry& entry) = 0;

  /// Reads every chunk header for storage statistics. One thread at a time.
  virtual Result<ChunkStats> chunkStats() = 0;

  /// Reads the file's metadata records and attachments (none for formats without them). One
  /// thread at a time.
  virtual Result<FileExtras> extras() { return FileExtras{}; }

  /// Chunked formats (ROS 1, MCAP): how many chunks MessageLocation::chunk counts. 0 for
  /// formats read message by message (rosbag2 SQLite), which only read().
  virtual std::uint32_t chunkCount() const { return 0; }
  /// Loads chunk `index` into `out`. Thread-safe: any number of threads at once, each with
  /// its own context, and alongside the one-thread-at-a-time calls once messageIndex() has
  /// returned. On error, `out` may still hold the messages read before the damage.
  virtual Result<void> loadChunk(std::uint32_t index, LoadedChunk& out, LoadContext& ctx) const;
};

// ---- Containers: what a path is, and opening it (source.cpp: the registry) ---------------

/// One container the readers know, as its reader describes it (ros1/, mcap/, rosbag2/ each
/// define theirs). Its extension, MIME type and magic are its row of cmake/RecordingTypes.cmake,
/// the list the desktops' file associations are generated from too.
struct ContainerFormat {
  std::string_view id;                       ///< "ros1", "mcap", "rosbag2"
  std::string_view label;                    ///< "ROS 1 bag", for messages
  std::string_view magic;                    ///< what its files start with; empty: known by name
  std::vector<std::string_view> extensions;  ///< what its files are found by in a folder: ".bag"
  /// Opens one of its files from its bytes (containers known by magic).
  Result<std::unique_ptr<Source>> (*openBytes)(std::unique_ptr<ByteSource>) = nullptr;
  /// Containers known by name (rosbag2's folders and the files in them): whether `path`, a
  /// folder when `isFolder`, is one, and opening it.
  bool (*claims)(const std::filesystem::path& path, bool isFolder) = nullptr;
  Result<std::unique_ptr<Source>> (*openPath)(const std::filesystem::path&) = nullptr;
  /// Its recordings are folders: a file of one stands for its folder.
  bool isFolder = false;
};
/// The built-in containers, then the registered ones.
std::vector<const ContainerFormat*> containerFormats();
/// Adds a container (a reader outside core, a test's). Names already taken, magic over 16
/// bytes, and a format that neither has magic with openBytes nor claims with openPath, are
/// refused.
Result<void> registerContainerFormat(ContainerFormat format);

/// What a path is to the readers. At most the first 16 bytes of a file are read.
enum class PathKind : std::uint8_t {
  Missing,    ///< nothing there (or it cannot be seen)
  Recording,  ///< a container's: containerFormatOf says whose
  Folder,     ///< any other folder: it may hold recordings (session::findRecordings)
  Other,      ///< a file no reader takes (openSource says why)
};
PathKind classify(const std::filesystem::path& path);
/// The container whose recording `path` is (a folder of MCAP files without metadata.yaml is a
/// Folder, not a rosbag2 recording), or null.
const ContainerFormat* containerFormatOf(const std::filesystem::path& path);
/// classify(path) == Folder, without reading any file: a folder that is not a recording (it
/// may hold recordings).
bool isFolderOfRecordings(const std::filesystem::path& path);

/// Whether the name says `path` is a recording file (.bag, .mcap, .db3: the containers'
/// extensions). What a folder of recordings is searched for.
bool hasRecordingName(const std::filesystem::path& path);
/// For file dialogs: "*.bag *.mcap *.db3 metadata.yaml".
std::string recordingFilePatterns();

/// The files the rosbag2 recording in `folder` consists of: its metadata.yaml and the storage
/// files it lists that are there (each with its -wal and -shm). Nothing when `folder` holds
/// no metadata.yaml that reads as rosbag2 metadata, or it lists a file outside the folder or
/// one that is not a regular file. What replacing the recording (--overwrite) removes.
std::optional<std::vector<std::filesystem::path>> rosbag2RecordingFiles(const std::filesystem::path& folder);

/// Opens a recording, choosing the reader by name (containers known by name) or else from the
/// file's first bytes. Errors name the file; an unknown format says what containers start with.
Result<std::unique_ptr<Source>> openSource(const std::filesystem::path& path);
/// The same, from bytes already open (tests, fuzzing).
Result<std::unique_ptr<Source>> openSource(std::unique_ptr<ByteSource> bytes);

}  // namespace bagscope::storage
