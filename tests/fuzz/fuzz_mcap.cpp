// libFuzzer target: a whole MCAP file through open (summary or scan), time-ordered reading,
// decoding to JSON, the message index, random reads and chunk statistics.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "core/decode/decoder.hpp"
#include "core/storage/mcap/mcap_source.hpp"

using namespace bagscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto p = reinterpret_cast<const std::byte*>(data);
  auto source = storage::openMcap(memorySource({p, p + size}, "fuzz.mcap"));
  if (!source) return 0;
  std::map<const storage::Connection*, std::shared_ptr<const decode::Decoder>> decoders;
  std::string json;
  (void)(*source)->readMessages({}, [&](const storage::MessageView& m) {
    auto it = decoders.find(m.connection);
    if (it == decoders.end()) {
      const auto& c = *m.connection;
      auto d = decode::compileFor(c.type, c.messageEncoding, c.schemaEncoding, c.definition);
      it = decoders.emplace(m.connection, d ? *d : nullptr).first;
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
