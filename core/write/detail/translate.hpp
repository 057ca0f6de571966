#pragma once
// Connections and messages of one ROS dialect as the other's, for the copy job's translation
// (translate.cpp): ROS 1 as ROS 2, and back.

#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/decode/decoder.hpp"
#include "core/storage/source.hpp"
#include "core/write/write.hpp"

namespace bagscope::write::detail {

/// A topic name ROS 2 accepts: each token starting with a digit gets a '_' before it, any
/// character other than letters, digits, '_' and '~' becomes '_', no trailing '/'.
std::string ros2TopicName(std::string_view topic);

/// One connection in the other dialect: its connection (type, encoding, a full definition,
/// QoS or latching, ROS 1's md5sum or ROS 2's type hash) and its messages' translation,
/// compiled once.
class Translation {
public:
  /// `from` is a ROS 1 connection when `to` is Ros2, a CDR one when `to` is Ros1.
  static Result<std::unique_ptr<Translation>> make(schema::Dialect to, const storage::Connection& from,
                                                   std::shared_ptr<const decode::Decoder> fromDecoder,
                                                   std::span<const std::filesystem::path> msgPaths,
                                                   const Renames& user);
  /// Whether `from` is of the dialect a translation to `to` starts from.
  static bool translates(schema::Dialect to, const storage::Connection& from);
  const storage::Connection& connection() const { return connection_; }
  /// Fields left zero or dropped, once per type.
  const std::vector<std::string>& notes() const { return notes_; }
  /// One message: its bytes in, the other dialect's bytes out (`out` replaced). ROS 1 to ROS 2
  /// goes byte to byte where the types allow (transcode()), else through values.
  Result<void> translate(std::span<const std::byte> in, std::vector<std::byte>& out);
  /// The same through a decoded value tree: the reference the direct way is tested against,
  /// and what gives a failing message its error.
  Result<void> translateByValues(std::span<const std::byte> in, std::vector<std::byte>& out);
  /// Whether messages go byte to byte (ROS 1 to CDR without a value tree).
  bool direct() const { return direct_ != nullptr; }

  /// A ROS 1 type's fields onto a ROS 2 type's, for the direct way: each target field's source
  /// (or -1: zero) in source order, nested types likewise.
  struct Direct {
    struct Field {
      int source = -1;
      const schema::Field* from = nullptr;
      const schema::Field* to = nullptr;
      const Direct* nested = nullptr;
      /// Scalar numbers of one size from this field on, next to each other in both types:
      /// copied at once (the first aligned, so are the rest).
      std::uint32_t run = 1;
    };
    const schema::MessageType* from = nullptr;
    std::vector<Field> fields;
  };

private:
  Translation() = default;
  static constexpr int kHeaderStamp = -2;  ///< a plan's source: the source header's stamp
  /// A plan's source at or below this: the source field kAsHeaderStamp - n (a `stamp`) as the
  /// target header's stamp.
  static constexpr int kAsHeaderStamp = -3;
  const std::vector<int>& plan(const schema::MessageType& from, const schema::MessageType& to);
  Result<void> message(const decode::Value& from, const schema::MessageType& to, decode::Value& out);
  Result<void> value(const decode::Value& from, const schema::Field& to, decode::Value& out);
  Result<void> element(const decode::Value& from, const schema::Field& to, decode::Value& out);
  const Direct* compileDirect(const schema::MessageType& from, const schema::MessageType& to);

  schema::Dialect to_ = schema::Dialect::Ros2;
  Renames user_;
  storage::Connection connection_;
  std::shared_ptr<const decode::Decoder> source_, target_;
  std::map<std::pair<const schema::MessageType*, const schema::MessageType*>, std::vector<int>> plans_;
  std::vector<std::string> notes_;
  std::map<std::pair<const schema::MessageType*, const schema::MessageType*>, std::unique_ptr<Direct>> directs_;
  const Direct* direct_ = nullptr;
};

}  // namespace bagscope::write::detail
