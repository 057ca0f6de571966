#pragma once
// The compiled form of a message type: one Op per field, with wire sizes worked out once.

#include <cstdint>
#include <vector>

#include "core/schema/schema.hpp"

namespace bagscope::decode::detail {

struct Program;

struct Op {
  const schema::Field* field = nullptr;
  schema::Primitive type = schema::Primitive::Int32;
  schema::ArrayKind array = schema::ArrayKind::None;
  std::uint32_t fixedLength = 0;  ///< element count of a fixed array
  const Program* nested = nullptr;
  bool elementFixed = false;          ///< one element has a fixed wire size...
  std::uint32_t elementBytes = 0;     ///< ...of this many bytes
  std::uint32_t elementMinBytes = 0;  ///< the least one element can take on the wire
  bool fixed = false;                 ///< the whole field has a fixed wire size...
  std::uint64_t fixedBytes = 0;       ///< ...of this many bytes
};

struct Program {
  const schema::MessageType* type = nullptr;
  std::vector<Op> ops;
  bool fixed = true;             ///< every field has a fixed wire size
  std::uint64_t fixedBytes = 0;  ///< total, when fixed
  std::uint64_t minBytes = 0;    ///< the least a message of this type takes
};

/// Upper bound on nesting, so hostile definitions cannot exhaust the stack.
constexpr int kMaxDepth = 64;

}  // namespace bagscope::decode::detail
