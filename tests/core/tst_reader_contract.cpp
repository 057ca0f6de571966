// The contract every storage reader keeps, run over every reader (ROS 1, MCAP, rosbag2
// SQLite and rosbag2 MCAP) on the fixtures written by independent tools: the messages are
// the reference reader's, in log-time order; the info agrees with them; filters by time
// and connection select exactly the matching messages; and the index reads what iteration
// reads. A new reader is a new row here — as the in-test container's is (a container is its
// reader plus one registration: common/test_container.hpp).

#include <QtTest>

#include <fstream>
#include <set>

#include "common/source_checks.hpp"
#include "common/test_container.hpp"

using namespace bagscope;
namespace fs = std::filesystem;

class TestReaderContract : public QObject {
  Q_OBJECT

private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    auto registered = storage::registerContainerFormat(test::testRecordingFormat());
    QVERIFY2(registered, registered ? "" : registered.error().describe().c_str());
    auto demo = test::openOrFail("ros2/demo_zstd.mcap");
    auto written = test::writeTestRecording(*demo, testRecording());
    QVERIFY2(written, written ? "" : written.error().describe().c_str());
  }

  // A registered container is a recording to everything that asks what a path is, by its
  // magic alone; registering a name twice, or a row that cannot open anything, is refused.
  void aRegisteredContainerIsARecordingEverywhere() {
    const storage::ContainerFormat* format = storage::containerFormatOf(testRecording());
    QVERIFY(format);
    QCOMPARE(format->id, std::string_view("testrec"));
    QCOMPARE(storage::classify(testRecording()), storage::PathKind::Recording);
    QVERIFY(storage::hasRecordingName("run.testrec"));
    QVERIFY(storage::recordingFilePatterns().find("*.testrec") != std::string::npos);
    QVERIFY(!storage::registerContainerFormat(test::testRecordingFormat()));
    storage::ContainerFormat builtInName = test::testRecordingFormat();
    builtInName.id = "mcap";
    QVERIFY(!storage::registerContainerFormat(builtInName));
    storage::ContainerFormat opensNothing;
    opensNothing.id = "nothing";
    opensNothing.magic = "#NOTHING";
    QVERIFY(!storage::registerContainerFormat(opensNothing));

    // Its reader's errors reach the user as any reader's: naming the file and the offset.
    fs::path cut = fs::path(dir_.path().toStdString()) / "cut.testrec";
    {
      std::ifstream in(testRecording(), std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), {});
      std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() - 3));
    }
    auto opened = storage::openSource(cut);
    QVERIFY(!opened);
    QVERIFY2(opened.error().file == cut.string() && opened.error().offset, opened.error().describe().c_str());
    QVERIFY2(opened.error().message.find("ends inside a message") != std::string::npos,
             opened.error().describe().c_str());

    // And a file no container takes is told what the known ones start with, this one too.
    fs::path junk = fs::path(dir_.path().toStdString()) / "junk.testrec";
    std::ofstream(junk, std::ios::binary) << "not a recording";
    auto refused = storage::openSource(junk);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("test recordings start with '#TESTREC\\x0a'") != std::string::npos,
             refused.error().message.c_str());
  }

  void everyReaderKeepsTheContract_data() {
    QTest::addColumn<QString>("recording");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("format");  // what info().format says
    QTest::addColumn<bool>("indexed");    // what info().indexed says: false when the file was scanned
    QTest::addColumn<QString>("note");    // what info().problems says (empty: nothing)
    const QString ros1 = "ros1/demo.expected.jsonl", ros2 = "ros2/demo.expected.jsonl";
    const QString bag = "ROS 1 bag", mcap = "MCAP", sqlite = "rosbag2 (sqlite3)";
    QTest::newRow("ros1 bz2") << "ros1/demo_bz2.bag" << ros1 << bag << true << QString();
    QTest::newRow("ros1 lz4") << "ros1/demo_lz4.bag" << ros1 << bag << true << QString();
    QTest::newRow("ros1 uncompressed") << "ros1/demo_uncompressed.bag" << ros1 << bag << true << QString();
    QTest::newRow("mcap uncompressed") << "ros2/demo.mcap" << ros2 << mcap << true << QString();
    QTest::newRow("mcap zstd") << "ros2/demo_zstd.mcap" << ros2 << mcap << true << QString();
    QTest::newRow("mcap lz4") << "ros2/demo_lz4.mcap" << ros2 << mcap << true << QString();
    // Optional: no damage, and read by a scan.
    QTest::newRow("mcap no summary") << "ros2/demo_nosummary.mcap" << ros2 << mcap << false << QString();
    QTest::newRow("mcap storage file of a rosbag2")
        << "ros2/demo_mcap_bag/demo_mcap_bag_0.mcap" << ros2 << mcap << true << QString();
    QTest::newRow("rosbag2 sqlite") << "ros2/demo_db3" << ros2 << sqlite << true << QString();
    QTest::newRow("rosbag2 sqlite, its metadata.yaml")
        << "ros2/demo_db3/metadata.yaml" << ros2 << sqlite << true << QString();
    QTest::newRow("rosbag2 sqlite, its .db3") << "ros2/demo_db3/demo_db3_0.db3" << ros2 << sqlite << true << QString();
    QTest::newRow("rosbag2 sqlite split") << "ros2/demo_db3_split" << ros2 << sqlite << true << QString();
    QTest::newRow("rosbag2 mcap") << "ros2/demo_mcap_bag" << ros2 << "rosbag2 (mcap)" << true << QString();
    QTest::newRow("in-test container") << QString::fromStdString(testRecording().string()) << ros2 << "test recording"
                                       << true << QString();
  }

  void everyReaderKeepsTheContract() {
    QFETCH(QString, recording);
    QFETCH(QString, expected);
    QFETCH(QString, format);
    QFETCH(bool, indexed);
    QFETCH(QString, note);
    auto source = test::openOrFail(recording);
    const auto& reference = test::expectedMessages(expected);

    // All messages, as the reference reads them, in log-time order.
    auto all = test::readAll(*source);
    QCOMPARE(all.size(), reference.size());
    QString diff = test::compareWithExpected(all, reference, reference.size());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY(std::is_sorted(all.begin(), all.end(), [](auto& a, auto& b) { return a.logTimeNs < b.logTimeNs; }));

    // The info agrees with them.
    const auto& info = source->info();
    QCOMPARE(QString::fromStdString(info.format), format);
    QCOMPARE(info.indexed, indexed);
    QCOMPARE(info.messageCount, static_cast<std::uint64_t>(reference.size()));
    QCOMPARE(info.startNs, all.front().logTimeNs);
    QCOMPARE(info.endNs, all.back().logTimeNs);
    if (note.isEmpty()) QVERIFY2(info.problems.empty(), info.problems.empty() ? "" : info.problems.front().c_str());
    else
      QVERIFY(std::any_of(info.problems.begin(), info.problems.end(),
                          [&](auto& p) { return QString::fromStdString(p).contains(note); }));
    std::uint64_t perConnection = 0;
    for (const auto& c : source->connections()) perConnection += c.messageCount;
    QCOMPARE(perConnection, info.messageCount);
    // What `info` prints per topic (from the file's summary where it has one) is the reference's.
    QVERIFY(test::topicSpans(*source) == test::expectedTopicSpans(reference));

    // A time window and a connection select exactly what they should (bounds inclusive).
    const std::int64_t from = all[all.size() / 3].logTimeNs, to = all[2 * all.size() / 3].logTimeNs;
    storage::ReadFilter window;
    window.startNs = from;
    window.endNs = to;
    auto inWindow = test::readAll(*source, window);
    auto expectedInWindow =
        std::count_if(all.begin(), all.end(), [&](auto& m) { return m.logTimeNs >= from && m.logTimeNs <= to; });
    QCOMPARE(static_cast<std::ptrdiff_t>(inWindow.size()), expectedInWindow);
    const auto& first = source->connections().front();
    storage::ReadFilter one;
    one.connections = {first.id};
    auto ofOne = test::readAll(*source, one);
    QCOMPARE(static_cast<std::uint64_t>(ofOne.size()), first.messageCount);
    for (const auto& m : ofOne) QCOMPARE(m.topic, first.topic);

    // The index reads what iteration reads.
    std::size_t inIndex = 0;
    QString mismatch = test::indexMatchesIteration(*source, inIndex);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    QCOMPARE(inIndex, reference.size());
  }

private:
  std::filesystem::path testRecording() const { return fs::path(dir_.path().toStdString()) / "demo.testrec"; }

  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestReaderContract)
#include "tst_reader_contract.moc"
