#include "concat_source.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "chunk_merge.hpp"

namespace bagscope::storage::detail {
namespace {

class ConcatSource final : public Source {
public:
  ConcatSource(std::vector<std::unique_ptr<Source>> parts, SourceInfo info)
      : parts_(std::move(parts)), info_(std::move(info)) {
    std::map<std::pair<std::string, std::string>, std::uint32_t> byKey;
    std::uint32_t chunks = 0;
    bool first = true;
    for (const auto& part : parts_) {
      chunkBase_.push_back(chunks);
      chunks += part->chunkCount();
      auto& map = connMap_.emplace_back();
      for (const auto& c : part->connections()) {
        auto [it, added] =
            byKey.emplace(std::make_pair(c.topic, c.type), static_cast<std::uint32_t>(connections_.size()));
        if (added) {
          connections_.push_back(c);
          connections_.back().id = it->second;
          connections_.back().messageCount = 0;
        }
        connections_[it->second].messageCount += c.messageCount;
        map.push_back(it->second);
      }
      const SourceInfo& pi = part->info();
      info_.sizeBytes += pi.sizeBytes;
      if (pi.messageCount > 0) {
        info_.startNs = first ? pi.startNs : std::min(info_.startNs, pi.startNs);
        info_.endNs = first ? pi.endNs : std::max(info_.endNs, pi.endNs);
        first = false;
      }
      info_.messageCount += pi.messageCount;
      info_.indexed = info_.indexed && pi.indexed;
      std::string name = std::filesystem::u8path(pi.path).filename().string();
      for (const auto& p : pi.problems) info_.problems.push_back(name + ": " + p);
    }
    chunkBase_.push_back(chunks);
  }

  const SourceInfo& info() const override { return info_; }
  std::span<const Connection> connections() const override { return connections_; }
  std::uint32_t chunkCount() const override { return chunkBase_.back(); }

  Result<void> loadChunk(std::uint32_t index, LoadedChunk& out, LoadContext& ctx) const override {
    std::size_t p = partOfChunk(index);
    if (p >= parts_.size())
      return fileError(ErrorCode::InvalidArgument, "no chunk " + std::to_string(index), info_.path);
    auto r = parts_[p]->loadChunk(index - chunkBase_[p], out, ctx);
    for (auto& m : out.messages) m.connIndex = connMap_[p][m.connIndex];
    return r;
  }

  Result<const MessageIndex*> messageIndex() override {
    if (index_) return &*index_;
    MessageIndex index(connections_.size());
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      auto part = parts_[p]->messageIndex();
      BAGSCOPE_TRY(part);
      for (std::size_t c = 0; c < (*part)->size(); ++c)
        for (auto e : (**part)[c]) {
          e.location.chunk += chunkBase_[p];
          index[connMap_[p][c]].push_back(e);
        }
    }
    sortIndex(index);
    index_ = std::move(index);
    return &*index_;
  }

  Result<std::vector<ConnectionSpan>> connectionSpans() override {
    if (index_) return Source::connectionSpans();
    std::vector<ConnectionSpan> spans(connections_.size());
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      auto part = parts_[p]->connectionSpans();
      BAGSCOPE_TRY(part);
      for (std::size_t c = 0; c < part->size(); ++c) spans[connMap_[p][c]].add((*part)[c]);
    }
    return spans;
  }

  Result<MessageView> read(const IndexEntry& entry) override {
    std::size_t p = partOfChunk(entry.location.chunk);
    if (p >= parts_.size())
      return fileError(ErrorCode::InvalidArgument, "no chunk " + std::to_string(entry.location.chunk), info_.path);
    IndexEntry local = entry;
    local.location.chunk -= chunkBase_[p];
    auto v = parts_[p]->read(local);
    if (v) v->connection = outer(p, v->connection);
    return v;
  }

  Result<void> readMessages(const ReadFilter& filter, const MessageFn& onMessage, const ProblemFn& onProblem) override {
    // Split files follow each other in time: read them one after the other. Where they
    // overlap, go through the merged index instead, so the order stays by log time.
    bool ordered = true;
    for (std::size_t p = 1; p < parts_.size(); ++p)
      if (parts_[p]->info().messageCount > 0 && parts_[p - 1]->info().messageCount > 0 &&
          parts_[p]->info().startNs < parts_[p - 1]->info().endNs)
        ordered = false;
    if (!ordered) return readByIndex(filter, onMessage, onProblem);
    bool stopped = false;
    for (std::size_t p = 0; p < parts_.size() && !stopped; ++p) {
      ReadFilter local = filter;
      local.connections.clear();
      if (!filter.connections.empty()) {
        for (std::size_t c = 0; c < connMap_[p].size(); ++c)
          if (std::find(filter.connections.begin(), filter.connections.end(), connMap_[p][c]) !=
              filter.connections.end())
            local.connections.push_back(parts_[p]->connections()[c].id);
        if (local.connections.empty()) continue;
      }
      auto r = parts_[p]->readMessages(
          local,
          [&](const MessageView& m) {
            MessageView v = m;
            v.connection = outer(p, m.connection);
            stopped = !onMessage(v);
            return !stopped;
          },
          onProblem);
      if (!r) return r;
    }
    return {};
  }

  Result<ChunkStats> chunkStats() override {
    ChunkStats total;
    std::map<std::string, std::uint64_t> byCompression;
    for (auto& part : parts_) {
      auto s = part->chunkStats();
      BAGSCOPE_TRY(s);
      total.chunkCount += s->chunkCount;
      total.storedBytes += s->storedBytes;
      total.uncompressedBytes += s->uncompressedBytes;
      for (const auto& [name, n] : s->chunksByCompression) byCompression[name] += n;
    }
    total.chunksByCompression.assign(byCompression.begin(), byCompression.end());
    return total;
  }

private:
  std::size_t partOfChunk(std::uint32_t chunk) const {
    auto it = std::upper_bound(chunkBase_.begin(), chunkBase_.end(), chunk);
    return static_cast<std::size_t>(it - chunkBase_.begin()) - 1;
  }
  const Connection* outer(std::size_t part, const Connection* inner) const {
    auto local = static_cast<std::size_t>(inner - parts_[part]->connections().data());
    return &connections_[connMap_[part][local]];
  }

  Result<void> readByIndex(const ReadFilter& filter, const MessageFn& onMessage, const ProblemFn& onProblem) {
    auto index = messageIndex();
    BAGSCOPE_TRY(index);
    std::vector<std::pair<IndexEntry, std::uint32_t>> all;  // entry, connection: sorted by time, then file
    for (std::uint32_t c = 0; c < (*index)->size(); ++c) {
      if (!filter.connections.empty() &&
          std::find(filter.connections.begin(), filter.connections.end(), c) == filter.connections.end())
        continue;
      for (const auto& e : (**index)[c])
        if (e.logTimeNs >= filter.startNs && e.logTimeNs <= filter.endNs) all.emplace_back(e, c);
    }
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
      if (a.first.logTimeNs != b.first.logTimeNs) return a.first.logTimeNs < b.first.logTimeNs;
      if (a.first.location.chunk != b.first.location.chunk) return a.first.location.chunk < b.first.location.chunk;
      return a.first.location.offset < b.first.location.offset;
    });
    for (const auto& [entry, c] : all) {
      auto v = read(entry);
      if (!v) {
        if (onProblem) onProblem(v.error());
        continue;
      }
      if (!onMessage(*v)) break;
    }
    return {};
  }

  std::vector<std::unique_ptr<Source>> parts_;
  SourceInfo info_;
  std::vector<Connection> connections_;
  std::vector<std::vector<std::uint32_t>> connMap_;  // [part][its connection index] -> ours
  std::vector<std::uint32_t> chunkBase_;             // first chunk number of each part, then the total
  std::optional<MessageIndex> index_;
};

}  // namespace

std::unique_ptr<Source> concatSources(std::vector<std::unique_ptr<Source>> parts, SourceInfo info) {
  return std::make_unique<ConcatSource>(std::move(parts), std::move(info));
}

}  // namespace bagscope::storage::detail
