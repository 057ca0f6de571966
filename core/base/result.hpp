#pragma once
// Result<T> and Error: how the core reports failure. The core throws nothing for bad input;
// every fallible call returns a Result, and its Error names the file, the offset and, for
// decoding, the topic and log time.

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <variant>

namespace bagscope {

enum class ErrorCode : std::uint8_t {
  Io,                 ///< the operating system refused a read (missing file, permission, EIO)
  Write,              ///< an output could not be written (disk full, permission, exists already)
  Format,             ///< bytes that do not follow the format's rules
  Truncated,          ///< the data ends before a record or field it announces
  Unsupported,        ///< a valid feature Bagscope does not read (yet)
  Decode,             ///< a message whose bytes do not match its definition
  Schema,             ///< a message definition that cannot be parsed or resolved
  MissingDefinition,  ///< a type neither the file nor the known interfaces define (the user can add it)
  InvalidArgument,    ///< the caller asked for something impossible (unknown topic, bad path)
  Cancelled,          ///< the job was stopped on request
  Internal,           ///< an exception inside Bagscope or a library it calls (OpenCV), caught
};

/// What the user can do about an error. The core names it; each front end words it for its
/// own controls (the CLI a flag, the app a button), so no core text names a flag.
enum class Remedy : std::uint8_t {
  None,
  Replace,  ///< the output exists: asking to replace it would write it
};

/// One failure, with where it happened. Unknown places stay empty / negative.
struct Error {
  ErrorCode code = ErrorCode::Format;
  std::string message;       ///< lowercase, exact numbers, e.g. "chunk at offset 4117 has ..."
  std::string file;          ///< the input file, as the user named it
  std::int64_t offset = -1;  ///< byte offset in the file, when known
  std::string topic;         ///< for decode errors
  std::int64_t logTimeNs = -1;
  Remedy remedy = Remedy::None;

  /// "'file': topic @ time: message (offset N)" with the parts that are known.
  std::string describe() const;
};

/// A value or an Error; the subset of std::expected that Bagscope uses.
template <typename T>
class [[nodiscard]] Result {
public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const& { return std::get<1>(v_); }
  Error&& error() && { return std::get<1>(std::move(v_)); }

private:
  std::variant<T, Error> v_;
};

// Success holds no Error: building and destroying one (three strings) on every successful
// return was a fifth of reading a field of a message.
template <>
class [[nodiscard]] Result<void> {
public:
  // Not `= default`: `return {};` would then zero the whole Error's storage (136 bytes, a
  // `rep stos` in every successful call) before setting the one flag that matters.
  Result() noexcept {}                               // NOLINT(modernize-use-equals-default)
  Result(Error error) : error_(std::move(error)) {}  // NOLINT

  bool has_value() const noexcept { return !error_; }
  explicit operator bool() const noexcept { return !error_; }
  /// On success, an empty Error.
  const Error& error() const& { return error_ ? *error_ : none(); }
  Error&& error() && {
    if (!error_) error_.emplace();
    return std::move(*error_);
  }

private:
  static const Error& none() {
    static const Error empty;
    return empty;
  }
  std::optional<Error> error_;
};

/// Returns from the calling function with the error of `result` (a Result, or a call giving
/// one) when it failed: `BAGSCOPE_TRY(file.write(bytes));`, `BAGSCOPE_TRY(header);`.
#define BAGSCOPE_TRY(result)                                                  \
  do {                                                                        \
    auto&& bagscope_try_ = (result);                                          \
    if (!bagscope_try_) return std::move(bagscope_try_).error(); /* NOLINT */ \
  } while (false)

/// Builds an Error; `offset` and `file` may be filled in later by the caller that knows them.
inline Error makeError(ErrorCode code, std::string message, std::int64_t offset = -1) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.offset = offset;
  return e;
}

/// An Error about a whole file (no offset), or about nothing in particular (`file` empty).
inline Error fileError(ErrorCode code, std::string message, std::string file = {}) {
  Error e = makeError(code, std::move(message));
  e.file = std::move(file);
  return e;
}

/// The system's reason for `code` in the words POSIX gives it ("No such file or directory"),
/// on Windows too (whose own words for GetLastError codes differ): messages read the same
/// everywhere. Codes with no POSIX equivalent keep the system's own text.
std::string systemErrorText(std::error_code code);
/// The same for an errno value.
inline std::string systemErrorText(int errnoValue) { return systemErrorText({errnoValue, std::generic_category()}); }

/// The error for an exception that reached a boundary (a job, a pool task): its text, as
/// an error the caller reports like any other.
Error unexpectedError(std::exception_ptr exception);

/// Calls `fn`, which returns a Result; an exception it throws becomes that Result's error.
template <typename Fn>
auto runCatching(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (...) {
    return unexpectedError(std::current_exception());
  }
}

}  // namespace bagscope
