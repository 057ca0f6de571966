// ROS 1 bag format 2.0 (http://wiki.ros.org/Bags/Format/2.0). A record is
//   uint32 header_len, header (fields: uint32 len, "name=value"), uint32 data_len, data.
// Ops: 0x02 message data, 0x03 bag header, 0x04 index data, 0x05 chunk, 0x06 chunk info,
// 0x07 connection. Chunks hold connection and message data records, possibly compressed.

#include "ros1_source.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "bagscope/recording_types.hpp"
#include "core/base/byte_cursor.hpp"
#include "core/compress/decompress.hpp"
#include "core/storage/detail/chunk_merge.hpp"

namespace bagscope::storage {
namespace {

using compress::Codec;

constexpr std::string_view kMagic = "#ROSBAG V2.0\n";
constexpr std::uint8_t kOpMessageData = 0x02;
constexpr std::uint8_t kOpBagHeader = 0x03;
constexpr std::uint8_t kOpIndexData = 0x04;
constexpr std::uint8_t kOpChunk = 0x05;
constexpr std::uint8_t kOpChunkInfo = 0x06;
constexpr std::uint8_t kOpConnection = 0x07;
// Record headers are a handful of short fields; anything larger is not a record.
constexpr std::uint32_t kMaxHeaderBytes = 1u << 20;
// Message records found outside chunks are grouped into pseudo-chunks of about this size.
constexpr std::uint64_t kMaxLooseChunkBytes = 64u << 20;

std::int64_t toNs(std::uint64_t packed) {
  // ROS time on the wire: uint32 sec, then uint32 nsec.
  auto sec = static_cast<std::uint32_t>(packed);
  auto nsec = static_cast<std::uint32_t>(packed >> 32);
  return static_cast<std::int64_t>(sec) * 1'000'000'000 + nsec;
}

// The header fields Bagscope uses, from one pass over a record header.
struct Fields {
  int op = -1;
  std::optional<std::uint32_t> conn, size, count, connCount, chunkCount, ver;
  std::optional<std::uint64_t> indexPos, chunkPos;
  std::optional<std::int64_t> time, startTime, endTime;
  std::optional<std::string_view> compression, topic;
};

template <typename T>
bool fieldValue(std::span<const std::byte> v, std::optional<T>& out) {
  if (v.size() != sizeof(T)) return false;
  out = loadLE<T>(v.data());
  return true;
}

// Parses "len name=value" fields; false (with `why`) on a malformed header.
bool parseFields(std::span<const std::byte> header, Fields& f, std::string& why) {
  ByteCursor c(header);
  while (!c.atEnd()) {
    std::uint32_t len = 0;
    std::span<const std::byte> field;
    if (!c.read(len) || !c.take(len, field)) {
      why = "header field at byte " + std::to_string(c.pos()) + " runs past the header";
      return false;
    }
    std::string_view text = asText(field);
    auto eq = text.find('=');
    if (eq == std::string_view::npos) {
      why = "header field without '='";
      return false;
    }
    std::string_view name = text.substr(0, eq);
    auto value = field.subspan(eq + 1);
    bool ok = true;
    std::optional<std::uint64_t> t;
    if (name == "op") {
      ok = value.size() == 1;
      if (ok) f.op = static_cast<int>(value[0]);
    } else if (name == "conn") ok = fieldValue(value, f.conn);
    else if (name == "time") {
      ok = fieldValue(value, t);
      if (ok) f.time = toNs(*t);
    } else if (name == "size") ok = fieldValue(value, f.size);
    else if (name == "count") ok = fieldValue(value, f.count);
    else if (name == "conn_count") ok = fieldValue(value, f.connCount);
    else if (name == "chunk_count") ok = fieldValue(value, f.chunkCount);
    else if (name == "ver") ok = fieldValue(value, f.ver);
    else if (name == "index_pos") ok = fieldValue(value, f.indexPos);
    else if (name == "chunk_pos") ok = fieldValue(value, f.chunkPos);
    else if (name == "start_time") {
      ok = fieldValue(value, t);
      if (ok) f.startTime = toNs(*t);
    } else if (name == "end_time") {
      ok = fieldValue(value, t);
      if (ok) f.endTime = toNs(*t);
    } else if (name == "compression") f.compression = asText(value);
    else if (name == "topic") f.topic = asText(value);
    if (!ok) {
      why = "header field '" + std::string(name) + "' has " + std::to_string(value.size()) +
            " bytes, which is the wrong size";
      return false;
    }
  }
  return true;
}

// One record inside a byte span (a chunk's data, or the index section).
struct Record {
  Fields fields;
  std::span<const std::byte> data;
  std::size_t offset = 0;         // of the record's first byte within the span
  std::uint64_t claimedSize = 0;  // data length the record announces (data may be cut)
};

// Walks records back to back; stops at the end or at the first malformed/cut record,
// reporting why through `why` (empty when the span ended cleanly).
template <typename Fn>
std::size_t forEachRecord(std::span<const std::byte> bytes, std::string& why, Fn&& fn) {
  ByteCursor c(bytes);
  // Each record's length says where the next one starts, so walking them is one wait on
  // memory after another; the lines a few kilobytes ahead are asked for early instead (the
  // signals bag's Imu columns: 13 % less time, paired runs).
  constexpr std::size_t kAhead = 4096;
  std::size_t fetched = 0;
  while (!c.atEnd()) {
    // Not the data a large record's header skips: only what lies within kAhead of a header.
    fetched = std::max(fetched, c.pos());
    if (const std::size_t until = std::min(c.pos() + kAhead, bytes.size()); fetched < until) {
      detail::prefetchLines(bytes.subspan(fetched, until - fetched));
      fetched = until;
    }
    Record r;
    r.offset = c.pos();
    std::uint32_t headerLen = 0, dataLen = 0;
    std::span<const std::byte> header;
    if (!c.read(headerLen) || headerLen > kMaxHeaderBytes || !c.take(headerLen, header)) {
      why = "record header is cut short or implausibly long";
      return r.offset;
    }
    if (!parseFields(header, r.fields, why)) return r.offset;
    if (!c.read(dataLen) || !c.take(dataLen, r.data)) {
      why = "record data (" + std::to_string(dataLen) + " bytes) is cut short";
      return r.offset;
    }
    if (!fn(r)) return c.pos();
  }
  return c.pos();
}

Result<Connection> parseConnection(const Record& r) {
  Connection conn;
  if (!r.fields.conn) return makeError(ErrorCode::Format, "connection record has no 'conn' field");
  conn.id = *r.fields.conn;
  if (r.fields.topic) conn.topic = std::string(*r.fields.topic);
  conn.messageEncoding = "ros1";
  conn.schemaEncoding = "ros1msg";
  // The data is a second header: the publisher's connection header.
  ByteCursor c(r.data);
  while (!c.atEnd()) {
    std::uint32_t len = 0;
    std::span<const std::byte> field;
    if (!c.read(len) || !c.take(len, field))
      return makeError(ErrorCode::Format,
                       "connection header of connection " + std::to_string(conn.id) + " is cut short");
    std::string_view text = asText(field);
    auto eq = text.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = text.substr(0, eq), value = text.substr(eq + 1);
    if (name == "type") conn.type = value;
    else if (name == "md5sum") conn.md5sum = value;
    else if (name == "message_definition") conn.definition = value;
    else if (name == "callerid") conn.callerid = value;
    else if (name == "latching") conn.latching = value == "1";
    else if (name == "topic" && conn.topic.empty()) conn.topic = value;
  }
  return conn;
}

// ChunkSpan: start/end from the chunk info (or the scan), counts per connection index.
// Where a chunk's data is, from its record header (or the scan).
struct ChunkPlace {
  bool known = false;
  Codec codec = Codec::None;
  std::uint64_t dataPos = 0;
  std::uint64_t storedSize = 0;        // bytes of data present in the file
  std::uint64_t uncompressedSize = 0;  // as the chunk header says
  bool cut = false;                    // the file ends inside this chunk's data
};

struct Chunk : detail::ChunkSpan {
  std::uint64_t recordPos = 0;  // chunk record (or first loose record) in the file
  bool loose = false;           // message records outside any chunk: a raw file span
  ChunkPlace place;
};

class Ros1Source final : public Source {
public:
  explicit Ros1Source(std::unique_ptr<ByteSource> bytes) : bytes_(std::move(bytes)) {
    info_.path = bytes_->name();
    info_.format = "ROS 1 bag";
    info_.version = "2.0";
    info_.sizeBytes = bytes_->size();
  }

  Result<void> open();

  const SourceInfo& info() const override { return info_; }
  std::span<const Connection> connections() const override { return connections_; }
  Result<void> readMessages(const ReadFilter& filter, const MessageFn& onMessage, const ProblemFn& onProblem) override;
  Result<const MessageIndex*> messageIndex() override;
  Result<std::vector<ConnectionSpan>> connectionSpans() override;
  Result<MessageView> read(const IndexEntry& entry) override;
  Result<ChunkStats> chunkStats() override;
  std::uint32_t chunkCount() const override { return static_cast<std::uint32_t>(chunks_.size()); }
  Result<void> loadChunk(std::uint32_t index, LoadedChunk& out, LoadContext& ctx) const override {
    if (index >= chunks_.size()) return error(ErrorCode::InvalidArgument, "no chunk " + std::to_string(index), 0);
    return loadChunk(chunks_[index], out, ctx);
  }

private:
  Error error(ErrorCode code, std::string message, std::uint64_t offset) const {
    Error e = makeError(code, std::move(message), static_cast<std::int64_t>(offset));
    e.file = bytes_->name();
    return e;
  }
  Result<void> readExact(std::uint64_t offset, std::size_t n, ByteBuffer& out) const {
    return readExactly(*bytes_, offset, n, out);
  }
  // Reads the record at `pos`: its header and data (data capped at what the file holds).
  // A record announcing more than `maxDataBytes` of data is an error, read no further.
  Result<Record> readRecordAt(std::uint64_t pos, ByteBuffer& buf, bool& cut,
                              std::uint64_t maxDataBytes = UINT32_MAX) const;
  Result<void> readIndexSection(std::uint64_t indexPos, std::uint32_t claimedChunks);
  // Walks the index data records after a located chunk's data (one per connection in it),
  // calling fn(connection index, count, entries) for each; false when they are missing, cut
  // or malformed.
  template <typename Fn>
  bool forEachIndexRecord(const Chunk& chunk, ByteBuffer& buf, Fn&& fn) const;
  // Rebuilding the index by reading every record from `from` on (a file without a usable
  // index): what was found, and the chunk collecting top-level message records.
  struct Scan {
    static constexpr std::uint32_t kNoChunk = ~0u;
    std::uint64_t recovered = 0;
    std::uint32_t looseChunk = kNoChunk;
    ByteBuffer chunkBuf;
  };
  Result<void> scan(std::uint64_t from);
  bool scanChunk(Scan& scan, std::uint64_t pos, const Record& rec, bool cut, std::uint64_t dataPos);
  void scanLooseMessage(Scan& scan, std::uint64_t pos, const Fields& f, std::uint64_t next);
  void addScanned(Scan& scan, std::uint32_t chunkIndex, std::uint32_t connIndex, std::int64_t t,
                  std::uint32_t recordOffset);
  /// Forgets what the index said and scans instead.
  Result<void> rescan(std::uint64_t from) {
    info_.indexed = false;
    connections_.clear();
    connIndexById_.clear();
    chunks_.clear();
    return scan(from);
  }
  // Where chunk `c`'s data is: known already, or read from its record header. Thread-safe.
  Result<ChunkPlace> locate(const Chunk& c) const;
  // locate() and remember it (one thread at a time).
  Result<void> readChunkHeader(Chunk& c) const;
  // Thread-safe: several chunks load at once, each with its own context.
  Result<void> loadChunk(const Chunk& c, LoadedChunk& out, LoadContext& ctx) const;
  std::uint32_t addConnection(Connection conn);
  void finishCounts();

  std::unique_ptr<ByteSource> bytes_;
  SourceInfo info_;
  std::vector<Connection> connections_;
  std::map<std::uint32_t, std::uint32_t> connIndexById_;
  std::vector<Chunk> chunks_;
  std::optional<MessageIndex> index_;
  mutable LoadContext context_;  // for single-threaded loads ("one thread at a time")
  detail::ChunkReadCache readCache_;
};

std::uint32_t Ros1Source::addConnection(Connection conn) {
  if (auto it = connIndexById_.find(conn.id); it != connIndexById_.end()) return it->second;
  auto index = static_cast<std::uint32_t>(connections_.size());
  connIndexById_[conn.id] = index;
  connections_.push_back(std::move(conn));
  return index;
}

Result<Record> Ros1Source::readRecordAt(std::uint64_t pos, ByteBuffer& buf, bool& cut,
                                        std::uint64_t maxDataBytes) const {
  const std::uint64_t size = bytes_->size();
  cut = false;
  if (pos > size || size - pos < 8) return error(ErrorCode::Truncated, "record header is cut short", pos);
  std::byte lenBytes[4];
  BAGSCOPE_TRY(bytes_->readAt(pos, lenBytes));
  std::uint32_t headerLen = loadLE<std::uint32_t>(lenBytes);
  if (headerLen > kMaxHeaderBytes || headerLen + 8ull > size - pos)
    return error(ErrorCode::Format, "record header length " + std::to_string(headerLen) + " does not fit in the file",
                 pos);
  // Header, data length, and (optimistically) the first part of the data in one read.
  std::uint64_t want = std::min<std::uint64_t>(4ull + headerLen + 4 + 4096, size - pos);
  BAGSCOPE_TRY(readExact(pos, static_cast<std::size_t>(want), buf));
  Record rec;
  std::uint32_t dataLen = loadLE<std::uint32_t>(buf.data() + 4 + headerLen);
  if (dataLen > maxDataBytes)
    return error(ErrorCode::Format,
                 "record announces " + std::to_string(dataLen) + " bytes of data, more than such a record can hold",
                 pos);
  std::uint64_t dataPos = pos + 4 + headerLen + 4;
  std::uint64_t present = std::min<std::uint64_t>(dataLen, size - dataPos);
  cut = present < dataLen;
  rec.claimedSize = dataLen;
  std::size_t have = buf.size() - (4 + headerLen + 4);
  if (present > have) {
    buf.resize(static_cast<std::size_t>(4 + headerLen + 4 + present));
    if (auto r = bytes_->readAt(dataPos + have, buf.span().subspan(4 + headerLen + 4 + have)); !r)
      return std::move(r).error();
  }
  rec.data = buf.span().subspan(4 + headerLen + 4, static_cast<std::size_t>(present));
  // Parsed last: the fields are views into `buf`, which the data read may have moved.
  std::string why;
  if (!parseFields(buf.span().subspan(4, headerLen), rec.fields, why))
    return error(ErrorCode::Format, "record header: " + why, pos);
  return rec;
}

Result<void> Ros1Source::open() {
  const std::uint64_t size = bytes_->size();
  if (size == 0) return error(ErrorCode::Format, "the file is empty (0 bytes), not a ROS bag", 0);
  std::byte magic[13] = {};
  std::size_t magicLen = static_cast<std::size_t>(std::min<std::uint64_t>(size, sizeof magic));
  if (auto r = bytes_->readAt(0, std::span(magic, magicLen)); !r) return r;
  std::string_view m = asText(std::span<const std::byte>(magic, magicLen));
  if (m != kMagic) {
    if (m.starts_with("#ROSBAG V"))
      return error(ErrorCode::Unsupported,
                   "ROS bag version '" + std::string(m.substr(9, m.find('\n') - 9)) + "' is not supported (only 2.0)",
                   0);
    return error(ErrorCode::Format, "not a ROS 1 bag: it does not start with '#ROSBAG V2.0'", 0);
  }
  ByteBuffer buf;
  bool cut = false;
  auto header = readRecordAt(kMagic.size(), buf, cut);
  BAGSCOPE_TRY(header);
  const Fields& f = header->fields;
  if (f.op != kOpBagHeader || cut)
    return error(ErrorCode::Format, "the bag header record is missing or cut short", kMagic.size());
  std::uint64_t headerEnd =
      kMagic.size() + static_cast<std::uint64_t>(header->data.data() - buf.data()) + header->data.size();
  std::uint64_t indexPos = f.indexPos.value_or(0);
  std::uint32_t claimedChunks = f.chunkCount.value_or(0);

  std::uint32_t claimedConnections = f.connCount.value_or(0);
  // An index position equal to the size is a closed bag with an empty index (no messages).
  bool emptyIndex = indexPos == size && claimedChunks == 0 && claimedConnections == 0;
  if (indexPos == 0 || indexPos < headerEnd || (indexPos >= size && !emptyIndex)) {
    info_.indexed = false;
    if (indexPos == 0)
      info_.problems.push_back(
          "the bag has no index (index position 0): it was not closed "
          "by its writer; the file was scanned to rebuild the index");
    else
      info_.problems.push_back("the index position " + std::to_string(indexPos) +
                               (indexPos < headerEnd ? " points into the bag header"
                                                     : " is outside the file (" + std::to_string(size) + " bytes)") +
                               ": the file is cut short or was not closed; the file was "
                               "scanned to rebuild the index");
    return scan(headerEnd);
  }
  if (auto r = readIndexSection(indexPos, claimedChunks); !r) {
    info_.problems.push_back("the index at offset " + std::to_string(indexPos) + " is unreadable (" +
                             r.error().message + "); the file was scanned to rebuild it");
    return rescan(headerEnd);
  }
  if (claimedChunks > chunks_.size()) {
    // Chunks the index does not list may still be in the file: find them by scanning.
    info_.problems.push_back("the bag header says " + std::to_string(claimedChunks) + " chunks but the index lists " +
                             std::to_string(chunks_.size()) + "; the file was scanned to find every chunk");
    return rescan(headerEnd);
  }
  if (claimedChunks < chunks_.size())
    info_.problems.push_back("the bag header says " + std::to_string(claimedChunks) + " chunks but the index lists " +
                             std::to_string(chunks_.size()));
  finishCounts();
  return {};
}

Result<void> Ros1Source::readIndexSection(std::uint64_t indexPos, std::uint32_t claimedChunks) {
  constexpr std::uint64_t kMaxConnectionBytes = 64u << 20;  // a connection header with its definitions
  constexpr std::uint64_t kWholeIndexBytes = 64u << 20;
  const std::uint64_t size = bytes_->size();
  struct ChunkInfoRecord {
    std::optional<std::uint64_t> chunkPos;
    std::optional<std::int64_t> startTime, endTime;
    std::uint32_t count;
    std::vector<std::byte> data;
    std::uint64_t at;
  };
  std::vector<ChunkInfoRecord> chunkInfos;
  auto take = [&](const Record& r, std::uint64_t at) -> Result<void> {
    if (r.fields.op == kOpConnection) {
      auto conn = parseConnection(r);
      if (!conn) return error(ErrorCode::Format, conn.error().message, at);
      addConnection(std::move(conn).value());
    } else if (r.fields.op == kOpChunkInfo) {
      const Fields& f = r.fields;
      chunkInfos.push_back(
          {f.chunkPos, f.startTime, f.endTime, f.count.value_or(0), {r.data.begin(), r.data.end()}, at});
    } else {
      return error(ErrorCode::Format, "unexpected record (op " + std::to_string(r.fields.op) + ") in the index", at);
    }
    return {};
  };
  ByteBuffer buf;
  if (size - indexPos <= kWholeIndexBytes) {
    // The usual case: one read for the whole index.
    if (auto r = readExact(indexPos, static_cast<std::size_t>(size - indexPos), buf); !r) return r;
    std::string why;
    Result<void> taken;
    std::size_t end = forEachRecord(buf.span(), why, [&](const Record& r) {
      taken = take(r, indexPos + r.offset);
      return taken.has_value();
    });
    if (!taken) return taken;
    if (!why.empty()) return error(ErrorCode::Format, "index record: " + why, indexPos + end);
  } else {
    // Record by record, so that a bogus index position cannot make us read the whole file.
    for (std::uint64_t pos = indexPos; pos < size;) {
      bool cut = false;
      auto r = readRecordAt(pos, buf, cut, kMaxConnectionBytes);
      BAGSCOPE_TRY(r);
      if (cut) return error(ErrorCode::Truncated, "index record is cut short", pos);
      if (auto t = take(*r, pos); !t) return t;
      pos += static_cast<std::uint64_t>(r->data.data() - buf.data()) + r->data.size();
    }
  }
  for (const ChunkInfoRecord& r : chunkInfos) {
    std::uint64_t at = r.at;
    if (!r.chunkPos || !r.startTime || !r.endTime)
      return error(ErrorCode::Format, "chunk info lacks chunk_pos, start_time or end_time", at);
    Chunk c;
    c.recordPos = *r.chunkPos;
    c.startNs = *r.startTime;
    c.endNs = *r.endTime;
    if (c.recordPos >= indexPos) {
      info_.problems.push_back("chunk info at offset " + std::to_string(at) + " points to offset " +
                               std::to_string(c.recordPos) + ", past the last chunk; its messages are skipped");
      continue;
    }
    ByteCursor data(std::span<const std::byte>(r.data));
    for (std::uint32_t i = 0; i < r.count; ++i) {
      std::uint32_t connId = 0, count = 0;
      if (!data.read(connId) || !data.read(count)) return error(ErrorCode::Format, "chunk info data is cut short", at);
      auto it = connIndexById_.find(connId);
      if (it == connIndexById_.end())
        return error(ErrorCode::Format,
                     "chunk info names connection " + std::to_string(connId) + ", which has no connection record", at);
      c.counts.emplace_back(it->second, count);
    }
    chunks_.push_back(std::move(c));
  }
  if (chunks_.empty() && !connections_.empty())
    return error(ErrorCode::Format, "the index lists connections but no chunks", indexPos);
  if (chunks_.empty() && claimedChunks > 0)
    return error(ErrorCode::Format,
                 "the bag header says " + std::to_string(claimedChunks) + " chunks but the index lists none", indexPos);
  return {};
}

void Ros1Source::finishCounts() {
  for (auto& conn : connections_) conn.messageCount = 0;
  info_.messageCount = 0;
  bool first = true;
  for (const auto& c : chunks_) {
    std::uint64_t n = 0;
    for (auto [conn, count] : c.counts) {
      connections_[conn].messageCount += count;
      n += count;
    }
    if (n == 0) continue;
    info_.messageCount += n;
    info_.startNs = first ? c.startNs : std::min(info_.startNs, c.startNs);
    info_.endNs = first ? c.endNs : std::max(info_.endNs, c.endNs);
    first = false;
  }
}

// A message found by scanning, in chunk `chunkIndex` at `recordOffset` within its data.
void Ros1Source::addScanned(Scan& scan, std::uint32_t chunkIndex, std::uint32_t connIndex, std::int64_t t,
                            std::uint32_t recordOffset) {
  Chunk& c = chunks_[chunkIndex];
  bool firstInChunk = c.counts.empty();
  c.startNs = firstInChunk ? t : std::min(c.startNs, t);
  c.endNs = firstInChunk ? t : std::max(c.endNs, t);
  auto it = std::find_if(c.counts.begin(), c.counts.end(), [&](auto& p) { return p.first == connIndex; });
  if (it == c.counts.end()) c.counts.emplace_back(connIndex, 1);
  else ++it->second;
  if (index_->size() <= connIndex) index_->resize(connIndex + 1);
  (*index_)[connIndex].push_back({t, {chunkIndex, recordOffset}});
  ++scan.recovered;
}

// A chunk record met by the scan: its connections and messages, as far as they are whole.
// Returns false when the scan cannot go on past it (the file ends inside it).
bool Ros1Source::scanChunk(Scan& scan, std::uint64_t pos, const Record& rec, bool cut, std::uint64_t dataPos) {
  const Fields& f = rec.fields;
  Chunk c;
  c.recordPos = pos;
  c.place.known = true;
  if (!compress::codecFromName(f.compression.value_or("none"), c.place.codec)) {
    info_.problems.push_back("chunk at offset " + std::to_string(pos) + " uses unknown compression '" +
                             std::string(f.compression.value_or("")) + "'; skipped");
    return !cut;
  }
  // A chunk whose header was never finalised (the writer died): its records follow at top
  // level and are collected as loose messages.
  if (rec.data.empty() && !cut) return true;
  c.place.dataPos = dataPos;
  c.place.storedSize = rec.data.size();
  c.place.uncompressedSize = f.size.value_or(0);
  c.place.cut = cut;
  auto chunkIndex = static_cast<std::uint32_t>(chunks_.size());
  chunks_.push_back(c);
  const ChunkPlace& place = c.place;
  ByteBuffer& data = scan.chunkBuf;
  if (place.codec == Codec::None) {
    data.resize(rec.data.size());
    std::copy(rec.data.begin(), rec.data.end(), data.data());
  } else if (cut) {
    context_.decompressor.decompressPrefix(place.codec, rec.data, place.uncompressedSize, data);
  } else if (auto r = context_.decompressor.decompress(place.codec, rec.data, place.uncompressedSize, data); !r) {
    info_.problems.push_back("chunk at offset " + std::to_string(pos) + ": " + r.error().message +
                             "; its messages are lost");
    return true;
  }
  std::string why;
  std::uint64_t before = scan.recovered;
  std::size_t stop = forEachRecord(data.span(), why, [&](const Record& r) {
    if (r.fields.op == kOpConnection) {
      if (auto conn = parseConnection(r)) addConnection(std::move(conn).value());
    } else if (r.fields.op == kOpMessageData && r.fields.conn && r.fields.time) {
      auto it = connIndexById_.find(*r.fields.conn);
      if (it != connIndexById_.end())
        addScanned(scan, chunkIndex, it->second, *r.fields.time, static_cast<std::uint32_t>(r.offset));
    }
    return true;
  });
  if (!why.empty() || cut) {
    info_.problems.push_back(std::string(cut ? "the file ends inside the chunk" : "the chunk") + " at offset " +
                             std::to_string(pos) + " (" + compress::codecName(place.codec) + ", " +
                             std::to_string(rec.data.size()) + " of " + std::to_string(rec.claimedSize) +
                             " bytes present): recovered " + std::to_string(scan.recovered - before) +
                             " complete messages; " + std::to_string(data.size() - stop) +
                             " bytes after them are unreadable" + (why.empty() ? "" : " (" + why + ")"));
  }
  return !cut;
}

// A message record at top level (a bag whose writer died before it closed its chunk): kept
// in a "loose" chunk of the records around it, split so that none is huge.
void Ros1Source::scanLooseMessage(Scan& scan, std::uint64_t pos, const Fields& f, std::uint64_t next) {
  auto it = connIndexById_.find(*f.conn);
  if (it == connIndexById_.end()) return;
  if (scan.looseChunk != Scan::kNoChunk && next - chunks_[scan.looseChunk].place.dataPos > kMaxLooseChunkBytes)
    scan.looseChunk = Scan::kNoChunk;
  if (scan.looseChunk == Scan::kNoChunk) {
    Chunk c;
    c.recordPos = c.place.dataPos = pos;
    c.loose = true;
    c.place.known = true;
    scan.looseChunk = static_cast<std::uint32_t>(chunks_.size());
    chunks_.push_back(c);
  }
  Chunk& c = chunks_[scan.looseChunk];
  c.place.storedSize = c.place.uncompressedSize = next - c.place.dataPos;
  addScanned(scan, scan.looseChunk, it->second, *f.time, static_cast<std::uint32_t>(pos - c.place.dataPos));
}

Result<void> Ros1Source::scan(std::uint64_t from) {
  const std::uint64_t size = bytes_->size();
  index_.emplace();
  ByteBuffer recordBuf;
  Scan scan;
  std::uint64_t pos = from;
  while (pos < size) {
    bool cut = false;
    auto rec = readRecordAt(pos, recordBuf, cut);
    if (!rec) {
      info_.problems.push_back("bytes " + std::to_string(pos) + " to " + std::to_string(size) +
                               " are not a readable record (" + rec.error().message + ") and were skipped");
      break;
    }
    const Fields& f = rec->fields;
    std::uint64_t dataPos = pos + static_cast<std::uint64_t>(rec->data.data() - recordBuf.data());
    std::uint64_t next = dataPos + rec->data.size();
    // Connection records sit between message records inside a chunk; anything else ends
    // a run of loose messages.
    if (f.op != kOpMessageData && f.op != kOpConnection) scan.looseChunk = Scan::kNoChunk;
    if (f.op == kOpChunk) {
      if (!scanChunk(scan, pos, *rec, cut, dataPos)) break;
    } else if (f.op == kOpConnection && !cut) {
      if (auto conn = parseConnection(*rec)) addConnection(std::move(conn).value());
    } else if (f.op == kOpMessageData && !cut && f.conn && f.time) {
      scanLooseMessage(scan, pos, f, next);
    }
    if (cut) {
      info_.problems.push_back("the file ends inside a record at offset " + std::to_string(pos) + " (" +
                               std::to_string(size - pos) + " bytes lost)");
      break;
    }
    pos = next;
  }
  detail::sortIndex(*index_);
  index_->resize(connections_.size());
  info_.problems.push_back("recovered " + std::to_string(scan.recovered) + " messages by scanning");
  finishCounts();
  return {};
}

Result<ChunkPlace> Ros1Source::locate(const Chunk& c) const {
  if (c.place.known) return c.place;
  ByteBuffer buf;
  // Only the header is wanted: read the record but not its (possibly large) data.
  const std::uint64_t size = bytes_->size();
  if (c.recordPos > size || size - c.recordPos < 8)
    return error(ErrorCode::Truncated, "chunk record is cut short", c.recordPos);
  std::byte lenBytes[4];
  BAGSCOPE_TRY(bytes_->readAt(c.recordPos, lenBytes));
  std::uint32_t headerLen = loadLE<std::uint32_t>(lenBytes);
  if (headerLen > kMaxHeaderBytes || headerLen + 8ull > size - c.recordPos)
    return error(ErrorCode::Format,
                 "chunk record header length " + std::to_string(headerLen) + " does not fit in the file", c.recordPos);
  BAGSCOPE_TRY(readExact(c.recordPos, 4 + headerLen + 4, buf));
  Fields f;
  std::string why;
  if (!parseFields(buf.span().subspan(4, headerLen), f, why))
    return error(ErrorCode::Format, "chunk record header: " + why, c.recordPos);
  if (f.op != kOpChunk)
    return error(ErrorCode::Format, "expected a chunk record (op 5), found op " + std::to_string(f.op), c.recordPos);
  ChunkPlace p;
  if (!compress::codecFromName(f.compression.value_or("none"), p.codec))
    return error(ErrorCode::Unsupported, "unknown chunk compression '" + std::string(f.compression.value_or("")) + "'",
                 c.recordPos);
  std::uint32_t dataLen = loadLE<std::uint32_t>(buf.data() + 4 + headerLen);
  p.dataPos = c.recordPos + 4 + headerLen + 4;
  p.storedSize = std::min<std::uint64_t>(dataLen, size - p.dataPos);
  p.cut = p.storedSize < dataLen;
  p.uncompressedSize = f.size.value_or(0);
  p.known = true;
  return p;
}

Result<void> Ros1Source::readChunkHeader(Chunk& c) const {
  if (c.place.known) return {};  // no writes once known: loadChunk() may be reading it
  auto p = locate(c);
  BAGSCOPE_TRY(p);
  c.place = *p;
  return {};
}

Result<void> Ros1Source::loadChunk(const Chunk& chunk, LoadedChunk& out, LoadContext& ctx) const {
  auto located = locate(chunk);
  BAGSCOPE_TRY(located);
  const ChunkPlace& c = *located;
  ByteBuffer& scratch = ctx.scratch;
  out.messages.clear();
  out.view = {};
  out.viewOwner.reset();
  // In the mapped file the chunk is read where it is: uncompressed, its messages are there;
  // compressed, it is decompressed from there.
  const MappedBytes mapped = bytes_->mapped();
  const bool inPlace = c.codec == Codec::None;
  auto stored = bytesAt(*bytes_, mapped, c.dataPos, c.storedSize, inPlace ? out.data : scratch, !inPlace);
  BAGSCOPE_TRY(stored);
  if (inPlace) {
    if (!mapped.bytes.empty()) out.view = *stored, out.viewOwner = mapped.owner;
  } else if (c.cut) {
    ctx.decompressor.decompressPrefix(c.codec, *stored, c.uncompressedSize, out.data);
  } else if (auto r = ctx.decompressor.decompress(c.codec, *stored, c.uncompressedSize, out.data); !r) {
    Error e = std::move(r).error();
    e.message = "chunk at offset " + std::to_string(chunk.recordPos) + ": " + e.message;
    e.offset = static_cast<std::int64_t>(c.dataPos);
    e.file = bytes_->name();
    return e;
  }
  std::string why;
  const auto chunkBytes = out.bytes();
  forEachRecord(chunkBytes, why, [&](const Record& r) {
    if (r.fields.op != kOpMessageData || !r.fields.conn || !r.fields.time) return true;
    auto it = connIndexById_.find(*r.fields.conn);
    if (it == connIndexById_.end()) return true;
    out.messages.push_back({*r.fields.time, static_cast<std::uint32_t>(r.data.data() - chunkBytes.data()),
                            static_cast<std::uint32_t>(r.data.size()), it->second,
                            static_cast<std::uint32_t>(r.offset)});
    return true;
  });
  detail::sortByLogTime(out.messages);
  if (cutSince(*bytes_, mapped, *stored, c.dataPos))  // zeros were read where the file was
    return out.messages.clear(),
           error(ErrorCode::Io,
                 "the file was cut while it was read (chunk at offset " + std::to_string(chunk.recordPos) + ")",
                 c.dataPos);
  if (!why.empty() && !c.cut) {
    // What was readable is kept; the caller reports the rest.
    return error(ErrorCode::Format,
                 "chunk at offset " + std::to_string(chunk.recordPos) + " holds a malformed record: " + why + " (" +
                     std::to_string(out.messages.size()) + " messages before it are kept)",
                 c.dataPos);
  }
  return {};
}

Result<void> Ros1Source::readMessages(const ReadFilter& filter, const MessageFn& onMessage,
                                      const ProblemFn& onProblem) {
  std::vector<bool> wanted(connections_.size(), filter.connections.empty());
  for (auto id : filter.connections)
    if (auto it = connIndexById_.find(id); it != connIndexById_.end()) wanted[it->second] = true;
  std::vector<const detail::ChunkSpan*> spans;
  for (const auto& c : chunks_) spans.push_back(&c);
  auto load = [&](std::uint32_t index, LoadedChunk& out, LoadContext& ctx) {
    return loadChunk(chunks_[index], out, ctx);
  };
  return detail::mergeChunks(spans, connections_, wanted, filter, load, onMessage, onProblem, *bytes_);
}

Result<const MessageIndex*> Ros1Source::messageIndex() {
  if (index_) return &*index_;
  MessageIndex index(connections_.size());
  // The counts come from the file: a message takes a 12-byte entry in an index data record,
  // so no more than size / 12 in all can be true, whatever a damaged chunk info claims.
  std::uint64_t room = bytes_->size() / 12;
  for (std::size_t i = 0; i < connections_.size(); ++i) {
    std::uint64_t n = std::min(connections_[i].messageCount, room);
    index[i].reserve(static_cast<std::size_t>(n));
    room -= n;
  }
  ByteBuffer buf;
  for (std::uint32_t ci = 0; ci < chunks_.size(); ++ci) {
    Chunk& chunk = chunks_[ci];
    if (auto r = readChunkHeader(chunk); !r) {
      info_.problems.push_back(r.error().describe() + "; its messages are not indexed");
      continue;
    }
    bool ok = forEachIndexRecord(chunk, buf, [&](std::uint32_t conn, std::uint32_t count, ByteCursor d) {
      for (std::uint32_t i = 0; i < count; ++i) {
        std::uint64_t t = 0;
        std::uint32_t offset = 0;
        d.read(t);
        d.read(offset);
        index[conn].push_back({toNs(t), {ci, offset}});
      }
    });
    if (!ok) {
      // No usable index records: take the chunk's own records instead.
      for (auto& entries : index) std::erase_if(entries, [&](const IndexEntry& e) { return e.location.chunk == ci; });
      LoadedChunk loaded;
      if (auto r = loadChunk(chunk, loaded, context_); !r) info_.problems.push_back(r.error().describe());
      for (const auto& m : loaded.messages) index[m.connIndex].push_back({m.logTimeNs, {ci, m.recordOffset}});
    }
  }
  detail::sortIndex(index);
  index_ = std::move(index);
  return &*index_;
}

template <typename Fn>
bool Ros1Source::forEachIndexRecord(const Chunk& chunk, ByteBuffer& buf, Fn&& fn) const {
  const ChunkPlace& c = chunk.place;
  if (!c.known || c.cut) return false;
  std::uint64_t pos = c.dataPos + c.storedSize;
  for (std::size_t k = 0; k < chunk.counts.size(); ++k) {
    bool cut = false;
    auto rec = readRecordAt(pos, buf, cut);
    if (!rec || cut || rec->fields.op != kOpIndexData || !rec->fields.conn || rec->fields.ver.value_or(0) != 1)
      return false;
    auto it = connIndexById_.find(*rec->fields.conn);
    std::uint32_t count = rec->fields.count.value_or(0);
    if (it == connIndexById_.end() || rec->data.size() < std::uint64_t{count} * 12) return false;
    fn(it->second, count, ByteCursor(rec->data));
    pos += static_cast<std::uint64_t>(rec->data.data() - buf.data()) + rec->data.size();
  }
  return true;
}

Result<std::vector<ConnectionSpan>> Ros1Source::connectionSpans() {
  if (index_) return Source::connectionSpans();  // built already (or by the recovery scan)
  std::vector<const detail::ChunkSpan*> spans;
  for (const auto& c : chunks_) spans.push_back(&c);
  ByteBuffer buf;
  auto readTimes = [&](std::uint32_t ci) -> Result<std::vector<detail::ChunkConnectionTimes>> {
    Chunk& chunk = chunks_[ci];
    BAGSCOPE_TRY(readChunkHeader(chunk));
    std::vector<detail::ChunkConnectionTimes> out;
    bool ok = forEachIndexRecord(chunk, buf, [&](std::uint32_t conn, std::uint32_t count, ByteCursor d) {
      detail::ChunkConnectionTimes t{conn, count, std::numeric_limits<std::int64_t>::max(),
                                     std::numeric_limits<std::int64_t>::min()};
      for (std::uint32_t i = 0; i < count; ++i) {
        std::uint64_t time = 0;
        std::uint32_t offset = 0;
        d.read(time);
        d.read(offset);
        t.firstNs = std::min(t.firstNs, toNs(time));
        t.lastNs = std::max(t.lastNs, toNs(time));
      }
      out.push_back(t);
    });
    if (!ok) return error(ErrorCode::Format, "the chunk's index records are unreadable", chunk.recordPos);
    return out;
  };
  if (auto s = detail::spansFromChunkIndexes(spans, connections_, true, readTimes)) return s;
  return Source::connectionSpans();  // the summary cannot be trusted: the full index says
}

Result<MessageView> Ros1Source::read(const IndexEntry& entry) {
  std::uint32_t ci = entry.location.chunk;
  if (ci >= chunks_.size()) return error(ErrorCode::InvalidArgument, "no chunk " + std::to_string(ci), 0);
  return readCache_.read(
      entry, connections_, [&](LoadedChunk& out) { return loadChunk(chunks_[ci], out, context_); }, bytes_->name());
}

Result<ChunkStats> Ros1Source::chunkStats() {
  ChunkStats stats;
  std::map<std::string, std::uint64_t> byCodec;
  for (auto& c : chunks_) {
    if (c.loose) continue;
    BAGSCOPE_TRY(readChunkHeader(c));
    ++stats.chunkCount;
    const ChunkPlace& p = c.place;
    ++byCodec[compress::codecName(p.codec)];
    stats.storedBytes += p.storedSize;
    stats.uncompressedBytes += p.codec == Codec::None ? p.storedSize : p.uncompressedSize;
  }
  stats.chunksByCompression.assign(byCodec.begin(), byCodec.end());
  return stats;
}

}  // namespace

Result<std::unique_ptr<Source>> openRos1(std::unique_ptr<ByteSource> bytes) {
  auto source = std::make_unique<Ros1Source>(std::move(bytes));
  BAGSCOPE_TRY(source->open());
  return std::unique_ptr<Source>(std::move(source));
}

const ContainerFormat& ros1Container() {
  static const ContainerFormat format{
      .id = "ros1",
      .label = "ROS 1 bag",
      .magic = build::recordingType("ros1").magic,
      .extensions = {build::recordingType("ros1").extension, ".bag.active"},  // rosbag's, while it records
      .openBytes = openRos1};
  return format;
}

}  // namespace bagscope::storage
