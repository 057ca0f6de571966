// bagscope-cli as a user runs it: `cat --bytes digest` reproduces every ROS 1 fixture's
// expectation; info, filters, base64 bytes and exit codes.

#include <QtTest>

#include <QCryptographicHash>
#include <QProcess>
#include <QtEndian>

#include "common/test_support.hpp"
#include "core/export/export.hpp"

using namespace bagscope;

namespace {

struct Run {
  int exitCode = -1;
  QByteArray out, err;
};

Run runCliAt(const QString& program, const QStringList& args) {
  QProcess p;
  p.start(program, args);
  if (!p.waitForFinished(120000)) qFatal("bagscope-cli %s did not finish", qPrintable(args.join(' ')));
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
          p.readAllStandardError()};
}

Run runCli(const QStringList& args) { return runCliAt(QStringLiteral(BAGSCOPE_CLI), args); }

std::vector<QJsonObject> parseLines(const QByteArray& out) {
  std::vector<QJsonObject> v;
  for (const QByteArray& line : out.split('\n')) {
    if (line.isEmpty()) continue;
    QJsonParseError e;
    auto doc = QJsonDocument::fromJson(line, &e);
    if (!doc.isObject()) qFatal("not a JSON object: %s (%s)", line.left(200).constData(), qPrintable(e.errorString()));
    v.push_back(doc.object());
  }
  return v;
}

// (log time, payload) of a topic's rows in a rosbag2 folder's .db3 files, read by Python's
// sqlite3 module (not by Bagscope), in log-time order.
std::vector<std::pair<qint64, QByteArray>> rawRowsOf(const QString& folder, const QString& topic) {
  QProcess p;
  p.start(QStringLiteral("/usr/bin/python3"),
          {"-c",
           "import sqlite3,sys,glob,base64\n"
           "for f in sorted(glob.glob(sys.argv[1]+'/*.db3')):\n"
           "  db=sqlite3.connect('file:'+f+'?immutable=1',uri=True)\n"
           "  for t,d in db.execute('SELECT timestamp,data FROM messages JOIN topics ON topics.id=topic_id "
           "WHERE name=? ORDER BY timestamp,messages.id',(sys.argv[2],)):\n"
           "    print(t,base64.b64encode(d).decode())\n",
           folder, topic});
  if (!p.waitForFinished(60000) || p.exitCode() != 0)
    qFatal("python3 sqlite3 failed: %s", p.readAllStandardError().constData());
  std::vector<std::pair<qint64, QByteArray>> rows;
  for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
    auto parts = line.split(' ');
    if (parts.size() == 2) rows.emplace_back(parts[0].toLongLong(), QByteArray::fromBase64(parts[1]));
  }
  return rows;
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT

private slots:
  void catReproducesTheReferenceDecoding_data() {
    QTest::addColumn<QString>("bag");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("expectation");
    QTest::addColumn<int>("exitCode");  // 3: recovered from damage (README, exit codes)
    const QString ros1 = "ros1/demo.expected.jsonl", ros2 = "ros2/demo.expected.jsonl";
    QTest::newRow("ros1 uncompressed") << "ros1/demo_uncompressed.bag" << 717 << ros1 << 0;
    QTest::newRow("ros1 bz2") << "ros1/demo_bz2.bag" << 717 << ros1 << 0;
    QTest::newRow("ros1 lz4") << "ros1/demo_lz4.bag" << 717 << ros1 << 0;
    QTest::newRow("ros1 truncated") << "ros1/demo_truncated.bag" << 668 << ros1 << 3;
    QTest::newRow("ros1 crashed") << "ros1/demo_crashed.bag" << 500 << ros1 << 3;
    QTest::newRow("ros1 empty") << "ros1/empty.bag" << 0 << ros1 << 0;
    QTest::newRow("mcap") << "ros2/demo.mcap" << 715 << ros2 << 0;
    QTest::newRow("mcap lz4") << "ros2/demo_lz4.mcap" << 715 << ros2 << 0;
    QTest::newRow("mcap zstd") << "ros2/demo_zstd.mcap" << 715 << ros2 << 0;
    // The summary is optional in MCAP: a complete file without one lost nothing.
    QTest::newRow("mcap no summary") << "ros2/demo_nosummary.mcap" << 715 << ros2 << 0;
    QTest::newRow("mcap truncated") << "ros2/demo_truncated.mcap" << 585 << ros2 << 3;
    QTest::newRow("rosbag2 db3") << "ros2/demo_db3" << 715 << ros2 << 0;
    QTest::newRow("rosbag2 db3 split") << "ros2/demo_db3_split" << 715 << ros2 << 0;
    QTest::newRow("rosbag2 mcap") << "ros2/demo_mcap_bag" << 715 << ros2 << 0;
  }
  void catReproducesTheReferenceDecoding() {
    QFETCH(QString, bag);
    QFETCH(int, count);
    QFETCH(QString, expectation);
    QFETCH(int, exitCode);
    Run r = runCli({"cat", test::dataPath(bag), "--bytes", "digest"});
    QCOMPARE(r.exitCode, exitCode);
    auto ours = parseLines(r.out);
    QCOMPARE(static_cast<int>(ours.size()), count);
    QString err;
    auto expected = test::readJsonLines(test::dataPath(expectation), &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    expected.resize(std::min(expected.size(), ours.size()));  // a damaged file: the complete messages first
    QVERIFY2(test::firstDifference(ours, expected, "line").isEmpty(),
             qPrintable(test::firstDifference(ours, expected, "line")));
  }

  // Real-world ROS 2 layouts and types, written by rosbags (tests/data/ros2/cases/README.md);
  // each line equal to rosbags' decoding, and what was odd about the file said on stderr.
  void ros2CasesDecodeLikeRosbags_data() {
    QTest::addColumn<QString>("bag");  // under tests/data/ros2/cases or, for .mcap, tests/data/mcap_foreign
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("said");
    QTest::newRow("old metadata paths") << "old_paths/rosbag2_test" << 20 << 0 << "";
    QTest::newRow("listed file missing") << "listed_missing" << 10 << 3 << "'listed_missing_1.db3', which is missing";
    QTest::newRow("split mcap") << "split_mcap" << 60 << 0 << "";
    QTest::newRow("empty storage_identifier") << "no_storage_id" << 8 << 0 << "";
    QTest::newRow("empty messages") << "empty_types" << 6 << 0 << "";
    QTest::newRow("service event in db3") << "service_event" << 4 << 0 << "";
    QTest::newRow("stored definition does not fit")
        << "bad_definition" << 10 << 0 << "/rosout: the stored definition of rcl_interfaces/msg/Log does not match";
    QTest::newRow("ros2idl schema") << "idl_mcap" << 4 << 0 << "";
    QTest::newRow("foxglove_msgs scene update") << "foxglove_scene" << 3 << 0 << "";
    // MCAP's other encodings, written by @mcap/core (tests/data/mcap_foreign/README.md).
    QTest::newRow("protobuf") << "protobuf.mcap" << 8 << 0 << "";
    QTest::newRow("json") << "json.mcap" << 5 << 0 << "";
  }
  void ros2CasesDecodeLikeRosbags() {
    QFETCH(QString, bag);
    QFETCH(int, count);
    QFETCH(int, exitCode);
    QFETCH(QString, said);
    bool foreign = bag.endsWith(".mcap");
    QString path = foreign ? "mcap_foreign/" + bag : "ros2/cases/" + bag;
    QString expectation = foreign ? "mcap_foreign/" + bag.chopped(5) : "ros2/cases/" + bag.section('/', 0, 0);
    Run r = runCli({"cat", test::dataPath(path), "--bytes", "digest"});
    QVERIFY2(r.exitCode == exitCode,
             qPrintable(QStringLiteral("exit %1, stderr: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
    if (said.isEmpty()) QVERIFY2(r.err.isEmpty(), r.err.constData());
    else QVERIFY2(QString::fromUtf8(r.err).contains(said), r.err.constData());
    auto ours = parseLines(r.out);
    QString err;
    auto expected = test::readJsonLines(test::dataPath(expectation + ".expected.jsonl"), &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QCOMPARE(static_cast<int>(expected.size()), count);
    QCOMPARE(ours.size(), expected.size());
    QVERIFY2(test::firstDifference(ours, expected, "line").isEmpty(),
             qPrintable(test::firstDifference(ours, expected, "line")));
  }

  void msgPathDecodesTypesTheBagDoesNotDefine() {
    Run without = runCli({"cat", test::dataPath("ros2/demo_db3_old")});
    QCOMPARE(without.exitCode, 3);
    QVERIFY2(without.err.contains("/vehicle_state") && without.err.contains("--msg-path"), without.err.constData());
    // Every message has its line in place; the 20 undecodable ones say why and what they were.
    auto lines = parseLines(without.out);
    QCOMPARE(lines.size(), std::size_t{715});
    auto rows = rawRowsOf(test::dataPath("ros2/demo_db3_old"), "/vehicle_state");
    QCOMPARE(rows.size(), std::size_t{20});
    std::size_t k = 0;
    for (const auto& line : lines) {
      if (line["topic"].toString() != "/vehicle_state") {
        QVERIFY(line["msg"].isObject());
        continue;
      }
      QVERIFY(line["msg"].isNull());
      QVERIFY2(line["error"].toString().contains("demo_msgs/msg/VehicleState"), qPrintable(line["error"].toString()));
      QCOMPARE(line["log_time_ns"].toInteger(), rows[k].first);
      QCOMPARE(line["raw"].toObject()["len"].toInteger(), rows[k].second.size());
      QCOMPARE(line["raw"].toObject()["sha256"].toString().toLatin1(),
               QCryptographicHash::hash(rows[k].second, QCryptographicHash::Sha256).toHex());
      ++k;
    }
    QCOMPARE(k, rows.size());
    // An export skips them too, and says the same remedy (its skip reasons are the core's words).
    QTemporaryDir out;
    Run exported = runCli({"export", test::dataPath("ros2/demo_db3_old"), "--topic", "/vehicle_state", "--format",
                           "csv", "--out", out.path()});
    QCOMPARE(exported.exitCode, 3);
    QVERIFY2(exported.err.contains("skipped 20") && exported.err.contains("--msg-path"), exported.err.constData());
    Run base64 = runCli({"cat", test::dataPath("ros2/demo_db3_old"), "--topic", "/vehicle_state", "--bytes", "base64"});
    auto raw = parseLines(base64.out);
    QCOMPARE(raw.size(), rows.size());
    for (std::size_t i = 0; i < raw.size(); ++i)
      QCOMPARE(QByteArray::fromBase64(raw[i]["raw"].toObject()["base64"].toString().toLatin1()), rows[i].second);
    Run with = runCli({"cat", test::dataPath("ros2/demo_db3_old"), "--msg-path", test::dataPath("msg")});
    QCOMPARE(with.exitCode, 0);
    auto ours = parseLines(with.out);
    QString err;
    auto expected = test::readJsonLines(test::dataPath("ros2/demo.expected.jsonl"), &err);
    QCOMPARE(ours.size(), expected.size());
    QVERIFY2(test::firstDifference(ours, expected, "line").isEmpty(),
             qPrintable(test::firstDifference(ours, expected, "line")));
  }

  void msgPathTakesARecordingToBorrowDefinitionsFrom() {
    Run r = runCli({"cat", test::dataPath("ros2/demo_db3_old"), "--msg-path", test::dataPath("ros2/demo_db3")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto ours = parseLines(r.out);
    QString err;
    auto expected = test::readJsonLines(test::dataPath("ros2/demo.expected.jsonl"), &err);
    QCOMPARE(ours.size(), expected.size());
    QVERIFY2(test::firstDifference(ours, expected, "line").isEmpty(),
             qPrintable(test::firstDifference(ours, expected, "line")));
  }

  void damagedBagsSayWhatWasLostOnStderr() {
    Run r = runCli({"cat", test::dataPath("ros1/demo_truncated.bag")});
    QVERIFY2(r.err.contains("demo_truncated.bag") && r.err.contains("offset 1983162"), r.err.constData());
  }

  void base64BytesHashLikeTheDigests() {
    Run r = runCli({"cat", test::dataPath("ros1/demo_bz2.bag"), "--topic", "/points", "--bytes", "base64"});
    QCOMPARE(r.exitCode, 0);
    auto ours = parseLines(r.out);
    QCOMPARE(ours.size(), std::size_t{20});
    QString err;
    auto expected = test::readJsonLines(test::dataPath("ros1/demo.expected.jsonl"), &err);
    std::size_t k = 0;
    for (const auto& e : expected) {
      if (e["topic"].toString() != "/points") continue;
      QByteArray data = QByteArray::fromBase64(ours[k++]["msg"].toObject()["data"].toString().toLatin1());
      QJsonObject digest = e["msg"].toObject()["data"].toObject();
      QCOMPARE(data.size(), digest["len"].toInt());
      QCOMPARE(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex(),
               digest["sha256"].toString().toLatin1());
    }
    QCOMPARE(k, std::size_t{20});
  }

  void topicAndTimeFiltersSelect() {
    Run r = runCli({"cat", test::dataPath("ros1/demo_lz4.bag"), "--topic", "/gps", "--topic", "/chatter", "--start",
                    "+0.5", "--end", "1700000001.5"});
    QCOMPARE(r.exitCode, 0);
    auto ours = parseLines(r.out);
    QString err;
    std::vector<QJsonObject> expected;
    for (const auto& e : test::readJsonLines(test::dataPath("ros1/demo.expected.jsonl"), &err)) {
      auto t = e["log_time_ns"].toInteger();
      QString topic = e["topic"].toString();
      if ((topic == "/gps" || topic == "/chatter") && t >= 1700000000500000000 && t <= 1700000001500000000)
        expected.push_back(e);
    }
    QVERIFY(expected.size() >= 8);
    QCOMPARE(ours.size(), expected.size());
    for (std::size_t i = 0; i < ours.size(); ++i) QVERIFY(test::jsonDifference(ours[i], expected[i]).isEmpty());
  }

  void infoJsonAgreesWithTheFixture() {
    Run r = runCli({"info", test::dataPath("ros1/demo_bz2.bag"), "--json"});
    QCOMPARE(r.exitCode, 0);
    QJsonObject info = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(info["message_count"].toInteger(), 717);
    QCOMPARE(info["version"].toString(), QString("2.0"));
    QCOMPARE(info["start_ns"].toInteger(), 1700000000000000000);
    QCOMPARE(info["compression"].toObject()["chunks_by_compression"].toObject()["bz2"].toInt(), 26);
    QCOMPARE(info["size_bytes"].toInteger(), QFileInfo(test::dataPath("ros1/demo_bz2.bag")).size());
    // Counts and rates against the fixture's table (README of shared/fixtures/ros1).
    std::map<QString, std::pair<int, double>> table = {
        {"/imu", {400, 200.0}}, {"/tf", {100, 50.0}}, {"/points", {20, 10.0}}, {"/markers", {2, 1.0}}};
    int topics = 0;
    for (const auto& t : info["topics"].toArray()) {
      ++topics;
      QString name = t.toObject()["topic"].toString();
      if (!table.count(name)) continue;
      QCOMPARE(t.toObject()["message_count"].toInt(), table[name].first);
      QVERIFY(std::abs(t.toObject()["frequency_hz"].toDouble() - table[name].second) < 0.01);
    }
    QCOMPARE(topics, 21);
    QCOMPARE(info["types"].toArray().size(), 14);
  }

  void statsGivesRatesAndLatenciesPerTopic() {
    Run r = runCli({"stats", test::dataPath("ros1/demo_lz4.bag"), "--json"});
    QCOMPARE(r.exitCode, 0);
    QJsonArray topics = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(topics.size(), 21);
    for (const auto& v : topics) {
      QJsonObject t = v.toObject();
      if (t["topic"].toString() != "/scan") continue;
      // shared/fixtures/ros1/README.md: 20 messages at 10 Hz, logged 6.089 ms after the stamp.
      QCOMPARE(t["count"].toInt(), 20);
      QCOMPARE(t["mean_rate_hz"].toDouble(), 10.0);
      QCOMPARE(t["latency_ns"].toObject()["median"].toInteger(), 6089000);
      QCOMPARE(t["largest_gaps"].toArray().size(), 5);
      return;
    }
    QFAIL("no /scan in the stats");
  }

  void infoTextLooksLikeRosbagInfo() {
    Run r = runCli({"info", test::dataPath("ros1/demo_lz4.bag")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("messages:     717"));
    QVERIFY(r.out.contains("sensor_msgs/Imu                 [6a62c6daae103f4ff57a132d6f95cec2]"));
    QVERIFY(r.out.contains("/imu"));
    QVERIFY(r.out.contains("lz4 [26/26 chunks]"));
  }

  // The first chunk of demo_lz4.mcap with 60 bytes of its lz4 data flipped by hand.
  void aDamagedChunkIsCountedByEveryCommandNotTakenForZeroStamps() {
    QTemporaryDir dir;
    QFile in(test::dataPath("ros2/demo_lz4.mcap"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray bytes = in.readAll();
    qsizetype pos = 8;  // records after the magic: op byte, 8-byte length; the first chunk is op 0x06
    while (pos + 9 <= bytes.size() && bytes[pos] != 0x06)
      pos += 9 + qFromLittleEndian<qint64>(bytes.constData() + pos + 1);
    QVERIFY(pos + 300 < bytes.size());
    for (qsizetype k = pos + 60; k < pos + 120; ++k) bytes[k] = char(bytes[k] ^ 0x5a);
    QString damaged = dir.filePath("damaged.mcap");
    QFile out(damaged);
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size());
    out.close();
    const QByteArray offset = "offset " + QByteArray::number(pos);

    Run cat = runCli({"cat", damaged});
    QCOMPARE(cat.exitCode, 3);
    QVERIFY2(cat.err.contains("damaged.mcap") && cat.err.count(offset) == 1, cat.err.constData());

    // Every stamp in the fixture is set (shared/fixtures/ros2/README.md), so a zero stamp
    // here would be an unreadable message counted as one.
    Run stats = runCli({"stats", damaged, "--json"});
    QCOMPARE(stats.exitCode, 3);
    std::uint64_t unreadable = 0;
    for (const auto& v : QJsonDocument::fromJson(stats.out).array()) {
      QJsonObject t = v.toObject();
      QCOMPARE(t["zero_stamps"].toInt(), 0);
      unreadable += t["unreadable"].toInt();
    }
    QVERIFY(unreadable > 0);
    QVERIFY2(stats.err.contains("could not be read") && stats.err.contains("damaged.mcap"), stats.err.constData());
  }

  // /tf and /tf_static of the fixture name odom, base_link, lidar and camera_optical; /scan
  // is in 'laser', which they do not connect. Nothing is written, and the reason is given.
  void aTargetFrameThatTfLacksOrCannotReachStopsBeforeWriting() {
    QTemporaryDir dir;
    Run absent = runCli({"export", test::dataPath("ros1/demo_lz4.bag"), "--topic", "/points", "--format", "pcd",
                         "--frame", "map", "--out", dir.filePath("a")});
    QCOMPARE(absent.exitCode, 1);
    QVERIFY2(
        absent.err.contains(
            "'map' is not a frame of the recording's transforms (its frames: base_link, camera_optical, lidar, odom)"),
        absent.err.constData());
    Run apart = runCli({"export", test::dataPath("ros1/demo_lz4.bag"), "--topic", "/scan", "--format", "pcd", "--frame",
                        "odom", "--out", dir.filePath("b")});
    QCOMPARE(apart.exitCode, 1);
    QVERIFY2(apart.err.contains("/scan cannot be moved into 'odom': frames 'laser' and 'odom' are not connected"),
             apart.err.constData());
    QVERIFY(!QFileInfo::exists(dir.filePath("b/manifest.json")));
    QVERIFY(QDir(dir.filePath("b")).isEmpty());
  }

  void infoAndStatsOfARecoveredFileExitThree() {
    for (const char* f : {"ros1/demo_truncated.bag", "ros1/demo_crashed.bag", "ros2/demo_truncated.mcap"}) {
      QCOMPARE(runCli({"info", test::dataPath(f)}).exitCode, 3);
      QCOMPARE(runCli({"stats", test::dataPath(f)}).exitCode, 3);
    }
    QCOMPARE(runCli({"info", test::dataPath("ros2/demo_lz4.mcap")}).exitCode, 0);
    QCOMPARE(runCli({"stats", test::dataPath("ros2/demo_lz4.mcap")}).exitCode, 0);
  }

  void standardOutputThatCannotBeWrittenIsExitFour() {
    for (const QStringList& args : {QStringList{"info", test::dataPath("ros1/demo_lz4.bag")},
                                    QStringList{"cat", test::dataPath("ros1/demo_lz4.bag")},
                                    QStringList{"stats", test::dataPath("ros1/demo_lz4.bag")}}) {
      QProcess p;
      p.setStandardOutputFile(QStringLiteral("/dev/full"));
      p.start(QStringLiteral(BAGSCOPE_CLI), args);
      QVERIFY(p.waitForFinished(60000));
      QCOMPARE(p.exitStatus(), QProcess::NormalExit);
      QByteArray err = p.readAllStandardError();
      QVERIFY2(p.exitCode() == 4, qPrintable(args[0] + ": " + err));
      QVERIFY2(err.contains("standard output"), err.constData());
    }
  }

  void errorsNameTheFileAndExitCodesAreDocumented() {
    QTemporaryDir dir;
    QString zero = dir.filePath("zero.bag");
    QFile(zero).open(QIODevice::WriteOnly);
    Run r = runCli({"info", zero});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("zero.bag") && r.err.contains("empty"), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);  // one clear line
    QCOMPARE(runCli({"cat", dir.filePath("missing.bag")}).exitCode, 1);
    QCOMPARE(runCli({"cat"}).exitCode, 2);
    QCOMPARE(runCli({"frobnicate"}).exitCode, 2);
    QCOMPARE(runCli({"cat", test::dataPath("ros1/demo_lz4.bag"), "--bytes", "hex"}).exitCode, 2);
    QCOMPARE(runCli({"cat", test::dataPath("ros1/demo_lz4.bag"), "--topic", "/nope"}).exitCode, 2);
    QCOMPARE(runCli({"cat", test::dataPath("ros1/demo_lz4.bag"), "--start", "1.2.3"}).exitCode, 2);
    QCOMPARE(runCli({"cat", test::dataPath("ros1/demo_truncated.bag")}).exitCode, 3);  // damage recovered
    Run device = runCli({"info", "/dev/zero"});  // never read: a device, not a recording
    QCOMPARE(device.exitCode, 1);
    QVERIFY2(device.err.contains("/dev/zero") && device.err.contains("not a regular file"), device.err.constData());
    // 4: an output that could not be written (a file where the output folder should be).
    QString blocker = dir.filePath("blocked");
    QFile(blocker).open(QIODevice::WriteOnly);
    Run w =
        runCli({"export", test::dataPath("ros1/demo_lz4.bag"), "--format", "csv", "--topic", "/imu", "--out", blocker});
    QVERIFY2(w.exitCode == 4, w.err.constData());
    QVERIFY2(w.err.contains("blocked"), w.err.constData());
    Run help = runCli({"--help"});
    QVERIFY(help.out.contains("4 an output could not be written") && help.out.contains("130 interrupted"));
    Run v = runCli({"--version"});
    QCOMPARE(v.exitCode, 0);
    QVERIFY(v.out.startsWith("bagscope-cli "));
  }

  // A CLI that answers in milliseconds: OpenCV is loaded only when a pixel is decoded or
  // written, and then only its core and imgproc with libjpeg and libpng; imgcodecs and videoio
  // (the ~240 libraries Debian's build pulls in, 0.2 s to load) only for video. The dynamic
  // loader's own log says what was loaded; a copy of the program without its modules still
  // reads, and says why it cannot write images.
  void openCvLoadsOnlyWhenPixelsAreTouched() {
#ifndef __linux__
    QSKIP("reads the GNU dynamic loader's LD_DEBUG log");
#else
    auto loaded = [](const QStringList& args, const QString& program = QStringLiteral(BAGSCOPE_CLI)) {
      QProcess p;
      auto env = QProcessEnvironment::systemEnvironment();
      env.insert("LD_DEBUG", "libs");
      p.setProcessEnvironment(env);
      p.start(program, args);
      if (!p.waitForFinished(120000)) qFatal("bagscope-cli did not finish");
      return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
    };
    const QString bag = test::dataPath("ros1/demo_lz4.bag");
    for (const QStringList& args :
         {QStringList{"--version"}, QStringList{"info", bag}, QStringList{"cat", bag, "--topic", "/imu"}}) {
      auto [code, log] = loaded(args);
      QCOMPARE(code, 0);
      QVERIFY2(!log.contains("libopencv"), qPrintable(args.join(' ') + " loaded OpenCV"));
    }
    QTemporaryDir dir;
    auto [code, log] =
        loaded({"export", bag, "--topic", "/camera/image_bgr", "--format", "png", "--out", dir.path(), "--quiet"});
    QCOMPARE(code, 0);
    QVERIFY2(log.contains("bagscope-opencv") && log.contains("libpng"), "image export loads the module");
    QVERIFY2(
        !log.contains("libopencv_imgcodecs") && !log.contains("libopencv_videoio") && !log.contains("bagscope-media"),
        "PNG export loads the media module's libraries");
    QCOMPARE(QDir(dir.path()).entryList({"*.png"}, QDir::Files).size(), 5);
    auto [videoCode, videoLog] = loaded(
        {"export", bag, "--topic", "/camera/image_bgr", "--format", "avi", "--out", dir.filePath("video"), "--quiet"});
    QCOMPARE(videoCode, 0);
    QVERIFY2(videoLog.contains("bagscope-media") && videoLog.contains("libopencv_videoio"),
             "video export loads the media module");

    // The program alone, without lib/bagscope beside it.
    QString lonely = dir.filePath("alone/bagscope-cli");
    QVERIFY(QDir().mkpath(dir.filePath("alone")) && QFile::copy(QStringLiteral(BAGSCOPE_CLI), lonely));
    QCOMPARE(runCliAt(lonely, {"info", bag}).exitCode, 0);
    Run refused = runCliAt(
        lonely, {"export", bag, "--topic", "/camera/image_bgr", "--format", "png", "--out", dir.filePath("none")});
    QVERIFY2(refused.exitCode != 0, refused.err.constData());
    QVERIFY2(refused.err.contains("OpenCV module") && refused.err.contains("bagscope-opencv"), refused.err.constData());
#endif
  }

  // Like mcap and ros2 bag: every subcommand answers --help with its own usage, on stdout,
  // exit 0, and says nothing of the other subcommands.
  void everySubcommandAnswersHelpWithItsOwnUsage() {
    const QStringList commands{"info", "cat", "stats", "export"};
    for (const auto& command : commands) {
      Run r = runCli({command, "--help"});
      QVERIFY2(r.exitCode == 0, qPrintable(command + ": " + r.err));
      QVERIFY2(r.out.startsWith(("usage: bagscope-cli " + command + " ").toUtf8()), qPrintable(command + ": " + r.out));
      QVERIFY2(r.out.contains("exit codes:"), qPrintable(command));
      for (const auto& other : commands)
        if (other != command)
          QVERIFY2(!r.out.contains(("bagscope-cli " + other).toUtf8()), qPrintable(command + " names " + other));
    }
    Run exportHelp = runCli({"export", "--help"});
    QVERIFY(exportHelp.out.contains("--pcd-encoding") && exportHelp.out.contains("--array-limit"));
    // The overview still lists every subcommand, and points at the per-command help.
    Run all = runCli({"--help"});
    for (const auto& command : commands)
      QVERIFY2(all.out.contains(("\n  " + command + " ").toUtf8()), qPrintable(command));
    QVERIFY(all.out.contains("<command> --help"));
  }

  // One way to say a bad command line (#35): every command names itself and points at its
  // own --help (info, cat, stats and export pointed at the overview).
  void everyUsageErrorNamesItsCommandAndItsHelp() {
    for (const QString command : {"info", "cat", "stats", "export", "filter", "merge", "convert", "recover"}) {
      Run r = runCli({command, "--no-such-option", test::dataPath("ros1/demo_lz4.bag")});
      QVERIFY2(r.exitCode == 2, qPrintable(command + ": " + r.err));
      QVERIFY2(r.err.startsWith(("bagscope-cli: " + command + ": unknown option '--no-such-option'").toUtf8()),
               qPrintable(r.err));
      QVERIFY2(r.err.trimmed().endsWith(("(see bagscope-cli " + command + " --help)").toUtf8()), qPrintable(r.err));
    }
  }

  // The formats' options are flags made from one table (#35): each is in the usage with its
  // help, each value is checked as the table says, and a flag that takes a value says so.
  void formatOptionsAreReadFromTheirTable() {
    Run help = runCli({"export", "--help"});
    for (const auto& o : exporters::formatOptions()) {
      QVERIFY2(help.out.contains(QByteArray("--") + o.id), o.id);
      QVERIFY2(help.out.simplified().contains(QByteArray(o.help).left(30)), o.help);
    }
    QVERIFY(help.out.contains("--pcd-encoding binary|binary_compressed|ascii"));
    const QString bag = test::dataPath("ros1/demo_lz4.bag");
    QTemporaryDir out;
    struct Bad {
      QStringList args;
      const char* said;
    };
    for (const Bad& bad :
         {Bad{{"--quality", "101"}, "--quality takes a whole number from 0 to 100, not '101'"},
          Bad{{"--quality", "9.5"}, "--quality takes a whole number"},
          Bad{{"--fps", "fast"}, "--fps takes a number from 0 to 1000, not 'fast'"},
          Bad{{"--time", "utc"}, "--time takes both, log or stamp, not 'utc'"},
          Bad{{"--axes", "x,x,z"}, "--axes 'x,x,z'"}, Bad{{"--array-limit"}, "--array-limit needs N"}}) {
      Run r = runCli(QStringList{"export", bag, "--format", "csv", "--out", out.path()} + bad.args);
      QVERIFY2(r.exitCode == 2, qPrintable(bad.args.join(' ') + ": " + r.err));
      QVERIFY2(r.err.contains(bad.said), qPrintable(r.err));
    }
    QVERIFY(QDir(out.path()).isEmpty());
    // The alias and a value that is taken.
    Run ok = runCli({"export", bag, "--format", "csv", "--topic", "/imu", "--normalize-intensity", "--time", "log",
                     "--seconds", "--out", out.path()});
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
    QFile csv(out.filePath("demo_lz4_imu.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QVERIFY2(csv.readLine().startsWith("log_time,"), "--time log --seconds: one time column, in seconds");
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
