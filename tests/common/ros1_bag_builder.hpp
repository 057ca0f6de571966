#pragma once
// A minimal ROS 1 bag 2.0 writer for tests: builds the untidy bags real recorders leave
// (chunks out of time order, junk between records, lying headers) with known contents.
// It writes uncompressed chunks only; compressed ones come from the real fixtures.

#include <map>
#include <string>
#include <vector>

#include "common/wire_writer.hpp"

namespace bagscope::test {

class Ros1BagBuilder {
public:
  struct Message {
    std::uint32_t conn;
    std::int64_t timeNs;
    std::vector<std::byte> data;
  };

  void addConnection(std::uint32_t id, std::string topic, std::string type, std::string md5, std::string definition) {
    conns_[id] = {std::move(topic), std::move(type), std::move(md5), std::move(definition)};
  }
  /// Writes a chunk holding `messages` in the given order, and its index records.
  void addChunk(const std::vector<Message>& messages) {
    WireWriter chunk;
    std::map<std::uint32_t, std::vector<std::pair<std::int64_t, std::uint32_t>>> index;
    std::map<std::uint32_t, bool> seen;
    for (const auto& m : messages) {
      if (!seen[m.conn]) {
        connectionRecord(chunk, m.conn);
        seen[m.conn] = true;
      }
      index[m.conn].push_back({m.timeNs, static_cast<std::uint32_t>(chunk.bytes.size())});
      WireWriter h;
      field(h, "op", WireWriter().u8(2).bytes);
      field(h, "conn", WireWriter().u32(m.conn).bytes);
      field(h, "time", time(m.timeNs));
      record(chunk, h.bytes, m.data);
    }
    ChunkInfo info;
    info.pos = body_.bytes.size() + kHeaderEnd;
    for (const auto& m : messages) {
      info.start = std::min(info.start, m.timeNs);
      info.end = std::max(info.end, m.timeNs);
      ++info.counts[m.conn];
    }
    WireWriter h;
    field(h, "op", WireWriter().u8(5).bytes);
    field(h, "compression", WireWriter().raw("none").bytes);
    field(h, "size", WireWriter().u32(static_cast<std::uint32_t>(chunk.bytes.size())).bytes);
    record(body_, h.bytes, chunk.bytes);
    for (const auto& [conn, entries] : index) {
      WireWriter ih, data;
      field(ih, "op", WireWriter().u8(4).bytes);
      field(ih, "ver", WireWriter().u32(1).bytes);
      field(ih, "conn", WireWriter().u32(conn).bytes);
      field(ih, "count", WireWriter().u32(static_cast<std::uint32_t>(entries.size())).bytes);
      for (auto [t, off] : entries) data.raw(time(t)).u32(off);
      record(body_, ih.bytes, data.bytes);
    }
    chunkInfos_.push_back(info);
  }
  /// Bytes that are not records, between records.
  void addJunk(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) body_.u8(static_cast<std::uint8_t>(0xA5 ^ i));
  }

  struct Options {
    bool writeIndex = true;
    std::int64_t claimedChunks = -1;      // bag header's chunk_count; -1 = the true number
    std::uint64_t extraChunkInfoPos = 0;  // adds a chunk info pointing here (0 = none)
    std::uint64_t indexPosOverride = 0;   // a wrong index position for the header (0 = right one)
    std::uint32_t claimedCount = 0;       // every chunk info's count per connection (0 = the true one)
  };
  std::vector<std::byte> finish(const Options& o) const {
    WireWriter index;
    for (const auto& [id, c] : conns_) connectionRecord(index, id);
    auto infos = chunkInfos_;
    if (o.extraChunkInfoPos) {
      ChunkInfo bogus;
      bogus.pos = o.extraChunkInfoPos;
      bogus.start = bogus.end = 1;
      bogus.counts[conns_.begin()->first] = 1;
      infos.push_back(bogus);
    }
    for (const auto& info : infos) {
      WireWriter h, data;
      field(h, "op", WireWriter().u8(6).bytes);
      field(h, "ver", WireWriter().u32(1).bytes);
      field(h, "chunk_pos", WireWriter().u64(info.pos).bytes);
      field(h, "start_time", time(info.start));
      field(h, "end_time", time(info.end));
      field(h, "count", WireWriter().u32(static_cast<std::uint32_t>(info.counts.size())).bytes);
      for (auto [conn, n] : info.counts) data.u32(conn).u32(o.claimedCount ? o.claimedCount : n);
      record(index, h.bytes, data.bytes);
    }
    std::uint64_t indexPos = o.writeIndex ? kHeaderEnd + body_.bytes.size() : 0;
    if (o.indexPosOverride) indexPos = o.indexPosOverride;
    WireWriter out;
    out.raw("#ROSBAG V2.0\n");
    WireWriter h;
    field(h, "op", WireWriter().u8(3).bytes);
    field(h, "index_pos", WireWriter().u64(indexPos).bytes);
    field(h, "conn_count", WireWriter().u32(o.writeIndex ? static_cast<std::uint32_t>(conns_.size()) : 0).bytes);
    std::uint32_t chunks = o.claimedChunks >= 0 ? static_cast<std::uint32_t>(o.claimedChunks)
                                                : static_cast<std::uint32_t>(o.writeIndex ? infos.size() : 0);
    field(h, "chunk_count", WireWriter().u32(chunks).bytes);
    // The bag header record is padded to 4096 bytes, as rosbag writes it.
    std::vector<std::byte> padding(kHeaderRecordBytes - 8 - h.bytes.size(), std::byte{' '});
    record(out, h.bytes, padding);
    out.raw(body_.bytes);
    if (o.writeIndex) out.raw(index.bytes);
    return out.bytes;
  }

  /// Where the next chunk record will start in the finished file.
  std::uint64_t nextRecordPos() const { return kHeaderEnd + body_.bytes.size(); }

  static std::vector<std::byte> int32Payload(std::int32_t v) { return WireWriter().put(v).bytes; }

private:
  static constexpr std::uint64_t kHeaderRecordBytes = 4096;
  static constexpr std::uint64_t kHeaderEnd = 13 + kHeaderRecordBytes;

  struct Conn {
    std::string topic, type, md5, definition;
  };
  struct ChunkInfo {
    std::uint64_t pos = 0;
    std::int64_t start = INT64_MAX, end = INT64_MIN;
    std::map<std::uint32_t, std::uint32_t> counts;
  };

  static std::vector<std::byte> time(std::int64_t ns) {
    return WireWriter()
        .u32(static_cast<std::uint32_t>(ns / 1000000000))
        .u32(static_cast<std::uint32_t>(ns % 1000000000))
        .bytes;
  }
  static void field(WireWriter& w, std::string_view name, const std::vector<std::byte>& value) {
    w.u32(static_cast<std::uint32_t>(name.size() + 1 + value.size())).raw(name).raw("=").raw(value);
  }
  static void record(WireWriter& w, const std::vector<std::byte>& header, const std::vector<std::byte>& data) {
    w.u32(static_cast<std::uint32_t>(header.size())).raw(header).u32(static_cast<std::uint32_t>(data.size())).raw(data);
  }
  void connectionRecord(WireWriter& w, std::uint32_t id) const {
    const Conn& c = conns_.at(id);
    WireWriter h, data;
    field(h, "op", WireWriter().u8(7).bytes);
    field(h, "conn", WireWriter().u32(id).bytes);
    field(h, "topic", WireWriter().raw(c.topic).bytes);
    field(data, "topic", WireWriter().raw(c.topic).bytes);
    field(data, "type", WireWriter().raw(c.type).bytes);
    field(data, "md5sum", WireWriter().raw(c.md5).bytes);
    field(data, "message_definition", WireWriter().raw(c.definition).bytes);
    field(data, "callerid", WireWriter().raw("/test").bytes);
    record(w, h.bytes, data.bytes);
  }

  std::map<std::uint32_t, Conn> conns_;
  WireWriter body_;  // everything between the bag header record and the index
  std::vector<ChunkInfo> chunkInfos_;
};

}  // namespace bagscope::test
