// libFuzzer target: a whole ROS 1 bag through open, time-ordered reading, decoding to JSON,
// the message index, random reads and chunk statistics.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "core/decode/decoder.hpp"
#include "core/storage/source.hpp"

using namespace bagscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto p = reinterpret_cast<const std::byte*>(data);
  auto source = storage::openSource(memorySource({p, p + size}, "fuzz.bag"));
  if (!source) return 0;
  std::map<const storage::Connection*, std::shared_ptr<const decode::Decoder>> decoders;
  std::string json;
  (void)(*source)->readMessages({}, [&](const storage::MessageView& m) {
    auto it = decoders.find(m.connection);
    if (it == decoders.end()) {
      std::shared_ptr<const decode::Decoder> d;
      if (auto s = schema::parseDefinition(m.connection->type, m.connection->definition, schema::Dialect::Ros1)) {
        if (auto c = decode::Decoder::compile(*s, decode::WireFormat::Ros1)) d = *c;
      }
      it = decoders.emplace(m.connection, d).first;
    }
    if (it->second) {
      if (auto v = it->second->decode(m.bytes)) {
        json.clear();
        decode::appendJson(*v, json);
      }
    }
    return true;
  }, {});
  if (auto index = (*source)->messageIndex()) {
    int reads = 0;
    for (const auto& entries : **index)
      for (const auto& e : entries)
        if (reads++ < 64) (void)(*source)->read(e);
  }
  (void)(*source)->chunkStats();
  return 0;
}
