// core/storage/rosbag2: every rosbag2 fixture layout reads as Foxglove's libraries wrote
// and decoded it; files are opened read-only and left untouched; bad input is reported.

#include <QtTest>

#include <QElapsedTimer>

#include <QDir>
#include <QTemporaryDir>

#include <SQLiteCpp/SQLiteCpp.h>
#include <zstd.h>

#include <chrono>
#include <future>
#include <map>
#include <tuple>

#include "common/source_checks.hpp"
#include "common/test_support.hpp"
#include "core/decode/decoder.hpp"
#include "core/session/session.hpp"
#include "core/storage/rosbag2/rosbag2_source.hpp"
#include "core/storage/source.hpp"

using namespace bagscope;
using namespace bagscope::storage;

namespace {

const std::vector<std::filesystem::path> kNoPaths;

// Decodes everything; returns the messages as expectation-shaped objects.
std::vector<QJsonObject> readAll(Source& source, const std::vector<std::filesystem::path>& msgPaths,
                                 std::vector<std::string>* undecodable = nullptr) {
  std::map<const Connection*, std::shared_ptr<const decode::Decoder>> decoders;
  std::vector<QJsonObject> out;
  auto r = source.readMessages(
      {},
      [&](const MessageView& m) {
        const Connection& c = *m.connection;
        bool seen = decoders.count(m.connection) > 0;
        auto& d = decoders[m.connection];
        if (!d) {
          if (seen) return true;  // known to be undecodable
          auto compiled = decode::compileFor(c.type, c.messageEncoding, c.schemaEncoding, c.definition, msgPaths);
          if (!compiled) {
            if (!undecodable) qFatal("decoder for %s: %s", c.topic.c_str(), compiled.error().message.c_str());
            undecodable->push_back(c.topic + ": " +
                                   (compiled.error().code == ErrorCode::MissingDefinition ? "[missing] " : "") +
                                   compiled.error().message);
            return true;
          }
          d = *compiled;
        }
        auto v = d->decode(m.bytes);
        if (!v) qFatal("decode %s: %s", c.topic.c_str(), v.error().message.c_str());
        std::string json;
        decode::appendJson(*v, json);
        out.push_back({{"topic", QString::fromStdString(c.topic)},
                       {"type", QString::fromStdString(c.type)},
                       {"log_time_ns", static_cast<qint64>(m.logTimeNs)},
                       {"msg", test::parseObject(json)}});
        return true;
      },
      {});
  if (!r) qFatal("readMessages: %s", r.error().describe().c_str());
  return out;
}

const std::vector<QJsonObject>& expectedMessages() { return test::expectedMessages("ros2/demo.expected.jsonl"); }

QString compareAll(const std::vector<QJsonObject>& ours) {
  if (ours.size() != expectedMessages().size())
    return QStringLiteral("%1 messages, expected %2").arg(ours.size()).arg(expectedMessages().size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    QString d = test::jsonDifference(ours[i], expectedMessages()[i]);
    if (!d.isEmpty()) return QStringLiteral("message %1: %2").arg(i).arg(d);
  }
  return {};
}

using test::openOrFail;

QStringList listing(const QString& dir) {
  return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

bool copyFolder(const QString& from, const QString& to) {
  QDir().mkpath(to);
  for (const QString& f : listing(from))
    if (!QFile::copy(from + "/" + f, to + "/" + f)) return false;
  return true;
}

}  // namespace

class TestStorageRosbag2 : public QObject {
  Q_OBJECT

private slots:
  void qosProfilesAreKeptAsYamlText() {
    // /tf_static is offered transient_local (fixture README): a YAML list in Jazzy's
    // topics table, YAML text with enum numbers in Foxy's metadata.yaml.
    auto qosOf = [](Source& s, const std::string& topic) {
      for (const auto& c : s.connections())
        if (c.topic == topic) return c.offeredQos;
      return std::string();
    };
    auto jazzy = openOrFail(test::dataPath("ros2/demo_db3"));
    QVERIFY2(qosOf(*jazzy, "/tf_static").find("durability: transient_local") != std::string::npos,
             qosOf(*jazzy, "/tf_static").c_str());
    QVERIFY(qosOf(*jazzy, "/tf").find("durability: volatile") != std::string::npos);
    auto foxy = openOrFail(test::dataPath("ros2/demo_db3_old"));
    QVERIFY2(qosOf(*foxy, "/tf_static").find("durability: 1") != std::string::npos, qosOf(*foxy, "/tf_static").c_str());
    auto mcap = openOrFail(test::dataPath("ros2/demo_mcap_bag"));
    QVERIFY(qosOf(*mcap, "/tf_static").find("transient_local") != std::string::npos);
  }

  void splitBagIsOneRecording() {
    auto source = openOrFail(test::dataPath("ros2/demo_db3_split"));
    std::map<std::string, std::uint64_t> counts;
    for (const auto& c : source->connections()) counts[c.topic] += c.messageCount;
    QCOMPARE(counts.size(), std::size_t{21});  // topics of both files merged, not doubled
    QCOMPARE(counts["/imu"], std::uint64_t{400});
  }

  void foxyBagUsesBuiltInTypesAndMsgPath() {
    // The Foxy layout stores no definitions: standard types are built in; the custom
    // demo_msgs/VehicleState needs its .msg folder.
    auto source = openOrFail(test::dataPath("ros2/demo_db3_old"));
    std::vector<std::string> undecodable;
    auto partial = readAll(*source, kNoPaths, &undecodable);
    QCOMPARE(partial.size(), std::size_t{695});
    QCOMPARE(undecodable.size(), std::size_t{1});
    // A definition that can be added (the CLI says with --msg-path, the app where in Settings).
    QVERIFY2(undecodable[0].find("/vehicle_state: [missing] ") == 0, undecodable[0].c_str());
    const std::vector<std::filesystem::path> msgPath{test::dataPath("msg").toStdString()};
    QString diff = compareAll(readAll(*source, msgPath));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void walDatabaseIsReadWithoutLeavingFilesBehind() {
    QTemporaryDir dir;
    QString folder = dir.filePath("bag");
    QVERIFY(copyFolder(test::dataPath("ros2/demo_db3_old"), folder));
    QStringList before = listing(folder);
    auto modified = QFileInfo(folder + "/demo_db3_old_0.db3").lastModified();
    {
      auto source = openOrFail(folder);
      auto index = source->messageIndex();
      QVERIFY(index.has_value());
      auto view = source->read((**index)[0][0]);
      QVERIFY(view.has_value());
      QVERIFY(readAll(*source, {test::dataPath("msg").toStdString()}).size() == 715);
    }
    QCOMPARE(listing(folder), before);  // no -wal, -shm or -journal files
    QCOMPARE(QFileInfo(folder + "/demo_db3_old_0.db3").lastModified(), modified);
  }

  void rowsOnlyInTheWalAreRead() {
    // tests/data/ros2/wal: 40 messages per Python's sqlite3, the last 20 only in the -wal file
    // (make_wal.py); message i is std_msgs/String "hello i" logged at 1700000000 s + i * 0.1 s.
    QTemporaryDir dir;
    QString folder = dir.filePath("bag");
    QVERIFY(copyFolder(test::dataPath("ros2/wal"), folder));
    QStringList before = listing(folder);
    QStringList temps = QDir(QDir::tempPath()).entryList({"bagscope-wal-*"});
    {
      auto source = openOrFail(folder + "/wal_0.db3");
      QCOMPARE(source->info().messageCount, std::uint64_t{40});
      QString said;
      for (const auto& p : source->info().problems) said += QString::fromStdString(p);
      QVERIFY2(said.contains("'wal_0.db3-wal'") && said.contains("held 20 messages"), qPrintable(said));
      auto lines = readAll(*source, {});
      QCOMPARE(lines.size(), std::size_t{40});
      for (int i = 0; i < 40; ++i) {
        QCOMPARE(lines[i]["msg"].toObject()["data"].toString(), QStringLiteral("hello %1").arg(i));
        QCOMPARE(lines[i]["log_time_ns"].toInteger(), 1'700'000'000'000'000'000LL + i * 100'000'000LL);
      }
    }
    QCOMPARE(listing(folder), before);  // no -shm beside the user's files, nothing changed
    QCOMPARE(QDir(QDir::tempPath()).entryList({"bagscope-wal-*"}), temps);  // the private copy is gone
  }

  void databaseAloneOpensWithoutMetadata() {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(test::dataPath("ros2/demo_db3/demo_db3_0.db3"), dir.filePath("alone.db3")));
    auto source = openOrFail(dir.filePath("alone.db3"));
    // Its metadata table (the last row, written at close) stands in for metadata.yaml.
    QCOMPARE(QString::fromStdString(source->info().version), QString("9 (from the database)"));
    QVERIFY(source->info().problems.empty());
    QString diff = compareAll(readAll(*source, kNoPaths));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    auto folder = openOrFail(dir.path());  // the folder, with no metadata.yaml in it
    QCOMPARE(folder->info().messageCount, std::uint64_t{715});
  }

  void damagedMetadataTableIsAProblemNotACrash() {
    // Found by fuzz_rosbag2 (a mutation of tests/fuzz/seeds/rosbag2/small.db3): reading its
    // metadata table throws "database disk image is malformed", which escaped the open.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(test::dataPath("ros2/damaged/metadata_table_malformed.db3"), dir.filePath("bag_0.db3")));
    auto source = storage::openSource(dir.filePath("bag_0.db3").toStdString());
    if (source) {
      QString said;
      for (const auto& p : (*source)->info().problems) said += QString::fromStdString(p) + "\n";
      QVERIFY2(said.contains("metadata table of 'bag_0.db3' cannot be read"), qPrintable(said));
    } else {
      QVERIFY2(QString::fromStdString(source.error().describe()).contains("bag_0.db3"),
               source.error().describe().c_str());
    }
  }

  void aDatabaseWhoseRowsAllFailIsNotBisectedForever() {
    // Found by fuzz_rosbag2 in CI (timeout): no row of this database can be read by id, and
    // its lowest and highest ids neither, so the id ranges were halved down to each of the
    // 2^64 ids (minutes). The ranges read are bounded; what they do not reach is said lost.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(test::dataPath("ros2/damaged/every_page_fails_by_id.db3"), dir.filePath("bag_0.db3")));
    QElapsedTimer clock;
    clock.start();
    auto source = storage::openSource(dir.filePath("bag_0.db3").toStdString());
    QVERIFY(source);
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString("%1 ms to open").arg(clock.elapsed())));
    QString said;
    for (const auto& p : (*source)->info().problems) said += QString::fromStdString(p) + "\n";
    QVERIFY2(said.contains("lie in damaged pages of the database and cannot be read"), qPrintable(said));
  }

  void oneFileOfASplitBagSaysSo() {
    auto source = openOrFail(test::dataPath("ros2/demo_db3_split/demo_db3_split_1.db3"));
    QCOMPARE(source->info().messageCount, std::uint64_t{354});  // fixture README: part 2 holds 354
    QCOMPARE(source->info().problems.size(), std::size_t{1});
    QVERIFY2(source->info().problems[0].find("one of 2 files") != std::string::npos,
             source->info().problems[0].c_str());
  }

  void metadataDisagreeingWithTheDatabaseIsReported() {
    QTemporaryDir dir;
    QString folder = dir.filePath("bag");
    QVERIFY(copyFolder(test::dataPath("ros2/demo_db3"), folder));
    QFile yaml(folder + "/metadata.yaml");
    QVERIFY(yaml.open(QIODevice::ReadOnly));
    QByteArray text = yaml.readAll();
    yaml.close();
    // /imu's count, as metadata.yaml states it, becomes wrong.
    auto at = text.indexOf("name: /imu");
    auto count = text.indexOf("message_count: 400", at);
    QVERIFY(at > 0 && count > at);
    text.replace(count, 18, "message_count: 401");
    QVERIFY(yaml.open(QIODevice::WriteOnly | QIODevice::Truncate));
    yaml.write(text);
    yaml.close();
    auto source = openOrFail(folder);
    QCOMPARE(source->info().problems.size(), std::size_t{1});
    QCOMPARE(source->info().problems[0],
             std::string("metadata.yaml says 401 messages on /imu, the database holds 400"));
    QCOMPARE(source->info().messageCount, std::uint64_t{715});
  }

  void perMessageZstdIsDecompressed() {
    // rosbag2's compression_mode "message" stores each blob as a zstd frame; some bags do
    // so without metadata.yaml saying it. Compress every blob of a copy with libzstd.
    QTemporaryDir dir;
    QString folder = dir.filePath("bag");
    QVERIFY(copyFolder(test::dataPath("ros2/demo_db3"), folder));
    QFile::remove(folder + "/metadata.yaml");
    {
      SQLite::Database db((folder + "/demo_db3_0.db3").toStdString(), SQLite::OPEN_READWRITE);
      SQLite::Statement all(db, "SELECT id, data FROM messages");
      std::vector<std::pair<std::int64_t, std::vector<char>>> packed;
      while (all.executeStep()) {
        SQLite::Column data = all.getColumn(1);
        std::vector<char> out(ZSTD_compressBound(static_cast<std::size_t>(data.getBytes())));
        out.resize(ZSTD_compress(out.data(), out.size(), data.getBlob(), static_cast<std::size_t>(data.getBytes()), 3));
        packed.emplace_back(all.getColumn(0).getInt64(), std::move(out));
      }
      SQLite::Statement update(db, "UPDATE messages SET data = ? WHERE id = ?");
      for (const auto& [id, blob] : packed) {
        update.bind(1, blob.data(), static_cast<int>(blob.size()));
        update.bind(2, static_cast<std::int64_t>(id));
        update.exec();
        update.reset();
      }
    }
    auto source = openOrFail(folder);
    QString diff = compareAll(readAll(*source, kNoPaths));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  // A session's pass over a .db3 holds the file's lock one batch at a time, not for the
  // whole pass: a single read from another thread (a panel) is served while the pass waits in
  // its callback. The batches give every message once, in SQLite's own (timestamp, id) order,
  // also across a run of 600 equal timestamps that spans several batches.
  void aLongPassOverSqliteLetsOtherReadsThrough() {
    QTemporaryDir dir;
    QString folder = dir.filePath("bag");
    QVERIFY(copyFolder(test::dataPath("ros2/demo_db3"), folder));
    std::vector<std::tuple<std::string, std::int64_t, std::vector<std::byte>>> expected;
    {
      SQLite::Database db((folder + "/demo_db3_0.db3").toStdString(), SQLite::OPEN_READWRITE);
      db.exec("UPDATE messages SET timestamp = (SELECT MIN(timestamp) FROM messages) + 1 WHERE id <= 600");
      SQLite::Statement rows(db,
                             "SELECT t.name, m.timestamp, m.data FROM messages m JOIN topics t ON t.id = m.topic_id "
                             "ORDER BY m.timestamp, m.id");
      while (rows.executeStep()) {
        SQLite::Column data = rows.getColumn(2);
        const auto* b = static_cast<const std::byte*>(data.getBlob());
        expected.emplace_back(rows.getColumn(0).getString(), rows.getColumn(1).getInt64(),
                              std::vector<std::byte>(b, b + data.getBytes()));
      }
    }
    QCOMPARE(expected.size(), std::size_t{715});
    auto opened = session::Session::open({folder.toStdString()});
    QVERIFY2(opened.has_value(), opened ? "" : opened.error().describe().c_str());
    const session::Session& s = **opened;
    std::size_t n = 0;
    QString mismatch;
    auto result = s.forEach({}, [&](const session::Message& m) {
      if (n >= expected.size()) return mismatch = "more messages than the database has", false;
      const auto& [topic, time, bytes] = expected[n];
      if (m.connection->topic != topic || m.logTimeNs != time ||
          !std::equal(m.bytes.begin(), m.bytes.end(), bytes.begin(), bytes.end()))
        return mismatch =
                   QStringLiteral("message %1 (%2 at %3) differs").arg(n).arg(QString::fromStdString(topic)).arg(time),
               false;
      ++n;
      return true;
    });
    QVERIFY(result.has_value());
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    QCOMPARE(n, expected.size());

    std::future<bool> other;
    auto waited = s.forEach({}, [&](const session::Message&) {
      other = std::async(std::launch::async, [&s] { return s.read(0, 0).has_value(); });
      return other.wait_for(std::chrono::seconds(10)) == std::future_status::ready ? false
                                                                                   : (mismatch = "held up", false);
    });
    QVERIFY(waited.has_value());
    QVERIFY2(mismatch.isEmpty(), "a read from another thread waited for the whole pass");
    QVERIFY(other.get());
  }

  void wholeFileZstdIsReadFromATemporaryCopy() {
    // rosbag2's compression_mode "file": each storage file compressed whole with zstd.
    QTemporaryDir dir;
    auto compressFile = [&](const QString& from, const QString& to) {
      QFile in(from);
      if (!in.open(QIODevice::ReadOnly)) return false;
      QByteArray data = in.readAll();
      QByteArray out(static_cast<qsizetype>(ZSTD_compressBound(static_cast<std::size_t>(data.size()))), 0);
      out.resize(static_cast<qsizetype>(ZSTD_compress(out.data(), static_cast<std::size_t>(out.size()),
                                                      data.constData(), static_cast<std::size_t>(data.size()), 3)));
      QFile o(to);
      return o.open(QIODevice::WriteOnly) && o.write(out) == out.size();
    };
    QVERIFY(compressFile(test::dataPath("ros2/demo_db3/demo_db3_0.db3"), dir.filePath("bag_0.db3.zstd")));
    QVERIFY(compressFile(test::dataPath("ros2/demo_lz4.mcap"), dir.filePath("demo.mcap.zstd")));
    auto temps = [] { return QDir(QDir::tempPath()).entryList({"bagscope-rosbag2-*"}, QDir::Dirs).size(); };
    auto before = temps();
    for (const char* name : {"bag_0.db3.zstd", "demo.mcap.zstd"}) {
      auto source = openOrFail(dir.filePath(name));
      QVERIFY(QString::fromStdString(source->info().format).contains("zstd-compressed"));
      QString diff = compareAll(readAll(*source, kNoPaths));
      QVERIFY2(diff.isEmpty(), qPrintable(diff));
      QCOMPARE(temps(), before + 1);
    }
    QCOMPARE(temps(), before);  // the copies go with the sources
    QCOMPARE(listing(dir.path()), QStringList({"bag_0.db3.zstd", "demo.mcap.zstd"}));
    // A cut compressed file is a clear error naming it.
    QFile cut(dir.filePath("bag_0.db3.zstd"));
    QVERIFY(cut.resize(cut.size() / 2));
    auto r = openSource(dir.filePath("bag_0.db3.zstd").toStdString());
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error().describe()).contains("bag_0.db3.zstd"), r.error().describe().c_str());
    QCOMPARE(temps(), before);
  }

  void badInputIsAClearError() {
    QTemporaryDir dir;
    // Not a database.
    QFile junk(dir.filePath("junk.db3"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write(QByteArray(5000, 'x'));
    junk.close();
    auto r = openSource(dir.filePath("junk.db3").toStdString());
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error().describe()).contains("junk.db3"), r.error().describe().c_str());
    // A metadata.yaml naming a file that is not there.
    QString folder = dir.filePath("missing");
    QDir().mkpath(folder);
    QVERIFY(QFile::copy(test::dataPath("ros2/demo_db3/metadata.yaml"), folder + "/metadata.yaml"));
    auto m = openSource(folder.toStdString());
    QVERIFY(!m);
    QVERIFY2(QString::fromStdString(m.error().message).contains("demo_db3_0.db3"), m.error().message.c_str());
    // A metadata.yaml that is not YAML.
    QString bad = dir.filePath("bad");
    QDir().mkpath(bad);
    QFile y(bad + "/metadata.yaml");
    QVERIFY(y.open(QIODevice::WriteOnly));
    y.write("rosbag2_bagfile_information: [unclosed\n");
    y.close();
    auto b = openSource(bad.toStdString());
    QVERIFY(!b);
    QCOMPARE(b.error().code, ErrorCode::Format);
    // An empty folder is not a recording.
    QString empty = dir.filePath("empty");
    QDir().mkpath(empty);
    QVERIFY(!openSource(empty.toStdString()));
  }
};

QTEST_GUILESS_MAIN(TestStorageRosbag2)
#include "tst_storage_rosbag2.moc"
