// rosbag2's sqlite3 storage plugin (https://github.com/ros2/rosbag2): the tables
// topics(id, name, type, serialization_format [, offered_qos_profiles][, type_description_hash]),
// messages(id, topic_id, timestamp, data), and since Iron message_definitions(topic_type,
// encoding, encoded_message_definition[, type_description_hash]) and metadata.

#include "sqlite_source.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "core/compress/decompress.hpp"
#include "core/schema/builtin_types.hpp"
#include "core/storage/detail/chunk_merge.hpp"
#include "core/storage/detail/wrapped_source.hpp"

namespace bagscope::storage::rosbag2 {
namespace {

namespace fs = std::filesystem;

std::string immutableUri(const fs::path& p) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  const auto generic = fs::absolute(p).generic_u8string();
  for (auto ch : generic) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri + "?immutable=1";
}

bool hasColumn(SQLite::Database& db, const char* table, const char* column) {
  SQLite::Statement q(db, std::string("PRAGMA table_info(") + table + ")");
  while (q.executeStep())
    if (q.getColumn(1).getString() == column) return true;
  return false;
}

// Since Iron each database also keeps the bag's metadata in a table (one row written at
// open, one at close or split): the last row is the one that counts.
// A table that cannot be read (a damaged page) is said in `problems`: the messages may still be.
std::optional<BagMetadata> metadataFromDatabase(SQLite::Database& db, const fs::path& file,
                                                std::vector<std::string>& problems) {
  try {
    if (!db.tableExists("metadata") || !hasColumn(db, "metadata", "metadata")) return std::nullopt;
    SQLite::Statement q(db, "SELECT metadata FROM metadata ORDER BY id DESC LIMIT 1");
    if (!q.executeStep()) return std::nullopt;
    auto m = parseMetadata(q.getColumn(0).getString(), file);
    if (!m) return std::nullopt;
    return std::move(m).value();
  } catch (const std::exception& e) {
    problems.push_back("the metadata table of '" + u8(file.filename()) + "' cannot be read (" + e.what() +
                       "); it is ignored");
    return std::nullopt;
  }
}

struct DbFile {
  fs::path path;
  std::shared_ptr<const fs::path> walCopy;  // a private copy with its -wal, outliving `db`
  std::unique_ptr<SQLite::Database> db;
  std::map<std::int64_t, std::uint32_t> connByTopicId;
};

// A row of the messages table, as far as it could be listed: its topic id is -1 when only
// the timestamp index could be read.
struct Row {
  std::int64_t timestamp, id, topicId;
};

// The rows of `db` with timestamps in [start, end], in (timestamp, id) order, as far as the
// database can be read: by the table; else (table pages damaged) by the timestamp index, which
// rosbag2 keeps and which holds each row's time; else by ranges of row ids, halved where a range
// cannot be read. What cannot be listed at all is said in `lost`.
std::vector<Row> listRows(SQLite::Database& db, std::int64_t start, std::int64_t end, const fs::path& file,
                          std::vector<std::string>& lost) {
  std::vector<Row> rows;
  auto query = [&](const std::string& sql, std::int64_t a, std::int64_t b) {
    try {
      SQLite::Statement q(db, sql);
      q.bind(1, a);
      q.bind(2, b);
      while (q.executeStep()) rows.push_back({q.getColumn(0).getInt64(), q.getColumn(1).getInt64(), q.getColumn(2)});
      return true;
    } catch (const std::exception&) {
      return false;
    }
  };
  const std::size_t before = rows.size();
  if (query("SELECT timestamp, id, topic_id FROM messages WHERE timestamp BETWEEN ? AND ? ORDER BY timestamp, id",
            start, end))
    return rows;
  rows.resize(before);
  if (query("SELECT timestamp, id, -1 FROM messages INDEXED BY timestamp_idx WHERE timestamp BETWEEN ? AND ? "
            "ORDER BY timestamp, id",
            start, end))
    return rows;
  rows.resize(before);
  std::int64_t lo = 1, hi = std::numeric_limits<std::int64_t>::max();
  try {
    SQLite::Statement q(db, "SELECT MIN(id), MAX(id) FROM messages");
    if (q.executeStep() && !q.getColumn(0).isNull()) {
      lo = q.getColumn(0).getInt64();
      hi = q.getColumn(1).getInt64();
    }
  } catch (const std::exception&) {
    lo = std::numeric_limits<std::int64_t>::min();  // the ends cannot be read either: every id
  }
  // One statement, bound again for each range; a bounded number of ranges, so that a database
  // whose every page fails is not bisected down to each of its ids (a fuzzed file took
  // minutes): what the budget does not reach is said lost, range by range.
  std::optional<SQLite::Statement> byId;
  try {
    byId.emplace(db, "SELECT timestamp, id, topic_id FROM messages WHERE id BETWEEN ? AND ?");
  } catch (const std::exception&) {
    lost.push_back("the messages table of '" + u8(file.filename()) + "' cannot be read");
    return {};
  }
  auto readIds = [&](std::int64_t a, std::int64_t b) {
    std::vector<Row> got;  // kept only when the whole range reads
    try {
      byId->reset();
      byId->bind(1, a);
      byId->bind(2, b);
      while (byId->executeStep())
        got.push_back({byId->getColumn(0).getInt64(), byId->getColumn(1).getInt64(), byId->getColumn(2)});
    } catch (const std::exception&) {
      return false;
    }
    rows.insert(rows.end(), got.begin(), got.end());
    return true;
  };
  constexpr int kMaxRangeReads = 1024;
  int reads = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges{{lo, hi}}, unreadable;
  auto unread = [&](std::int64_t a, std::int64_t b) {
    if (!unreadable.empty() && unreadable.back().second + 1 == a) unreadable.back().second = b;
    else unreadable.emplace_back(a, b);
  };
  while (!ranges.empty()) {
    auto [a, b] = ranges.back();
    ranges.pop_back();
    if (++reads > kMaxRangeReads) {
      unread(a, b);
      continue;
    }
    if (readIds(a, b)) continue;
    if (a == b) {
      unread(a, a);
      continue;
    }
    std::int64_t mid = std::midpoint(a, b);  // no overflow over the whole int64 range
    ranges.emplace_back(mid + 1, b);         // the lower half first, so that ids come in order
    ranges.emplace_back(a, mid);
  }
  for (auto [a, b] : unreadable)
    lost.push_back("the rows with ids " + std::to_string(a) + (a == b ? "" : " to " + std::to_string(b)) + " of '" +
                   u8(file.filename()) + "' lie in damaged pages of the database and cannot be read");
  std::erase_if(rows, [&](const Row& r) { return r.timestamp < start || r.timestamp > end; });
  std::sort(rows.begin(), rows.end(),
            [](const Row& x, const Row& y) { return std::tie(x.timestamp, x.id) < std::tie(y.timestamp, y.id); });
  return rows;
}

// SQLite's quick check of a database up to 256 MiB (it reads every page: 0.85 s for 1 GiB from
// the page cache, measured); in larger ones damage is found where it is read. Said in `problems`.
void checkIntegrity(SQLite::Database& db, const fs::path& file, std::vector<std::string>& problems) {
  constexpr std::uintmax_t kCheckedUpTo = std::uintmax_t{256} << 20;
  std::error_code ec;
  if (fs::file_size(file, ec) > kCheckedUpTo || ec) return;
  std::string found;
  try {
    SQLite::Statement q(db, "PRAGMA quick_check(5)");
    while (q.executeStep()) {
      std::string line = q.getColumn(0).getString();
      if (line != "ok") found += (found.empty() ? "" : "; ") + line;
    }
  } catch (const std::exception& e) {
    found = e.what();
  }
  if (found.empty()) return;
  std::replace(found.begin(), found.end(), '\n', ' ');
  problems.push_back("'" + u8(file.filename()) + "' is damaged (SQLite's check: " + found.substr(0, 300) +
                     "): what can be read is read, and each message that cannot is named where it is met");
}

class SqliteSource final : public Source {
public:
  Result<void> open(const std::vector<fs::path>& files, std::optional<BagMetadata> metadata, const fs::path& shownPath);
  const SourceInfo& info() const override { return info_; }
  std::span<const Connection> connections() const override { return connections_; }
  Result<void> readMessages(const ReadFilter& filter, const MessageFn& onMessage, const ProblemFn& onProblem) override;
  Result<const MessageIndex*> messageIndex() override;
  Result<MessageView> read(const IndexEntry& entry) override;
  Result<ChunkStats> chunkStats() override { return ChunkStats{}; }

private:
  Result<void> openFile(const fs::path& file, std::map<std::string, std::pair<std::string, std::string>>& definitions);
  Result<void> openWithWal(DbFile& f, const fs::path& wal);
  // Per-message compression (zstd frames, with or without metadata.yaml saying so).
  bool unpack(std::span<const std::byte>& bytes, ByteBuffer& buffer, std::string& why);
  // Where a pass has got to: the last row handled, in the pass's order (timestamp, file, id).
  struct Position {
    std::int64_t timestamp = std::numeric_limits<std::int64_t>::min();
    std::size_t file = 0;
    std::int64_t id = std::numeric_limits<std::int64_t>::min();
    bool operator<(const Position& o) const {
      return std::tie(timestamp, file, id) < std::tie(o.timestamp, o.file, o.id);
    }
  };
  // readMessages over a damaged database: rows listed as far as they can be (listRows), each
  // read on its own, an unreadable one reported at its place; rows up to `after` passed over.
  Result<void> readCarefully(const ReadFilter& filter, const std::vector<bool>& wanted, const Position& after,
                             const MessageFn& onMessage, const ProblemFn& onProblem);
  // Every row of file `fi` with its topic id, as far as it can be read (the unreadable said).
  std::vector<Row> rowsWithTopics(std::size_t fi, std::vector<std::string>& lost);

  SourceInfo info_;
  std::vector<DbFile> files_;
  std::vector<Connection> connections_;
  std::map<std::pair<std::string, std::string>, std::uint32_t> connByNameType_;
  std::optional<MessageIndex> index_;
  compress::Decompressor decompressor_;
};

Result<void> SqliteSource::openFile(const fs::path& file,
                                    std::map<std::string, std::pair<std::string, std::string>>& definitions) {
  DbFile f;
  f.path = file;
  try {
    std::error_code ec;
    fs::path wal = file;
    wal += "-wal";
    if (fs::is_regular_file(wal, ec) && fs::file_size(wal, ec) > 0) {
      if (auto r = openWithWal(f, wal); !r) return r;
    } else {
      f.db = std::make_unique<SQLite::Database>(immutableUri(file), SQLite::OPEN_READONLY | SQLite::OPEN_URI);
    }
    if (!f.db->tableExists("topics") || !f.db->tableExists("messages"))
      return fail(ErrorCode::Format, "not a rosbag2 database: no 'topics' and 'messages' tables", file);
    // Old layouts lack serialization_format (before Eloquent) and offered_qos_profiles.
    bool hasFormat = hasColumn(*f.db, "topics", "serialization_format");
    bool hasQos = hasColumn(*f.db, "topics", "offered_qos_profiles");
    bool hasHash = hasColumn(*f.db, "topics", "type_description_hash");
    SQLite::Statement topics(*f.db, std::string("SELECT id, name, type, ") +
                                        (hasFormat ? "serialization_format" : "'cdr'") + ", " +
                                        (hasQos ? "offered_qos_profiles" : "''") + ", " +
                                        (hasHash ? "type_description_hash" : "''") + " FROM topics");
    while (topics.executeStep()) {
      Connection c;
      c.topic = topics.getColumn(1).getString();
      c.type = topics.getColumn(2).getString();
      c.messageEncoding = topics.getColumn(3).getString();
      c.offeredQos = topics.getColumn(4).getString();
      c.typeHash = topics.getColumn(5).getString();
      auto key = std::make_pair(c.topic, c.type);
      auto it = connByNameType_.find(key);
      if (it == connByNameType_.end()) {
        c.id = static_cast<std::uint32_t>(connections_.size());
        it = connByNameType_.emplace(key, c.id).first;
        connections_.push_back(std::move(c));
      }
      f.connByTopicId[topics.getColumn(0).getInt64()] = it->second;
    }
    if (f.db->tableExists("message_definitions")) {
      SQLite::Statement defs(*f.db, "SELECT topic_type, encoding, encoded_message_definition FROM message_definitions");
      while (defs.executeStep())
        definitions.emplace(defs.getColumn(0).getString(),
                            std::make_pair(defs.getColumn(1).getString(), defs.getColumn(2).getString()));
    }
    // Per topic id: count, first and last time; from one aggregate, or where the table is
    // damaged, from the rows that can still be listed.
    std::map<std::int64_t, std::tuple<std::uint64_t, std::int64_t, std::int64_t>> perTopic;
    try {
      SQLite::Statement counts(
          *f.db, "SELECT topic_id, COUNT(*), MIN(timestamp), MAX(timestamp) FROM messages GROUP BY topic_id");
      while (counts.executeStep())
        perTopic[counts.getColumn(0).getInt64()] = {static_cast<std::uint64_t>(counts.getColumn(1).getInt64()),
                                                    counts.getColumn(2).getInt64(), counts.getColumn(3).getInt64()};
    } catch (const std::exception& e) {
      perTopic.clear();
      files_.push_back(std::move(f));  // rowsWithTopics reads a file of files_
      std::vector<std::string> lost;
      for (const Row& r : rowsWithTopics(files_.size() - 1, lost)) {
        auto& [n, lo, hi] = perTopic.try_emplace(r.topicId, 0, r.timestamp, r.timestamp).first->second;
        ++n;
        lo = std::min(lo, r.timestamp);
        hi = std::max(hi, r.timestamp);
      }
      info_.problems.push_back("'" + u8(file.filename()) + "' is damaged (" + e.what() +
                               "): its messages were counted row by row");
      info_.problems.insert(info_.problems.end(), lost.begin(), lost.end());
      f = std::move(files_.back());
      files_.pop_back();
    }
    for (const auto& [topicId, counted] : perTopic) {
      auto [n, lo, hi] = counted;
      auto it = f.connByTopicId.find(topicId);
      if (it == f.connByTopicId.end()) {
        info_.problems.push_back(std::to_string(n) + " messages in '" + u8(file.filename()) + "' belong to topic id " +
                                 std::to_string(topicId) + ", which the topics table does not list; they are skipped");
        continue;
      }
      bool first = info_.messageCount == 0;
      info_.startNs = first ? lo : std::min(info_.startNs, lo);
      info_.endNs = first ? hi : std::max(info_.endNs, hi);
      info_.messageCount += n;
      connections_[it->second].messageCount += n;
    }
    checkIntegrity(*f.db, file, info_.problems);
  } catch (const std::exception& e) {
    return fail(ErrorCode::Format, std::string("cannot read the database: ") + e.what(), file);
  }
  files_.push_back(std::move(f));
  return {};
}

// A database copied while its writer had it open keeps its last rows in the -wal file, which
// an immutable open ignores. Both are copied into a private temporary folder (nothing is
// created beside the user's files) and opened normally there, so SQLite applies the log.
Result<void> SqliteSource::openWithWal(DbFile& f, const fs::path& wal) {
  f.walCopy = detail::makeTempFolder("bagscope-wal");
  if (!f.walCopy) return fail(ErrorCode::Io, "cannot create a temporary folder to read its -wal file in", f.path);
  fs::path copy = *f.walCopy / f.path.filename();
  fs::path walCopy = copy;
  walCopy += "-wal";
  std::error_code ec;
  if (!fs::copy_file(f.path, copy, ec) || !fs::copy_file(wal, walCopy, ec))
    return fail(ErrorCode::Io, "cannot copy it and its -wal file into " + u8(*f.walCopy) + ": " + systemErrorText(ec),
                f.path);
  f.db = std::make_unique<SQLite::Database>(u8(copy), SQLite::OPEN_READWRITE);
  // How many rows only the log held: the database read alone, against the copy.
  SQLite::Database alone(immutableUri(f.path), SQLite::OPEN_READONLY | SQLite::OPEN_URI);
  auto count = [](SQLite::Database& db) {
    return db.tableExists("messages") ? db.execAndGet("SELECT COUNT(*) FROM messages").getInt64() : 0;
  };
  std::int64_t withLog = count(*f.db), without = count(alone);
  info_.problems.push_back("'" + u8(wal.filename()) + "' (the database was not closed by its writer) held " +
                           std::to_string(withLog - without) + " messages that are not in '" + u8(f.path.filename()) +
                           "' itself; they are read, from a private copy");
  return {};
}

Result<void> SqliteSource::open(const std::vector<fs::path>& files, std::optional<BagMetadata> metadata,
                                const fs::path& shownPath) {
  info_.path = u8(shownPath);
  info_.format = "rosbag2 (sqlite3)";
  info_.version = metadata ? std::to_string(metadata->version) : "no metadata.yaml";
  std::map<std::string, std::pair<std::string, std::string>> definitions;
  for (const auto& file : files) {
    std::error_code ec;
    info_.sizeBytes += fs::file_size(file, ec);
    if (auto r = openFile(file, definitions); !r) return r;
  }
  for (auto& c : connections_) {
    c.schemaEncoding = "ros2msg";  // unless the file defines it: to be found in the built-in type store
    for (const auto& name : schema::definitionNames(c.type)) {
      if (auto it = definitions.find(name); it != definitions.end() && !it->second.second.empty()) {
        c.schemaEncoding = it->second.first;
        c.definition = it->second.second;
        break;
      }
    }
  }
  std::string said = "metadata.yaml";
  if (!metadata && !files_.empty()) {
    metadata = metadataFromDatabase(*files_.back().db, files_.back().path, info_.problems);
    said = "the database's metadata table";
    if (metadata) info_.version = std::to_string(metadata->version) + " (from the database)";
  }
  std::error_code ec;
  if (metadata && metadata->files.size() > files.size() && !fs::is_directory(shownPath, ec)) {
    info_.problems.push_back("this is one of " + std::to_string(metadata->files.size()) +
                             " files of a split recording; open its folder to read all of them");
  } else if (metadata) {
    // Trust the database; say where the metadata disagrees with it.
    for (const auto& t : metadata->topics) {
      auto it = connByNameType_.find({t.name, t.type});
      if (it != connByNameType_.end() && connections_[it->second].offeredQos.empty())
        connections_[it->second].offeredQos = t.qos;
      if (it != connByNameType_.end() && connections_[it->second].typeHash.empty())
        connections_[it->second].typeHash = t.typeHash;
      std::uint64_t actual = it == connByNameType_.end() ? 0 : connections_[it->second].messageCount;
      if (actual != t.messageCount)
        info_.problems.push_back(said + " says " + std::to_string(t.messageCount) + " messages on " + t.name +
                                 ", the database holds " + std::to_string(actual));
    }
  }
  return {};
}

bool SqliteSource::unpack(std::span<const std::byte>& bytes, ByteBuffer& buffer, std::string& why) {
  static constexpr std::byte kZstdMagic[4] = {std::byte{0x28}, std::byte{0xB5}, std::byte{0x2F}, std::byte{0xFD}};
  if (bytes.size() < 4 || !std::equal(kZstdMagic, kZstdMagic + 4, bytes.begin())) return true;
  auto size = compress::frameContentSize(compress::Codec::Zstd, bytes);
  if (!size) {
    why = "zstd frame without a content size";
    return false;
  }
  if (auto r = decompressor_.decompress(compress::Codec::Zstd, bytes, static_cast<std::size_t>(*size), buffer); !r) {
    why = r.error().message;
    return false;
  }
  bytes = buffer.span();
  return true;
}

// A message's data column; a blob SQLite could not read (a damaged overflow page) throws.
std::span<const std::byte> blobOf(const SQLite::Column& data) {
  auto* bytes = static_cast<const std::byte*>(data.getBlob());
  auto n = static_cast<std::size_t>(data.getBytes());
  if (!bytes && n > 0) throw std::runtime_error("the message's data cannot be read");
  return {bytes, n};
}

Result<void> SqliteSource::readMessages(const ReadFilter& filter, const MessageFn& onMessage,
                                        const ProblemFn& onProblem) {
  std::vector<bool> wanted(connections_.size(), filter.connections.empty());
  for (auto id : filter.connections)
    if (id < wanted.size()) wanted[id] = true;
  Position done;  // the last row handled: where a careful pass takes over after damage
  try {
    // One cursor per file, merged by (timestamp, file); each is in (timestamp, id) order.
    struct Cursor {
      std::unique_ptr<SQLite::Statement> q;
      std::size_t file;
      bool live = false;
    };
    std::vector<Cursor> cursors;
    for (std::size_t fi = 0; fi < files_.size(); ++fi) {
      const auto& f = files_[fi];
      std::string sql = "SELECT topic_id, timestamp, id, data FROM messages WHERE timestamp >= ? AND timestamp <= ?";
      if (!filter.connections.empty()) {
        std::string ids;
        for (const auto& [topicId, conn] : f.connByTopicId)
          if (wanted[conn]) ids += (ids.empty() ? "" : ",") + std::to_string(topicId);
        if (ids.empty()) continue;
        sql += " AND topic_id IN (" + ids + ")";
      }
      sql += " ORDER BY timestamp, id";
      Cursor c{std::make_unique<SQLite::Statement>(*f.db, sql), fi};
      c.q->bind(1, static_cast<std::int64_t>(filter.startNs));
      c.q->bind(2, static_cast<std::int64_t>(filter.endNs));
      c.live = c.q->executeStep();
      cursors.push_back(std::move(c));
    }
    ByteBuffer unpacked;
    MessageView view;
    while (true) {
      Cursor* next = nullptr;
      for (auto& c : cursors)
        if (c.live && (!next || c.q->getColumn(1).getInt64() < next->q->getColumn(1).getInt64())) next = &c;
      if (!next) break;
      auto& q = *next->q;
      const DbFile& f = files_[next->file];
      auto conn = f.connByTopicId.find(q.getColumn(0).getInt64());
      Position here{q.getColumn(1).getInt64(), next->file, q.getColumn(2).getInt64()};
      if (conn != f.connByTopicId.end()) {
        view.connection = &connections_[conn->second];
        view.logTimeNs = here.timestamp;
        view.bytes = blobOf(q.getColumn(3));
        std::string why;
        if (!unpack(view.bytes, unpacked, why)) {
          if (onProblem) {
            Error e = fail(ErrorCode::Format, "message data: " + why, f.path);
            e.topic = view.connection->topic;
            e.logTimeNs = view.logTimeNs;
            onProblem(e);
          }
        } else if (!onMessage(view)) {
          return {};
        }
      }
      done = here;
      next->live = q.executeStep();
    }
    return {};
  } catch (const std::exception&) {
    // Damage met part way: the rest is read row by row, each unreadable row said where it is.
  }
  return readCarefully(filter, wanted, done, onMessage, onProblem);
}

std::vector<Row> SqliteSource::rowsWithTopics(std::size_t fi, std::vector<std::string>& lost) {
  auto& db = *files_[fi].db;
  auto rows = listRows(db, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                       files_[fi].path, lost);
  std::uint64_t unknown = 0;
  SQLite::Statement topicOf(db, "SELECT topic_id FROM messages WHERE id = ?");
  for (Row& r : rows) {
    if (r.topicId >= 0) continue;
    try {
      (void)topicOf.tryReset();  // a failed row leaves its error here: cleared, not thrown again
      topicOf.bind(1, r.id);
      if (topicOf.executeStep()) r.topicId = topicOf.getColumn(0).getInt64();
    } catch (const std::exception&) {
    }
    unknown += r.topicId < 0;
  }
  if (unknown)
    lost.push_back(std::to_string(unknown) + " messages of '" + u8(files_[fi].path.filename()) +
                   "' lie in damaged pages of the database: their times are known, their topics and data are not");
  std::erase_if(rows, [](const Row& r) { return r.topicId < 0; });
  return rows;
}

Result<void> SqliteSource::readCarefully(const ReadFilter& filter, const std::vector<bool>& wanted,
                                         const Position& after, const MessageFn& onMessage,
                                         const ProblemFn& onProblem) {
  auto report = [&](Error e) {
    if (onProblem) onProblem(e);
  };
  struct Cursor {
    std::vector<Row> rows;
    std::size_t at = 0;
    std::unique_ptr<SQLite::Statement> one;
  };
  std::vector<Cursor> cursors(files_.size());
  try {
    for (std::size_t fi = 0; fi < files_.size(); ++fi) {
      std::vector<std::string> lost;
      auto& c = cursors[fi];
      c.rows = listRows(*files_[fi].db, filter.startNs, filter.endNs, files_[fi].path, lost);
      std::erase_if(c.rows, [&](const Row& r) {
        if (!(after < Position{r.timestamp, fi, r.id})) return true;  // handled before the damage
        if (r.topicId < 0) return false;                              // its topic is read with its data
        auto conn = files_[fi].connByTopicId.find(r.topicId);
        return conn == files_[fi].connByTopicId.end() || !wanted[conn->second];
      });
      c.one = std::make_unique<SQLite::Statement>(*files_[fi].db, "SELECT topic_id, data FROM messages WHERE id = ?");
      for (const auto& l : lost) report(fail(ErrorCode::Format, l, files_[fi].path));
    }
  } catch (const std::exception& e) {
    return fail(ErrorCode::Format, std::string("reading the database: ") + e.what(), info_.path);
  }
  ByteBuffer unpacked;
  MessageView view;
  while (true) {
    Cursor* next = nullptr;
    std::size_t fi = 0;
    for (std::size_t i = 0; i < cursors.size(); ++i)
      if (cursors[i].at < cursors[i].rows.size() &&
          (!next || cursors[i].rows[cursors[i].at].timestamp < next->rows[next->at].timestamp))
        next = &cursors[i], fi = i;
    if (!next) return {};
    const Row row = next->rows[next->at++];
    const DbFile& f = files_[fi];
    auto topicName = [&](std::int64_t topicId) {
      auto conn = f.connByTopicId.find(topicId);
      return conn == f.connByTopicId.end() ? std::string() : connections_[conn->second].topic;
    };
    try {
      auto& q = *next->one;
      (void)q.tryReset();  // a failed row leaves its error here: cleared, not thrown again
      q.bind(1, row.id);
      if (!q.executeStep()) continue;
      auto conn = f.connByTopicId.find(q.getColumn(0).getInt64());
      if (conn == f.connByTopicId.end() || !wanted[conn->second]) continue;
      view.connection = &connections_[conn->second];
      view.logTimeNs = row.timestamp;
      view.bytes = blobOf(q.getColumn(1));
    } catch (const std::exception& e) {
      Error error = fail(ErrorCode::Format,
                         "message " + std::to_string(row.id) + " lies in a damaged page of the database (" + e.what() +
                             "): it cannot be read",
                         f.path);
      error.topic = topicName(row.topicId);
      error.logTimeNs = row.timestamp;
      report(std::move(error));
      continue;
    }
    std::string why;
    if (!unpack(view.bytes, unpacked, why)) {
      Error e = fail(ErrorCode::Format, "message data: " + why, f.path);
      e.topic = view.connection->topic;
      e.logTimeNs = view.logTimeNs;
      report(std::move(e));
    } else if (!onMessage(view)) {
      return {};
    }
  }
}

Result<const MessageIndex*> SqliteSource::messageIndex() {
  if (index_) return &*index_;
  MessageIndex index(connections_.size());
  std::uint64_t unindexable = 0;  // row ids beyond 32 bits do not fit a MessageLocation
  for (std::uint32_t fi = 0; fi < files_.size(); ++fi) {
    std::vector<Row> rows;
    try {
      SQLite::Statement q(*files_[fi].db, "SELECT timestamp, id, topic_id FROM messages ORDER BY timestamp, id");
      while (q.executeStep())
        rows.push_back({q.getColumn(0).getInt64(), q.getColumn(1).getInt64(), q.getColumn(2).getInt64()});
    } catch (const std::exception&) {
      std::vector<std::string> lost;  // damaged: the rows that can still be listed, and what cannot
      rows = rowsWithTopics(fi, lost);
      info_.problems.insert(info_.problems.end(), lost.begin(), lost.end());
    }
    for (const Row& r : rows) {
      auto conn = files_[fi].connByTopicId.find(r.topicId);
      if (conn == files_[fi].connByTopicId.end()) continue;  // reported at open
      if (r.id < 0 || r.id > UINT32_MAX) {
        ++unindexable;
        continue;
      }
      index[conn->second].push_back({r.timestamp, {fi, static_cast<std::uint32_t>(r.id)}});
    }
  }
  detail::sortIndex(index);
  if (unindexable > 0)
    info_.problems.push_back(std::to_string(unindexable) +
                             " messages have row ids beyond 4294967295 and are "
                             "left out of the message index (they are still read in order)");
  index_ = std::move(index);
  return &*index_;
}

Result<MessageView> SqliteSource::read(const IndexEntry& entry) {
  if (entry.location.chunk >= files_.size())
    return fail(ErrorCode::InvalidArgument, "no file " + std::to_string(entry.location.chunk), info_.path);
  const DbFile& f = files_[entry.location.chunk];
  try {
    SQLite::Statement q(*f.db, "SELECT topic_id, timestamp, data FROM messages WHERE id = ?");
    q.bind(1, static_cast<std::int64_t>(entry.location.offset));
    if (!q.executeStep())
      return fail(ErrorCode::InvalidArgument, "no message with id " + std::to_string(entry.location.offset), f.path);
    auto conn = f.connByTopicId.find(q.getColumn(0).getInt64());
    if (conn == f.connByTopicId.end()) return fail(ErrorCode::Format, "message of an unknown topic", f.path);
    std::span<const std::byte> bytes = blobOf(q.getColumn(2));
    auto buffer = std::make_shared<ByteBuffer>();
    ByteBuffer unpacked;
    std::string why;
    if (!unpack(bytes, unpacked, why)) return fail(ErrorCode::Format, "message data: " + why, f.path);
    buffer->resize(bytes.size());
    if (!bytes.empty()) std::copy(bytes.begin(), bytes.end(), buffer->data());
    MessageView v;
    v.connection = &connections_[conn->second];
    v.logTimeNs = q.getColumn(1).getInt64();
    v.bytes = buffer->span();
    v.pin = buffer;
    return v;
  } catch (const std::exception& e) {
    return fail(ErrorCode::Format, std::string("reading the database: ") + e.what(), f.path);
  }
}

}  // namespace

Result<std::unique_ptr<Source>> openSqlite(const std::vector<fs::path>& files, std::optional<BagMetadata> metadata,
                                           const fs::path& shownPath) {
  auto source = std::make_unique<SqliteSource>();
  BAGSCOPE_TRY(source->open(files, std::move(metadata), shownPath));
  return std::unique_ptr<Source>(std::move(source));
}

}  // namespace bagscope::storage::rosbag2
