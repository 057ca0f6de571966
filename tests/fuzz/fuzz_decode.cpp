// libFuzzer target: a message definition and message bytes through the definition parsers
// (.msg, ROS 2 IDL, JSON Schema, protobuf descriptor sets), the decoders, JSON output, the
// FieldReader, and for ROS 1 and ROS 2 messages the translation to the other dialect (byte to
// byte and through values). Input: uint16 definition length (its top bit picks CDR and the ROS 2 dialect),
// definition, then the message bytes. Inputs starting ff ff carry a format byte instead
// (2 cdr/ros2idl, 3 json/jsonschema, 4 protobuf), then the uint16 length.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/decode/decoder.hpp"
#include "core/write/detail/translate.hpp"

using namespace bagscope;

namespace {

// Every numeric leaf of the root (element 1 of arrays), and one level into messages.
std::vector<std::string> numericPaths(const schema::MessageType& root) {
  std::vector<std::string> paths;
  for (const auto& f : root.fields) {
    std::string name = f.array == schema::ArrayKind::None ? f.name : f.name + "[1]";
    if (f.type == schema::Primitive::String) continue;
    if (f.type == schema::Primitive::Message) {
      for (const auto& g : f.message->fields)
        if (g.type != schema::Primitive::Message && g.type != schema::Primitive::String &&
            g.array == schema::ArrayKind::None)
          paths.push_back(name + "." + g.name);
      continue;
    }
    paths.push_back(name);
  }
  return paths;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const char* encodings[][2] = {
      {"ros1", "ros1msg"}, {"cdr", "ros2msg"}, {"cdr", "ros2idl"}, {"json", "jsonschema"}, {"protobuf", "protobuf"}};
  int mode = (data[1] & 0x80) ? 1 : 0;
  std::size_t defLen = data[0] | (std::size_t{data[1] & 0x7Fu} << 8);
  std::size_t at = 2;
  if (data[0] == 0xFF && data[1] == 0xFF) {
    if (size < 5 || data[2] < 2 || data[2] > 4) return 0;
    mode = data[2];
    defLen = data[3] | (std::size_t{data[4]} << 8);
    at = 5;
  }
  if (defLen > size - at) return 0;
  std::string_view definition(reinterpret_cast<const char*>(data + at), defLen);
  std::span<const std::byte> message(reinterpret_cast<const std::byte*>(data + at + defLen), size - at - defLen);
  // JSON and protobuf schemas name their root: the test schemas' names.
  const char* type = mode == 4 ? "bagscope_test.Telemetry" : mode == 2 ? "bagscope_test/msg/Telemetry" : "fuzz/Msg";
  auto d = decode::compileFor(type, encodings[mode][0], encodings[mode][1], definition);
  if (!d) return 0;
  if (auto v = (*d)->decode(message)) {
    std::string json;
    decode::appendJson(*v, json, decode::BytesMode::Base64);
  }
  if (mode <= 1) {
    storage::Connection c;
    c.topic = "/fuzz";
    c.type = type;
    c.messageEncoding = encodings[mode][0];
    c.schemaEncoding = encodings[mode][1];
    c.definition = std::string(definition);
    const auto to = mode == 0 ? schema::Dialect::Ros2 : schema::Dialect::Ros1;
    if (auto t = write::detail::Translation::make(to, c, *d, {}, {})) {
      std::vector<std::byte> out;
      (void)(*t)->translate(message, out);
      (void)(*t)->translateByValues(message, out);
    }
  }
  auto paths = numericPaths(*(*d)->schema().root);
  if (auto reader = decode::FieldReader::compile(*d, paths)) {
    std::vector<double> row(paths.size());
    (void)reader->read(message, row);
  }
  return 0;
}
