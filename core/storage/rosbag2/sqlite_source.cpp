// rosbag2's sqlite3 storage plugin (https://github.com/ros2/rosbag2): the tables
// topics(id, name, type, serialization_format [, offered_qos_profiles][, type_description_hash]),
// messages(id, topic_id, timestamp, data), and since Iron message_definitions(topic_type,
// encoding, encoded_message_definition[, type_description_hash]) and metadata.

#include "sqlite_source.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

#include <algorithm>
#include <map>

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
    SQLite::Statement counts(
        *f.db, "SELECT topic_id, COUNT(*), MIN(timestamp), MAX(timestamp) FROM messages GROUP BY topic_id");
    while (counts.executeStep()) {
      auto it = f.connByTopicId.find(counts.getColumn(0).getInt64());
      std::uint64_t n = static_cast<std::uint64_t>(counts.getColumn(1).getInt64());
      if (it == f.connByTopicId.end()) {
        info_.problems.push_back(std::to_string(n) + " messages in '" + u8(file.filename()) + "' belong to topic id " +
                                 std::to_string(counts.getColumn(0).getInt64()) +
                                 ", which the topics table does not list; they are skipped");
        continue;
      }
      std::int64_t lo = counts.getColumn(2).getInt64(), hi = counts.getColumn(3).getInt64();
      bool first = info_.messageCount == 0;
      info_.startNs = first ? lo : std::min(info_.startNs, lo);
      info_.endNs = first ? hi : std::max(info_.endNs, hi);
      info_.messageCount += n;
      connections_[it->second].messageCount += n;
    }
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
    return fail(ErrorCode::Io, "cannot copy it and its -wal file into " + u8(*f.walCopy) + ": " + ec.message(), f.path);
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

Result<void> SqliteSource::readMessages(const ReadFilter& filter, const MessageFn& onMessage,
                                        const ProblemFn& onProblem) {
  std::vector<bool> wanted(connections_.size(), filter.connections.empty());
  for (auto id : filter.connections)
    if (id < wanted.size()) wanted[id] = true;
  try {
    // One cursor per file, merged by (timestamp, file); each is in (timestamp, id) order.
    struct Cursor {
      std::unique_ptr<SQLite::Statement> q;
      const DbFile* file;
      bool live = false;
    };
    std::vector<Cursor> cursors;
    for (const auto& f : files_) {
      std::string sql = "SELECT topic_id, timestamp, data FROM messages WHERE timestamp >= ? AND timestamp <= ?";
      if (!filter.connections.empty()) {
        std::string ids;
        for (const auto& [topicId, conn] : f.connByTopicId)
          if (wanted[conn]) ids += (ids.empty() ? "" : ",") + std::to_string(topicId);
        if (ids.empty()) continue;
        sql += " AND topic_id IN (" + ids + ")";
      }
      sql += " ORDER BY timestamp, id";
      Cursor c{std::make_unique<SQLite::Statement>(*f.db, sql), &f};
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
      auto conn = next->file->connByTopicId.find(q.getColumn(0).getInt64());
      if (conn != next->file->connByTopicId.end()) {
        SQLite::Column data = q.getColumn(2);
        view.connection = &connections_[conn->second];
        view.logTimeNs = q.getColumn(1).getInt64();
        view.bytes = {static_cast<const std::byte*>(data.getBlob()), static_cast<std::size_t>(data.getBytes())};
        std::string why;
        if (!unpack(view.bytes, unpacked, why)) {
          if (onProblem) {
            Error e = fail(ErrorCode::Format, "message data: " + why, next->file->path);
            e.topic = view.connection->topic;
            e.logTimeNs = view.logTimeNs;
            onProblem(e);
          }
        } else if (!onMessage(view)) {
          return {};
        }
      }
      next->live = q.executeStep();
    }
  } catch (const std::exception& e) {
    return fail(ErrorCode::Format, std::string("reading the database: ") + e.what(), info_.path);
  }
  return {};
}

Result<const MessageIndex*> SqliteSource::messageIndex() {
  if (index_) return &*index_;
  MessageIndex index(connections_.size());
  std::uint64_t unindexable = 0;  // row ids beyond 32 bits do not fit a MessageLocation
  try {
    for (std::uint32_t fi = 0; fi < files_.size(); ++fi) {
      SQLite::Statement q(*files_[fi].db, "SELECT id, topic_id, timestamp FROM messages ORDER BY timestamp, id");
      while (q.executeStep()) {
        auto conn = files_[fi].connByTopicId.find(q.getColumn(1).getInt64());
        std::int64_t id = q.getColumn(0).getInt64();
        if (conn == files_[fi].connByTopicId.end()) continue;  // reported at open
        if (id < 0 || id > UINT32_MAX) {
          ++unindexable;
          continue;
        }
        index[conn->second].push_back({q.getColumn(2).getInt64(), {fi, static_cast<std::uint32_t>(id)}});
      }
    }
  } catch (const std::exception& e) {
    return fail(ErrorCode::Format, std::string("reading the database: ") + e.what(), info_.path);
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
    SQLite::Column data = q.getColumn(2);
    std::span<const std::byte> bytes{static_cast<const std::byte*>(data.getBlob()),
                                     static_cast<std::size_t>(data.getBytes())};
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
  if (auto r = source->open(files, std::move(metadata), shownPath); !r) return std::move(r).error();
  return std::unique_ptr<Source>(std::move(source));
}

}  // namespace bagscope::storage::rosbag2
