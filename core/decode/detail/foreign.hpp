#pragma once
// Decoders for MCAP's non-ROS encodings: each builds a MessageSchema from its own schema
// language, so that Values, field paths and everything above them work the same.

#include <memory>
#include <string_view>

#include "core/decode/decoder.hpp"

namespace bagscope::decode::detail {

/// JSON messages typed by a JSON Schema (draft 2020-12 as the Foxglove SDK writes it).
Result<std::shared_ptr<const Decoder>> compileJson(std::string_view type, std::string_view jsonSchema);

/// Protobuf messages: `descriptorSet` is a serialized google.protobuf.FileDescriptorSet,
/// `type` the full name of the message ("foxglove.CompressedImage").
Result<std::shared_ptr<const Decoder>> compileProtobuf(std::string_view type, std::string_view descriptorSet);

/// Upper bound on nesting in decoded values (hostile input cannot exhaust the stack).
constexpr int kMaxForeignDepth = 64;

}  // namespace bagscope::decode::detail
