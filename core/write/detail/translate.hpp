#pragma once
// ROS 1 connections and messages as ROS 2 ones, for the copy job's translation (translate.cpp).

#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/decode/decoder.hpp"
#include "core/storage/source.hpp"

namespace bagscope::write::detail {

/// A topic name ROS 2 accepts: each token starting with a digit gets a '_' before it, any
/// character other than letters, digits, '_' and '~' becomes '_', no trailing '/'.
std::string ros2TopicName(std::string_view topic);

/// One ROS 1 connection as ROS 2: its connection (type, CDR, a full ROS 2 definition, QoS) and
/// its messages' translation, compiled once.
class Ros2Translation {
public:
  static Result<std::unique_ptr<Ros2Translation>> make(const storage::Connection& ros1,
                                                       std::shared_ptr<const decode::Decoder> ros1Decoder,
                                                       std::span<const std::filesystem::path> msgPaths);
  const storage::Connection& connection() const { return connection_; }
  /// Fields left zero or dropped, once per type.
  const std::vector<std::string>& notes() const { return notes_; }
  /// One message: ROS 1 bytes in, CDR bytes out (`cdr` replaced).
  Result<void> translate(std::span<const std::byte> ros1, std::vector<std::byte>& cdr);

private:
  Ros2Translation() = default;
  static constexpr int kHeaderStamp = -2;  ///< a plan's source: the header's stamp
  const std::vector<int>& plan(const schema::MessageType& from, const schema::MessageType& to);
  Result<void> message(const decode::Value& from, const schema::MessageType& to, decode::Value& out);
  Result<void> value(const decode::Value& from, const schema::Field& to, decode::Value& out);
  Result<void> element(const decode::Value& from, const schema::Field& to, decode::Value& out);

  storage::Connection connection_;
  std::shared_ptr<const decode::Decoder> source_, target_;
  std::map<std::pair<const schema::MessageType*, const schema::MessageType*>, std::vector<int>> plans_;
  std::vector<std::string> notes_;
};

}  // namespace bagscope::write::detail
