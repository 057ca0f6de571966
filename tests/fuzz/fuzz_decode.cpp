// libFuzzer target: a message definition and message bytes through the .msg parser, the
// decoder (ROS 1 and CDR), JSON output and the FieldReader. Input: uint16 definition
// length (its top bit picks CDR and the ROS 2 dialect), definition, then the message bytes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/decode/decoder.hpp"

using namespace bagscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  bool cdr = (data[1] & 0x80) != 0;
  std::size_t defLen = data[0] | (std::size_t{data[1] & 0x7Fu} << 8);
  if (defLen > size - 2) return 0;
  std::string_view definition(reinterpret_cast<const char*>(data + 2), defLen);
  std::span<const std::byte> message(reinterpret_cast<const std::byte*>(data + 2 + defLen), size - 2 - defLen);
  auto s = schema::parseDefinition("fuzz/Msg", definition, cdr ? schema::Dialect::Ros2 : schema::Dialect::Ros1);
  if (!s) return 0;
  auto d = decode::Decoder::compile(*s, cdr ? decode::WireFormat::Cdr : decode::WireFormat::Ros1);
  if (!d) return 0;
  if (auto v = (*d)->decode(message)) {
    std::string json;
    decode::appendJson(*v, json, decode::BytesMode::Base64);
  }
  // Ask for every numeric leaf of the root (and element 1 of arrays).
  std::vector<std::string> paths;
  for (const auto& f : (*s)->root->fields) {
    if (f.type == schema::Primitive::Message || f.type == schema::Primitive::String) continue;
    paths.push_back(f.array == schema::ArrayKind::None ? f.name : f.name + "[1]");
  }
  if (auto reader = decode::FieldReader::compile(*d, paths)) {
    std::vector<double> row(paths.size());
    (void)reader->read(message, row);
  }
  return 0;
}
