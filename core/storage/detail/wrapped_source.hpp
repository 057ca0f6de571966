#pragma once
// A Source seen through another name: its own SourceInfo (path, format, extra problems)
// over an inner reader, optionally keeping something alive as long as it lives (a
// temporary decompressed copy).

#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "core/storage/source.hpp"

namespace bagscope::storage::detail {

class WrappedSource final : public Source {
public:
  WrappedSource(std::unique_ptr<Source> inner, SourceInfo info, std::shared_ptr<const void> keepAlive = {})
      : inner_(std::move(inner)), info_(std::move(info)), keepAlive_(std::move(keepAlive)) {}
  ~WrappedSource() override {
    inner_.reset();  // close the files before what keeps them (a temporary copy) goes
    keepAlive_.reset();
  }
  WrappedSource(const WrappedSource&) = delete;
  WrappedSource& operator=(const WrappedSource&) = delete;

  const SourceInfo& info() const override { return info_; }
  std::span<const Connection> connections() const override { return inner_->connections(); }
  Result<void> readMessages(const ReadFilter& f, const MessageFn& m, const ProblemFn& p) override {
    return inner_->readMessages(f, m, p);
  }
  Result<const MessageIndex*> messageIndex() override { return inner_->messageIndex(); }
  Result<std::vector<ConnectionSpan>> connectionSpans() override { return inner_->connectionSpans(); }
  Result<MessageView> read(const IndexEntry& e) override { return inner_->read(e); }
  Result<ChunkStats> chunkStats() override { return inner_->chunkStats(); }
  Result<FileExtras> extras() override { return inner_->extras(); }
  std::uint32_t chunkCount() const override { return inner_->chunkCount(); }
  Result<void> loadChunk(std::uint32_t index, LoadedChunk& out, LoadContext& ctx) const override {
    return inner_->loadChunk(index, out, ctx);
  }

private:
  std::unique_ptr<Source> inner_;
  SourceInfo info_;
  std::shared_ptr<const void> keepAlive_;
};

/// A folder under the system's temporary directory, removed with everything in it when
/// the last reference goes.
std::shared_ptr<const std::filesystem::path> makeTempFolder(std::string_view prefix);

/// Decompresses each `.zstd` file of `files` (rosbag2 "file" compression) into `folder`,
/// replacing its entry by the copy's path; other entries stay as they are.
Result<void> decompressWholeFiles(std::vector<std::filesystem::path>& files, const std::filesystem::path& folder);

}  // namespace bagscope::storage::detail
