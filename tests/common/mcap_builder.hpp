#pragma once
// A minimal MCAP writer for tests: header, schemas, channels and messages outside chunks,
// then DataEnd, an empty summary and the footer. Real chunked files come from the fixtures.

#include <string>
#include <vector>

#include "common/wire_writer.hpp"

namespace bagscope::test {

class McapBuilder {
public:
  McapBuilder() {
    out_.raw(std::string_view("\x89MCAP0\r\n", 8));
    WireWriter h;
    h.str("ros2").str("bagscope-tests");
    record(0x01, h);
  }
  void schema(std::uint16_t id, std::string_view name, std::string_view encoding, std::string_view data) {
    WireWriter s;
    s.put(id).str(name).str(encoding).str(data);
    record(0x03, s);
  }
  void channel(std::uint16_t id, std::uint16_t schemaId, std::string_view topic, std::string_view encoding) {
    WireWriter c;
    c.put(id).put(schemaId).str(topic).str(encoding).u32(0);
    record(0x04, c);
  }
  void message(std::uint16_t channel, std::uint64_t logTime, const std::vector<std::byte>& data) {
    WireWriter m;
    m.put(channel).u32(0).u64(logTime).u64(logTime).raw(data);
    record(0x05, m);
  }
  /// Appends a record whose length field claims more than follows.
  void lyingRecord(std::uint8_t op, std::uint64_t claimed) { out_.u8(op).u64(claimed).raw("xyz"); }
  std::vector<std::byte> finish(bool close = true) {
    if (close) {
      WireWriter dataEnd;
      dataEnd.u32(0);
      record(0x0F, dataEnd);
      WireWriter footer;
      footer.u64(0).u64(0).u32(0);  // no summary
      record(0x02, footer);
      out_.raw(std::string_view("\x89MCAP0\r\n", 8));
    }
    return out_.bytes;
  }

  /// CDR bytes of a std_msgs/msg/Int32: little-endian header, then the value.
  static std::vector<std::byte> cdrInt32(std::int32_t v) { return WireWriter().u8(0).u8(1).u8(0).u8(0).put(v).bytes; }

private:
  void record(std::uint8_t op, const WireWriter& content) { out_.u8(op).u64(content.bytes.size()).raw(content.bytes); }
  WireWriter out_;
};

}  // namespace bagscope::test
