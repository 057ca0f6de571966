#include "result.hpp"

#include <cstdio>

namespace bagscope {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return "io";
    case ErrorCode::Write: return "write";
    case ErrorCode::Format: return "format";
    case ErrorCode::Truncated: return "truncated";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::Decode: return "decode";
    case ErrorCode::Schema: return "schema";
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::Cancelled: return "cancelled";
  }
  return "unknown";
}

std::string Error::describe() const {
  std::string out;
  if (!file.empty()) out += "'" + file + "': ";
  if (!topic.empty()) {
    out += topic;
    if (logTimeNs >= 0) out += " @ " + std::to_string(logTimeNs);
    out += ": ";
  }
  out += message;
  if (offset >= 0) out += " (offset " + std::to_string(offset) + ")";
  return out;
}

}  // namespace bagscope
