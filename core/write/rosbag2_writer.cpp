// rosbag2 recordings as Jazzy writes them: a folder with metadata.yaml (version 9) and the
// storage files, <name>_0.mcap or <name>_0.db3 (then _1, … when split by size). The SQLite
// layout is the current one (schema version 4: schema, metadata, topics with
// offered_qos_profiles and type_description_hash, message_definitions, messages). For Humble,
// whose reader refuses what Iron and Jazzy added: metadata version 5 with QoS as rmw's
// numbers, no type hashes, and the SQLite layout before the schema table (topics with
// offered_qos_profiles, messages; message_definitions kept, a table Humble passes over).

#include <SQLiteCpp/SQLiteCpp.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <vector>

#include "core/base/byte_source.hpp"
#include "core/schema/builtin_types.hpp"
#include "core/schema/schema.hpp"
#include "detail/writers.hpp"

namespace bagscope::write::detail {
namespace {
namespace fs = std::filesystem;

constexpr int kMetadataVersion = 9;
constexpr int kHumbleMetadataVersion = 5;

// QoS profiles as version 9 spells them, policies by name ("keep_last"), or as versions before
// 9 did, by rmw's enum numbers (`byName` false): either spelling in, the chosen one out.
YAML::Node qosProfiles(const std::string& text, bool byName) {
  YAML::Node list(YAML::NodeType::Sequence);
  if (text.empty()) return list;
  YAML::Node parsed;
  try {
    parsed = YAML::Load(text);
  } catch (const std::exception&) {
    return list;
  }
  if (!parsed.IsSequence()) return list;
  static const std::map<std::string, std::vector<const char*>> names = {
      {"history", {"system_default", "keep_last", "keep_all", "unknown"}},
      {"reliability", {"system_default", "reliable", "best_effort", "unknown"}},
      {"durability", {"system_default", "transient_local", "volatile", "unknown"}},
      {"liveliness", {"system_default", "automatic", "manual_by_node", "manual_by_topic", "unknown"}},
  };
  for (auto profile : parsed) {
    if (!profile.IsMap()) continue;
    for (const auto& [key, values] : names) {
      auto v = profile[key];
      if (!v || !v.IsScalar()) continue;
      try {
        auto n = v.as<std::size_t>();
        if (byName) profile[key] = n < values.size() ? values[n] : "unknown";
      } catch (const std::exception&) {  // a name
        if (!byName) {
          auto name = v.as<std::string>();
          auto at = std::find(values.begin(), values.end(), name);
          profile[key] = static_cast<std::size_t>(at == values.end() ? values.size() - 1 : at - values.begin());
        }
      }
    }
    list.push_back(profile);
  }
  return list;
}

// The type description hash Jazzy stores with a topic, computed from its definition when the
// input did not carry one (readers such as rosbags check it against the definition).
std::string typeHashOf(const storage::Connection& c) {
  if (!c.typeHash.empty() || c.definition.empty()) return c.typeHash;
  auto parsed = c.schemaEncoding == "ros2idl" ? schema::parseIdl(c.type, c.definition)
                                              : schema::parseDefinition(c.type, c.definition, schema::Dialect::Ros2);
  return parsed ? schema::typeHash(**parsed) : std::string();
}

std::string yamlText(const YAML::Node& node) {
  if (node.size() == 0) return "";
  YAML::Emitter e;
  e << node;
  return e.c_str();
}

struct Topic {
  storage::Connection connection;  // as given, QoS as version 9 text
  YAML::Node qos;
  std::uint64_t count = 0;
};

struct FileSummary {
  std::string name;
  std::int64_t start = 0, end = 0;
  std::uint64_t count = 0;
};

// One storage file: MCAP through the MCAP writer, or an SQLite database.
class StorageFile {
public:
  virtual ~StorageFile() = default;
  virtual Result<void> addTopic(std::uint32_t id, const Topic& topic) = 0;
  virtual Result<void> write(std::uint32_t topic, std::int64_t logTimeNs, std::span<const std::byte> bytes) = 0;
  virtual Result<void> close(const std::string& metadataYaml) = 0;
  virtual std::uint64_t size() const = 0;
};

class McapStorage final : public StorageFile {
public:
  McapStorage(OutputFile file, const WriterOptions& o)
      : writer_(makeMcapWriter(std::move(file), {"ros2", o.compression.value_or(compress::Codec::Zstd),
                                                 o.chunkBytes ? o.chunkBytes : 4u << 20, true})) {}
  Result<void> addTopic(std::uint32_t id, const Topic& topic) override {
    auto ch = writer_->addConnection(topic.connection);
    if (!ch) return ch.error();
    channels_[id] = *ch;
    return {};
  }
  Result<void> write(std::uint32_t topic, std::int64_t t, std::span<const std::byte> bytes) override {
    return writer_->write(channels_.at(topic), t, bytes);
  }
  Result<void> close(const std::string&) override { return writer_->finish(); }
  std::uint64_t size() const override { return writer_->bytesWritten(); }

private:
  std::unique_ptr<RecordingWriter> writer_;
  std::map<std::uint32_t, ChannelId> channels_;
};

class SqliteStorage final : public StorageFile {
public:
  static Result<std::unique_ptr<SqliteStorage>> create(const fs::path& path, const std::string& shown, bool humble) {
    try {
      auto s = std::unique_ptr<SqliteStorage>(new SqliteStorage(path, humble));
      s->db_.exec("PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF;");
      if (!humble)
        s->db_.exec(
            "CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);"
            "CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);"
            "INSERT INTO schema(schema_version, ros_distro) VALUES (4, 'jazzy');");
      s->db_.exec(std::string("CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,"
                              "serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL") +
                  (humble ? ");" : ",type_description_hash TEXT NOT NULL);") +
                  "CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT "
                  "NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);"
                  "CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL,"
                  "data BLOB NOT NULL);"
                  "BEGIN;");
      s->insert_ =
          std::make_unique<SQLite::Statement>(s->db_, "INSERT INTO messages(topic_id, timestamp, data) VALUES(?,?,?)");
      return s;
    } catch (const std::exception& e) {
      return fileError(ErrorCode::Write, std::string("cannot create the database: ") + e.what(), shown);
    }
  }
  Result<void> addTopic(std::uint32_t id, const Topic& t) override {
    return guarded([&] {
      const auto& c = t.connection;
      SQLite::Statement topic(
          db_, humble_ ? "INSERT INTO topics VALUES(?,?,?,?,?)" : "INSERT INTO topics VALUES(?,?,?,?,?,?)");
      topic.bind(1, static_cast<std::int64_t>(id) + 1);
      topic.bind(2, c.topic);
      topic.bind(3, c.type);
      topic.bind(4, c.messageEncoding);
      topic.bind(5, yamlText(t.qos));
      if (!humble_) topic.bind(6, c.typeHash);
      topic.exec();
      // A type without a definition gets no row: Jazzy's readers take the row's text as the
      // definition, and an empty one is none.
      if (c.definition.empty() || !definedTypes_.insert(c.type).second) return;
      SQLite::Statement def(db_,
                            "INSERT INTO message_definitions(topic_type, encoding, encoded_message_definition, "
                            "type_description_hash) VALUES(?,?,?,?)");
      // A service event's .srv text is filed under the service's name, as rosbag2 (Jazzy) does.
      auto names = schema::definitionNames(c.type);
      bool srvText = names.size() > 1 && schema::serviceEventDefinition(c.type, c.definition).has_value();
      def.bind(1, srvText ? names[1] : c.type);
      def.bind(2, c.schemaEncoding.empty() ? "ros2msg" : c.schemaEncoding);
      def.bind(3, c.definition);
      def.bind(4, c.typeHash);
      def.exec();
    });
  }
  Result<void> write(std::uint32_t topic, std::int64_t t, std::span<const std::byte> bytes) override {
    return guarded([&] {
      insert_->bind(1, static_cast<std::int64_t>(topic) + 1);
      insert_->bind(2, t);
      insert_->bindNoCopy(3, bytes.data(), static_cast<int>(bytes.size()));
      insert_->exec();
      insert_->reset();
      size_ += bytes.size() + 24;  // the row's own bytes, about
    });
  }
  Result<void> close(const std::string& metadataYaml) override {
    return guarded([&] {
      insert_.reset();
      db_.exec("CREATE INDEX timestamp_idx ON messages (timestamp ASC);");
      if (!humble_) {
        SQLite::Statement m(db_, "INSERT INTO metadata(metadata_version, metadata) VALUES(?,?)");
        m.bind(1, kMetadataVersion);
        m.bind(2, metadataYaml);
        m.exec();
      }
      db_.exec("COMMIT;");
    });
  }
  std::uint64_t size() const override { return size_; }

private:
  SqliteStorage(const fs::path& path, bool humble)
      : db_(utf8(path), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE), shown_(utf8(path)), humble_(humble) {}
  template <typename Fn>
  Result<void> guarded(Fn&& fn) {
    try {
      fn();
      return {};
    } catch (const std::exception& e) {
      return fileError(ErrorCode::Write, std::string("the database refused a write: ") + e.what(), shown_);
    }
  }
  SQLite::Database db_;
  std::string shown_;
  bool humble_;
  std::unique_ptr<SQLite::Statement> insert_;
  std::set<std::string> definedTypes_;
  std::uint64_t size_ = 0;
};

class Rosbag2Writer final : public RecordingWriter {
public:
  Rosbag2Writer(fs::path folder, std::string name, WriterOptions options)
      : folder_(std::move(folder)),
        name_(std::move(name)),
        options_(std::move(options)),
        mcap_(options_.container == Container::Rosbag2Mcap),
        humble_(options_.distro == RosDistro::Humble) {}

  Result<ChannelId> addConnection(const storage::Connection& c) override {
    if (c.messageEncoding != "cdr")
      return makeError(ErrorCode::Unsupported, "'" + c.topic + "' holds " +
                                                   (c.messageEncoding.empty() ? "unencoded" : c.messageEncoding) +
                                                   " messages, which rosbag2 cannot hold (convert to MCAP instead)");
    std::string key = connectionKey(c);
    if (auto it = byKey_.find(key); it != byKey_.end()) return it->second;
    Topic t{c, qosProfiles(c.offeredQos, !humble_), 0};
    t.connection.offeredQos = yamlText(t.qos);
    t.connection.typeHash = humble_ ? std::string() : typeHashOf(c);  // Humble has no type hashes
    topics_.push_back(std::move(t));
    auto id = static_cast<ChannelId>(topics_.size() - 1);
    byKey_.emplace(std::move(key), id);
    return id;
  }

  Result<void> write(ChannelId topic, std::int64_t logTimeNs, std::span<const std::byte> bytes) override {
    if (file_ && options_.splitBytes && file_->size() >= options_.splitBytes && files_.back().count > 0)
      if (auto r = closeFile(); !r) return r;
    if (!file_)
      if (auto r = openFile(); !r) return r;
    if (!inFile_.count(topic)) {
      if (auto r = file_->addTopic(topic, topics_[topic]); !r) return r;
      inFile_.insert(topic);
    }
    if (auto r = file_->write(topic, logTimeNs, bytes); !r) return r;
    ++topics_[topic].count;
    auto& f = files_.back();
    f.start = f.count ? std::min(f.start, logTimeNs) : logTimeNs;
    f.end = f.count ? std::max(f.end, logTimeNs) : logTimeNs;
    ++f.count;
    return {};
  }

  Result<void> finish() override {
    if (!file_)
      if (auto r = openFile(); !r) return r;           // an empty recording still has its storage file
    for (ChannelId id = 0; id < topics_.size(); ++id)  // topics with no messages are still listed
      if (!inFile_.count(id)) {
        if (auto r = file_->addTopic(id, topics_[id]); !r) return r;
        inFile_.insert(id);
      }
    if (auto r = closeFile(); !r) return r;
    YAML::Emitter e;
    e << YAML::BeginMap << YAML::Key << "rosbag2_bagfile_information" << YAML::Value << metadata() << YAML::EndMap;
    return writeText(folder_ / "metadata.yaml", std::string(e.c_str()) + "\n");
  }

  std::uint64_t bytesWritten() const override { return written_ + (file_ ? file_->size() : 0); }

private:
  Result<void> openFile() {
    std::string file = name_ + "_" + std::to_string(files_.size()) + (mcap_ ? ".mcap" : ".db3");
    fs::path path = folder_ / fs::u8path(file);
    if (mcap_) {
      auto out = OutputFile::create(path, utf8(path));
      if (!out) return out.error();
      file_ = std::make_unique<McapStorage>(std::move(out).value(), options_);
    } else {
      auto db = SqliteStorage::create(path, utf8(path), humble_);
      if (!db) return db.error();
      file_ = std::move(db).value();
    }
    files_.push_back({file, 0, 0, 0});
    inFile_.clear();
    return {};
  }

  Result<void> closeFile() {
    YAML::Emitter e;
    e << metadata();
    auto r = file_->close(e.c_str());
    written_ += file_->size();
    file_.reset();
    return r;
  }

  YAML::Node metadata() const {
    std::int64_t start = 0, end = 0;
    std::uint64_t count = 0;
    for (const auto& f : files_) {
      if (!f.count) continue;
      start = count ? std::min(start, f.start) : f.start;
      end = count ? std::max(end, f.end) : f.end;
      count += f.count;
    }
    YAML::Node m;
    m["version"] = humble_ ? kHumbleMetadataVersion : kMetadataVersion;
    m["storage_identifier"] = mcap_ ? "mcap" : "sqlite3";
    m["duration"]["nanoseconds"] = end - start;
    m["starting_time"]["nanoseconds_since_epoch"] = start;
    m["message_count"] = count;
    m["topics_with_message_count"] = YAML::Node(YAML::NodeType::Sequence);
    for (const auto& t : topics_) {
      YAML::Node topic;
      topic["topic_metadata"]["name"] = t.connection.topic;
      topic["topic_metadata"]["type"] = t.connection.type;
      topic["topic_metadata"]["serialization_format"] = t.connection.messageEncoding;
      // Versions before 9 hold the profiles as one YAML text; 9 as YAML.
      if (humble_) topic["topic_metadata"]["offered_qos_profiles"] = yamlText(t.qos);
      else topic["topic_metadata"]["offered_qos_profiles"] = t.qos;
      if (!humble_) topic["topic_metadata"]["type_description_hash"] = t.connection.typeHash;
      topic["message_count"] = t.count;
      m["topics_with_message_count"].push_back(topic);
    }
    m["compression_format"] = "";
    m["compression_mode"] = "";
    m["relative_file_paths"] = YAML::Node(YAML::NodeType::Sequence);
    m["files"] = YAML::Node(YAML::NodeType::Sequence);
    for (const auto& f : files_) {
      m["relative_file_paths"].push_back(f.name);
      YAML::Node file;
      file["path"] = f.name;
      file["starting_time"]["nanoseconds_since_epoch"] = f.start;
      file["duration"]["nanoseconds"] = f.end - f.start;
      file["message_count"] = f.count;
      m["files"].push_back(file);
    }
    if (humble_) return m;
    m["custom_data"] = YAML::Node(YAML::NodeType::Null);
    m["ros_distro"] = "jazzy";
    return m;
  }

  static Result<void> writeText(const fs::path& path, const std::string& text) {
    auto out = OutputFile::create(path, utf8(path));
    if (!out) return out.error();
    if (auto r = out->write(text); !r) return r;
    return out->close();
  }

  fs::path folder_;
  std::string name_;
  WriterOptions options_;
  bool mcap_;
  bool humble_;
  std::map<std::string, ChannelId> byKey_;
  std::vector<Topic> topics_;
  std::unique_ptr<StorageFile> file_;
  std::set<ChannelId> inFile_;
  std::vector<FileSummary> files_;
  std::uint64_t written_ = 0;
};

}  // namespace

std::unique_ptr<RecordingWriter> makeRosbag2Writer(const fs::path& folder, const std::string& name,
                                                   const WriterOptions& options) {
  return std::make_unique<Rosbag2Writer>(folder, name, options);
}

}  // namespace bagscope::write::detail
