// core/write on every system (the independent readers' test, tests/write, needs Debian's
// Python and Node): each container written from the fixtures and read back holds exactly the
// messages of the reference readers' expectations; cancelling leaves nothing; topics are
// chosen by name and expression; an input is never an output; a ROS 1 bag refuses times it
// cannot hold.

#include <QtTest>

#include <QTemporaryDir>

#include "common/source_checks.hpp"
#include "common/wire_writer.hpp"
#include "core/session/session.hpp"
#include "core/write/detail/translate.hpp"
#include "core/write/write.hpp"

using namespace bagscope;
using compress::Codec;
using write::Container;

namespace {

std::unique_ptr<session::Session> openSession(const QString& relative) {
  auto s = session::Session::open({test::dataPath(relative).toStdString()});
  if (!s) qFatal("open %s: %s", qPrintable(relative), s.error().describe().c_str());
  return std::move(s).value();
}

QStringList entries(const QString& folder) {
  return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

}  // namespace

Q_DECLARE_METATYPE(bagscope::write::Container)
Q_DECLARE_METATYPE(bagscope::compress::Codec)

class TestWrite : public QObject {
  Q_OBJECT

private slots:
  void everyContainerHoldsTheReferenceMessages_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<Container>("container");
    QTest::addColumn<Codec>("codec");
    const QString ros1 = "ros1/demo.expected.jsonl", ros2 = "ros2/demo.expected.jsonl";
    QTest::newRow("bag -> bag") << "ros1/demo_lz4.bag" << ros1 << Container::Ros1Bag << Codec::None;
    QTest::newRow("bag -> bag bz2") << "ros1/demo_uncompressed.bag" << ros1 << Container::Ros1Bag << Codec::Bz2;
    QTest::newRow("bag -> bag lz4") << "ros1/demo_bz2.bag" << ros1 << Container::Ros1Bag << Codec::Lz4Frame;
    QTest::newRow("bag -> mcap zstd") << "ros1/demo_lz4.bag" << ros1 << Container::Mcap << Codec::Zstd;
    QTest::newRow("bag -> mcap lz4") << "ros1/demo_lz4.bag" << ros1 << Container::Mcap << Codec::Lz4Frame;
    QTest::newRow("mcap -> mcap") << "ros2/demo_zstd.mcap" << ros2 << Container::Mcap << Codec::None;
    QTest::newRow("mcap -> rosbag2 mcap") << "ros2/demo.mcap" << ros2 << Container::Rosbag2Mcap << Codec::Zstd;
    QTest::newRow("mcap -> rosbag2 db3") << "ros2/demo_lz4.mcap" << ros2 << Container::Rosbag2Db3 << Codec::None;
    QTest::newRow("db3 -> mcap") << "ros2/demo_db3" << ros2 << Container::Mcap << Codec::Lz4Frame;
  }

  void everyContainerHoldsTheReferenceMessages() {
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QFETCH(Container, container);
    QFETCH(Codec, codec);
    QTemporaryDir dir;
    auto s = openSession(input);
    write::CopyRequest request;
    request.output = dir.path().toStdString() + "/out" + std::string(write::containerInfo(container).extension);
    request.writer.container = container;
    request.writer.compression = codec;
    request.writer.chunkBytes = 64 << 10;  // several chunks
    auto report = write::copyRecording(*s, request);
    QVERIFY2(report, report ? "" : report.error().describe().c_str());
    const auto& reference = test::expectedMessages(expected);
    QCOMPARE(report->messagesWritten, static_cast<std::uint64_t>(reference.size()));
    QCOMPARE(entries(dir.path()), QStringList({"out" + QString::fromStdString(request.output.extension().string())}));

    auto back = test::openOrFail(QString::fromStdString(request.output.string()));
    QVERIFY2(back->info().problems.empty(), back->info().problems.empty() ? "" : back->info().problems.front().c_str());
    auto all = test::readAll(*back);
    QCOMPARE(all.size(), reference.size());
    QString diff = test::compareWithExpected(all, reference, reference.size());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    std::size_t indexed = 0;
    diff = test::indexMatchesIteration(*back, indexed);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QCOMPARE(indexed, reference.size());
    auto stats = back->chunkStats();
    QVERIFY(stats);
    if (container == Container::Ros1Bag || container == Container::Mcap) {
      QVERIFY(stats->chunkCount > 3);
      QCOMPARE(stats->chunksByCompression.size(), std::size_t{1});
      QCOMPARE(stats->chunksByCompression.front().first,
               std::string(codec == Codec::None ? "none" : compress::codecName(codec)));
    }
  }

  void cancellingLeavesNothing() {
    QTemporaryDir dir;
    auto ros1 = openSession("ros1/demo_uncompressed.bag");
    auto ros2 = openSession("ros2/demo.mcap");
    for (auto container : {Container::Mcap, Container::Ros1Bag, Container::Rosbag2Mcap, Container::Rosbag2Db3}) {
      bagscope::StopSource stop;
      write::CopyRequest request;
      request.output = dir.path().toStdString() + "/cancelled" + std::string(write::containerInfo(container).extension);
      request.writer.container = container;
      request.writer.chunkBytes = 4096;
      bool cdr = container == Container::Rosbag2Mcap || container == Container::Rosbag2Db3;
      // Stopped at the first progress report (after 256 messages), half way through.
      auto report = write::copyRecording(cdr ? *ros2 : *ros1, request, stop.get_token(), [&](double f) {
        if (f < 1) stop.request_stop();
      });
      QVERIFY(!report);
      QCOMPARE(report.error().code, ErrorCode::Cancelled);
      QCOMPARE(entries(dir.path()), QStringList());
    }
  }

  void topicsAreChosenByNameAndExpression() {
    auto s = openSession("ros1/demo_lz4.bag");
    auto names = [&](const std::vector<session::TopicId>& ids) {
      QStringList out;
      for (auto id : ids) out << QString::fromStdString(s->topics()[id].name);
      return out;
    };
    auto chosen = write::selectTopics(*s, {{"/imu", "/\\/camera\\/.*_raw.*/"}, {"/camera/image_raw/compressed"}});
    QVERIFY(chosen);
    QCOMPARE(names(*chosen), QStringList({"/camera/image_raw", "/imu"}));
    auto all = write::selectTopics(*s, {{}, {"/\\/camera.*/"}});
    QVERIFY(all);
    QCOMPARE(all->size(), s->topics().size() - 8);  // 8 camera topics
    QVERIFY(!write::selectTopics(*s, {{"/nope"}, {}}));
    auto bad = write::selectTopics(*s, {{"/[/"}, {}});
    QVERIFY(!bad);
    QVERIFY(QString::fromStdString(bad.error().message).contains("not a regular expression"));
  }

  void anInputIsNeverAnOutput() {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(test::dataPath("ros1/demo_lz4.bag"), dir.filePath("in.bag")));
    auto s = session::Session::open({dir.filePath("in.bag").toStdString()});
    QVERIFY(s);
    for (QString out : {dir.filePath("in.bag"), dir.path()}) {
      write::CopyRequest request;
      request.output = out.toStdString();
      request.writer.container = out.endsWith(".bag") ? Container::Ros1Bag : Container::Rosbag2Mcap;
      request.writer.overwrite = true;
      auto report = write::copyRecording(**s, request);
      QVERIFY(!report);
      QVERIFY(QString::fromStdString(report.error().describe()).contains("is an input"));
    }
    QCOMPARE(QFileInfo(dir.filePath("in.bag")).size(), QFileInfo(test::dataPath("ros1/demo_lz4.bag")).size());
  }

  // ROS 1 to ROS 2 byte to byte (no value tree) gives what the value path gives, for every
  // message of the ROS 1 fixtures; every type but Log's goes the direct way.
  void directTranslationEqualsTheValuePath() {
    int direct = 0, messages = 0;
    for (const char* bag : {"ros1/demo_uncompressed.bag", "ros1/robot_state.bag", "ros1/tf_old.bag"}) {
      auto s = openSession(bag);
      std::map<const storage::Connection*, std::unique_ptr<write::detail::Translation>> translations;
      for (const auto& topic : s->topics())
        for (const auto& m : topic.members) {
          auto t = write::detail::Translation::make(schema::Dialect::Ros2, *m.connection, *s->decoder(*m.connection),
                                                    {}, {});
          QVERIFY2(t, t ? "" : t.error().message.c_str());
          QVERIFY2((*t)->direct() == (m.connection->type != "rosgraph_msgs/Log"), m.connection->type.c_str());
          direct += (*t)->direct();
          translations.emplace(m.connection, std::move(t).value());
        }
      std::vector<std::byte> a, b;
      auto r = s->forEach({}, [&](const session::Message& m) {
        auto& t = *translations.at(m.connection);
        if (!t.translate(m.bytes, a) || !t.translateByValues(m.bytes, b)) return false;
        ++messages;
        return a == b;
      });
      QVERIFY2(r, bag);
    }
    QVERIFY(messages > 800 && direct > 20);
    // Cut short: the direct way gives up, the value path says where.
    auto s = openSession("ros1/robot_state.bag");
    const auto& c = *s->topics().front().members.front().connection;
    auto t = write::detail::Translation::make(schema::Dialect::Ros2, c, *s->decoder(c), {}, {});
    std::vector<std::byte> out, cut(7, std::byte{1});
    QVERIFY(!(*t)->translate(cut, out));
  }

  // A field ROS 2 dropped is passed over, however many elements of no bytes it counts: once one
  // element reads nothing, so do the rest (a fuzzer's hang walked 2^26 of them, each 64 deep).
  void skippedArraysOfEmptyMessagesCostNothing() {
    storage::Connection c;
    c.topic = "/h";
    c.type = "pkg/Stamped";
    c.messageEncoding = "ros1";
    c.schemaEncoding = "ros1msg";
    c.definition =
        "std_msgs/Header header\n====\nMSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"
        "pkg/E[] extra\n====\nMSG: pkg/E\npkg/F[64] f\n====\nMSG: pkg/F\n";
    auto decoder = decode::compileFor(c.type, "ros1", "ros1msg", c.definition);
    QVERIFY2(decoder, decoder ? "" : decoder.error().message.c_str());
    auto t = write::detail::Translation::make(schema::Dialect::Ros2, c, *decoder, {}, {});
    QVERIFY2(t, t ? "" : t.error().message.c_str());
    QVERIFY((*t)->direct());
    test::WireWriter w;
    w.u32(9).u32(5).u32(6).str("base").u32(1u << 26);
    std::vector<std::byte> out;
    QElapsedTimer clock;
    clock.start();
    QVERIFY((*t)->translate(w.bytes, out));
    QVERIFY2(clock.elapsed() < 1000, std::to_string(clock.elapsed()).c_str());
    // builtin_interfaces/Time stamp, then frame_id with its NUL: seq and the extra field are gone.
    test::WireWriter cdr;
    cdr.u32(0x00000100u).u32(5).u32(6).u32(5).raw(std::string_view("base\0", 5));
    QCOMPARE(out, cdr.bytes);
  }

  // A user's field rename in a definition made from the bag's: fields renamed whatever their
  // comments hold, constants (NAME=value) never; the messages match by the new names.
  void renamedFieldsInTheDefinitionsMadeFromTheBags() {
    storage::Connection c;
    c.topic = "/t";
    c.type = "pkg/T";
    c.messageEncoding = "ros1";
    c.schemaEncoding = "ros1msg";
    c.definition = "int32 a  # where a=1 means on\nint32 a2=5\nstring b\n";
    auto decoder = decode::compileFor(c.type, "ros1", "ros1msg", c.definition);
    QVERIFY(decoder);
    write::Renames user;
    user.packages["pkg"] = "fleet";
    user.fields["pkg/T"] = {{"a", "alpha"}, {"a2", "never"}};
    auto t = write::detail::Translation::make(schema::Dialect::Ros2, c, *decoder, {}, user);
    QVERIFY2(t, t ? "" : t.error().message.c_str());
    const auto& out = (*t)->connection();
    QCOMPARE(out.type, std::string("fleet/msg/T"));
    QVERIFY2(out.definition.find("int32 alpha  # where a=1 means on") != std::string::npos, out.definition.c_str());
    QVERIFY2(out.definition.find("int32 a2=5") != std::string::npos, out.definition.c_str());
    std::vector<std::byte> ros1 = {std::byte{7}, {}, {}, {}, std::byte{1}, {}, {}, {}, std::byte{'x'}}, cdr;
    QVERIFY((*t)->translate(ros1, cdr));
    auto ros2 = decode::compileFor(out.type, "cdr", "ros2msg", out.definition);
    QVERIFY(ros2);
    auto v = (*ros2)->decode(cdr);
    QVERIFY(v && v->items.size() == 2);
    QCOMPARE((*ros2)->schema().root->fields[0].name, std::string("alpha"));
    QCOMPARE(v->items[0].i, std::int64_t{7});
    QCOMPARE(v->items[1].text, std::string("x"));
  }

  void aRos1BagRefusesTimesItCannotHold() {
    QTemporaryDir dir;
    write::WriterOptions options;
    options.container = Container::Ros1Bag;
    auto w = write::openWriter(dir.filePath("t.bag").toStdString(), options);
    QVERIFY(w);
    storage::Connection c;
    c.topic = "/t";
    c.type = "std_msgs/Int32";
    c.messageEncoding = "ros1";
    auto ch = (*w)->addConnection(c);
    QVERIFY(ch);
    std::byte four[4] = {};
    QVERIFY(!(*w)->write(*ch, -1, four));
    QVERIFY(!(*w)->write(*ch, std::int64_t{1} << 62, four));
    c.messageEncoding = "cdr";
    QVERIFY(!(*w)->addConnection(c));
    w->reset();  // never finished: nothing stays
    QCOMPARE(entries(dir.path()), QStringList());
  }
};

QTEST_MAIN(TestWrite)
#include "tst_write.moc"
