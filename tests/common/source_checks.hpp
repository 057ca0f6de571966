#pragma once
// What every storage reader's tests share: opening, reading and decoding every message, the
// reference's expectations, and the checks every reader must pass (the contract: run over
// every reader by tst_reader_contract, and by the per-format suites on their own inputs).

#include <QDir>
#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "common/test_support.hpp"
#include "core/decode/decoder.hpp"
#include "core/storage/source.hpp"

namespace bagscope::test {

/// A message as read and decoded with its connection's own definition.
struct DecodedMessage {
  std::string topic, type;
  std::int64_t logTimeNs;
  std::string json;  ///< as bagscope-cli cat prints it
  QJsonObject msg;   ///< the same, parsed
};

/// Opens `path` (absolute, or relative to tests/data); the test ends when it cannot.
inline std::unique_ptr<storage::Source> openOrFail(const QString& path) {
  QString full = QDir::isAbsolutePath(path) ? path : dataPath(path);
  auto s = storage::openSource(full.toStdString());
  if (!s) qFatal("open %s: %s", qPrintable(path), s.error().describe().c_str());
  return std::move(s).value();
}

/// The reference reader's messages in `file` (relative to tests/data), read once.
inline const std::vector<QJsonObject>& expectedMessages(const QString& file) {
  static std::map<QString, std::vector<QJsonObject>> read;
  auto it = read.find(file);
  if (it == read.end()) {
    QString err;
    auto lines = readJsonLines(dataPath(file), &err);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    it = read.emplace(file, std::move(lines)).first;
  }
  return it->second;
}

/// Reads and decodes every message passing `filter`; problems are appended to `problems`.
/// A message that cannot be decoded ends the test.
inline std::vector<DecodedMessage> readAll(storage::Source& source, const storage::ReadFilter& filter = {},
                                           std::vector<std::string>* problems = nullptr) {
  std::map<const storage::Connection*, std::shared_ptr<const decode::Decoder>> decoders;
  std::vector<DecodedMessage> out;
  auto r = source.readMessages(
      filter,
      [&](const storage::MessageView& m) {
        const storage::Connection& c = *m.connection;
        auto& d = decoders[&c];
        if (!d) {
          auto compiled = decode::compileFor(c.type, c.messageEncoding, c.schemaEncoding, c.definition);
          if (!compiled) qFatal("decoder for %s: %s", c.topic.c_str(), compiled.error().message.c_str());
          d = *compiled;
        }
        auto v = d->decode(m.bytes);
        if (!v) qFatal("decode %s: %s", c.topic.c_str(), v.error().message.c_str());
        DecodedMessage x{c.topic, c.type, m.logTimeNs, {}, {}};
        decode::appendJson(*v, x.json);
        x.msg = parseObject(x.json);
        out.push_back(std::move(x));
        return true;
      },
      [&](const Error& e) {
        if (problems) problems->push_back(e.describe());
      });
  if (!r) qFatal("readMessages: %s", r.error().describe().c_str());
  return out;
}

/// Our first `count` messages against the reference's, line by line, as JSON values: the
/// first difference, or empty.
inline QString compareWithExpected(const std::vector<DecodedMessage>& ours, const std::vector<QJsonObject>& expected,
                                   std::size_t count) {
  if (ours.size() < count || expected.size() < count) return "too few messages";
  for (std::size_t i = 0; i < count; ++i) {
    QJsonObject o{{"topic", QString::fromStdString(ours[i].topic)},
                  {"type", QString::fromStdString(ours[i].type)},
                  {"log_time_ns", static_cast<qint64>(ours[i].logTimeNs)},
                  {"msg", ours[i].msg}};
    QString d = jsonDifference(o, expected[i]);
    if (!d.isEmpty()) return QStringLiteral("message %1: %2").arg(i).arg(d);
  }
  return {};
}

/// Per topic: message count, first and last log time.
using TopicSpans = std::map<std::string, std::tuple<std::uint64_t, std::int64_t, std::int64_t>>;

/// What the reference's messages say of each topic.
inline TopicSpans expectedTopicSpans(const std::vector<QJsonObject>& expected) {
  TopicSpans out;
  for (const auto& e : expected) {
    auto t = static_cast<std::int64_t>(e["log_time_ns"].toInteger());
    auto [it, added] = out.try_emplace(e["topic"].toString().toStdString(), 0, t, t);
    auto& [n, first, last] = it->second;
    ++n;
    first = std::min(first, t);
    last = std::max(last, t);
  }
  return out;
}

/// What Source::connectionSpans() says of each topic; an empty map when it fails.
inline TopicSpans topicSpans(storage::Source& source) {
  auto spans = source.connectionSpans();
  if (!spans || spans->size() != source.connections().size()) return {};
  TopicSpans out;
  for (std::size_t i = 0; i < spans->size(); ++i) {
    const auto& s = (*spans)[i];
    if (s.count == 0) continue;
    auto [it, added] = out.try_emplace(source.connections()[i].topic, 0, s.firstNs, s.lastNs);
    auto& [n, first, last] = it->second;
    n += s.count;
    first = std::min(first, s.firstNs);
    last = std::max(last, s.lastNs);
  }
  return out;
}

/// What a source just opened over `counter` says per topic (topicSpans()), with the bytes that
/// read, and the bytes messageIndex() reads after it.
struct SpansThenIndex {
  TopicSpans spans;
  std::uint64_t spansBytes = 0, indexBytes = 0;
};
inline SpansThenIndex spansThenIndex(storage::Source& source, const CountingSource& counter) {
  SpansThenIndex out;
  auto before = counter.bytesRead.load();
  out.spans = topicSpans(source);
  out.spansBytes = counter.bytesRead.load() - before;
  (void)source.messageIndex();
  out.indexBytes = counter.bytesRead.load() - before - out.spansBytes;
  return out;
}

/// The message index agrees with iteration: per connection as many entries as its
/// messageCount, in log-time order, and read() of each entry returns the same connection,
/// log time and bytes as iteration did. Returns the first disagreement (empty when none);
/// `total` gets the number of entries checked.
inline QString indexMatchesIteration(storage::Source& source, std::size_t& total) {
  using storage::Connection;
  std::map<std::pair<const Connection*, std::int64_t>, std::vector<std::byte>> iterated;
  auto r = source.readMessages({},
                               [&](const storage::MessageView& m) {
                                 iterated[{m.connection, m.logTimeNs}].assign(m.bytes.begin(), m.bytes.end());
                                 return true;
                               },
                               {});
  if (!r) return QString::fromStdString("iteration: " + r.error().describe());
  auto index = source.messageIndex();
  if (!index) return QString::fromStdString("index: " + index.error().describe());
  auto conns = source.connections();
  total = 0;
  for (std::size_t c = 0; c < conns.size(); ++c) {
    const auto& entries = (**index)[c];
    QString where = QString::fromStdString(conns[c].topic);
    if (entries.size() != conns[c].messageCount)
      return QStringLiteral("%1: %2 index entries, %3 messages")
          .arg(where)
          .arg(entries.size())
          .arg(conns[c].messageCount);
    for (std::size_t k = 0; k < entries.size(); ++k) {
      if (k && entries[k - 1].logTimeNs > entries[k].logTimeNs) return where + ": index not in log-time order";
      auto view = source.read(entries[k]);
      if (!view) return where + ": " + QString::fromStdString(view.error().describe());
      if (view->connection != &conns[c] || view->logTimeNs != entries[k].logTimeNs)
        return QStringLiteral("%1: entry %2 reads another message").arg(where).arg(k);
      auto it = iterated.find({&conns[c], entries[k].logTimeNs});
      if (it == iterated.end() ||
          !std::equal(it->second.begin(), it->second.end(), view->bytes.begin(), view->bytes.end()))
        return QStringLiteral("%1: entry %2 reads other bytes than iteration").arg(where).arg(k);
      ++total;
    }
  }
  if (total != iterated.size())
    return QStringLiteral("%1 index entries, %2 messages iterated").arg(total).arg(iterated.size());
  return {};
}

/// Random damage to `intact` (byte flips, and every third round a cut), opened with `open`:
/// whatever opens may give fewer messages than the intact file, never more, and each one it
/// gives must be one of the intact file's, byte for byte, at the same log time. `opened` gets
/// the rounds that opened (and read something), `recovered` the messages they gave. Returns
/// the first violation (empty when none).
template <typename Open>
QString randomDamageGivesOnlyIntactMessages(const std::vector<std::byte>& intact, Open open, unsigned seed, int rounds,
                                            int& opened, std::size_t& recovered) {
  using Key = std::pair<std::int64_t, std::vector<std::byte>>;
  std::map<Key, int> whole;  // (log time, bytes) -> how many
  std::size_t wholeCount = 0;
  {
    auto source = open(std::vector<std::byte>(intact));
    if (!source) return QStringLiteral("the intact file does not open");
    (void)(*source)->readMessages({},
                                  [&](const storage::MessageView& m) {
                                    ++whole[{m.logTimeNs, {m.bytes.begin(), m.bytes.end()}}];
                                    ++wholeCount;
                                    return true;
                                  },
                                  {});
  }
  std::mt19937 rng(seed);
  opened = 0;
  recovered = 0;
  for (int round = 0; round < rounds; ++round) {
    auto bytes = intact;
    int flips = 1 + static_cast<int>(rng() % 16);
    for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = static_cast<std::byte>(rng());
    if (round % 3 == 0) bytes.resize(rng() % bytes.size());
    auto source = open(std::move(bytes));
    if (!source) continue;
    auto left = whole;
    std::size_t n = 0;
    QString bad;
    (void)(*source)->readMessages(
        {},
        [&](const storage::MessageView& m) {
          ++n;
          auto it = left.find({m.logTimeNs, {m.bytes.begin(), m.bytes.end()}});
          if (it == left.end() || it->second == 0) {
            if (bad.isEmpty())
              bad = QStringLiteral("round %1: a message at %2 ns (%3 bytes) that the intact file does not have")
                        .arg(round)
                        .arg(m.logTimeNs)
                        .arg(m.bytes.size());
            return true;
          }
          --it->second;
          return true;
        },
        {});
    if (!bad.isEmpty()) return bad;
    if (n > wholeCount)
      return QStringLiteral("round %1: %2 messages from a file of %3").arg(round).arg(n).arg(wholeCount);
    if (auto index = (*source)->messageIndex()) {
      std::size_t entries = 0;
      for (const auto& c : **index) entries += c.size();
      if (entries > wholeCount)
        return QStringLiteral("round %1: %2 index entries for %3 messages").arg(round).arg(entries).arg(wholeCount);
    }
    (void)(*source)->chunkStats();
    opened += n > 0;
    recovered += n;
  }
  return {};
}

}  // namespace bagscope::test
