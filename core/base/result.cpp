#include "result.hpp"

#include <cstdio>
#include <new>

namespace bagscope {

namespace {

// Whether `message` says "offset N" already ("chunk at offset 69: …"), so it is not said twice.
bool namesOffset(const std::string& message, std::int64_t offset) {
  const std::string at = "offset " + std::to_string(offset);
  for (auto p = message.find(at); p != std::string::npos; p = message.find(at, p + 1)) {
    auto end = p + at.size();
    if (end == message.size() || message[end] < '0' || message[end] > '9') return true;
  }
  return false;
}

}  // namespace

std::string systemErrorText(std::error_code code) {
  std::error_condition portable = code.default_error_condition();
  return portable.category() == std::generic_category() ? portable.message() : code.message();
}

Error unexpectedError(std::exception_ptr exception) {
  try {
    std::rethrow_exception(exception);
  } catch (const std::bad_alloc&) {
    return makeError(ErrorCode::Internal, "out of memory");
  } catch (const std::exception& e) {
    return makeError(ErrorCode::Internal, std::string("unexpected failure: ") + e.what());
  } catch (...) {
    return makeError(ErrorCode::Internal, "unexpected failure (an exception of unknown type)");
  }
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
  if (offset >= 0 && !namesOffset(message, offset)) out += " (offset " + std::to_string(offset) + ")";
  return out;
}

}  // namespace bagscope
