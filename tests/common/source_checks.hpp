#pragma once
// Checks every storage reader must pass, shared by the per-format suites.

#include <QString>

#include <algorithm>
#include <map>
#include <vector>

#include "core/storage/source.hpp"

namespace bagscope::test {

/// The message index agrees with iteration: per connection as many entries as its
/// messageCount, in log-time order, and read() of each entry returns the same connection,
/// log time and bytes as iteration did. Returns the first disagreement (empty when none);
/// `total` gets the number of entries checked.
inline QString indexMatchesIteration(storage::Source& source, std::size_t& total) {
  using storage::Connection;
  std::map<std::pair<const Connection*, std::int64_t>, std::vector<std::byte>> iterated;
  auto r = source.readMessages({}, [&](const storage::MessageView& m) {
    iterated[{m.connection, m.logTimeNs}].assign(m.bytes.begin(), m.bytes.end());
    return true;
  }, {});
  if (!r) return QString::fromStdString("iteration: " + r.error().describe());
  auto index = source.messageIndex();
  if (!index) return QString::fromStdString("index: " + index.error().describe());
  auto conns = source.connections();
  total = 0;
  for (std::size_t c = 0; c < conns.size(); ++c) {
    const auto& entries = (**index)[c];
    QString where = QString::fromStdString(conns[c].topic);
    if (entries.size() != conns[c].messageCount)
      return QStringLiteral("%1: %2 index entries, %3 messages").arg(where).arg(entries.size()).arg(conns[c].messageCount);
    for (std::size_t k = 0; k < entries.size(); ++k) {
      if (k && entries[k - 1].logTimeNs > entries[k].logTimeNs) return where + ": index not in log-time order";
      auto view = source.read(entries[k]);
      if (!view) return where + ": " + QString::fromStdString(view.error().describe());
      if (view->connection != &conns[c] || view->logTimeNs != entries[k].logTimeNs)
        return QStringLiteral("%1: entry %2 reads another message").arg(where).arg(k);
      auto it = iterated.find({&conns[c], entries[k].logTimeNs});
      if (it == iterated.end() || !std::equal(it->second.begin(), it->second.end(), view->bytes.begin(), view->bytes.end()))
        return QStringLiteral("%1: entry %2 reads other bytes than iteration").arg(where).arg(k);
      ++total;
    }
  }
  if (total != iterated.size()) return QStringLiteral("%1 index entries, %2 messages iterated").arg(total).arg(iterated.size());
  return {};
}

}  // namespace bagscope::test
