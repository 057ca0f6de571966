// ROS 1 bag 2.0 writer (http://wiki.ros.org/Bags/Format/2.0), laid out as rosbag writes it:
// "#ROSBAG V2.0\n", the bag header record padded to 4096 bytes, then chunks (a connection's
// record inside the first chunk that uses it, then message data records), each followed by
// one index data record (version 1) per connection in it; at the end, at index_pos, every
// connection record and one chunk info record per chunk. The bag header's index_pos and
// counts are written at close.

#include <map>
#include <vector>

#include "detail/chunk_pipeline.hpp"
#include "detail/wire.hpp"
#include "detail/writers.hpp"

namespace bagscope::write::detail {
namespace {

constexpr std::string_view kMagic = "#ROSBAG V2.0\n";
constexpr std::uint64_t kBagHeaderRecordSize = 4096;
enum Op : std::uint8_t {
  kMessageData = 0x02,
  kBagHeader = 0x03,
  kIndexData = 0x04,
  kChunk = 0x05,
  kChunkInfo = 0x06,
  kConnection = 0x07
};

// Header fields: uint32 length, "name=", value bytes.
struct Fields {
  std::string bytes;
  Fields& field(std::string_view name, std::string_view value) {
    put(bytes, static_cast<std::uint32_t>(name.size() + 1 + value.size()));
    bytes += name;
    bytes += '=';
    bytes += value;
    return *this;
  }
  template <typename T>
  Fields& number(std::string_view name, T value) {
    std::string v;
    put(v, value);
    return field(name, v);
  }
  Fields& time(std::string_view name, std::int64_t ns) {
    std::string v;
    put(v, static_cast<std::uint32_t>(ns / 1'000'000'000));
    put(v, static_cast<std::uint32_t>(ns % 1'000'000'000));
    return field(name, v);
  }
};

void putRecord(std::string& out, const Fields& header, std::string_view data) {
  putString(out, header.bytes);
  putString(out, data);
}

struct Conn {
  std::uint32_t id = 0;
  std::string record;  // the connection record
  bool inBag = false;  // its record is in an earlier chunk
};

struct ChunkMeta {
  std::int64_t start = 0, end = 0;
  std::map<std::uint32_t, std::string> index;  // connection -> index entries (time, offset)
  std::map<std::uint32_t, std::uint32_t> counts;
};

struct ChunkInfo {
  std::uint64_t position = 0;
  ChunkMeta meta;
};

class Ros1Writer final : public RecordingWriter {
public:
  Ros1Writer(OutputFile file, compress::Codec codec, std::uint64_t chunkBytes)
      : file_(std::move(file)),
        codec_(codec),
        chunkBytes_(chunkBytes),
        chunks_(codec, false, [this](auto& c) { return writeChunk(c); }) {
    started_ = file_.write(std::string(kMagic) + bagHeaderRecord(0, 0, 0));
  }

  Result<ChannelId> addConnection(const storage::Connection& c) override {
    if (!started_) return started_.error();
    if (c.messageEncoding != "ros1")
      return makeError(ErrorCode::Unsupported,
                       "'" + c.topic + "' holds " + encodingName(c) +
                           " messages, which a ROS 1 bag cannot hold (convert to MCAP or rosbag2)");
    std::string key = connectionKey(c);
    if (auto it = byKey_.find(key); it != byKey_.end()) return it->second;
    Conn conn;
    conn.id = static_cast<std::uint32_t>(conns_.size());
    Fields data;
    data.field("topic", c.topic).field("type", rosType(c.type)).field("md5sum", c.md5sum.empty() ? "*" : c.md5sum);
    data.field("message_definition", c.definition);
    if (!c.callerid.empty()) data.field("callerid", c.callerid);
    if (c.latching) data.field("latching", "1");
    Fields header;
    header.number("op", kConnection).field("topic", c.topic).number("conn", conn.id);
    putRecord(conn.record, header, data.bytes);
    conns_.push_back(std::move(conn));
    byKey_.emplace(std::move(key), conns_.back().id);
    return conns_.back().id;
  }

  Result<void> write(ChannelId channel, std::int64_t logTimeNs, std::span<const std::byte> bytes) override {
    if (logTimeNs < 0 || logTimeNs / 1'000'000'000 > 0xFFFFFFFFll)
      return makeError(ErrorCode::Unsupported,
                       "log time " + std::to_string(logTimeNs) + " ns is outside what a ROS 1 bag holds (0 to 2^32 s)");
    Conn& conn = conns_.at(channel);
    if (chunk_.empty()) {
      meta_ = {};
      meta_.start = meta_.end = logTimeNs;
      chunk_.reserve(chunkBytes_ + (1 << 16));
    }
    if (!conn.inBag) {  // readers that stream the bag meet a connection before its messages
      chunk_ += conn.record;
      conn.inBag = true;
    }
    meta_.start = std::min(meta_.start, logTimeNs);
    meta_.end = std::max(meta_.end, logTimeNs);
    std::string& index = meta_.index[conn.id];
    put(index, static_cast<std::uint32_t>(logTimeNs / 1'000'000'000));
    put(index, static_cast<std::uint32_t>(logTimeNs % 1'000'000'000));
    put(index, static_cast<std::uint32_t>(chunk_.size()));
    ++meta_.counts[conn.id];
    Fields header;
    header.number("op", kMessageData).number("conn", conn.id).time("time", logTimeNs);
    putRecord(chunk_, header, {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
    if (chunk_.size() >= chunkBytes_) return flushChunk();
    return {};
  }

  Result<void> finish() override {
    if (auto r = flushChunk(); !r) return r;
    if (auto r = chunks_.drain(); !r) return r;
    std::uint64_t indexPos = file_.position();
    std::string tail;
    for (const auto& c : conns_) tail += c.record;
    for (const auto& info : infos_) {
      Fields header;
      header.number("op", kChunkInfo).number("ver", std::uint32_t{1}).number("chunk_pos", info.position);
      header.time("start_time", info.meta.start).time("end_time", info.meta.end);
      header.number("count", static_cast<std::uint32_t>(info.meta.counts.size()));
      std::string data;
      for (auto [conn, count] : info.meta.counts) {
        put(data, conn);
        put(data, count);
      }
      putRecord(tail, header, data);
    }
    if (auto r = file_.write(tail); !r) return r;
    auto head =
        bagHeaderRecord(indexPos, static_cast<std::uint32_t>(conns_.size()), static_cast<std::uint32_t>(infos_.size()));
    if (auto r = file_.patch(kMagic.size(), bytesOf(head)); !r) return r;
    return file_.close();
  }

  std::uint64_t bytesWritten() const override { return file_.position() + chunk_.size(); }

private:
  static std::string encodingName(const storage::Connection& c) {
    return c.messageEncoding.empty() ? "unencoded" : c.messageEncoding;
  }
  // ROS 1 spells types "pkg/Type"; a ros1-encoded message typed "pkg/msg/Type" (an MCAP written
  // by another tool) is written the ROS 1 way.
  static std::string rosType(const std::string& type) {
    auto at = type.find("/msg/");
    return at == std::string::npos ? type : type.substr(0, at) + type.substr(at + 4);
  }

  // The bag header record, its data spaces up to 4096 bytes in all (as rosbag pads it).
  static std::string bagHeaderRecord(std::uint64_t indexPos, std::uint32_t conns, std::uint32_t chunks) {
    Fields h;
    h.number("op", kBagHeader).number("index_pos", indexPos).number("conn_count", conns).number("chunk_count", chunks);
    std::string r;
    putRecord(r, h, std::string(kBagHeaderRecordSize - 8 - h.bytes.size(), ' '));
    return r;
  }

  Result<void> flushChunk() { return chunks_.flush(meta_, chunk_); }

  Result<void> writeChunk(ChunkPipeline<ChunkMeta>::Chunk& c) {
    bool packed = codec_ != compress::Codec::None;
    std::span<const std::byte> data = packed ? c.packed.span() : bytesOf(c.raw);
    if (c.raw.size() > 0xFFFFFFFFu || data.size() > 0xFFFFFFFFu)
      return makeError(ErrorCode::Unsupported, "a chunk of over 4 GB: one message is larger than a ROS 1 bag holds");
    Fields header;
    header.number("op", kChunk).field("compression", packed ? compress::codecName(codec_) : "none");
    header.number("size", static_cast<std::uint32_t>(c.raw.size()));
    std::string head;
    putString(head, header.bytes);
    put(head, static_cast<std::uint32_t>(data.size()));
    ChunkInfo info{file_.position(), {}};
    if (auto r = file_.write(head); !r) return r;
    if (auto r = file_.write(data); !r) return r;
    std::string indexes;
    for (const auto& [conn, entries] : c.meta.index) {
      Fields h;
      h.number("op", kIndexData).number("ver", std::uint32_t{1}).number("conn", conn);
      h.number("count", static_cast<std::uint32_t>(entries.size() / 12));
      putRecord(indexes, h, entries);
    }
    if (auto r = file_.write(indexes); !r) return r;
    c.meta.index.clear();
    info.meta = std::move(c.meta);
    infos_.push_back(std::move(info));
    return {};
  }

  OutputFile file_;
  compress::Codec codec_;
  std::uint64_t chunkBytes_;
  ChunkPipeline<ChunkMeta> chunks_;
  Result<void> started_;
  std::map<std::string, ChannelId> byKey_;
  std::vector<Conn> conns_;
  std::string chunk_;
  ChunkMeta meta_;
  std::vector<ChunkInfo> infos_;
};

}  // namespace

std::unique_ptr<RecordingWriter> makeRos1Writer(OutputFile file, compress::Codec codec, std::uint64_t chunkBytes) {
  return std::make_unique<Ros1Writer>(std::move(file), codec, chunkBytes);
}

}  // namespace bagscope::write::detail
