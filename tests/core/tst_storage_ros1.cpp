// core/storage/ros1: every ROS 1 fixture reads as python3-rosbag reads it; damaged and
// untidy bags are recovered or reported, never crash.

#include <QtTest>

#include <set>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "common/ros1_bag_builder.hpp"
#include "common/source_checks.hpp"
#include "common/test_support.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/storage/ros1/ros1_source.hpp"
#include "core/storage/source.hpp"

using namespace bagscope;
using namespace bagscope::storage;
using bagscope::test::Ros1BagBuilder;

namespace {

using test::compareWithExpected;
using test::openOrFail;
using test::readAll;

const std::vector<QJsonObject>& expectedMessages() { return test::expectedMessages("ros1/demo.expected.jsonl"); }

constexpr const char* kInt32Md5 = "da5909fbe378aeaf85e547e830cc1bb7";

std::unique_ptr<Source> openBytes(std::vector<std::byte> bytes, const char* name = "built.bag") {
  auto s = openSource(memorySource(std::move(bytes), name));
  if (!s) qFatal("open built bag: %s", s.error().describe().c_str());
  return std::move(s).value();
}

// Two Int32 topics, /a (1, 3, 4, 5) and /b (2, 6, 7) at those microseconds: chunk 1 is later
// than chunk 2, chunk 3 overlaps both, and messages inside are out of order.
Ros1BagBuilder untidyBag() {
  Ros1BagBuilder b;
  b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
  b.addConnection(1, "/b", "std_msgs/Int32", kInt32Md5, "int32 data\n");
  b.addChunk({{0, 5'000, Ros1BagBuilder::int32Payload(5)}, {1, 7'000, Ros1BagBuilder::int32Payload(7)}});
  b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)}, {0, 3'000, Ros1BagBuilder::int32Payload(3)}});
  b.addChunk({{1, 6'000, Ros1BagBuilder::int32Payload(6)},
              {1, 2'000, Ros1BagBuilder::int32Payload(2)},
              {0, 4'000, Ros1BagBuilder::int32Payload(4)}});
  return b;
}

}  // namespace

class TestStorageRos1 : public QObject {
  Q_OBJECT

private slots:
  // The md5sum of each type computed from its definition is the one rosbag (genmsg) stored.
  void md5sumsComputedFromDefinitionsAreRosbags() {
    std::set<std::string> checked;
    for (const char* bag : {"ros1/demo_uncompressed.bag", "ros1/robot_state.bag", "ros1/tf_old.bag"}) {
      auto source = openOrFail(bag);
      for (const auto& c : source->connections()) {
        auto schema = schema::parseDefinition(c.type, c.definition, schema::Dialect::Ros1);
        QVERIFY2(schema, c.type.c_str());
        QCOMPARE(schema::ros1Md5(**schema), c.md5sum);
        checked.insert(c.type);
      }
    }
    QVERIFY2(checked.size() >= 8, qPrintable(QString::number(checked.size())));
  }

  void recoversEveryCompleteMessageOfDamagedBags_data() {
    QTest::addColumn<QString>("bag");
    QTest::addColumn<int>("reindexRecovers");  // what `rosbag reindex` gets back
    QTest::addColumn<int>("complete");         // complete messages in the file (fixture README)
    QTest::newRow("truncated") << "ros1/demo_truncated.bag" << 633 << 668;
    QTest::newRow("crashed") << "ros1/demo_crashed.bag" << 489 << 500;
  }
  void recoversEveryCompleteMessageOfDamagedBags() {
    QFETCH(QString, bag);
    QFETCH(int, reindexRecovers);
    QFETCH(int, complete);
    auto source = openOrFail(bag);
    QVERIFY(!source->info().indexed);
    QVERIFY(!source->info().problems.empty());
    QCOMPARE(source->info().messageCount, static_cast<std::uint64_t>(complete));
    auto ours = readAll(*source);
    QVERIFY(ours.size() >= static_cast<std::size_t>(reindexRecovers));
    QCOMPARE(ours.size(), static_cast<std::size_t>(complete));
    // The recovered messages are the first ones of the intact recording, unchanged.
    QString diff = compareWithExpected(ours, expectedMessages(), ours.size());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void truncatedBagReportsWhereTheFileIsCut() {
    auto source = openOrFail("ros1/demo_truncated.bag");
    std::string all;
    for (const auto& p : source->info().problems) all += p + "\n";
    QVERIFY2(all.find("1983162") != std::string::npos, all.c_str());  // offset of the cut chunk
    QVERIFY2(all.find("recovered 35 complete messages") != std::string::npos, all.c_str());
  }

  // A bag cut while it is read (a recorder writing over it, say): where the file is mapped,
  // the process does not die of SIGBUS, no chunk past the cut is read as zeros, and a cut
  // during the read is said; the chunks before the cut are read whole.
  void aBagCutWhileItIsReadGivesProblemsNotACrash() {
    Ros1BagBuilder b;
    b.addConnection(0, "/big", "std_msgs/UInt8MultiArray", "82373f1612381bb6ee473b5cd6f5d89c", "uint8[] data\n");
    for (int c = 0; c < 8; ++c) {  // 8 chunks of 4 messages of 40 KB, each filled with its chunk's number
      std::vector<Ros1BagBuilder::Message> messages;
      for (int m = 0; m < 4; ++m) {
        std::vector<std::byte> payload(40'004, std::byte{static_cast<unsigned char>(1 + c)});
        const std::uint32_t n = 40'000;
        std::memcpy(payload.data(), &n, 4);
        messages.push_back({0, (c * 4 + m + 1) * 1'000'000LL, payload});
      }
      b.addChunk(messages);
    }
    const auto bytes = b.finish({});
    for (bool during : {false, true}) {  // cut before reading, and at the first message read
      QTemporaryDir dir;
      const std::filesystem::path path = dir.filePath("cut.bag").toStdString();
      {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      }
      auto source = openSource(path);
      QVERIFY(source);
      auto cut = [&] { std::filesystem::resize_file(path, bytes.size() / 2); };
      if (!during) cut();
      std::vector<std::string> problems;
      std::map<int, int> wholeByChunk;
      int mixed = 0;
      auto r = (*source)->readMessages(
          {},
          [&](const MessageView& m) {
            if (during && wholeByChunk.empty() && !mixed) cut();
            const auto fill = m.bytes.back();
            const bool whole = fill != std::byte{0} &&
                               std::all_of(m.bytes.begin() + 4, m.bytes.end(), [&](std::byte x) { return x == fill; });
            whole ? ++wholeByChunk[static_cast<int>(fill)] : ++mixed;
            return true;
          },
          [&](const Error& e) { problems.push_back(e.describe()); });
      QVERIFY(r);
      std::string all;
      for (const auto& p : problems) all += p + "\n";
      QVERIFY(!wholeByChunk.empty());  // the first chunks, before the cut
      QVERIFY(wholeByChunk.size() < 8);
      QVERIFY2(all.find("cut.bag") != std::string::npos, all.c_str());
      if (!during) {  // found as each chunk is read: nothing read as zeros, no chunk in part
        for (auto [chunk, n] : wholeByChunk) QCOMPARE(n, 4);
        QCOMPARE(mixed, 0);
        const auto perChunk = std::count_if(problems.begin(), problems.end(), [](const std::string& p) {
          return p.find("may hold zeros") == std::string::npos;
        });
        QCOMPARE(static_cast<std::size_t>(perChunk), 8 - wholeByChunk.size());
      } else {  // chunks read ahead before the cut may have been read as zeros since: said
#ifndef _WIN32
        QVERIFY2(all.find("cut while it was read") != std::string::npos, all.c_str());
#endif
        QVERIFY2(mixed == 0 || all.find("may hold zeros") != std::string::npos, all.c_str());
      }
    }
  }

  void emptyBagHasNoMessages() {
    auto source = openOrFail("ros1/empty.bag");
    QCOMPARE(source->info().messageCount, std::uint64_t{0});
    QVERIFY(source->connections().empty());
    QVERIFY(source->info().problems.empty());
    QVERIFY(readAll(*source).empty());
  }

  void zeroByteAndForeignFilesAreClearErrors() {
    auto zero = openSource(memorySource({}, "zero.bag"));
    QVERIFY(!zero);
    QVERIFY(QString::fromStdString(zero.error().describe()).contains("zero.bag"));
    QVERIFY(QString::fromStdString(zero.error().describe()).contains("empty"));
    std::string v12 = "#ROSBAG V1.2\n";
    auto old = openSource(memorySource(
        {reinterpret_cast<const std::byte*>(v12.data()), reinterpret_cast<const std::byte*>(v12.data()) + v12.size()},
        "old.bag"));
    QVERIFY(!old);
    QCOMPARE(old.error().code, ErrorCode::Unsupported);
    QVERIFY(QString::fromStdString(old.error().message).contains("1.2"));
    auto text = openSource(test::dataPath("ros1/demo.expected.jsonl").toStdString());
    QVERIFY(!text);
    QCOMPARE(text.error().code, ErrorCode::Format);
  }

  void openReadsOnlyTheIndex() {
    auto bytes = openFile(test::dataPath("ros1/demo_uncompressed.bag").toStdString());
    QVERIFY(bytes.has_value());
    auto counting = std::make_unique<test::CountingSource>(std::move(bytes).value());
    auto* counter = counting.get();
    auto source = openRos1(std::move(counting));
    QVERIFY(source.has_value());
    // 2.2 MB of bag; the header, connections and chunk infos are a few tens of kB.
    QVERIFY2(counter->bytesRead < 64 * 1024, qPrintable(QString::number(counter->bytesRead)));
    std::map<std::string, std::uint64_t> counts, expectedCounts;
    for (const auto& c : (*source)->connections()) counts[c.topic] += c.messageCount;
    for (const auto& e : expectedMessages()) ++expectedCounts[e["topic"].toString().toStdString()];
    QCOMPARE(counts, expectedCounts);
    QCOMPARE((*source)->info().startNs, std::int64_t{1700000000000000000});
    auto expected = expectedMessages();
    QCOMPARE((*source)->info().endNs, static_cast<std::int64_t>(expected.back()["log_time_ns"].toInteger()));
    QCOMPARE((*source)->info().messageCount, std::uint64_t{717});
    // What `info` prints per topic then reads less than the index: the summary and the index
    // records of the chunks that can hold a topic's first or last message.
    auto fixture = test::spansThenIndex(**source, *counter);
    QVERIFY(fixture.spans == test::expectedTopicSpans(expectedMessages()));
    QVERIFY2(fixture.spansBytes > 0 && fixture.spansBytes * 2 < fixture.indexBytes,
             qPrintable(
                 QStringLiteral("spans read %1 bytes, the index %2").arg(fixture.spansBytes).arg(fixture.indexBytes)));
  }

  // What `info` prints per topic on a long recording in time order comes from the chunk infos
  // and the index records of only its first and last chunk.
  void connectionSpansOfALongBagReadTwoChunks() {
    Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addConnection(1, "/b", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    for (int c = 0; c < 40; ++c) {
      std::vector<Ros1BagBuilder::Message> messages;
      for (int k = 0; k < 100; ++k)
        messages.push_back(
            {static_cast<std::uint32_t>(k % 2), (c * 100 + k + 1) * 1'000LL, Ros1BagBuilder::int32Payload(k)});
      b.addChunk(messages);
    }
    auto built = std::make_unique<test::CountingSource>(memorySource(b.finish({}), "long.bag"));
    auto* counter = built.get();
    auto source = openRos1(std::move(built));
    QVERIFY(source.has_value());
    auto inOrder = test::spansThenIndex(**source, *counter);
    const test::TopicSpans messages{{"/a", {2000, 1'000, 3'999'000}}, {"/b", {2000, 2'000, 4'000'000}}};
    QVERIFY(inOrder.spans == messages);
    QVERIFY2(inOrder.spansBytes * 10 < inOrder.indexBytes,
             qPrintable(
                 QStringLiteral("spans read %1 bytes, the index %2").arg(inOrder.spansBytes).arg(inOrder.indexBytes)));
  }

  void connectionSpansOfUntidyBagsAreTheirMessages() {
    // The first and last messages are not in the first and last chunk.
    Ros1BagBuilder b = untidyBag();
    const test::TopicSpans messages{{"/a", {4, 1'000, 5'000}}, {"/b", {3, 2'000, 7'000}}};
    QVERIFY(test::topicSpans(*openBytes(b.finish({}))) == messages);
    // Chunk infos claiming other counts than their chunks' index records: the records say.
    QVERIFY(test::topicSpans(*openBytes(b.finish({.claimedCount = 9}))) == messages);
    // Without an index, the scan says.
    QVERIFY(test::topicSpans(*openBytes(b.finish({.writeIndex = false}))) == messages);
  }

  void recoveredIndexServesRandomReads() {
    auto source = openOrFail("ros1/demo_crashed.bag");
    auto index = source->messageIndex();
    QVERIFY(index.has_value());
    std::size_t n = 0;
    for (const auto& entries : **index) {
      for (const auto& e : entries) {
        auto view = source->read(e);
        QVERIFY2(view.has_value(), view ? "" : view.error().describe().c_str());
        ++n;
      }
    }
    QCOMPARE(n, std::size_t{500});
  }

  void filtersByTopicAndTime() {
    auto source = openOrFail("ros1/demo_lz4.bag");
    ReadFilter filter;
    for (const auto& c : source->connections())
      if (c.topic == "/imu" || c.topic == "/odom") filter.connections.push_back(c.id);
    filter.startNs = 1700000000500000000;
    filter.endNs = 1700000001000000000;
    auto ours = readAll(*source, filter);
    std::vector<QJsonObject> expected;
    for (const auto& e : expectedMessages()) {
      auto t = e["log_time_ns"].toInteger();
      QString topic = e["topic"].toString();
      if ((topic == "/imu" || topic == "/odom") && t >= filter.startNs && t <= filter.endNs) expected.push_back(e);
    }
    QVERIFY(expected.size() > 50);
    QCOMPARE(ours.size(), expected.size());
    QString diff = compareWithExpected(ours, expected, expected.size());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void stoppingEarlyStops() {
    auto source = openOrFail("ros1/demo_bz2.bag");
    int n = 0;
    auto r = source->readMessages({}, [&](const MessageView&) { return ++n < 5; }, {});
    QVERIFY(r.has_value());
    QCOMPARE(n, 5);
  }

  // --- untidy bags, built with known contents ---

  void chunksOutOfTimeOrderAreMergedInLogTimeOrder() {
    Ros1BagBuilder b = untidyBag();
    auto source = openBytes(b.finish({}));
    QVERIFY(source->info().indexed);
    auto msgs = readAll(*source);
    QCOMPARE(msgs.size(), std::size_t{7});
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      QCOMPARE(msgs[i].logTimeNs, static_cast<std::int64_t>((i + 1) * 1000));
      QCOMPARE(msgs[i].json, "{\"data\":" + std::to_string(i + 1) + "}");
    }
    // The recovery scan gives the same order.
    auto unindexed = openBytes(b.finish({.writeIndex = false}));
    QVERIFY(!unindexed->info().indexed);
    auto again = readAll(*unindexed);
    QCOMPARE(again.size(), std::size_t{7});
    for (std::size_t i = 0; i < again.size(); ++i) QCOMPARE(again[i].json, msgs[i].json);
  }

  void eachMessageKeepsItsOwnConnectionsType() {
    // Two types with one md5 (same layout), one topic with two types, two connections on a topic.
    Ros1BagBuilder b;
    b.addConnection(0, "/x", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addConnection(1, "/x", "other_msgs/Count", kInt32Md5, "int32 count\n");
    b.addConnection(2, "/y", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addConnection(3, "/y", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)},
                {1, 2'000, Ros1BagBuilder::int32Payload(2)},
                {2, 3'000, Ros1BagBuilder::int32Payload(3)},
                {3, 4'000, Ros1BagBuilder::int32Payload(4)}});
    auto source = openBytes(b.finish({}));
    auto msgs = readAll(*source);
    QCOMPARE(msgs.size(), std::size_t{4});
    QCOMPARE(msgs[0].type, std::string("std_msgs/Int32"));
    QCOMPARE(msgs[0].json, std::string("{\"data\":1}"));
    QCOMPARE(msgs[1].type, std::string("other_msgs/Count"));
    QCOMPARE(msgs[1].json, std::string("{\"count\":2}"));
    QCOMPARE(msgs[2].topic, std::string("/y"));
    QCOMPARE(msgs[3].topic, std::string("/y"));
    ReadFilter onlyY;
    onlyY.connections = {2, 3};
    QCOMPARE(readAll(*source, onlyY).size(), std::size_t{2});
  }

  void bytesBetweenRecordsAreSkippedByFollowingTheIndex() {
    Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addJunk(37);
    b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(10)}});
    b.addJunk(1000);
    b.addChunk({{0, 2'000, Ros1BagBuilder::int32Payload(20)}});
    b.addJunk(3);
    auto source = openBytes(b.finish({}));
    auto msgs = readAll(*source);
    QCOMPARE(msgs.size(), std::size_t{2});
    QCOMPARE(msgs[1].json, std::string("{\"data\":20}"));
    QVERIFY(source->info().problems.empty());
  }

  void headerClaimingChunksItLacksIsReported() {
    Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)}});
    b.addChunk({{0, 2'000, Ros1BagBuilder::int32Payload(2)}});
    auto source = openBytes(b.finish({.claimedChunks = 5}));
    QCOMPARE(readAll(*source).size(), std::size_t{2});
    QVERIFY(!source->info().problems.empty());
    QVERIFY(source->info().problems[0].find("says 5 chunks but the index lists 2") != std::string::npos);
    // Fewer claimed than listed: the index is trusted and the difference reported.
    auto fewer = openBytes(b.finish({.claimedChunks = 1}));
    QVERIFY(fewer->info().indexed);
    QCOMPARE(readAll(*fewer).size(), std::size_t{2});
    QCOMPARE(fewer->info().problems.size(), std::size_t{1});
  }

  // fuzz_ros1 (scripts/check-fuzz.sh, seed 1): a chunk info claiming 4 billion messages made
  // the index reserve 64 GB before reading a single entry.
  void aChunkInfoClaimingBillionsOfMessagesAllocatesNothingForThem() {
    Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)}, {0, 2'000, Ros1BagBuilder::int32Payload(2)}});
    auto source = openBytes(b.finish({.claimedCount = 0xFFFFFFFF}));
    auto index = source->messageIndex();
    QVERIFY(index);
    QCOMPARE((**index)[0].size(), std::size_t{2});
    QCOMPARE((**index)[0][1].logTimeNs, std::int64_t{2'000});
  }

  void chunkInfoPointingAtNothingIsSkippedWithAProblem() {
    Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)}});
    // A chunk info pointing into the bag header's padding: not a chunk record.
    auto source = openBytes(b.finish({.extraChunkInfoPos = 2000}));
    std::vector<std::string> problems;
    auto msgs = readAll(*source, {}, &problems);
    QCOMPARE(msgs.size(), std::size_t{1});
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].find("offset 2000") != std::string::npos, problems[0].c_str());
    QVERIFY(problems[0].find("built.bag") != std::string::npos);
  }

  void indexPositionPointingAtMessagesFallsBackToAScan() {
    Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    std::uint64_t firstChunk = b.nextRecordPos();
    b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)}});
    // 70 MB of bytes after it: more than the reader takes in as one index read.
    b.addChunk({{0, 2'000, std::vector<std::byte>(70u << 20, std::byte{7})}});
    b.addChunk({{0, 3'000, Ros1BagBuilder::int32Payload(3)}});
    for (bool large : {false, true}) {
      Ros1BagBuilder small;
      Ros1BagBuilder& builder = large ? b : small;
      if (!large) {
        small.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
        small.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)}});
        small.addChunk({{0, 3'000, Ros1BagBuilder::int32Payload(3)}});
      }
      auto source = openBytes(builder.finish({.indexPosOverride = firstChunk}));
      QVERIFY(!source->info().indexed);
      QVERIFY2(source->info().problems[0].find("unexpected record (op 5) in the index") != std::string::npos,
               source->info().problems[0].c_str());
      QCOMPARE(source->info().messageCount, std::uint64_t{large ? 3u : 2u});
    }
  }

  void corruptCompressedChunkIsReportedAndTheRestIsRead() {
    auto bytes = test::readFileBytes(test::dataPath("ros1/demo_lz4.bag"));
    // Damage the middle of the file (inside some chunk's lz4 data).
    for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i) bytes[i] ^= std::byte{0xFF};
    auto source = openSource(memorySource(std::move(bytes), "damaged.bag"));
    QVERIFY(source.has_value());
    std::vector<std::string> problems;
    std::size_t n = 0;
    auto r = (*source)->readMessages(
        {}, [&](const MessageView&) { return ++n > 0; }, [&](const Error& e) { problems.push_back(e.describe()); });
    QVERIFY(r.has_value());
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].find("damaged.bag") != std::string::npos && problems[0].find("offset") != std::string::npos,
             problems[0].c_str());
    QVERIFY(n > 600 && n < 717);
  }

  void everyCutOfABagOpensOrFailsCleanly() {
    Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", kInt32Md5, "int32 data\n");
    b.addChunk({{0, 1'000, Ros1BagBuilder::int32Payload(1)}, {0, 2'000, Ros1BagBuilder::int32Payload(2)}});
    b.addChunk({{0, 3'000, Ros1BagBuilder::int32Payload(3)}});
    auto full = b.finish({});
    std::size_t lastCount = 0;
    for (std::size_t n = 0; n <= full.size(); ++n) {
      std::vector<std::byte> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
      auto source = openSource(memorySource(std::move(cut), "cut.bag"));
      if (!source) continue;
      auto msgs = readAll(**source);
      // Recovery never invents messages and never loses one that is complete.
      QVERIFY(msgs.size() <= 3);
      QVERIFY2(msgs.size() >= lastCount, qPrintable(QString("cut at %1").arg(n)));
      lastCount = msgs.size();
      for (std::size_t i = 0; i < msgs.size(); ++i) QCOMPARE(msgs[i].json, "{\"data\":" + std::to_string(i + 1) + "}");
    }
    QCOMPARE(lastCount, std::size_t{3});
  }

  // Deterministic damage to a real file: every outcome is a value or an error, and what is
  // recovered is the intact file's own messages, never more of them, never altered ones.
  void randomDamageGivesOnlyIntactMessages() {
    int opened = 0;
    std::size_t recovered = 0;
    QString violation = test::randomDamageGivesOnlyIntactMessages(
        test::readFileBytes(test::dataPath("ros1/demo_lz4.bag")),
        [](std::vector<std::byte> bytes) { return openSource(memorySource(std::move(bytes), "fuzzed.bag")); }, 2026,
        150, opened, recovered);
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
    qInfo("%d of 150 damaged files opened and gave %zu messages", opened, recovered);
    QVERIFY2(opened >= 150 / 4,
             qPrintable(QString("only %1 of 150 damaged files gave messages: little was exercised").arg(opened)));
  }
};

QTEST_GUILESS_MAIN(TestStorageRos1)
#include "tst_storage_ros1.moc"
