// MCAP format (https://mcap.dev/spec): magic "\x89MCAP0\r\n", then records of
// uint8 opcode, uint64 content length, content; strings and byte arrays are prefixed by a
// uint32 length (chunk records by a uint64), maps by a uint32 byte length.

#include "mcap_source.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "bagscope/recording_types.hpp"
#include "core/base/byte_cursor.hpp"
#include "core/base/digest.hpp"
#include "core/compress/decompress.hpp"
#include "core/storage/detail/chunk_merge.hpp"

namespace bagscope::storage {
namespace {

using compress::Codec;

constexpr std::string_view kMagic = "\x89MCAP0\r\n";
constexpr std::uint8_t kOpFooter = 0x02;
constexpr std::uint8_t kOpSchema = 0x03;
constexpr std::uint8_t kOpChannel = 0x04;
constexpr std::uint8_t kOpMessage = 0x05;
constexpr std::uint8_t kOpChunk = 0x06;
constexpr std::uint8_t kOpMessageIndex = 0x07;
constexpr std::uint8_t kOpChunkIndex = 0x08;
constexpr std::uint8_t kOpAttachment = 0x09;
constexpr std::uint8_t kOpAttachmentIndex = 0x0A;
constexpr std::uint8_t kOpStatistics = 0x0B;
constexpr std::uint8_t kOpMetadata = 0x0C;
constexpr std::uint8_t kOpMetadataIndex = 0x0D;
constexpr std::uint8_t kOpDataEnd = 0x0F;
constexpr std::uint64_t kRecordPrefix = 1 + 8;               // opcode, content length
constexpr std::uint64_t kFooterRecord = kRecordPrefix + 20;  // summary_start, summary_offset_start, crc
// Message records outside chunks are grouped into pseudo-chunks of about this size.
constexpr std::uint64_t kMaxLooseChunkBytes = 64u << 20;

struct Record {
  std::uint8_t op = 0;
  std::span<const std::byte> content;
  std::size_t offset = 0;  // of the opcode within the span walked
};

// Walks records back to back in `bytes`; stops at the end or at the first cut record
// (`why` says so). Returns where it stopped.
template <typename Fn>
std::size_t forEachRecord(std::span<const std::byte> bytes, std::string& why, Fn&& fn) {
  ByteCursor c(bytes);
  while (!c.atEnd()) {
    Record r;
    r.offset = c.pos();
    std::uint64_t len = 0;
    if (!c.read(r.op) || !c.read(len) || len > c.remaining() || !c.take(static_cast<std::size_t>(len), r.content)) {
      why = "record at byte " + std::to_string(r.offset) + " is cut short";
      return r.offset;
    }
    if (!fn(r)) return c.pos();
  }
  return c.pos();
}

// Field readers over a record's content.
struct Fields {
  ByteCursor c;
  bool ok = true;

  template <typename T>
  T num() {
    T v{};
    ok = ok && c.read(v);
    return v;
  }
  std::string_view str() {
    std::uint32_t n = num<std::uint32_t>();
    std::span<const std::byte> s;
    ok = ok && c.take(n, s);
    return asText(s);
  }
  std::span<const std::byte> bytes32() {
    std::uint32_t n = num<std::uint32_t>();
    std::span<const std::byte> s;
    ok = ok && c.take(n, s);
    return s;
  }
  std::span<const std::byte> bytes64() {
    std::uint64_t n = num<std::uint64_t>();
    std::span<const std::byte> s;
    ok = ok && n <= c.remaining() && c.take(static_cast<std::size_t>(n), s);
    return s;
  }
  // A map: uint32 byte length, then entries until that length is used.
  template <typename Fn>
  void map(Fn&& entry) {
    std::uint32_t n = num<std::uint32_t>();
    std::span<const std::byte> body;
    ok = ok && c.take(n, body);
    if (!ok) return;
    Fields inner{ByteCursor(body)};
    while (inner.ok && !inner.c.atEnd()) entry(inner);
    ok = inner.ok;
  }
};

struct Schema {
  std::string name, encoding, data;
};

struct Chunk : detail::ChunkSpan {
  std::uint64_t recordPos = 0;     // of the chunk record (or, loose, of the first message record)
  std::uint64_t recordLength = 0;  // whole record, opcode and length included
  bool loose = false;              // message records outside chunks: a raw span of the file
  std::uint64_t messageIndexPos = 0, messageIndexLength = 0;  // after the chunk, when known
  std::string compression;                                    // from the chunk index or the chunk record ("" = none)
};

std::int64_t toNs(std::uint64_t t) {
  return t > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(t);
}

class McapSource final : public Source {
public:
  explicit McapSource(std::unique_ptr<ByteSource> bytes) : bytes_(std::move(bytes)) {
    info_.path = bytes_->name();
    info_.format = "MCAP";
    info_.version = "0";
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
  Result<FileExtras> extras() override;
  std::uint32_t chunkCount() const override { return static_cast<std::uint32_t>(chunks_.size()); }
  Result<void> loadChunk(std::uint32_t index, LoadedChunk& out, LoadContext& ctx) const override;

private:
  Error error(ErrorCode code, std::string message, std::uint64_t offset) const {
    Error e = makeError(code, std::move(message), static_cast<std::int64_t>(offset));
    e.file = bytes_->name();
    return e;
  }
  Result<void> readExact(std::uint64_t offset, std::uint64_t n, ByteBuffer& out) const {
    return readExactly(*bytes_, offset, n, out);
  }
  Result<bool> readSummary();
  bool takeChunkIndex(std::span<const std::byte> content);
  bool takeStatistics(std::span<const std::byte> content, std::uint64_t& messages,
                      std::map<std::uint16_t, std::uint64_t>& perChannel);
  Result<void> checkChunkIndexes(std::uint64_t dataEnd);
  // Reads the message index records after chunk `c` into `buf`, calling fn(connection index,
  // entries, fields at the first entry) for each; false when they are missing or malformed
  // (or fn returns false).
  template <typename Fn>
  bool forEachMessageIndex(const Chunk& c, ByteBuffer& buf, Fn&& fn) const;
  // Rebuilding the index by reading every record (a file without a usable summary): what
  // was found, and the chunk collecting message records outside chunks.
  struct Scan {
    static constexpr std::uint32_t kNoChunk = ~0u;
    std::uint64_t recovered = 0;
    std::uint32_t looseChunk = kNoChunk;
    LoadedChunk loaded;
  };
  Result<void> scan();
  void addScanned(Scan& scan, std::uint32_t chunk, const ChunkMessage& m);
  void scanChunk(Scan& scan, std::uint64_t pos, std::span<const std::byte> record, bool cut, std::uint64_t present,
                 std::uint64_t len);
  void scanLooseMessage(Scan& scan, std::uint64_t pos, std::span<const std::byte> record, std::uint64_t end);
  // Schemas and channels, wherever they are found. False when malformed.
  bool takeSchema(std::span<const std::byte> content);
  bool takeChannel(std::span<const std::byte> content);
  // Decompresses a chunk record's content and lists its messages; schema and channel
  // records in it go to `onDefinition` when given (the scan registers them). Thread-safe.
  using DefinitionFn = std::function<bool(const Record&)>;
  Result<void> parseChunk(std::span<const std::byte> content, bool cut, LoadedChunk& out, LoadContext& ctx,
                          ChunkStats* stats, const DefinitionFn* onDefinition) const;
  void finishCounts(bool countsFromChunks);
  // A chunk record's messages; its schema and channel records to `onDefinition` when given.
  Result<void> loadChunkRecord(std::uint32_t index, LoadedChunk& out, LoadContext& ctx,
                               const DefinitionFn* onDefinition) const;
  // Chunks the summary lists without a message index (optional in MCAP, and no damage), or
  // with channels the summary does not define: read at open, for their channels (which may be
  // defined only inside them) and messages.
  Result<void> readUnindexedChunks(bool haveStats, const std::map<std::uint16_t, std::uint64_t>& statsCounts);
  // Gives pending channels their schemas, reading chunks in file order for schema records
  // until every one is found (the summary need not repeat them).
  void resolvePendingSchemas();

  std::unique_ptr<ByteSource> bytes_;
  SourceInfo info_;
  std::map<std::uint16_t, Schema> schemas_;
  std::vector<Connection> connections_;
  std::map<std::uint16_t, std::uint32_t> connIndexById_;
  std::vector<Chunk> chunks_;
  std::optional<MessageIndex> index_;
  // What readUnindexedChunks found in each chunk without a message index, for messageIndex().
  std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, IndexEntry>>> unindexedEntries_;
  LoadContext context_;  // for single-threaded loads
  detail::ChunkReadCache readCache_;
  ChunkStats stats_;
  bool statsKnown_ = false;
  bool completeWithoutSummary_ = false;
  // Channels whose schema record came after them (a summary need not repeat schemas): by
  // connection index, the schema id still to find.
  std::map<std::uint32_t, std::uint16_t>
      schemaPending_;  // a footer and the closing magic, but no summary that indexes the messages
  // Metadata and attachment records: (offset, length) of each whole record, from the
  // summary's indexes or met by the scan.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> extraRecords_;
};

bool McapSource::takeSchema(std::span<const std::byte> content) {
  Fields f{ByteCursor(content)};
  auto id = f.num<std::uint16_t>();
  Schema s;
  s.name = f.str();
  s.encoding = f.str();
  s.data = asText(f.bytes32());
  if (!f.ok) return false;
  if (id != 0) schemas_.emplace(id, std::move(s));  // id 0 means "no schema"
  return true;
}

bool McapSource::takeChannel(std::span<const std::byte> content) {
  Fields f{ByteCursor(content)};
  auto id = f.num<std::uint16_t>();
  auto schemaId = f.num<std::uint16_t>();
  Connection c;
  c.id = id;  // channel id 0 is valid
  c.topic = f.str();
  c.messageEncoding = f.str();
  f.map([&](Fields& m) {  // channel metadata: rosbag2's QoS profiles, ROS 1's connection header
    auto key = m.str();
    auto value = m.str();
    if (key == "offered_qos_profiles") c.offeredQos = value;
    else if (key == "topic_type_hash") c.typeHash = value;
    else if (key == "md5sum") c.md5sum = value;
    else if (key == "callerid") c.callerid = value;
    else if (key == "latching") c.latching = value == "1" || value == "true";
  });
  if (!f.ok) return false;
  if (connIndexById_.count(id)) return true;  // the first definition wins
  if (auto it = schemas_.find(schemaId); it != schemas_.end()) {
    c.type = it->second.name;
    c.schemaEncoding = it->second.encoding;
    c.definition = it->second.data;
  } else if (schemaId != 0) {
    schemaPending_[static_cast<std::uint32_t>(connections_.size())] = schemaId;  // defined later in the file
  }
  connIndexById_[id] = static_cast<std::uint32_t>(connections_.size());
  connections_.push_back(std::move(c));
  return true;
}

Result<void> McapSource::open() {
  const std::uint64_t size = bytes_->size();
  std::byte head[8] = {};
  if (size < kMagic.size()) return error(ErrorCode::Format, "not an MCAP file: shorter than its magic", 0);
  if (auto r = bytes_->readAt(0, head); !r) return r;
  if (asText(head) != kMagic) {
    // 89 'MCAP' <major version> '\r' '\n': show what stands where the magic should.
    std::string found = hexBytes(head);
    auto version = static_cast<char>(head[5]);
    if (asText(std::span(head, 5)) == "\x89MCAP" && version != '0' && version >= '1' && version <= '9' &&
        head[6] == std::byte{'\r'} && head[7] == std::byte{'\n'})
      return error(ErrorCode::Unsupported,
                   "MCAP major version '" + std::string(1, version) + "' is not supported (only 0)", 5);
    return error(ErrorCode::Format,
                 "not an MCAP file: its first 8 bytes are " + found + ", not the MCAP magic 89 4d 43 41 50 30 0d 0a",
                 0);
  }
  auto summary = readSummary();
  if (summary && *summary) return {};
  info_.indexed = false;
  schemas_.clear();
  connections_.clear();
  connIndexById_.clear();
  chunks_.clear();
  unindexedEntries_.clear();
  schemaPending_.clear();
  if (auto r = scan(); !r) return r;
  // The summary is optional: a file that ends with its footer, read to the end without damage,
  // lost nothing (SourceInfo::indexed says it was scanned). Anything else is said.
  bool clean = summary && completeWithoutSummary_ && info_.problems.size() == 1;
  if (clean) info_.problems.clear();
  else
    info_.problems.insert(
        info_.problems.begin(),
        summary ? "the file has no usable summary section; it was scanned to index it"
                : "the summary is unreadable (" + summary.error().message + "); the file was scanned to index it");
  return {};
}

// True when the summary gave everything needed; false to fall back to a scan.
// A chunk index record of the summary: where the chunk is, its time range and channels.
bool McapSource::takeChunkIndex(std::span<const std::byte> content) {
  Fields x{ByteCursor(content)};
  Chunk c;
  c.startNs = toNs(x.num<std::uint64_t>());
  c.endNs = toNs(x.num<std::uint64_t>());
  c.recordPos = x.num<std::uint64_t>();
  c.recordLength = x.num<std::uint64_t>();
  std::uint64_t firstIndex = UINT64_MAX;
  x.map([&](Fields& m) {
    auto channel = m.num<std::uint16_t>();
    auto offset = m.num<std::uint64_t>();
    c.counts.emplace_back(channel, 1);  // channel ids for now; mapped by checkChunkIndexes
    firstIndex = std::min(firstIndex, offset);
  });
  c.messageIndexLength = x.num<std::uint64_t>();
  c.messageIndexPos = firstIndex == UINT64_MAX ? 0 : firstIndex;
  c.compression = x.str();
  stats_.storedBytes += x.num<std::uint64_t>();
  stats_.uncompressedBytes += x.num<std::uint64_t>();
  if (!x.ok) return false;
  chunks_.push_back(std::move(c));
  return true;
}

// The statistics record: the message count, in all and per channel.
bool McapSource::takeStatistics(std::span<const std::byte> content, std::uint64_t& messages,
                                std::map<std::uint16_t, std::uint64_t>& perChannel) {
  Fields x{ByteCursor(content)};
  messages = x.num<std::uint64_t>();
  x.num<std::uint16_t>();
  for (int i = 0; i < 4; ++i) x.num<std::uint32_t>();
  x.num<std::uint64_t>();
  x.num<std::uint64_t>();
  x.map([&](Fields& m) {
    auto channel = m.num<std::uint16_t>();
    perChannel[channel] = m.num<std::uint64_t>();
  });
  return x.ok;
}

// Every chunk the summary lists lies in the data section (before `dataEnd`) and names
// channels the summary defines; their ids become connection indexes.
Result<void> McapSource::checkChunkIndexes(std::uint64_t dataEnd) {
  for (auto& c : chunks_) {
    if (c.recordPos < kMagic.size() || c.recordPos >= dataEnd || c.recordLength > dataEnd - c.recordPos)
      return error(ErrorCode::Format, "a chunk index points outside the data section", c.recordPos);
    bool known = std::all_of(c.counts.begin(), c.counts.end(),
                             [&](auto& p) { return connIndexById_.count(static_cast<std::uint16_t>(p.first)) != 0; });
    if (!known) {  // channels defined only inside the chunks (the summary need not repeat them)
      c.counts.clear();
      continue;
    }
    for (auto& [channel, n] : c.counts) {
      channel = connIndexById_.at(static_cast<std::uint16_t>(channel));
      n = 1;
    }
  }
  return {};
}

Result<bool> McapSource::readSummary() {
  const std::uint64_t size = bytes_->size();
  if (size < kMagic.size() * 2 + kFooterRecord) return false;
  std::byte tail[kFooterRecord + 8];
  std::uint64_t footerPos = size - sizeof tail;
  BAGSCOPE_TRY(bytes_->readAt(footerPos, tail));
  if (asText(std::span(tail + kFooterRecord, 8)) != kMagic) return false;  // cut or unfinished
  Fields f{ByteCursor(std::span<const std::byte>(tail, kFooterRecord))};
  if (f.num<std::uint8_t>() != kOpFooter || f.num<std::uint64_t>() != 20)
    return error(ErrorCode::Format, "the footer record is malformed", footerPos);
  auto summaryStart = f.num<std::uint64_t>();
  completeWithoutSummary_ = summaryStart == 0;
  if (summaryStart == 0) return false;
  if (summaryStart < kMagic.size() || summaryStart > footerPos)
    return error(ErrorCode::Format, "summary start " + std::to_string(summaryStart) + " is outside the file",
                 footerPos);
  ByteBuffer buf;
  BAGSCOPE_TRY(readExact(summaryStart, footerPos - summaryStart, buf));
  std::string why;
  bool haveStats = false;
  std::uint64_t statsMessages = 0;
  std::map<std::uint16_t, std::uint64_t> channelCounts;
  bool malformed = false;
  forEachRecord(buf.span(), why, [&](const Record& r) {
    switch (r.op) {
      case kOpSchema: malformed = !takeSchema(r.content); break;
      case kOpChannel: malformed = !takeChannel(r.content); break;
      case kOpChunkIndex: malformed = !takeChunkIndex(r.content); break;
      case kOpStatistics:
        malformed = !takeStatistics(r.content, statsMessages, channelCounts);
        haveStats = !malformed;
        break;
      case kOpMetadataIndex:
      case kOpAttachmentIndex: {  // both start with the record's offset and length
        Fields index{ByteCursor(r.content)};
        auto offset = index.num<std::uint64_t>();
        auto length = index.num<std::uint64_t>();
        malformed = !index.ok;
        if (index.ok) extraRecords_.emplace_back(offset, length);
        break;
      }
      default: break;  // summary offsets
    }
    return !malformed;
  });
  if (malformed || !why.empty())
    return error(ErrorCode::Format, "summary record is malformed" + (why.empty() ? "" : ": " + why), summaryStart);
  BAGSCOPE_TRY(checkChunkIndexes(summaryStart));
  if (chunks_.empty() && (!haveStats || statsMessages > 0)) {
    completeWithoutSummary_ = true;  // messages outside chunks (or unknown): only a scan finds them
    return false;
  }
  stats_.chunkCount = chunks_.size();
  statsKnown_ = false;  // compression names need the chunk records
  if (std::any_of(chunks_.begin(), chunks_.end(), [](const Chunk& c) { return c.counts.empty(); })) {
    BAGSCOPE_TRY(readUnindexedChunks(haveStats, channelCounts));
    resolvePendingSchemas();
    return true;
  }
  resolvePendingSchemas();
  for (auto& conn : connections_) conn.messageCount = channelCounts[static_cast<std::uint16_t>(conn.id)];
  finishCounts(false);
  if (!haveStats) {
    // Counts from the message indexes instead.
    auto index = messageIndex();
    BAGSCOPE_TRY(index);
    for (std::size_t i = 0; i < connections_.size(); ++i) connections_[i].messageCount = (**index)[i].size();
    finishCounts(false);
  }
  return true;
}

Result<void> McapSource::readUnindexedChunks(bool haveStats,
                                             const std::map<std::uint16_t, std::uint64_t>& statsCounts) {
  DefinitionFn define = [this](const Record& d) {
    return d.op == kOpSchema ? takeSchema(d.content) : takeChannel(d.content);
  };
  for (std::uint32_t ci = 0; ci < chunks_.size(); ++ci) {
    Chunk& c = chunks_[ci];
    if (!c.counts.empty()) continue;
    LoadedChunk loaded;
    if (auto r = loadChunkRecord(ci, loaded, context_, &define); !r) info_.problems.push_back(r.error().describe());
    if (loaded.orphans)
      info_.problems.push_back("the chunk at offset " + std::to_string(c.recordPos) + " holds " +
                               std::to_string(loaded.orphans) +
                               " messages on channels that nothing in the file defines; they are not read");
    auto& entries = unindexedEntries_[ci];
    for (const auto& m : loaded.messages) {
      entries.push_back({m.connIndex, {m.logTimeNs, {ci, m.recordOffset}}});
      auto it = std::find_if(c.counts.begin(), c.counts.end(), [&](auto& p) { return p.first == m.connIndex; });
      if (it == c.counts.end()) c.counts.emplace_back(m.connIndex, 1);
    }
  }
  // Counts from what was read, checked against the statistics record where there is one.
  auto index = messageIndex();
  BAGSCOPE_TRY(index);
  for (std::size_t i = 0; i < connections_.size(); ++i) {
    auto& conn = connections_[i];
    conn.messageCount = (**index)[i].size();
    auto said = statsCounts.find(static_cast<std::uint16_t>(conn.id));
    std::uint64_t claimed = said == statsCounts.end() ? 0 : said->second;
    if (haveStats && claimed != conn.messageCount)
      info_.problems.push_back("the statistics record says " + std::to_string(claimed) + " messages on " + conn.topic +
                               ", the chunks hold " + std::to_string(conn.messageCount));
  }
  finishCounts(false);
  return {};
}

void McapSource::resolvePendingSchemas() {
  DefinitionFn define = [this](const Record& d) { return d.op != kOpSchema || takeSchema(d.content); };
  auto resolved = [this] {
    for (auto it = schemaPending_.begin(); it != schemaPending_.end();) {
      auto schema = schemas_.find(it->second);
      if (schema == schemas_.end()) {
        ++it;
        continue;
      }
      auto& c = connections_[it->first];
      c.type = schema->second.name;
      c.schemaEncoding = schema->second.encoding;
      c.definition = schema->second.data;
      it = schemaPending_.erase(it);
    }
    return schemaPending_.empty();
  };
  LoadedChunk loaded;
  for (std::uint32_t ci = 0; ci < chunks_.size() && !resolved(); ++ci)
    if (!chunks_[ci].loose) (void)loadChunkRecord(ci, loaded, context_, &define);  // damage: said when read
  for (const auto& [conn, schemaId] : schemaPending_)
    info_.problems.push_back("channel " + connections_[conn].topic + " names schema " + std::to_string(schemaId) +
                             ", which the file does not define");
  schemaPending_.clear();
}

void McapSource::finishCounts(bool countsFromChunks) {
  info_.messageCount = 0;
  if (countsFromChunks) {
    for (auto& conn : connections_) conn.messageCount = 0;
    for (const auto& c : chunks_)
      for (auto [conn, n] : c.counts) connections_[conn].messageCount += n;
  }
  for (const auto& conn : connections_) info_.messageCount += conn.messageCount;
  bool first = true;
  for (const auto& c : chunks_) {
    if (c.counts.empty()) continue;
    info_.startNs = first ? c.startNs : std::min(info_.startNs, c.startNs);
    info_.endNs = first ? c.endNs : std::max(info_.endNs, c.endNs);
    first = false;
  }
}

Result<void> McapSource::parseChunk(std::span<const std::byte> content, bool cut, LoadedChunk& out, LoadContext& ctx,
                                    ChunkStats* stats, const DefinitionFn* onDefinition) const {
  Fields f{ByteCursor(content)};
  f.num<std::uint64_t>();  // message start and end time: taken from the messages themselves
  f.num<std::uint64_t>();
  auto uncompressedSize = f.num<std::uint64_t>();
  auto crc = f.num<std::uint32_t>();  // of the uncompressed records; 0: not computed
  auto compression = f.str();
  std::span<const std::byte> records;
  if (cut) {
    std::uint64_t n = f.num<std::uint64_t>();
    records = content.subspan(std::min(content.size(), f.c.pos()));
    if (n < records.size()) records = records.first(static_cast<std::size_t>(n));
  } else {
    records = f.bytes64();
  }
  if (!f.ok) return makeError(ErrorCode::Format, "chunk record is malformed");
  Codec codec;
  if (compression.empty()) codec = Codec::None;
  else if (!compress::codecFromName(compression, codec) || codec == Codec::Bz2)
    return makeError(ErrorCode::Unsupported, "chunk compression '" + std::string(compression) + "' is not supported");
  if (stats) {
    ++stats->chunkCount;
    std::string name = compression.empty() ? "none" : std::string(compression);
    auto it = std::find_if(stats->chunksByCompression.begin(), stats->chunksByCompression.end(),
                           [&](auto& p) { return p.first == name; });
    if (it == stats->chunksByCompression.end()) stats->chunksByCompression.emplace_back(name, 1);
    else ++it->second;
    stats->storedBytes += records.size();
    stats->uncompressedBytes += uncompressedSize;
  }
  // Uncompressed records that loadChunkRecord read into `out.data` (or mapped as `out.view`)
  // stay where they are; any other input in `out.data` moves aside, as the codecs cannot write
  // over their input.
  const auto base = out.bytes();
  const bool inPlace = !content.empty() && content.data() >= base.data() && content.data() < base.data() + base.size();
  std::span<const std::byte> data =
      records.first(static_cast<std::size_t>(std::min<std::uint64_t>(records.size(), uncompressedSize)));
  if (inPlace && codec == Codec::None && !cut && records.size() != uncompressedSize) {
    return compress::sizeMismatch(codec, records.size(), uncompressedSize);  // as decompress() says it
  } else if (!inPlace || codec != Codec::None) {
    if (inPlace && out.view.empty()) std::swap(out.data, ctx.scratch);  // `records` now points into ctx.scratch
    out.view = {};
    out.viewOwner.reset();
    if (cut) ctx.decompressor.decompressPrefix(codec, records, static_cast<std::size_t>(uncompressedSize), out.data);
    else if (auto r = ctx.decompressor.decompress(codec, records, static_cast<std::size_t>(uncompressedSize), out.data);
             !r)
      return r;
    data = out.data.span();
  }
  // Damage the codec did not notice (or an uncompressed chunk) would make its messages wrong.
  // The CRC is taken a window ahead of the records being listed, so both passes find the bytes
  // in the cache (a 4 MB chunk summed whole was out of it again when listed: the listing
  // stalled on every record). Definitions (a scan's) are only taken from a chunk known good.
  const bool checkCrc = !cut && crc != 0;
  std::uint32_t sum = 0;
  std::size_t summed = 0;
  auto sumTo = [&](std::size_t end) {
    if (!checkCrc || end <= summed) return;
    constexpr std::size_t kWindow = 64 << 10;
    end = std::max(end, std::min(data.size(), summed + kWindow));
    sum = crc32(data.subspan(summed, end - summed), sum);
    summed = end;
  };
  auto damaged = [] {
    return makeError(ErrorCode::Format, "chunk data does not match its CRC (damaged): its messages are not read");
  };
  if (onDefinition) {
    sumTo(data.size());
    if (checkCrc && sum != crc) return damaged();
  }
  std::string why;
  bool bad = false;
  forEachRecord(data, why, [&](const Record& r) {
    sumTo(static_cast<std::size_t>(r.content.data() + r.content.size() - data.data()));
    if (r.op == kOpMessage) {
      Fields m{ByteCursor(r.content)};
      auto channel = m.num<std::uint16_t>();
      m.num<std::uint32_t>();  // sequence
      auto logTime = m.num<std::uint64_t>();
      m.num<std::uint64_t>();  // publish time
      if (!m.ok) return !(bad = true);
      auto it = connIndexById_.find(channel);
      if (it == connIndexById_.end()) return ++out.orphans, true;  // a channel never defined: nothing to label it with
      auto dataOffset = static_cast<std::uint32_t>(r.content.data() - out.bytes().data()) + 22;
      out.messages.push_back({toNs(logTime), dataOffset, static_cast<std::uint32_t>(r.content.size() - 22), it->second,
                              static_cast<std::uint32_t>(r.offset)});
    } else if (onDefinition && (r.op == kOpSchema || r.op == kOpChannel)) {
      bad = !(*onDefinition)(r);
    }
    return !bad;
  });
  sumTo(data.size());
  if (checkCrc && sum != crc) {
    out.messages.clear();
    out.orphans = 0;
    return damaged();
  }
  detail::sortByLogTime(out.messages);
  if (bad || (!why.empty() && !cut))
    return makeError(ErrorCode::Format, "chunk holds a malformed record (" + std::to_string(out.messages.size()) +
                                            " messages before it are kept)");
  return {};
}

// A message found by scanning, in chunk `chunk`.
void McapSource::addScanned(Scan& scan, std::uint32_t chunk, const ChunkMessage& m) {
  Chunk& c = chunks_[chunk];
  bool first = c.counts.empty();
  c.startNs = first ? m.logTimeNs : std::min(c.startNs, m.logTimeNs);
  c.endNs = first ? m.logTimeNs : std::max(c.endNs, m.logTimeNs);
  auto it = std::find_if(c.counts.begin(), c.counts.end(), [&](auto& p) { return p.first == m.connIndex; });
  if (it == c.counts.end()) c.counts.emplace_back(m.connIndex, 1);
  else ++it->second;
  if (index_->size() <= m.connIndex) index_->resize(m.connIndex + 1);
  (*index_)[m.connIndex].push_back({m.logTimeNs, {chunk, m.recordOffset}});
  ++scan.recovered;
}

// A chunk record met by the scan (`present` of its `len` bytes in the file): its schemas,
// channels and messages, as far as they are whole.
void McapSource::scanChunk(Scan& scan, std::uint64_t pos, std::span<const std::byte> record, bool cut,
                           std::uint64_t present, std::uint64_t len) {
  Chunk c;
  c.recordPos = pos;
  c.recordLength = kRecordPrefix + present;
  Fields h{ByteCursor(record)};  // start, end, uncompressed size, crc, compression
  h.num<std::uint64_t>();
  h.num<std::uint64_t>();
  h.num<std::uint64_t>();
  h.num<std::uint32_t>();
  c.compression = h.str();
  auto chunkIndex = static_cast<std::uint32_t>(chunks_.size());
  chunks_.push_back(c);
  scan.loaded.messages.clear();
  scan.loaded.orphans = 0;
  DefinitionFn define = [this](const Record& d) {
    return d.op == kOpSchema ? takeSchema(d.content) : takeChannel(d.content);
  };
  auto r = parseChunk(record, cut, scan.loaded, context_, &stats_, &define);
  for (const auto& m : scan.loaded.messages) addScanned(scan, chunkIndex, m);
  if (scan.loaded.orphans)
    info_.problems.push_back("the chunk at offset " + std::to_string(pos) + " holds " +
                             std::to_string(scan.loaded.orphans) +
                             " messages on channels that nothing in the file defines; they are not read");
  if (!r || cut) {
    info_.problems.push_back(
        std::string(cut ? "the file ends inside the chunk" : "the chunk") + " at offset " + std::to_string(pos) +
        (cut ? " (" + std::to_string(present) + " of " + std::to_string(len) + " bytes present)" : "") +
        ": recovered " + std::to_string(scan.loaded.messages.size()) + " complete messages" +
        (r ? "" : " (" + r.error().message + ")"));
  }
}

// A message record outside chunks: kept in a "loose" chunk of the records around it, split
// so that none is huge.
void McapSource::scanLooseMessage(Scan& scan, std::uint64_t pos, std::span<const std::byte> record, std::uint64_t end) {
  Fields m{ByteCursor(record)};
  auto channel = m.num<std::uint16_t>();
  m.num<std::uint32_t>();
  auto logTime = m.num<std::uint64_t>();
  auto it = connIndexById_.find(channel);
  if (!m.ok || it == connIndexById_.end()) return;
  if (scan.looseChunk != Scan::kNoChunk && end - chunks_[scan.looseChunk].recordPos > kMaxLooseChunkBytes)
    scan.looseChunk = Scan::kNoChunk;
  if (scan.looseChunk == Scan::kNoChunk) {
    Chunk c;
    c.recordPos = pos;
    c.loose = true;
    scan.looseChunk = static_cast<std::uint32_t>(chunks_.size());
    chunks_.push_back(c);
  }
  Chunk& c = chunks_[scan.looseChunk];
  c.recordLength = end - c.recordPos;
  addScanned(scan, scan.looseChunk, {toNs(logTime), 0, 0, it->second, static_cast<std::uint32_t>(pos - c.recordPos)});
}

Result<void> McapSource::scan() {
  const std::uint64_t size = bytes_->size();
  index_.emplace();
  std::uint64_t pos = kMagic.size();
  Scan scan;
  ByteBuffer record;
  stats_ = {};
  while (pos < size) {
    std::byte prefix[kRecordPrefix];
    if (size - pos < kRecordPrefix) {
      info_.problems.push_back("the file ends inside a record header at offset " + std::to_string(pos));
      break;
    }
    if (auto r = bytes_->readAt(pos, prefix); !r) return r;
    auto op = static_cast<std::uint8_t>(prefix[0]);
    auto len = loadLE<std::uint64_t>(prefix + 1);
    std::uint64_t contentPos = pos + kRecordPrefix;
    bool cut = len > size - contentPos;
    if (op == kOpFooter || op == kOpDataEnd) break;  // the data section ends here
    if (cut && op != kOpChunk) {
      info_.problems.push_back("the file ends inside a record (opcode " + std::to_string(op) + ") at offset " +
                               std::to_string(pos) + "; the last " + std::to_string(size - pos) + " bytes are lost");
      break;
    }
    std::uint64_t present = cut ? size - contentPos : len;
    if (op != kOpMessage && op != kOpSchema && op != kOpChannel) scan.looseChunk = Scan::kNoChunk;
    if (op == kOpChunk || op == kOpMessage || op == kOpSchema || op == kOpChannel) {
      if (auto r = readExact(contentPos, present, record); !r) return r;
    }
    if (op == kOpSchema || op == kOpChannel) {
      if (!(op == kOpSchema ? takeSchema(record.span()) : takeChannel(record.span())))
        info_.problems.push_back("malformed " + std::string(op == kOpSchema ? "schema" : "channel") +
                                 " record at offset " + std::to_string(pos) + " skipped");
    } else if (op == kOpChunk) {
      scanChunk(scan, pos, record.span(), cut, present, len);
      if (cut) break;
    } else if (op == kOpMessage) {
      scanLooseMessage(scan, pos, record.span(), contentPos + len);
    } else if (op == kOpMetadata || op == kOpAttachment) {
      extraRecords_.emplace_back(pos, kRecordPrefix + len);
    }
    pos = contentPos + len;
  }
  detail::sortIndex(*index_);
  index_->resize(connections_.size());
  statsKnown_ = true;
  resolvePendingSchemas();
  info_.problems.push_back("recovered " + std::to_string(scan.recovered) + " messages by scanning");
  finishCounts(true);
  return {};
}

Result<FileExtras> McapSource::extras() {
  FileExtras out;
  ByteBuffer buf;
  for (auto [offset, length] : extraRecords_) {
    if (length < kRecordPrefix || offset > bytes_->size() || length > bytes_->size() - offset)
      return error(ErrorCode::Format, "a metadata or attachment index points outside the file", offset);
    BAGSCOPE_TRY(readExact(offset, length, buf));
    std::string why;
    Fields f{ByteCursor(buf.span().subspan(kRecordPrefix))};
    auto op = static_cast<std::uint8_t>(buf.data()[0]);
    if (op == kOpMetadata) {
      FileMetadata m;
      m.name = f.str();
      f.map([&](Fields& e) {
        auto key = e.str();
        m.entries.emplace_back(key, e.str());
      });
      if (f.ok) out.metadata.push_back(std::move(m));
    } else if (op == kOpAttachment) {
      FileAttachment a;
      a.logTimeNs = toNs(f.num<std::uint64_t>());
      a.createTimeNs = toNs(f.num<std::uint64_t>());
      a.name = f.str();
      a.mediaType = f.str();
      a.data = asText(f.bytes64());
      auto crc = f.num<std::uint32_t>();
      if (f.ok && crc != 0 && crc != crc32(buf.span().subspan(kRecordPrefix, length - kRecordPrefix - 4)))
        return error(ErrorCode::Format, "attachment '" + a.name + "' does not match its CRC", offset);
      if (f.ok) out.attachments.push_back(std::move(a));
    } else {
      f.ok = false;
    }
    if (!f.ok) return error(ErrorCode::Format, "malformed metadata or attachment record", offset);
  }
  return out;
}

Result<void> McapSource::loadChunk(std::uint32_t index, LoadedChunk& out, LoadContext& ctx) const {
  return loadChunkRecord(index, out, ctx, nullptr);
}

Result<void> McapSource::loadChunkRecord(std::uint32_t index, LoadedChunk& out, LoadContext& ctx,
                                         const DefinitionFn* onDefinition) const {
  if (index >= chunks_.size()) return error(ErrorCode::InvalidArgument, "no chunk " + std::to_string(index), 0);
  const Chunk& c = chunks_[index];
  out.messages.clear();
  out.orphans = 0;
  out.view = {};
  out.viewOwner.reset();
  if (c.loose) {
    // Message records in the data section, outside chunks: parse the span as records.
    if (auto r = readExact(c.recordPos, c.recordLength, out.data); !r) return r;
    std::string why;
    forEachRecord(out.data.span(), why, [&](const Record& r) {
      if (r.op != kOpMessage || r.content.size() < 22) return true;
      Fields m{ByteCursor(r.content)};
      auto channel = m.num<std::uint16_t>();
      m.num<std::uint32_t>();
      auto logTime = m.num<std::uint64_t>();
      auto it = connIndexById_.find(channel);
      if (it != connIndexById_.end())
        out.messages.push_back({toNs(logTime), static_cast<std::uint32_t>(r.content.data() - out.data.data()) + 22,
                                static_cast<std::uint32_t>(r.content.size() - 22), it->second,
                                static_cast<std::uint32_t>(r.offset)});
      return true;
    });
    detail::sortByLogTime(out.messages);
    return {};
  }
  const std::uint64_t size = bytes_->size();
  std::uint64_t length = std::min(c.recordLength, size - c.recordPos);
  // In the mapped file the chunk is read where it is (an uncompressed one's messages stay
  // there); else an uncompressed chunk is read where its messages will be (parseChunk uses
  // them in place).
  const MappedBytes mapped = bytes_->mapped();
  // Whole: a compressed chunk is decompressed, an uncompressed one's CRC reads every byte.
  auto read = bytesAt(*bytes_, mapped, c.recordPos, length, c.compression.empty() ? out.data : ctx.scratch, true);
  BAGSCOPE_TRY(read);
  const auto bytes = *read;
  if (!mapped.bytes.empty() && c.compression.empty()) out.view = bytes, out.viewOwner = mapped.owner;
  if (bytes.size() < kRecordPrefix || static_cast<std::uint8_t>(bytes[0]) != kOpChunk)
    return error(ErrorCode::Format, "expected a chunk record", c.recordPos);
  std::uint64_t len = loadLE<std::uint64_t>(bytes.data() + 1);
  bool cut = len > bytes.size() - kRecordPrefix;
  auto content = bytes.subspan(kRecordPrefix,
                               static_cast<std::size_t>(std::min<std::uint64_t>(len, bytes.size() - kRecordPrefix)));
  auto parsed = parseChunk(content, cut, out, ctx, nullptr, onDefinition);
  if (cutSince(*bytes_, mapped, bytes, c.recordPos)) {  // zeros were read where the file was
    out.messages.clear();
    parsed = makeError(ErrorCode::Io, "the file was cut while it was read");
  }
  if (auto r = std::move(parsed); !r) {
    Error e = std::move(r).error();
    e.message = "chunk at offset " + std::to_string(c.recordPos) + ": " + e.message;
    e.file = bytes_->name();
    e.offset = static_cast<std::int64_t>(c.recordPos);
    return e;
  }
  return {};
}

Result<void> McapSource::readMessages(const ReadFilter& filter, const MessageFn& onMessage,
                                      const ProblemFn& onProblem) {
  std::vector<bool> wanted(connections_.size(), filter.connections.empty());
  for (auto id : filter.connections)
    if (auto it = connIndexById_.find(static_cast<std::uint16_t>(id)); it != connIndexById_.end() && id <= 0xFFFF)
      wanted[it->second] = true;
  std::vector<const detail::ChunkSpan*> spans;
  for (const auto& c : chunks_) spans.push_back(&c);
  auto load = [&](std::uint32_t index, LoadedChunk& out, LoadContext& ctx) { return loadChunk(index, out, ctx); };
  return detail::mergeChunks(spans, connections_, wanted, filter, load, onMessage, onProblem, *bytes_);
}

Result<const MessageIndex*> McapSource::messageIndex() {
  if (index_) return &*index_;
  MessageIndex index(connections_.size());
  ByteBuffer buf;
  for (std::uint32_t ci = 0; ci < chunks_.size(); ++ci) {
    std::vector<std::pair<std::uint32_t, IndexEntry>> entries;
    bool ok = true;
    if (auto read = unindexedEntries_.find(ci); read != unindexedEntries_.end()) {
      entries = std::move(read->second);
    } else {
      ok = forEachMessageIndex(chunks_[ci], buf, [&](std::uint32_t conn, std::uint32_t n, Fields& f) {
        for (std::uint32_t k = 0; k < n; ++k) {
          auto t = f.num<std::uint64_t>();
          auto offset = f.num<std::uint64_t>();
          if (offset > UINT32_MAX) return false;
          entries.push_back({conn, {toNs(t), {ci, static_cast<std::uint32_t>(offset)}}});
        }
        return true;
      });
    }
    if (!ok) {
      // No usable message index records: list the chunk itself.
      entries.clear();
      LoadedChunk loaded;
      if (auto r = loadChunk(ci, loaded, context_); !r) info_.problems.push_back(r.error().describe());
      for (const auto& m : loaded.messages) entries.push_back({m.connIndex, {m.logTimeNs, {ci, m.recordOffset}}});
    }
    for (auto& [conn, e] : entries) index[conn].push_back(e);
  }
  detail::sortIndex(index);
  index_ = std::move(index);
  return &*index_;
}

template <typename Fn>
bool McapSource::forEachMessageIndex(const Chunk& c, ByteBuffer& buf, Fn&& fn) const {
  if (c.messageIndexPos == 0 || c.messageIndexLength == 0 || c.messageIndexPos > bytes_->size() ||
      c.messageIndexLength > bytes_->size() - c.messageIndexPos ||
      !readExact(c.messageIndexPos, c.messageIndexLength, buf))
    return false;
  bool ok = true;
  std::string why;
  forEachRecord(buf.span(), why, [&](const Record& r) {
    if (r.op != kOpMessageIndex) return true;
    Fields f{ByteCursor(r.content)};
    auto channel = f.num<std::uint16_t>();
    auto it = connIndexById_.find(channel);
    auto n = f.num<std::uint32_t>();
    if (!f.ok || it == connIndexById_.end() || n % 16 != 0 || n > f.c.remaining()) return ok = false;
    return ok = fn(it->second, n / 16, f);
  });
  return ok && why.empty();
}

Result<std::vector<ConnectionSpan>> McapSource::connectionSpans() {
  // Built already when the summary lacked statistics or message indexes, or by the scan.
  if (index_) return Source::connectionSpans();
  std::vector<const detail::ChunkSpan*> spans;
  for (const auto& c : chunks_) spans.push_back(&c);
  ByteBuffer buf;
  auto readTimes = [&](std::uint32_t ci) -> Result<std::vector<detail::ChunkConnectionTimes>> {
    std::vector<detail::ChunkConnectionTimes> out;
    bool ok = forEachMessageIndex(chunks_[ci], buf, [&](std::uint32_t conn, std::uint32_t n, Fields& f) {
      if (n == 0) return true;  // an empty record: no messages of it here
      detail::ChunkConnectionTimes t{conn, n, std::numeric_limits<std::int64_t>::max(),
                                     std::numeric_limits<std::int64_t>::min()};
      for (std::uint32_t k = 0; k < n; ++k) {
        auto time = toNs(f.num<std::uint64_t>());
        f.num<std::uint64_t>();
        t.firstNs = std::min(t.firstNs, time);
        t.lastNs = std::max(t.lastNs, time);
      }
      auto same = std::find_if(out.begin(), out.end(), [&](auto& o) { return o.connIndex == conn; });
      if (same == out.end()) out.push_back(t);
      else *same = {conn, same->count + n, std::min(same->firstNs, t.firstNs), std::max(same->lastNs, t.lastNs)};
      return true;
    });
    if (!ok) return error(ErrorCode::Format, "the chunk's message indexes are unreadable", chunks_[ci].recordPos);
    return out;
  };
  if (auto s = detail::spansFromChunkIndexes(spans, connections_, false, readTimes)) return s;
  return Source::connectionSpans();  // the summary cannot be trusted: the full index says
}

Result<MessageView> McapSource::read(const IndexEntry& entry) {
  std::uint32_t ci = entry.location.chunk;
  if (ci >= chunks_.size()) return error(ErrorCode::InvalidArgument, "no chunk " + std::to_string(ci), 0);
  return readCache_.read(
      entry, connections_, [&](LoadedChunk& out) { return loadChunk(ci, out, context_); }, bytes_->name());
}

Result<ChunkStats> McapSource::chunkStats() {
  if (statsKnown_) return stats_;
  // The chunk indexes gave sizes; the compression of each is in its record header.
  ChunkStats stats;
  stats.storedBytes = stats_.storedBytes;
  stats.uncompressedBytes = stats_.uncompressedBytes;
  ByteBuffer head;
  for (const auto& c : chunks_) {
    if (c.loose) continue;
    std::uint64_t n = std::min<std::uint64_t>(kRecordPrefix + 8 * 3 + 4 + 4 + 256, c.recordLength);
    BAGSCOPE_TRY(readExact(c.recordPos, n, head));
    Fields f{ByteCursor(head.span().subspan(kRecordPrefix + 8 * 3 + 4))};
    std::string name(f.str());
    if (!f.ok) return error(ErrorCode::Format, "chunk record header is malformed", c.recordPos);
    if (name.empty()) name = "none";
    ++stats.chunkCount;
    auto it = std::find_if(stats.chunksByCompression.begin(), stats.chunksByCompression.end(),
                           [&](auto& p) { return p.first == name; });
    if (it == stats.chunksByCompression.end()) stats.chunksByCompression.emplace_back(name, 1);
    else ++it->second;
  }
  stats_ = stats;
  statsKnown_ = true;
  return stats_;
}

}  // namespace

Result<std::unique_ptr<Source>> openMcap(std::unique_ptr<ByteSource> bytes) {
  auto source = std::make_unique<McapSource>(std::move(bytes));
  BAGSCOPE_TRY(source->open());
  return std::unique_ptr<Source>(std::move(source));
}

const ContainerFormat& mcapContainer() {
  static const ContainerFormat format{.id = "mcap",
                                      .label = "MCAP file",
                                      .magic = build::recordingType("mcap").magic,
                                      .extensions = {build::recordingType("mcap").extension},
                                      .openBytes = openMcap};
  return format;
}

}  // namespace bagscope::storage
