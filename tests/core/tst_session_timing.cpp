// core/session timing diagnostics: hand-computed values, and the fixtures' documented
// rates and latencies (shared/fixtures/ros1 and ros2 READMEs).

#include <QtTest>

#include <cmath>

#include "common/ros1_bag_builder.hpp"
#include "common/test_support.hpp"
#include "core/session/timing.hpp"
#include "core/storage/source.hpp"

using namespace bagscope;
using bagscope::test::Ros1BagBuilder;
using bagscope::test::WireWriter;

namespace {

std::unique_ptr<session::Session> openOrFail(std::initializer_list<const char*> relative) {
  std::vector<std::filesystem::path> paths;
  for (const char* r : relative) paths.push_back(test::dataPath(r).toStdString());
  auto s = session::Session::open(paths);
  if (!s) qFatal("open: %s", s.error().describe().c_str());
  return std::move(s).value();
}

const session::TopicTiming& find(const std::vector<session::TopicTiming>& stats, const std::string& topic) {
  for (const auto& t : stats)
    if (t.topic == topic) return t;
  qFatal("no topic %s", topic.c_str());
}

}  // namespace

class TestSessionTiming : public QObject {
  Q_OBJECT

private slots:
  void computesEveryFigureByHand() {
    // Written in this order: 25 comes after 30, so one message is out of order.
    auto t = session::computeTiming({0, 10, 30, 25, 40}, {0, 5, 20, 20, 35});
    QCOMPARE(t.count, std::uint64_t{5});
    QCOMPARE(t.outOfOrder, std::uint64_t{1});
    // Sorted: 0 10 25 30 40 -> intervals 10 15 5 10: mean 10, variance 12.5.
    QCOMPARE(t.jitterNs, std::sqrt(12.5));
    QCOMPARE(t.meanRateHz, 4 / 40e-9);
    QCOMPARE(t.largestGaps.size(), std::size_t{4});
    QCOMPARE(t.largestGaps[0].fromNs, std::int64_t{10});
    QCOMPARE(t.largestGaps[0].lengthNs(), std::int64_t{15});
    QCOMPARE(t.largestGaps[1].fromNs, std::int64_t{0});  // equal lengths: earlier first
    QCOMPARE(t.largestGaps[2].fromNs, std::int64_t{30});
    QCOMPARE(t.largestGaps[3].lengthNs(), std::int64_t{5});
    // Stamps: one zero; latencies 5, 10, 5, 5.
    QCOMPARE(t.zeroStamps, std::uint64_t{1});
    QVERIFY(t.latency.has_value());
    QCOMPARE(t.latency->minNs, std::int64_t{5});
    QCOMPARE(t.latency->medianNs, std::int64_t{5});
    QCOMPARE(t.latency->maxNs, std::int64_t{10});
    auto single = session::computeTiming({7}, {});
    QCOMPARE(single.meanRateHz, 0.0);
    QVERIFY(single.largestGaps.empty());
    QVERIFY(!single.latency);
  }

  void ros1FixtureHasTheDocumentedRatesAndLatencies() {
    auto opened = openOrFail({"ros1/demo_bz2.bag"});
    auto stats = session::timingStats(*opened);
    QVERIFY2(stats.has_value(), stats ? "" : stats.error().describe().c_str());
    QCOMPARE(stats->size(), std::size_t{21});
    // topic, messages, period ms, latency us (shared/fixtures/ros1/README.md)
    struct Row {
      const char* topic;
      std::uint64_t count;
      double periodMs;
      std::int64_t latencyUs;
    };
    for (Row r : {Row{"/imu", 400, 5, 1067},
                  {"/points", 20, 100, 41013},
                  {"/camera/depth", 5, 400, 9043},
                  {"/odom", 40, 50, 2079},
                  {"/gps", 10, 200, 20083},
                  {"/vehicle_state", 20, 100, 3421}}) {
      const auto& t = find(*stats, r.topic);
      QCOMPARE(t.count, r.count);
      QVERIFY(t.hasHeader);
      QCOMPARE(t.meanRateHz, 1000.0 / r.periodMs);
      QCOMPARE(t.jitterNs, 0.0);
      QCOMPARE(t.largestGaps[0].lengthNs(), static_cast<std::int64_t>(r.periodMs * 1e6));
      QCOMPARE(t.zeroStamps, std::uint64_t{0});
      QCOMPARE(t.latency->minNs, r.latencyUs * 1000);
      QCOMPARE(t.latency->maxNs, r.latencyUs * 1000);
      QCOMPARE(t.outOfOrder, std::uint64_t{0});
    }
    for (const char* noHeader : {"/chatter", "/number", "/tf", "/markers"}) QVERIFY(!find(*stats, noHeader).hasHeader);
    QCOMPARE(find(*stats, "/tf_static").count, std::uint64_t{1});
  }

  void splitRos2FilesAreOneTopic() {
    // The two halves of the split .db3 opened as two files: /imu is one topic again.
    // ROS 2 fixture: log time = stamp + 1 ms + 0.1 ms x row index (/imu is row 2).
    auto opened = openOrFail({"ros2/demo_db3_split/demo_db3_split_0.db3", "ros2/demo_db3_split/demo_db3_split_1.db3"});
    QCOMPARE(opened->sourceCount(), std::size_t{2});
    auto stats = session::timingStats(*opened);
    QVERIFY(stats.has_value());
    const auto& imu = find(*stats, "/imu");
    QCOMPARE(imu.count, std::uint64_t{400});
    QCOMPARE(imu.type, std::string("sensor_msgs/msg/Imu"));
    QCOMPARE(imu.latency->minNs, std::int64_t{1'200'000});
    QCOMPARE(imu.latency->maxNs, std::int64_t{1'200'000});
    QCOMPARE(imu.largestGaps[0].lengthNs(), std::int64_t{5'000'000});
    // One topic alone (the app's Stats dialog) gives the same figures.
    session::TopicId id = *opened->findTopic("/imu");
    auto one = session::timingStats(*opened, {}, std::span(&id, 1));
    QVERIFY(one.has_value());
    QCOMPARE(one->size(), std::size_t{1});
    QCOMPARE((*one)[0].topic, std::string("/imu"));
    QCOMPARE((*one)[0].latency->medianNs, imu.latency->medianNs);
    QCOMPARE((*one)[0].jitterNs, imu.jitterNs);
  }

  void zeroStampsAndOutOfOrderWritesAreCounted() {
    const char* def =
        "Header header\nint32 data\n"
        "================================================================================\n"
        "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";
    auto msg = [](std::uint32_t sec, std::uint32_t nsec) {
      return WireWriter().u32(0).u32(sec).u32(nsec).str("f").put<std::int32_t>(1).bytes;
    };
    Ros1BagBuilder b;
    b.addConnection(0, "/h", "test_msgs/Stamped", "0123456789abcdef0123456789abcdef", def);
    b.addChunk({{0, 5'000'000'000, msg(4, 0)}, {0, 7'000'000'000, msg(0, 0)}});  // second: stamp 0
    b.addChunk({{0, 1'000'000'000, msg(0, 500'000'000)}});                       // written last
    auto source = storage::openSource(memorySource(b.finish({}), "h.bag"));
    QVERIFY(source.has_value());
    std::vector<std::unique_ptr<storage::Source>> sources;
    sources.push_back(std::move(source).value());
    auto opened = session::Session::open(std::move(sources));
    QVERIFY(opened.has_value());
    auto stats = session::timingStats(**opened);
    QVERIFY(stats.has_value());
    const auto& t = find(*stats, "/h");
    QCOMPARE(t.count, std::uint64_t{3});
    QCOMPARE(t.outOfOrder, std::uint64_t{1});
    QCOMPARE(t.zeroStamps, std::uint64_t{1});
    QCOMPARE(t.latency->minNs, std::int64_t{500'000'000});    // 1 s - 0.5 s
    QCOMPARE(t.latency->maxNs, std::int64_t{1'000'000'000});  // 5 s - 4 s
    QCOMPARE(t.largestGaps[0].fromNs, std::int64_t{1'000'000'000});
    QCOMPARE(t.largestGaps[0].lengthNs(), std::int64_t{4'000'000'000});
  }
};

QTEST_GUILESS_MAIN(TestSessionTiming)
#include "tst_session_timing.moc"
