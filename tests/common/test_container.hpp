#pragma once
// A container that exists only in the tests: what adding one to Bagscope takes — its reader
// (this file) and one registration (registerContainerFormat). Files start "#TESTREC\n", then
// a u32 connection count, each connection's topic, type, message encoding, schema encoding
// and definition (a u32 length and the bytes each), then until the end records of a u32
// connection index, an i64 log time and the message (a u32 length and the bytes).

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/storage/source.hpp"

namespace bagscope::test {

inline constexpr std::string_view kTestRecordingMagic = "#TESTREC\n";

class TestRecordingSource final : public storage::Source {
public:
  static Result<std::unique_ptr<storage::Source>> open(std::unique_ptr<ByteSource> bytes) {
    auto source = std::unique_ptr<TestRecordingSource>(new TestRecordingSource);
    BAGSCOPE_TRY(source->parse(*bytes));
    return std::unique_ptr<storage::Source>(std::move(source));
  }

  const storage::SourceInfo& info() const override { return info_; }
  std::span<const storage::Connection> connections() const override { return connections_; }

  Result<void> readMessages(const storage::ReadFilter& filter, const storage::MessageFn& onMessage,
                            const storage::ProblemFn&) override {
    for (const Message& m : messages_) {
      if (m.logTimeNs < filter.startNs || m.logTimeNs > filter.endNs) continue;
      const storage::Connection& c = connections_[m.connection];
      if (!filter.connections.empty() &&
          std::find(filter.connections.begin(), filter.connections.end(), c.id) == filter.connections.end())
        continue;
      if (!onMessage({&c, m.logTimeNs, std::as_bytes(std::span(m.bytes)), nullptr})) break;
    }
    return {};
  }

  Result<const storage::MessageIndex*> messageIndex() override {
    if (index_.empty()) {
      index_.resize(connections_.size());
      for (std::uint32_t i = 0; i < messages_.size(); ++i)
        index_[messages_[i].connection].push_back({messages_[i].logTimeNs, {0, i}});
    }
    return &index_;
  }

  Result<storage::MessageView> read(const storage::IndexEntry& entry) override {
    if (entry.location.offset >= messages_.size())
      return makeError(ErrorCode::InvalidArgument, "no message " + std::to_string(entry.location.offset));
    const Message& m = messages_[entry.location.offset];
    return storage::MessageView{&connections_[m.connection], m.logTimeNs, std::as_bytes(std::span(m.bytes)), nullptr};
  }

  Result<storage::ChunkStats> chunkStats() override { return storage::ChunkStats{}; }

private:
  struct Message {
    std::int64_t logTimeNs;
    std::uint32_t connection;
    std::string bytes;
  };

  Result<void> parse(ByteSource& bytes) {
    std::string data(static_cast<std::size_t>(bytes.size()), '\0');
    if (auto r = bytes.readAt(0, std::as_writable_bytes(std::span(data))); !r) return r;
    info_.path = bytes.name();
    info_.format = "test recording";
    info_.version = "1";
    info_.sizeBytes = data.size();
    std::size_t at = kTestRecordingMagic.size();
    auto cut = [&](const char* what) {
      Error e = makeError(ErrorCode::Truncated, std::string("the file ends inside ") + what, at);
      e.file = info_.path;
      return e;
    };
    auto take = [&](void* out, std::size_t n) {
      if (data.size() - at < n) return false;
      std::memcpy(out, data.data() + at, n);
      at += n;
      return true;
    };
    auto text = [&](std::string& out) {
      std::uint32_t n = 0;
      if (!take(&n, 4) || data.size() - at < n) return false;
      out.assign(data, at, n);
      at += n;
      return true;
    };
    std::uint32_t count = 0;
    if (!take(&count, 4) || count > data.size()) return cut("the connection count");
    for (std::uint32_t i = 0; i < count; ++i) {
      storage::Connection c;
      c.id = i;
      for (std::string* field : {&c.topic, &c.type, &c.messageEncoding, &c.schemaEncoding, &c.definition})
        if (!text(*field)) return cut("a connection");
      connections_.push_back(std::move(c));
    }
    while (at < data.size()) {
      Message m;
      if (!take(&m.connection, 4) || !take(&m.logTimeNs, 8) || !text(m.bytes)) return cut("a message");
      if (m.connection >= connections_.size()) {
        Error e = makeError(
            ErrorCode::Format,
            "a message of connection " + std::to_string(m.connection) + ", which the file does not define", at);
        e.file = info_.path;
        return e;
      }
      ++connections_[m.connection].messageCount;
      messages_.push_back(std::move(m));
    }
    std::stable_sort(messages_.begin(), messages_.end(),
                     [](const Message& a, const Message& b) { return a.logTimeNs < b.logTimeNs; });
    info_.messageCount = messages_.size();
    if (!messages_.empty()) info_.startNs = messages_.front().logTimeNs, info_.endNs = messages_.back().logTimeNs;
    return {};
  }

  storage::SourceInfo info_;
  std::vector<storage::Connection> connections_;
  std::vector<Message> messages_;
  storage::MessageIndex index_;
};

/// The row that registers it.
inline storage::ContainerFormat testRecordingFormat() {
  return {.id = "testrec",
          .label = "test recording",
          .magic = kTestRecordingMagic,
          .extensions = {".testrec"},
          .openBytes = TestRecordingSource::open};
}

/// Writes every message of `from` to `path` as a test recording.
inline Result<void> writeTestRecording(storage::Source& from, const std::filesystem::path& path) {
  std::string out(kTestRecordingMagic);
  auto put = [&](const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); };
  auto putText = [&](std::string_view s) {
    auto n = static_cast<std::uint32_t>(s.size());
    put(&n, 4);
    put(s.data(), s.size());
  };
  auto connections = from.connections();
  auto count = static_cast<std::uint32_t>(connections.size());
  put(&count, 4);
  for (const auto& c : connections)
    for (const std::string* field : {&c.topic, &c.type, &c.messageEncoding, &c.schemaEncoding, &c.definition})
      putText(*field);
  auto r = from.readMessages(
      {},
      [&](const storage::MessageView& m) {
        auto index = static_cast<std::uint32_t>(
            std::find_if(connections.begin(), connections.end(), [&](auto& c) { return c.id == m.connection->id; }) -
            connections.begin());
        put(&index, 4);
        put(&m.logTimeNs, 8);
        putText({reinterpret_cast<const char*>(m.bytes.data()), m.bytes.size()});
        return true;
      },
      {});
  if (!r) return r;
  std::ofstream(path, std::ios::binary).write(out.data(), static_cast<std::streamsize>(out.size()));
  return {};
}

}  // namespace bagscope::test
