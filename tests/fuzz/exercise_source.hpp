#pragma once
// What every storage fuzz target does with a source that opened: read everything in order
// and decode it to JSON (one decoder per connection), read up to `maxReads` messages
// through the index, and gather chunk statistics. Results are discarded: the point is
// that none of it crashes, hangs or over-reads.

#include <map>
#include <memory>
#include <string>

#include "core/decode/decoder.hpp"
#include "core/storage/source.hpp"

namespace bagscope::fuzz {

inline void exerciseSource(storage::Source& source, int maxReads) {
  std::map<const storage::Connection*, std::shared_ptr<const decode::Decoder>> decoders;
  std::string json;
  (void)source.readMessages({},
                            [&](const storage::MessageView& m) {
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
                            },
                            {});
  if (auto index = source.messageIndex()) {
    int reads = 0;
    for (const auto& entries : **index)
      for (const auto& e : entries)
        if (reads++ < maxReads) (void)source.read(e);
  }
  (void)source.chunkStats();
}

}  // namespace bagscope::fuzz
