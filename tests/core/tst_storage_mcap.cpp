// core/storage/mcap: every MCAP fixture reads as Foxglove's reference libraries wrote and
// decoded it; summary-less, cut and damaged files are recovered or reported, never crash.

#include <QtTest>

#include <cstring>

#include <map>
#include <random>

#include "common/mcap_builder.hpp"
#include "common/source_checks.hpp"
#include "common/test_support.hpp"
#include "core/decode/decoder.hpp"
#include "core/storage/mcap/mcap_source.hpp"
#include "core/storage/source.hpp"

using namespace bagscope;
using namespace bagscope::storage;
using bagscope::test::McapBuilder;

namespace {

using test::openOrFail;
using test::readAll;

const std::vector<QJsonObject>& expectedMessages() { return test::expectedMessages("ros2/demo.expected.jsonl"); }

QString compareWithExpected(const std::vector<test::DecodedMessage>& ours, std::size_t count) {
  return test::compareWithExpected(ours, expectedMessages(), count);
}

std::uint64_t u64At(const std::vector<std::byte>& b, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

// Where the first chunk record (op 0x06) of an MCAP file starts, after the magic and the
// header record; past the end when there is none.
std::size_t firstChunkRecord(const std::vector<std::byte>& file) {
  std::size_t at = 8;
  while (at + 9 <= file.size() && file[at] != std::byte{0x06}) at += 9 + u64At(file, at + 1);
  return at;
}

}  // namespace

class TestStorageMcap : public QObject {
  Q_OBJECT

private slots:
  void cutFileRecoversEveryCompleteMessage() {
    auto source = openOrFail("ros2/demo_truncated.mcap");
    QVERIFY(!source->info().indexed);
    auto ours = readAll(*source);
    // 577 are in the chunks complete before the cut (the fixture's expectation); the
    // complete messages at the start of the cut, uncompressed chunk come back too.
    QVERIFY(ours.size() >= 577);
    QCOMPARE(ours.size(), std::size_t{585});
    QString diff = compareWithExpected(ours, ours.size());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    std::string all;
    for (const auto& p : source->info().problems) all += p + "\n";
    QVERIFY2(all.find("offset 1792668") != std::string::npos, all.c_str());  // the cut chunk
  }

  void openReadsOnlyTheSummary() {
    auto bytes = openFile(test::dataPath("ros2/demo_zstd.mcap").toStdString());
    QVERIFY(bytes.has_value());
    auto counting = std::make_unique<test::CountingSource>(std::move(bytes).value());
    auto* counter = counting.get();
    auto source = openMcap(std::move(counting));
    QVERIFY(source.has_value());
    QVERIFY2(counter->bytesRead < 64 * 1024, qPrintable(QString::number(counter->bytesRead)));
    std::map<std::string, std::uint64_t> counts, expected;
    for (const auto& c : (*source)->connections()) counts[c.topic] += c.messageCount;
    for (const auto& e : expectedMessages()) ++expected[e["topic"].toString().toStdString()];
    QCOMPARE(counts, expected);
    QCOMPARE((*source)->info().startNs,
             static_cast<std::int64_t>(expectedMessages().front()["log_time_ns"].toInteger()));
    QCOMPARE((*source)->info().endNs, static_cast<std::int64_t>(expectedMessages().back()["log_time_ns"].toInteger()));
    // What `info` prints per topic then reads less than the index: the summary and the index
    // records of the chunks that can hold a topic's first or last message.
    auto fixture = test::spansThenIndex(**source, *counter);
    QVERIFY(fixture.spans == test::expectedTopicSpans(expectedMessages()));
    QVERIFY2(fixture.spansBytes > 0 && fixture.spansBytes * 2 < fixture.indexBytes,
             qPrintable(
                 QStringLiteral("spans read %1 bytes, the index %2").arg(fixture.spansBytes).arg(fixture.indexBytes)));
  }

  void filtersByTopicAndTime() {
    auto source = openOrFail("ros2/demo_lz4.mcap");
    ReadFilter filter;
    for (const auto& c : source->connections())
      if (c.topic == "/imu" || c.topic == "/chatter") filter.connections.push_back(c.id);
    filter.startNs = 1700000000500000000;
    filter.endNs = 1700000001200000000;
    auto ours = readAll(*source, filter);
    std::vector<QJsonObject> expected;
    for (const auto& e : expectedMessages()) {
      auto t = e["log_time_ns"].toInteger();
      QString topic = e["topic"].toString();
      if ((topic == "/imu" || topic == "/chatter") && t >= filter.startNs && t <= filter.endNs) expected.push_back(e);
    }
    QVERIFY(expected.size() > 100);
    QCOMPARE(ours.size(), expected.size());
    for (std::size_t i = 0; i < ours.size(); ++i)
      QVERIFY(test::jsonDifference(ours[i].msg, expected[i]["msg"]).isEmpty());
  }

  void messagesOutsideChunksOnChannelZeroAreRead() {
    McapBuilder b;
    b.schema(1, "std_msgs/msg/Int32", "ros2msg", "int32 data\n");
    b.channel(0, 1, "/zero", "cdr");  // id 0 is a valid channel id
    b.message(0, 2'000, McapBuilder::cdrInt32(-2));
    b.message(0, 1'000, McapBuilder::cdrInt32(-1));
    auto source = openSource(memorySource(b.finish(), "loose.mcap"));
    QVERIFY2(source.has_value(), source ? "" : source.error().describe().c_str());
    auto msgs = readAll(**source);
    QCOMPARE(msgs.size(), std::size_t{2});
    QCOMPARE(msgs[0].logTimeNs, std::int64_t{1000});  // log-time order
    QCOMPARE(msgs[0].msg["data"].toInt(), -1);
    QCOMPARE(msgs[1].msg["data"].toInt(), -2);
  }

  void ros1ProfileDecodesWithRos1Serialization() {
    // MCAP's ros1 profile: ros1msg schemas, "ros1" message encoding (no CDR header).
    McapBuilder b;
    b.schema(1, "std_msgs/Header", "ros1msg", "uint32 seq\ntime stamp\nstring frame_id\n");
    b.channel(2, 1, "/header", "ros1");
    test::WireWriter msg;
    msg.u32(7).u32(1700000000).u32(5).str("map");
    b.message(2, 9'000, msg.bytes);
    auto source = openSource(memorySource(b.finish(), "ros1.mcap"));
    QVERIFY(source.has_value());
    auto msgs = readAll(**source);
    QCOMPARE(msgs.size(), std::size_t{1});
    QCOMPARE(QJsonDocument(msgs[0].msg).toJson(QJsonDocument::Compact),
             QByteArray(R"({"frame_id":"map","seq":7,"stamp":{"nsec":5,"sec":1700000000}})"));
  }

  void unknownSchemaEncodingIsListedButNotDecodable() {
    McapBuilder b;
    b.schema(1, "foo.Bar", "flatbuffer", "\x01\x02");
    b.channel(3, 1, "/flat", "flatbuffer");
    b.message(3, 1'000, {std::byte{1}, std::byte{2}});
    auto source = openSource(memorySource(b.finish(), "flat.mcap"));
    QVERIFY(source.has_value());
    QCOMPARE((*source)->connections().size(), std::size_t{1});
    const Connection& c = (*source)->connections()[0];
    QCOMPARE(c.messageCount, std::uint64_t{1});
    auto d = decode::compileFor(c.type, c.messageEncoding, c.schemaEncoding, c.definition);
    QVERIFY(!d);
    QCOMPARE(d.error().code, ErrorCode::Unsupported);
    QVERIFY(QString::fromStdString(d.error().message).contains("flatbuffer"));
  }

  void badInputIsAClearError() {
    // Wrong magic, another major version, lengths past the end.
    std::string notMcap = "\x89MCAX0\r\nxxxxxxxx";
    auto bad = openSource(memorySource({reinterpret_cast<const std::byte*>(notMcap.data()),
                                        reinterpret_cast<const std::byte*>(notMcap.data()) + notMcap.size()},
                                       "x.mcap"));
    QVERIFY(!bad);
    QCOMPARE(bad.error().file, std::string("x.mcap"));
    // One flipped byte after the version is a damaged magic, not another version.
    auto flipped = test::readFileBytes(test::dataPath("ros2/demo.mcap"));
    flipped[6] = std::byte{0x0e};
    auto damaged = openSource(memorySource(std::move(flipped), "flip.mcap"));
    QVERIFY(!damaged);
    QVERIFY2(damaged.error().message.find("89 4d 43 41 50 30 0e 0a, not the MCAP magic") != std::string::npos,
             damaged.error().message.c_str());
    std::string v1 = "\x89MCAP1\r\n";
    auto newer = openSource(memorySource(
        {reinterpret_cast<const std::byte*>(v1.data()), reinterpret_cast<const std::byte*>(v1.data()) + v1.size()},
        "v1.mcap"));
    QVERIFY(!newer);
    QVERIFY2(newer.error().message.find("major version '1' is not supported") != std::string::npos,
             newer.error().message.c_str());
    McapBuilder b;
    b.schema(1, "std_msgs/msg/Int32", "ros2msg", "int32 data\n");
    b.channel(1, 1, "/a", "cdr");
    b.message(1, 5, McapBuilder::cdrInt32(5));
    b.lyingRecord(0x05, 1u << 30);
    auto source = openSource(memorySource(b.finish(false), "lying.mcap"));
    QVERIFY(source.has_value());
    QCOMPARE(readAll(**source).size(), std::size_t{1});
    std::string all;
    for (const auto& p : (*source)->info().problems) all += p + "\n";
    QVERIFY2(all.find("ends inside a record") != std::string::npos, all.c_str());
  }

  void corruptCompressedChunkIsReportedAndTheRestIsRead() {
    auto bytes = test::readFileBytes(test::dataPath("ros2/demo_zstd.mcap"));
    for (std::size_t i = bytes.size() / 3; i < bytes.size() / 3 + 32; ++i) bytes[i] ^= std::byte{0x55};
    auto source = openSource(memorySource(std::move(bytes), "damaged.mcap"));
    QVERIFY(source.has_value());
    std::vector<std::string> problems;
    std::size_t n = 0;
    QVERIFY((*source)
                ->readMessages(
                    {}, [&](const MessageView&) { return ++n > 0; },
                    [&](const Error& e) { problems.push_back(e.describe()); })
                .has_value());
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].find("damaged.mcap") != std::string::npos, problems[0].c_str());
    QVERIFY(n > 500 && n < 715);
  }

  // An uncompressed chunk whose header claims more or fewer bytes than its records hold is
  // refused as the decompressor refuses it (Truncated or Format, "holds N bytes"), whichever
  // way it is read; claiming fewer once dropped the records past the claim without a word.
  void anUncompressedChunkOfTheWrongSizeIsSaid() {
    const auto intact = test::readFileBytes(test::dataPath("ros2/demo.mcap"));
    const std::size_t at = firstChunkRecord(intact);
    QVERIFY(at + 9 <= intact.size());
    const std::size_t sizeAt = at + 9 + 16, crcAt = sizeAt + 8;
    const std::uint64_t held = u64At(intact, sizeAt);
    for (std::int64_t off : {-16, 16}) {
      auto bytes = intact;
      const std::uint64_t claimed = held + static_cast<std::uint64_t>(off);
      std::memcpy(bytes.data() + sizeAt, &claimed, 8);
      std::memset(bytes.data() + crcAt, 0, 4);  // no CRC: the size alone must tell
      auto source = openSource(memorySource(std::move(bytes), "sized.mcap"));
      QVERIFY(source.has_value());
      std::vector<std::string> problems;
      (void)(*source)->readMessages(
          {}, [](const MessageView&) { return true; }, [&](const Error& e) { problems.push_back(e.describe()); });
      const std::string want =
          "uncompressed data holds " + std::to_string(held) + " bytes, its header says " + std::to_string(claimed);
      QVERIFY2(problems.size() == 1 && problems[0].find(want) != std::string::npos,
               (problems.empty() ? std::string("no problem") : problems[0]).c_str());
    }
  }

  // A byte changed inside an uncompressed chunk (nothing but its CRC can tell) loses that
  // chunk's messages, said once, wherever in the chunk the byte is: the CRC is taken alongside
  // the listing of the records, and none listed before the end may slip through.
  void aChunkThatFailsItsCrcGivesNoMessages() {
    const auto intact = test::readFileBytes(test::dataPath("ros2/demo.mcap"));
    const std::size_t at = firstChunkRecord(intact);
    QVERIFY(at + 9 <= intact.size());
    std::uint32_t crc = 0;
    std::memcpy(&crc, intact.data() + at + 9 + 24, 4);
    QVERIFY2(crc != 0, "the fixture's first chunk has a CRC");
    const std::size_t compressionLength = u64At(intact, at + 9 + 28) & 0xffffffffu;
    const std::size_t recordsAt = at + 9 + 32 + compressionLength + 8;
    const std::size_t recordsLength = u64At(intact, recordsAt - 8);
    auto messagesOf = [](std::vector<std::byte> bytes, std::vector<std::string>& problems) {
      std::vector<std::pair<std::int64_t, std::vector<std::byte>>> out;
      auto source = openSource(memorySource(std::move(bytes), "flipped.mcap"));
      if (!source) qFatal("%s", source.error().describe().c_str());
      (void)(*source)->readMessages(
          {},
          [&](const MessageView& m) {
            out.emplace_back(m.logTimeNs, std::vector<std::byte>(m.bytes.begin(), m.bytes.end()));
            return true;
          },
          [&](const Error& e) { problems.push_back(e.describe()); });
      return out;
    };
    std::vector<std::string> none;
    const auto all = messagesOf(intact, none);
    QVERIFY(none.empty());
    for (std::size_t where : {recordsLength - 3, recordsLength / 2, recordsLength * 9 / 10}) {
      auto bytes = intact;
      bytes[recordsAt + where] ^= std::byte{0x20};
      std::vector<std::string> problems;
      const auto got = messagesOf(std::move(bytes), problems);
      QVERIFY2(problems.size() == 1 && problems[0].find("does not match its CRC") != std::string::npos,
               (problems.empty() ? std::string("no problem") : problems[0]).c_str());
      QVERIFY(got.size() < all.size());
      for (const auto& m : got) QVERIFY(std::find(all.begin(), all.end(), m) != all.end());
    }
  }

  // Deterministic damage to a real file: every outcome is a value or an error, and what is
  // recovered is the intact file's own messages, never more of them, never altered ones.
  void randomDamageGivesOnlyIntactMessages() {
    int opened = 0;
    std::size_t recovered = 0;
    QString violation = test::randomDamageGivesOnlyIntactMessages(
        test::readFileBytes(test::dataPath("ros2/demo_lz4.mcap")),
        [](std::vector<std::byte> bytes) { return openSource(memorySource(std::move(bytes), "fuzzed.mcap")); }, 7, 150,
        opened, recovered);
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
    qInfo("%d of 150 damaged files opened and gave %zu messages", opened, recovered);
    QVERIFY2(opened >= 150 / 4,
             qPrintable(QString("only %1 of 150 damaged files gave messages: little was exercised").arg(opened)));
  }
};

QTEST_GUILESS_MAIN(TestStorageMcap)
#include "tst_storage_mcap.moc"
