#include "chunk_merge.hpp"

#include <algorithm>
#include <memory>

namespace bagscope::storage::detail {

void sortByLogTime(std::vector<ChunkMessage>& messages) {
  auto byTime = [](const ChunkMessage& a, const ChunkMessage& b) { return a.logTimeNs < b.logTimeNs; };
  if (!std::is_sorted(messages.begin(), messages.end(), byTime))  // writers mostly keep order
    std::stable_sort(messages.begin(), messages.end(), byTime);
}

Result<void> mergeChunks(const std::vector<const ChunkSpan*>& chunks,
                         std::span<const Connection> connections, const std::vector<bool>& wanted,
                         const ReadFilter& filter, const ChunkLoader& load,
                         const MessageFn& onMessage, const ProblemFn& onProblem) {
  // Chunks that can hold a wanted message, in order of their first message.
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < chunks.size(); ++i) {
    const ChunkSpan& c = *chunks[i];
    if (c.endNs < filter.startNs || c.startNs > filter.endNs) continue;
    bool any = std::any_of(c.counts.begin(), c.counts.end(),
                           [&](auto& p) { return wanted[p.first] && p.second > 0; });
    if (any) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return chunks[a]->startNs < chunks[b]->startNs;
  });

  struct Open {
    std::unique_ptr<LoadedChunk> chunk;
    std::size_t next = 0;
    std::uint32_t rank = 0;  // position in `order`, for ties
  };
  std::vector<Open> open;
  std::vector<std::unique_ptr<LoadedChunk>> spare;  // recycled buffers: no allocation per chunk
  std::vector<std::size_t> heap;                    // indexes into `open`
  std::vector<std::size_t> freeSlots;
  auto later = [&](std::size_t a, std::size_t b) {
    const auto& ma = open[a].chunk->messages[open[a].next];
    const auto& mb = open[b].chunk->messages[open[b].next];
    if (ma.logTimeNs != mb.logTimeNs) return ma.logTimeNs > mb.logTimeNs;
    return open[a].rank > open[b].rank;
  };
  auto skipUnwanted = [&](Open& o) {
    const auto& msgs = o.chunk->messages;
    while (o.next < msgs.size() && (!wanted[msgs[o.next].connIndex] || msgs[o.next].logTimeNs < filter.startNs ||
                                    msgs[o.next].logTimeNs > filter.endNs))
      ++o.next;
    return o.next < msgs.size();
  };
  auto pendingTime = [&] { return open[heap.front()].chunk->messages[open[heap.front()].next].logTimeNs; };

  std::size_t nextChunk = 0;
  MessageView view;
  while (true) {
    // Open every chunk that may start before the earliest message now pending.
    while (nextChunk < order.size() && (heap.empty() || chunks[order[nextChunk]]->startNs <= pendingTime())) {
      auto chunk = spare.empty() ? std::make_unique<LoadedChunk>() : std::move(spare.back());
      if (!spare.empty()) spare.pop_back();
      chunk->messages.clear();
      if (auto r = load(order[nextChunk], *chunk); !r && onProblem) onProblem(r.error());
      Open o{std::move(chunk), 0, static_cast<std::uint32_t>(nextChunk)};
      ++nextChunk;
      if (!skipUnwanted(o)) {
        spare.push_back(std::move(o.chunk));
        continue;
      }
      std::size_t slot = open.size();
      if (freeSlots.empty()) {
        open.push_back(std::move(o));
      } else {
        slot = freeSlots.back();
        freeSlots.pop_back();
        open[slot] = std::move(o);
      }
      heap.push_back(slot);
      std::push_heap(heap.begin(), heap.end(), later);
    }
    if (heap.empty()) break;
    std::pop_heap(heap.begin(), heap.end(), later);
    std::size_t slot = heap.back();
    Open& o = open[slot];
    const ChunkMessage& m = o.chunk->messages[o.next];
    view.connection = &connections[m.connIndex];
    view.logTimeNs = m.logTimeNs;
    view.bytes = o.chunk->data.span().subspan(m.offset, m.size);
    if (!onMessage(view)) return {};
    ++o.next;
    if (skipUnwanted(o)) {
      std::push_heap(heap.begin(), heap.end(), later);
    } else {
      heap.pop_back();
      spare.push_back(std::move(o.chunk));
      freeSlots.push_back(slot);
    }
  }
  return {};
}

}  // namespace bagscope::storage::detail
