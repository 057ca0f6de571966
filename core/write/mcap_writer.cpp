// MCAP writer (https://mcap.dev/spec): magic, header, schema and channel records as they are
// first used, chunks of message records each followed by its message indexes, data end with
// the data section's CRC, then the summary (schemas, channels, statistics, chunk indexes),
// summary offsets, footer with the summary CRC, magic. Every CRC is computed.

#include <map>
#include <vector>

#include "core/base/digest.hpp"
#include "detail/chunk_pipeline.hpp"
#include "detail/wire.hpp"
#include "detail/writers.hpp"

namespace bagscope::write::detail {
namespace {

constexpr std::string_view kMagic{"\x89MCAP0\r\n", 8};
enum Op : std::uint8_t {
  kHeader = 0x01,
  kFooter = 0x02,
  kSchema = 0x03,
  kChannel = 0x04,
  kMessage = 0x05,
  kChunk = 0x06,
  kMessageIndex = 0x07,
  kChunkIndex = 0x08,
  kAttachment = 0x09,
  kAttachmentIndex = 0x0A,
  kStatistics = 0x0B,
  kMetadata = 0x0C,
  kMetadataIndex = 0x0D,
  kSummaryOffset = 0x0E,
  kDataEnd = 0x0F,
};

// A whole record: opcode, content length, content.
std::string record(std::uint8_t op, const std::string& content) {
  std::string r;
  r.reserve(9 + content.size());
  put(r, op);
  put(r, static_cast<std::uint64_t>(content.size()));
  r += content;
  return r;
}

void putMap(std::string& out, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string body;
  for (const auto& [k, v] : entries) {
    putString(body, k);
    putString(body, v);
  }
  putString(out, body);
}

struct ChannelInfo {
  std::uint16_t id = 0;
  std::string record;  // the channel record, repeated in the summary
  std::uint64_t count = 0;
};

// What a chunk's writing needs besides its bytes.
struct ChunkMeta {
  std::int64_t start = 0, end = 0;
  std::map<std::uint16_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> index;  // channel -> (time, offset)
};

class McapWriter final : public RecordingWriter {
public:
  McapWriter(OutputFile file, McapLayout layout)
      : file_(std::move(file)),
        layout_(std::move(layout)),
        chunks_(layout_.codec, true, [this](auto& c) { return writeChunk(c); }) {
    std::string header;
    putString(header, layout_.profile);
    putString(header, libraryName());
    started_ = emit(std::string(kMagic) + record(kHeader, header));
  }

  Result<ChannelId> addConnection(const storage::Connection& c) override {
    if (!started_) return started_.error();
    std::string key = connectionKey(c);
    if (auto it = byKey_.find(key); it != byKey_.end()) return it->second;
    if (channels_.size() >= 0xFFFE)
      return makeError(ErrorCode::Unsupported, "an MCAP file holds at most 65535 channels");
    std::uint16_t schemaId = 0;
    if (!c.type.empty() || !c.definition.empty()) {
      std::string schemaKey = c.type + '\n' + c.schemaEncoding + '\n' + c.definition;
      auto [it, fresh] = schemaIds_.try_emplace(schemaKey, static_cast<std::uint16_t>(schemaRecords_.size() + 1));
      schemaId = it->second;
      if (fresh) {
        std::string s;
        put(s, schemaId);
        putString(s, c.type);
        putString(s, c.schemaEncoding);
        putString(s, c.definition);
        schemaRecords_ += record(kSchema, s);
        if (auto r = emit(record(kSchema, s)); !r) return r.error();
      }
    }
    ChannelInfo ch;
    // Ids from 1, as the mcap tools number them: 0 is valid, but some readers (rosbags) skip it.
    ch.id = static_cast<std::uint16_t>(channels_.size() + 1);
    std::string content;
    put(content, ch.id);
    put(content, schemaId);
    putString(content, c.topic);
    putString(content, c.messageEncoding);
    putMap(content, channelMetadata(c));
    ch.record = record(kChannel, content);
    if (auto r = emit(ch.record); !r) return r.error();
    channels_.push_back(std::move(ch));
    auto handle = static_cast<ChannelId>(channels_.size() - 1);
    byKey_.emplace(std::move(key), handle);
    return handle;
  }

  Result<void> write(ChannelId channel, std::int64_t logTimeNs, std::span<const std::byte> bytes) override {
    auto& ch = channels_.at(channel);
    if (chunk_.empty()) {
      meta_ = {};
      meta_.start = logTimeNs;
      chunk_.reserve(layout_.chunkBytes + (1 << 16));
    }
    meta_.end = std::max(meta_.end, logTimeNs);
    meta_.start = std::min(meta_.start, logTimeNs);
    meta_.index[ch.id].emplace_back(static_cast<std::uint64_t>(logTimeNs), chunk_.size());
    put(chunk_, kMessage);
    put(chunk_, static_cast<std::uint64_t>(2 + 4 + 8 + 8 + bytes.size()));
    put(chunk_, ch.id);
    put(chunk_, static_cast<std::uint32_t>(ch.count));  // sequence: the channel's running count
    put(chunk_, static_cast<std::uint64_t>(logTimeNs));
    put(chunk_, static_cast<std::uint64_t>(logTimeNs));  // publish time: not kept by the readers
    putBytes(chunk_, bytes);
    ++ch.count;
    if (messages_++ == 0) start_ = logTimeNs;
    start_ = std::min(start_, logTimeNs);
    end_ = std::max(end_, logTimeNs);
    if (chunk_.size() >= layout_.chunkBytes) return flushChunk();
    return {};
  }

  // Metadata and attachment records go to the data section as they come; their indexes to
  // the summary.
  Result<bool> addExtras(const storage::FileExtras& extras) override {
    for (const auto& m : extras.metadata) {
      std::string content;
      putString(content, m.name);
      putMap(content, m.entries);
      std::string index;
      put(index, file_.position());
      put(index, static_cast<std::uint64_t>(9 + content.size()));
      putString(index, m.name);
      if (auto r = emit(record(kMetadata, content)); !r) return r.error();
      metadataIndexes_ += record(kMetadataIndex, index);
      ++metadataCount_;
    }
    for (const auto& a : extras.attachments) {
      std::string content;
      put(content, static_cast<std::uint64_t>(a.logTimeNs));
      put(content, static_cast<std::uint64_t>(a.createTimeNs));
      putString(content, a.name);
      putString(content, a.mediaType);
      put(content, static_cast<std::uint64_t>(a.data.size()));
      content += a.data;
      put(content, crc32(bytesOf(content)));
      std::string index;
      put(index, file_.position());
      put(index, static_cast<std::uint64_t>(9 + content.size()));
      put(index, static_cast<std::uint64_t>(a.logTimeNs));
      put(index, static_cast<std::uint64_t>(a.createTimeNs));
      put(index, static_cast<std::uint64_t>(a.data.size()));
      putString(index, a.name);
      putString(index, a.mediaType);
      if (auto r = emit(record(kAttachment, content)); !r) return r.error();
      attachmentIndexes_ += record(kAttachmentIndex, index);
      ++attachmentCount_;
    }
    return true;
  }

  Result<void> finish() override {
    if (auto r = flushChunk(); !r) return r;
    if (auto r = chunks_.drain(); !r) return r;
    std::string dataEnd;
    put(dataEnd, dataCrc_);
    if (auto r = emit(record(kDataEnd, dataEnd)); !r) return r;
    if (auto r = writeSummary(); !r) return r;
    return file_.close();
  }

  // The chunk being filled counts: a split by size happens at the next message, not 4 MB late.
  std::uint64_t bytesWritten() const override { return file_.position() + chunk_.size(); }

private:
  std::vector<std::pair<std::string, std::string>> channelMetadata(const storage::Connection& c) const {
    std::vector<std::pair<std::string, std::string>> m;
    if (!c.md5sum.empty()) m.emplace_back("md5sum", c.md5sum);
    if (!c.callerid.empty()) m.emplace_back("callerid", c.callerid);
    if (c.messageEncoding == "ros1") m.emplace_back("latching", c.latching ? "true" : "false");
    if (!c.offeredQos.empty() || (layout_.rosbag2 && c.messageEncoding == "cdr"))
      m.emplace_back("offered_qos_profiles", c.offeredQos);
    if (!c.typeHash.empty()) m.emplace_back("topic_type_hash", c.typeHash);
    return m;
  }

  // Bytes of the data section go through here, for its CRC. A schema or channel record goes
  // straight to the file: it lands before the chunk being filled (and those still being
  // compressed), so before every message that uses it.
  Result<void> emit(std::string_view bytes) {
    dataCrc_ = crc32(bytesOf(bytes), dataCrc_);
    return file_.write(bytes);
  }

  Result<void> flushChunk() { return chunks_.flush(meta_, chunk_); }

  Result<void> writeChunk(ChunkPipeline<ChunkMeta>::Chunk& c) {
    bool packed = layout_.codec != compress::Codec::None;
    std::span<const std::byte> data = packed ? c.packed.span() : bytesOf(c.raw);
    std::string head;
    put(head, static_cast<std::uint64_t>(c.meta.start));
    put(head, static_cast<std::uint64_t>(c.meta.end));
    put(head, static_cast<std::uint64_t>(c.raw.size()));
    put(head, c.crc);
    putString(head, packed ? compress::codecName(layout_.codec) : "");
    put(head, static_cast<std::uint64_t>(data.size()));
    std::string prefix;
    put(prefix, kChunk);
    put(prefix, static_cast<std::uint64_t>(head.size() + data.size()));
    std::uint64_t chunkStart = file_.position();
    if (auto r = emit(prefix + head); !r) return r;
    dataCrc_ = crc32Combine(dataCrc_, c.packedCrc, data.size());  // the bytes' CRC came from the worker
    if (auto r = file_.write(data); !r) return r;
    std::uint64_t chunkLength = file_.position() - chunkStart;

    std::string indexes;
    std::vector<std::pair<std::uint16_t, std::uint64_t>> offsets;
    for (const auto& [channel, entries] : c.meta.index) {
      offsets.emplace_back(channel, file_.position() + indexes.size());
      std::string content;
      put(content, channel);
      put(content, static_cast<std::uint32_t>(entries.size() * 16));
      for (auto [t, o] : entries) {
        put(content, t);
        put(content, o);
      }
      indexes += record(kMessageIndex, content);
    }
    if (auto r = emit(indexes); !r) return r;

    std::string ci;
    put(ci, static_cast<std::uint64_t>(c.meta.start));
    put(ci, static_cast<std::uint64_t>(c.meta.end));
    put(ci, chunkStart);
    put(ci, chunkLength);
    std::string offsetMap;
    for (auto [channel, at] : offsets) {
      put(offsetMap, channel);
      put(offsetMap, at);
    }
    putString(ci, offsetMap);
    put(ci, static_cast<std::uint64_t>(indexes.size()));
    putString(ci, packed ? compress::codecName(layout_.codec) : "");
    put(ci, static_cast<std::uint64_t>(data.size()));
    put(ci, static_cast<std::uint64_t>(c.raw.size()));
    chunkIndexes_ += record(kChunkIndex, ci);
    ++chunkCount_;
    return {};
  }

  Result<void> writeSummary() {
    std::uint64_t summaryStart = file_.position();
    std::string summary;
    std::string offsets;
    auto group = [&](std::uint8_t op, const std::string& records) {
      if (records.empty()) return;
      std::string o;
      put(o, op);
      put(o, summaryStart + summary.size());
      put(o, static_cast<std::uint64_t>(records.size()));
      offsets += record(kSummaryOffset, o);
      summary += records;
    };
    group(kSchema, schemaRecords_);
    std::string channelRecords;
    for (const auto& ch : channels_) channelRecords += ch.record;
    group(kChannel, channelRecords);
    std::string stats;
    put(stats, messages_);
    put(stats, static_cast<std::uint16_t>(schemaIds_.size()));
    put(stats, static_cast<std::uint32_t>(channels_.size()));
    put(stats, attachmentCount_);
    put(stats, metadataCount_);
    put(stats, chunkCount_);
    put(stats, static_cast<std::uint64_t>(messages_ ? start_ : 0));
    put(stats, static_cast<std::uint64_t>(messages_ ? end_ : 0));
    std::string counts;
    for (const auto& ch : channels_) {
      put(counts, ch.id);
      put(counts, ch.count);
    }
    putString(stats, counts);
    group(kStatistics, record(kStatistics, stats));
    group(kChunkIndex, chunkIndexes_);
    group(kAttachmentIndex, attachmentIndexes_);
    group(kMetadataIndex, metadataIndexes_);

    std::uint64_t offsetsStart = summaryStart + summary.size();
    std::string footer;
    put(footer, kFooter);
    put(footer, std::uint64_t{20});
    put(footer, summaryStart);
    put(footer, offsetsStart);
    std::string tail = summary + offsets + footer;
    put(tail, crc32(bytesOf(tail)));  // summary CRC: summary start through summary_offset_start
    tail += kMagic;
    return file_.write(tail);
  }

  OutputFile file_;
  McapLayout layout_;
  ChunkPipeline<ChunkMeta> chunks_;
  Result<void> started_;
  std::uint32_t dataCrc_ = 0;
  std::map<std::string, ChannelId> byKey_;
  std::map<std::string, std::uint16_t> schemaIds_;
  std::string schemaRecords_;
  std::vector<ChannelInfo> channels_;
  std::string chunk_;
  ChunkMeta meta_;
  std::string chunkIndexes_;
  std::uint32_t chunkCount_ = 0;
  std::string metadataIndexes_, attachmentIndexes_;
  std::uint32_t metadataCount_ = 0, attachmentCount_ = 0;
  std::uint64_t messages_ = 0;
  std::int64_t start_ = 0, end_ = 0;
};

}  // namespace

std::unique_ptr<RecordingWriter> makeMcapWriter(OutputFile file, const McapLayout& layout) {
  return std::make_unique<McapWriter>(std::move(file), layout);
}

}  // namespace bagscope::write::detail
