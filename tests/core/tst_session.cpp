// core/session: many files as one timeline. Checked against the fixtures' expectations
// (written by python3-rosbag and Foxglove's libraries), against each file read alone,
// and against values computed here by hand.

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "common/ros1_bag_builder.hpp"
#include "common/test_support.hpp"
#include "core/base/byte_cursor.hpp"
#include "core/decode/decoder.hpp"
#include "core/session/detail/worker_pool.hpp"
#include "core/session/session.hpp"

using namespace bagscope;
using bagscope::test::Ros1BagBuilder;
using bagscope::test::WireWriter;
using session::Message;
using session::Session;
using session::TopicId;
namespace fs = std::filesystem;

namespace {

fs::path data(const char* relative) { return test::dataPath(relative).toStdString(); }

std::unique_ptr<Session> openOrFail(std::vector<fs::path> paths, session::SessionOptions options = {}) {
  auto s = Session::open(paths, options);
  if (!s) qFatal("open: %s", s.error().describe().c_str());
  return std::move(s).value();
}

std::unique_ptr<Session> sessionOf(std::vector<std::unique_ptr<storage::Source>> sources,
                                   session::SessionOptions options = {}) {
  auto s = Session::open(std::move(sources), options);
  if (!s) qFatal("open: %s", s.error().describe().c_str());
  return std::move(s).value();
}

std::vector<QJsonObject> expectedLines(const char* relative) {
  QString err;
  auto lines = test::readJsonLines(test::dataPath(relative), &err);
  if (!err.isEmpty()) qFatal("%s", qPrintable(err));
  return lines;
}

// A message as the fixtures' expectation lines write it.
QJsonObject asExpectedLine(const Session& s, const Message& m) {
  auto d = s.decoder(*m.connection);
  if (!d) qFatal("decoder for %s: %s", m.connection->topic.c_str(), d.error().describe().c_str());
  auto v = (*d)->decode(m.bytes);
  if (!v) qFatal("decode %s: %s", m.connection->topic.c_str(), v.error().describe().c_str());
  std::string json;
  decode::appendJson(*v, json);
  return QJsonObject{{"topic", QString::fromStdString(m.connection->topic)},
                     {"type", QString::fromStdString(m.connection->type)},
                     {"log_time_ns", static_cast<qint64>(m.logTimeNs)},
                     {"msg", test::parseObject(json)}};
}

// Every message of `selection`, as expectation lines.
std::vector<QJsonObject> readAll(const Session& s, const session::Selection& selection = {}) {
  std::vector<QJsonObject> out;
  std::int64_t last = INT64_MIN;
  auto r = s.forEach(selection, [&](const Message& m) {
    if (m.logTimeNs < last) qFatal("not in log-time order at message %zu", out.size());
    last = m.logTimeNs;
    if (s.topics()[m.topic].name != m.connection->topic) qFatal("message given the wrong topic");
    out.push_back(asExpectedLine(s, m));
    return true;
  });
  if (!r) qFatal("forEach: %s", r.error().describe().c_str());
  return out;
}

// The union of expectation files given in session order, in log-time order; ties keep
// the order of the files and, within one, the order of its lines.
std::vector<QJsonObject> unionInTimeOrder(std::initializer_list<const char*> files) {
  std::vector<QJsonObject> all;
  for (const char* f : files)
    for (auto& line : expectedLines(f)) all.push_back(line);
  std::stable_sort(all.begin(), all.end(), [](const QJsonObject& a, const QJsonObject& b) {
    return a["log_time_ns"].toInteger() < b["log_time_ns"].toInteger();
  });
  return all;
}

// A ROS 1 bag of `chunks` chunks of `perChunk` float64 messages on /x, 1 ms apart from
// t = 1 s, message k holding the value k.
std::vector<std::byte> float64Bag(int chunks, int perChunk) {
  Ros1BagBuilder b;
  b.addConnection(0, "/x", "test_msgs/Float", "0123456789abcdef0123456789abcdef", "float64 data\n");
  int k = 0;
  for (int c = 0; c < chunks; ++c) {
    std::vector<Ros1BagBuilder::Message> msgs;
    for (int i = 0; i < perChunk; ++i, ++k)
      msgs.push_back({0, 1'000'000'000 + std::int64_t{k} * 1'000'000, WireWriter().put(static_cast<double>(k)).bytes});
    b.addChunk(msgs);
  }
  return b.finish({});
}

std::vector<std::unique_ptr<storage::Source>> one(std::unique_ptr<ByteSource> bytes) {
  auto s = storage::openSource(std::move(bytes));
  if (!s) qFatal("open: %s", s.error().describe().c_str());
  std::vector<std::unique_ptr<storage::Source>> v;
  v.push_back(std::move(s).value());
  return v;
}

}  // namespace

class TestSession : public QObject {
  Q_OBJECT

private slots:
  // `--jobs N` means N threads at work: the thread that starts a parallel loop is one of them.
  void parallelLoopsUseAsManyThreadsAsThePoolHas() {
    for (unsigned threads : {1u, 2u, 3u}) {
      session::detail::WorkerPool pool(threads);
      std::atomic<int> now{0}, most{0};
      pool.parallelFor(60, [&](std::size_t) {
        int n = ++now;
        for (int m = most.load(); n > m && !most.compare_exchange_weak(m, n);) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        --now;
      });
      QVERIFY2(most.load() <= static_cast<int>(threads),
               qPrintable(QString("%1 threads at once in a pool of %2").arg(most.load()).arg(threads)));
      if (threads == 1) QCOMPARE(most.load(), 1);
    }
  }

  // A body that throws on a helper thread (OpenCV in an exporter) must not end the process:
  // the exception reaches the loop's caller, and the indices not started are skipped.
  void anExceptionOnAWorkerReachesTheLoopsCaller() {
    session::detail::WorkerPool pool(3);
    const auto caller = std::this_thread::get_id();
    std::atomic<int> ran{0};
    std::string caught;
    try {
      pool.parallelFor(2000, [&](std::size_t) {
        ++ran;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (std::this_thread::get_id() != caller) throw std::runtime_error("thrown on a worker");
      });
    } catch (const std::runtime_error& e) {
      caught = e.what();
    }
    QCOMPARE(QString::fromStdString(caught), QString("thrown on a worker"));
    QVERIFY2(ran.load() < 2000, qPrintable(QString::number(ran.load())));
    // The pool still works.
    std::atomic<int> after{0};
    pool.parallelFor(10, [&](std::size_t) { ++after; });
    QCOMPARE(after.load(), 10);
  }

  // The encoder is the decoder's inverse: every ROS 1 and CDR message of the fixtures (written
  // by python3-rosbag, rosbag2 and rosbags), decoded and encoded again, is its own bytes. CDR
  // fixtures are little-endian, as every ROS 2 writer here writes them.
  void everyFixtureMessageEncodesBackToItsBytes() {
    std::size_t compared = 0;
    std::set<std::string> types;
    for (const char* file :
         {"ros1/demo_uncompressed.bag", "ros1/robot_state.bag", "ros1/tf_old.bag", "ros2/demo.mcap", "ros2/demo_db3",
          "ros2/cases/empty_types", "ros2/cases/idl_mcap", "ros2/cases/service_event", "ros2/cases/foxglove_scene"}) {
      auto s = openOrFail({data(file)});
      std::vector<std::byte> encoded;
      auto r = s->forEach({}, [&](const Message& m) {
        auto d = s->decoder(*m.connection);
        if (!d || (*d)->isForeign()) return true;
        auto v = (*d)->decode(m.bytes);
        if (!v) qFatal("%s %s: %s", file, m.connection->topic.c_str(), v.error().describe().c_str());
        auto e = decode::encode(**d, *v, encoded);
        if (!e) qFatal("%s %s: %s", file, m.connection->topic.c_str(), e.error().describe().c_str());
        // CDR writers may close a message with up to 3 bytes of padding the encoder leaves off.
        std::span<const std::byte> original = m.bytes;
        while ((*d)->format() == decode::WireFormat::Cdr && original.size() > encoded.size() &&
               original.size() - encoded.size() <= 3 && original.back() == std::byte{0})
          original = original.first(original.size() - 1);
        if (!std::ranges::equal(original, encoded))
          qFatal("%s %s at %lld: %zu bytes encoded back as %zu other bytes", file, m.connection->topic.c_str(),
                 static_cast<long long>(m.logTimeNs), m.bytes.size(), encoded.size());
        ++compared;
        types.insert(m.connection->type);
        return true;
      });
      QVERIFY2(r, r ? "" : r.error().describe().c_str());
    }
    QVERIFY2(compared > 1000, qPrintable(QString::number(compared)));
    QVERIFY2(types.size() >= 15, qPrintable(QString::number(types.size())));
  }

  // Values that do not fit their field are refused with the field's path.
  void encodingRefusesValuesThatDoNotFitAndNamesTheField() {
    auto schema =
        schema::parseDefinition("pkg/T",
                                "uint8 small\nfloat32[2] pair\nstring<=3 name\nInner[] inner\n"
                                "================================================================================\n"
                                "MSG: pkg/Inner\nint16 v\n",
                                schema::Dialect::Ros2);
    QVERIFY(schema);
    auto d = decode::Decoder::compile(*schema, decode::WireFormat::Cdr);
    QVERIFY(d);
    decode::Value v = decode::zeroValue(*(*schema)->root);
    std::vector<std::byte> out;
    QVERIFY(decode::encode(**d, v, out));  // zero: pair has its two elements
    QCOMPARE(out.size(), std::size_t{4 + 1 + 3 + 8 + 4 + 1 + 3 + 4});
    auto refused = [&](decode::Value value, const char* says) {
      auto r = decode::encode(**d, value, out);
      QVERIFY(!r);
      QVERIFY2(r.error().message.find(says) != std::string::npos, r.error().message.c_str());
    };
    decode::Value bad = v;
    bad.items[0].kind = decode::Value::Kind::Int;
    bad.items[0].i = 256;
    refused(bad, "field 'small': 256 is not a whole number that fits uint8");
    bad = v;
    bad.items[1].items.pop_back();
    refused(bad, "field 'pair': takes exactly 2 elements, not 1");
    bad = v;
    bad.items[2].text = "four";
    refused(bad, "field 'name': takes at most 3 bytes");
    bad = v;
    decode::Value inner = decode::zeroValue(*(*schema)->root->fields[3].message);
    inner.items[0].kind = decode::Value::Kind::Float;
    inner.items[0].f = 1.5;
    bad.items[3].items = {decode::zeroValue(*(*schema)->root->fields[3].message), inner};
    refused(bad, "field 'inner[1].v': 1.5 is not a whole number that fits int16");
  }

  void ros1AndRos2BagsMergeIntoOneTimeline() {
    auto s = openOrFail({data("ros1/demo_lz4.bag"), data("ros2/demo_zstd.mcap")});
    QCOMPARE(s->sourceCount(), std::size_t{2});
    QCOMPARE(s->messageCount(), std::uint64_t{717 + expectedLines("ros2/demo.expected.jsonl").size()});
    // The same topic and type in both files ("sensor_msgs/Imu" and "sensor_msgs/msg/Imu")
    // is one topic of both files' messages.
    auto imu = s->findTopic("/imu");
    QVERIFY(imu.has_value());
    QCOMPARE(s->topics()[*imu].members.size(), std::size_t{2});
    QCOMPARE(s->topics()[*imu].messageCount, std::uint64_t{800});
    QCOMPARE(s->index(*imu).size(), std::size_t{800});

    auto expected = unionInTimeOrder({"ros1/demo.expected.jsonl", "ros2/demo.expected.jsonl"});
    QString d = test::firstDifference(readAll(*s), expected);
    QVERIFY2(d.isEmpty(), qPrintable(d));

    // Topic and time filters: the same union, filtered.
    auto odom = s->findTopic("/odom");
    QVERIFY(odom.has_value());
    session::Selection sel{{*imu, *odom}, 1'700'000'000'500'000'000, 1'700'000'001'000'000'000};
    std::vector<QJsonObject> filtered;
    for (const auto& line : expected) {
      auto t = line["log_time_ns"].toInteger();
      if ((line["topic"] == "/imu" || line["topic"] == "/odom") && t >= sel.startNs && t <= sel.endNs)
        filtered.push_back(line);
    }
    QVERIFY(filtered.size() > 100);
    d = test::firstDifference(readAll(*s, sel), filtered);
    QVERIFY2(d.isEmpty(), qPrintable(d));
  }

  void splitDb3ReadsAsOne() {
    auto expected = expectedLines("ros2/demo.expected.jsonl");
    auto folder = openOrFail({data("ros2/demo_db3_split")});
    QCOMPARE(folder->sourceCount(), std::size_t{1});
    QString d = test::firstDifference(readAll(*folder), expected);
    QVERIFY2(d.isEmpty(), qPrintable(d));
    // Its two files named one by one: two sources merged through the index.
    auto files = openOrFail(
        {data("ros2/demo_db3_split/demo_db3_split_0.db3"), data("ros2/demo_db3_split/demo_db3_split_1.db3")});
    QCOMPARE(files->sourceCount(), std::size_t{2});
    d = test::firstDifference(readAll(*files), expected);
    QVERIFY2(d.isEmpty(), qPrintable(d));
  }

  void definitionsAreSharedWithinASession() {
    // The Foxy bag names demo_msgs/msg/VehicleState without defining it; the Jazzy bag
    // defines it. Opened together, the Jazzy bag's definition decodes the Foxy bag's messages.
    auto alone = openOrFail({data("ros2/demo_db3_old")});
    auto vehicle = alone->findTopic("/vehicle_state");
    QVERIFY(vehicle);
    QVERIFY(!alone->decoder(*alone->topics()[*vehicle].members.front().connection));
    auto both = openOrFail({data("ros2/demo_db3_old"), data("ros2/demo.mcap")});
    // The Foxy file's own /vehicle_state messages (its connection has no definition).
    auto expected = expectedLines("ros2/demo.expected.jsonl");
    std::vector<QJsonObject> wanted;
    for (const auto& e : expected)
      if (e["topic"].toString() == "/vehicle_state") wanted.push_back(e);
    session::Selection sel;
    sel.topics = {*both->findTopic("/vehicle_state")};
    std::vector<QJsonObject> got;
    auto r = both->forEach(sel, [&](const Message& m) {
      if (m.connection->definition.empty()) got.push_back(asExpectedLine(*both, m));  // the Foxy file's
      return true;
    });
    QVERIFY(r);
    QCOMPARE(got.size(), wanted.size());
    QString d = test::firstDifference(got, wanted);
    QVERIFY2(d.isEmpty(), qPrintable(d));
    // A recording given as a source of definitions does the same without joining the timeline.
    session::SessionOptions borrow;
    borrow.msgPaths = {data("ros2/demo_db3")};
    auto borrowed = openOrFail({data("ros2/demo_db3_old")}, borrow);
    QCOMPARE(borrowed->sourceCount(), std::size_t{1});
    QCOMPARE(borrowed->messageCount(), std::uint64_t{715});
    d = test::firstDifference(readAll(*borrowed), expected);
    QVERIFY2(d.isEmpty(), qPrintable(d));
  }

  void extractsFieldsOfJsonAndProtobufMessages() {
    // Values from the fixtures' expectations (protobufjs' decoding; the JSON messages).
    auto pb = openOrFail({data("mcap_foreign/protobuf.mcap")});
    auto t = pb->findTopic("/telemetry");
    QVERIFY(t);
    auto cols = pb->extractFields(*t, {"position.x", "samples[1]", "counts[1]", "timestamp", "blob[1]", "path[5].x"});
    QVERIFY2(cols, cols ? "" : cols.error().describe().c_str());
    auto expected = expectedLines("mcap_foreign/protobuf.expected.jsonl");
    std::size_t row = 0;
    for (const auto& e : expected) {
      if (e["topic"].toString() != "/telemetry") continue;
      QJsonObject m = e["msg"].toObject();
      QCOMPARE(cols->values[0][row], m["position"].toObject()["x"].toDouble());
      QJsonArray samples = m["samples"].toArray();
      if (samples.size() > 1) QCOMPARE(cols->values[1][row], samples[1].toDouble());
      else QVERIFY(std::isnan(cols->values[1][row]));
      QCOMPARE(cols->values[2][row], m["counts"].toArray()[1].toDouble());
      QJsonObject ts = m["timestamp"].toObject();
      QCOMPARE(cols->values[3][row], ts["seconds"].toDouble() + ts["nanos"].toDouble() * 1e-9);
      QCOMPARE(cols->values[4][row], 7.0 + static_cast<double>(row));  // blob[k] = 7k + i (make_foreign.mjs), k = 1
      QVERIFY(std::isnan(cols->values[5][row]));                       // past the end
      ++row;
    }
    QCOMPARE(row, std::size_t{4});
    QCOMPARE(cols->unreadable, std::uint64_t{0});
    auto bad = pb->extractFields(*t, {"position.w"});
    QVERIFY(!bad);
    QVERIFY2(QString::fromStdString(bad.error().message).contains("has no field 'w'"), bad.error().message.c_str());

    auto js = openOrFail({data("mcap_foreign/json.mcap")});
    auto pose = js->findTopic("/pose_json");
    auto jc = js->extractFields(*pose, {"speed", "position.y", "gear"});
    QVERIFY2(jc, jc ? "" : jc.error().describe().c_str());
    QCOMPARE(jc->values[0].size(), std::size_t{5});
    QCOMPARE(jc->values[0][2], 3.0);
    QVERIFY(std::isnan(jc->values[0][4]));  // absent in the last message
    QCOMPARE(jc->values[1][1], 0.1);
    QCOMPARE(jc->values[2][0], -2.0);
  }

  void messagePathsWithFiltersAndSlicesSelectWhatTheFixtureHolds() {
    // Expectations computed here from the fixtures' JSON (python3-rosbag's and Foxglove's
    // decodings), for a ROS 1 bag and a ROS 2 MCAP.
    for (const char* name : {"ros1/demo_uncompressed", "ros2/demo"}) {
      const QString bag = QString(name) + (QString(name).startsWith("ros1") ? ".bag" : ".mcap");
      auto s = openOrFail({data(bag.toStdString().c_str())});
      auto expected =
          expectedLines(QString(name).startsWith("ros1") ? "ros1/demo.expected.jsonl" : "ros2/demo.expected.jsonl");
      // What a path should give, message by message, from the JSON.
      struct Want {
        std::vector<std::int64_t> times;
        std::vector<double> values;
        std::vector<QString> texts;
        std::uint64_t unmatched = 0;
      };
      auto want = [&](const QString& topic, const std::function<void(const QJsonObject&, Want&)>& pick) {
        Want w;
        for (const auto& e : expected) {
          if (e["topic"].toString() != topic) continue;
          std::size_t n0 = w.values.size(), t0 = w.texts.size();
          pick(e["msg"].toObject(), w);
          std::size_t added = (w.values.size() - n0) + (w.texts.size() - t0);
          if (added == 0) ++w.unmatched;
          w.times.insert(w.times.end(), added, static_cast<std::int64_t>(e["log_time_ns"].toDouble()));
        }
        return w;
      };
      auto check = [&](const QString& topic, const std::string& path, const Want& w) {
        auto t = s->findTopic(topic.toStdString());
        QVERIFY(t);
        auto got = s->extractPath(*t, path);
        QVERIFY2(got, got ? "" : got.error().describe().c_str());
        QCOMPARE(got->unreadable, std::uint64_t{0});
        QCOMPARE(got->unmatched, w.unmatched);
        QCOMPARE(got->logTimeNs.size(), w.times.size());
        for (std::size_t i = 0; i < w.times.size(); ++i)
          QVERIFY2(std::abs(got->logTimeNs[i] - w.times[i]) < 1000, path.c_str());  // JSON doubles: µs apart
        if (got->textLeaf) {
          QCOMPARE(got->texts.size(), w.texts.size());
          for (std::size_t i = 0; i < w.texts.size(); ++i) QCOMPARE(QString::fromStdString(got->texts[i]), w.texts[i]);
        } else {
          QCOMPARE(got->values, w.values);
        }
      };
      check("/markers", "markers[:]{id==1}.pose.position.y", want("/markers", [](const QJsonObject& m, Want& w) {
              for (auto mk : m["markers"].toArray())
                if (mk.toObject()["id"].toInt() == 1)
                  w.values.push_back(mk.toObject()["pose"].toObject()["position"].toObject()["y"].toDouble());
            }));
      check("/markers", "markers[-1].scale.x", want("/markers", [](const QJsonObject& m, Want& w) {
              auto a = m["markers"].toArray();
              if (!a.isEmpty()) w.values.push_back(a.last().toObject()["scale"].toObject()["x"].toDouble());
            }));
      check("/markers", "markers[0:1].id", want("/markers", [](const QJsonObject& m, Want& w) {
              auto a = m["markers"].toArray();
              for (int i = 0; i <= 1 && i < a.size(); ++i) w.values.push_back(a[i].toObject()["id"].toDouble());
            }));
      check("/diagnostics", "status[:]{name==\"lidar: velodyne\"}.values[:]{key==\"temperature\"}.value",
            want("/diagnostics", [](const QJsonObject& m, Want& w) {
              for (auto st : m["status"].toArray())
                if (st.toObject()["name"].toString() == "lidar: velodyne")
                  for (auto kv : st.toObject()["values"].toArray())
                    if (kv.toObject()["key"].toString() == "temperature")
                      w.texts.push_back(kv.toObject()["value"].toString());
            }));
      check("/diagnostics", "status[:]{level>=1}.level", want("/diagnostics", [](const QJsonObject& m, Want& w) {
              for (auto st : m["status"].toArray())
                if (st.toObject()["level"].toInt() >= 1) w.values.push_back(st.toObject()["level"].toDouble());
            }));
      check("/tf", "transforms[:]{child_frame_id==\"base_link\"}.transform.translation.x",
            want("/tf", [](const QJsonObject& m, Want& w) {
              for (auto tr : m["transforms"].toArray())
                if (tr.toObject()["child_frame_id"].toString() == "base_link")
                  w.values.push_back(tr.toObject()["transform"].toObject()["translation"].toObject()["x"].toDouble());
            }));
      // A filter on the message itself.
      check("/diagnostics", "{header.stamp>=1700000001}.status[0].level",
            want("/diagnostics", [](const QJsonObject& m, Want& w) {
              QJsonObject st = m["header"].toObject()["stamp"].toObject();
              double sec = st["sec"].toDouble() + (st.contains("nsec") ? st["nsec"] : st["nanosec"]).toDouble() / 1e9;
              if (sec >= 1700000001) w.values.push_back(m["status"].toArray()[0].toObject()["level"].toDouble());
            }));
    }
  }

  void messagePathErrorsGiveTheColumn() {
    auto s = openOrFail({data("ros1/demo_uncompressed.bag")});
    auto t = s->findTopic("/markers");
    QVERIFY(t);
    const std::pair<const char*, const char*> cases[] = {
        {"markers[:]{id==3}.pose.position.q", "column 33: 'geometry_msgs/Point' has no field 'q'"},
        {"markers[:]{id=3}.id", "column 14: expected ==, !=, <, <=, > or >="},
        {"markers[:]{ns==3}.id", "column 16: 'ns' is a string, compared with a number"},
        {"markers[:]{id==3.id", "column 18: expected '}'"},
        {"markers.id", "column 8: 'markers' is an array: pick elements first"},
        {"markers[0:", "column 11: expected ']'"},
        {"markers[:]", "column 11: 'markers' is a message (visualization_msgs/Marker), not a value"},
        {"markers[0].points", "'points' is an array: pick elements, e.g. points[0] or points[:]"},
        {"markers[0].pose", "'pose' is a message (geometry_msgs/Pose), not a value"},
        {"markers[x]", "column 9: expected an index or a slice"},
        {"markers[:]{ns==\"demo}.id", "column 16: the string is not closed"},
    };
    for (auto [path, why] : cases) {
      auto r = s->extractPath(*t, path);
      QVERIFY2(!r, path);
      QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
      QVERIFY2(QString::fromStdString(r.error().message).contains(why), r.error().message.c_str());
      QCOMPARE(QString::fromStdString(r.error().topic), QString("/markers"));
    }
  }

  void randomAccessReturnsWhatIterationDoes() {
    for (auto inputs : {std::vector<fs::path>{data("ros1/demo_bz2.bag"), data("ros2/demo_lz4.mcap")},
                        std::vector<fs::path>{data("ros2/demo_db3")}}) {
      auto s = openOrFail(inputs);
      std::map<TopicId, std::vector<std::pair<std::int64_t, std::vector<std::byte>>>> iterated;
      auto r = s->forEach({}, [&](const Message& m) {
        iterated[m.topic].push_back({m.logTimeNs, {m.bytes.begin(), m.bytes.end()}});
        return true;
      });
      QVERIFY(r.has_value());
      std::size_t checked = 0;
      for (TopicId t = 0; t < s->topics().size(); ++t) {
        const auto& seq = iterated[t];
        QCOMPARE(s->index(t).size(), seq.size());
        // Backwards, so that every read moves away from the last one.
        for (std::size_t n = seq.size(); n-- > 0;) {
          auto m = s->read(t, n);
          QVERIFY2(m.has_value(), m ? "" : m.error().describe().c_str());
          QCOMPARE(m->logTimeNs, seq[n].first);
          QVERIFY(std::equal(m->bytes.begin(), m->bytes.end(), seq[n].second.begin(), seq[n].second.end()));
          ++checked;
        }
      }
      QCOMPARE(checked, static_cast<std::size_t>(s->messageCount()));
      // Reading from inside time-ordered iteration (one file: the reader's own loop) works.
      std::size_t nested = 0;
      QVERIFY(s->forEach({}, [&](const Message& m) {
                 nested += s->read(m.topic, 0).has_value();
                 return nested < 5;
               }).has_value());
      QCOMPARE(nested, std::size_t{5});
      QVERIFY(!s->read(0, s->index(0).size()).has_value());  // one past the end
      QCOMPARE(s->read(0, s->index(0).size()).error().code, ErrorCode::InvalidArgument);
    }
  }

  void findsMessagesByTime() {
    // /x: messages k = 0..99 at 1 s + k ms.
    auto s = sessionOf(one(memorySource(float64Bag(4, 25), "x.bag")));
    TopicId x = *s->findTopic("/x");
    QVERIFY(!s->findTopic("/nothing"));
    const std::int64_t t0 = 1'000'000'000, ms = 1'000'000;
    QCOMPARE(*s->atOrBefore(x, t0 + 10 * ms), std::size_t{10});
    QCOMPARE(*s->atOrBefore(x, t0 + 10 * ms + 1), std::size_t{10});
    QCOMPARE(*s->atOrAfter(x, t0 + 10 * ms + 1), std::size_t{11});
    QCOMPARE(*s->atOrAfter(x, t0 + 10 * ms), std::size_t{10});
    QVERIFY(!s->atOrBefore(x, t0 - 1));
    QVERIFY(!s->atOrAfter(x, t0 + 99 * ms + 1));
    QCOMPARE(*s->atOrAfter(x, INT64_MIN), std::size_t{0});
    QCOMPARE(*s->atOrBefore(x, INT64_MAX), std::size_t{99});
    // n-th, previous and next: the value is the position.
    for (std::size_t n : {0, 24, 25, 26, 99}) {
      auto m = s->read(x, n);
      QVERIFY(m.has_value());
      QCOMPARE(loadLE<double>(m->bytes.data()), static_cast<double>(n));
    }
    QCOMPARE(s->startNs(), t0);
    QCOMPARE(s->endNs(), t0 + 99 * ms);
  }

  void cacheNeverExceedsItsBudget() {
    // 40 chunks of 500 float64 messages (about 14 KB each decompressed); a budget of about
    // three of them, read in every order the session offers.
    session::SessionOptions small;
    small.cacheBytes = 48 * 1024;
    auto s = sessionOf(one(memorySource(float64Bag(40, 500), "x.bag")), small);
    TopicId x = *s->findTopic("/x");
    for (std::size_t n = 0; n < s->index(x).size(); n += 7) QVERIFY(s->read(x, n).has_value());
    for (std::size_t n = s->index(x).size(); n-- > 0;) QVERIFY(s->read(x, n).has_value());
    auto columns = s->extractFields(x, {"data"});
    QVERIFY(columns.has_value());
    for (std::size_t n = 0; n < columns->values[0].size(); ++n) QCOMPARE(columns->values[0][n], static_cast<double>(n));
    s->prefetch({&x, 1}, 1'000'000'000, 20'000'000'000);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto st = s->cacheStats();
    QCOMPARE(st.budgetBytes, std::size_t{48 * 1024});
    QVERIFY2(st.peakBytes <= st.budgetBytes, qPrintable(QString::number(st.peakBytes)));
    QVERIFY(st.peakBytes > 0);
    QVERIFY(st.evictions > 0);
    QVERIFY(st.hits > 0);

    {
      // A message in use pins its chunk: reading all else does not evict it.
      auto held = s->read(x, 0);
      QVERIFY(held.has_value());
      for (std::size_t n = 1000; n < 20000; n += 500) QVERIFY(s->read(x, n).has_value());
      auto before = s->cacheStats().misses;
      QVERIFY(s->read(x, 1).has_value());  // same chunk as the held message
      QCOMPARE(s->cacheStats().misses, before);
      QCOMPARE(loadLE<double>(held->bytes.data()), 0.0);
      QVERIFY(s->cacheStats().peakBytes <= st.budgetBytes);
    }

    // No budget at all: nothing is kept, everything is still read.
    s->setCacheBudget(0);
    auto last = s->read(x, 19999);
    QVERIFY(last.has_value());
    QCOMPARE(loadLE<double>(last->bytes.data()), 19999.0);
    QCOMPARE(s->cacheStats().residentBytes, std::size_t{0});
    QVERIFY(s->cacheStats().uncached > 0);
  }

  void aCachedChunkCostsNoRead() {
    auto bytes = std::make_unique<test::CountingSource>(memorySource(float64Bag(4, 100), "x.bag"));
    auto* counter = bytes.get();
    auto s = sessionOf(one(std::move(bytes)));
    TopicId x = *s->findTopic("/x");
    QVERIFY(s->read(x, 150).has_value());
    auto after = counter->bytesRead.load();
    for (std::size_t n = 100; n < 200; ++n) QVERIFY(s->read(x, n).has_value());
    QCOMPARE(counter->bytesRead.load(), after);
    // Prefetch loads ahead on the workers: reading there afterwards reads nothing.
    s->prefetch({&x, 1}, 1'000'000'000 + 300'000'000, 50'000'000);
    for (int i = 0; i < 200 && s->cacheStats().misses < 2; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    after = counter->bytesRead.load();
    QVERIFY(s->read(x, 320).has_value());
    QCOMPARE(counter->bytesRead.load(), after);
  }

  void extractsFieldsOfMergedTopics() {
    auto s = openOrFail({data("ros1/demo_uncompressed.bag"), data("ros2/demo.mcap")});
    TopicId imu = *s->findTopic("/imu");
    auto cols = s->extractFields(imu, {"linear_acceleration.z", "header.stamp", "angular_velocity.x"});
    QVERIFY2(cols.has_value(), cols ? "" : cols.error().describe().c_str());
    std::vector<QJsonObject> expected;
    for (auto& line : unionInTimeOrder({"ros1/demo.expected.jsonl", "ros2/demo.expected.jsonl"}))
      if (line["topic"] == "/imu") expected.push_back(line);
    QCOMPARE(cols->logTimeNs.size(), expected.size());
    QCOMPARE(cols->unreadable, std::uint64_t{0});
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QJsonObject msg = expected[i]["msg"].toObject();
      QJsonObject stamp = msg["header"].toObject()["stamp"].toObject();
      double nsec = stamp.contains("nsec") ? stamp["nsec"].toDouble() : stamp["nanosec"].toDouble();
      QCOMPARE(cols->logTimeNs[i], expected[i]["log_time_ns"].toInteger());
      QCOMPARE(cols->values[0][i], msg["linear_acceleration"].toObject()["z"].toDouble());
      QCOMPARE(cols->values[1][i], stamp["sec"].toDouble() + nsec * 1e-9);
      QCOMPARE(cols->values[2][i], msg["angular_velocity"].toObject()["x"].toDouble());
    }
    // A time range gives the rows logged in it.
    auto part = s->extractFields(imu, {"linear_acceleration.z"}, expected[10]["log_time_ns"].toInteger(),
                                 expected[20]["log_time_ns"].toInteger());
    QVERIFY(part.has_value());
    QVERIFY(part->logTimeNs.size() >= 11);
    QCOMPARE(part->values[0][0], cols->values[0][10]);
    // A path the type does not have is an error that names it.
    auto bad = s->extractFields(imu, {"linear_acceleration.w"});
    QVERIFY(!bad.has_value());
    QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(bad.error().message.find("linear_acceleration.w") != std::string::npos, bad.error().message.c_str());
  }

  void oneNameWithTwoTypesStaysApart() {
    Ros1BagBuilder a, b;
    a.addConnection(0, "/x", "test_msgs/Float", "0123456789abcdef0123456789abcdef", "float64 data\n");
    a.addChunk({{0, 5, WireWriter().put(1.5).bytes}});
    b.addConnection(0, "/x", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
    b.addChunk({{0, 7, Ros1BagBuilder::int32Payload(42)}});
    std::vector<std::unique_ptr<storage::Source>> sources;
    for (auto [bag, name] : {std::pair{&a, "a.bag"}, std::pair{&b, "b.bag"}})
      sources.push_back(std::move(storage::openSource(memorySource(bag->finish({}), name))).value());
    auto s = sessionOf(std::move(sources));
    QCOMPARE(s->topics().size(), std::size_t{2});
    QCOMPARE(s->topics()[0].name, std::string("/x"));
    QCOMPARE(s->topics()[1].name, std::string("/x"));
    QVERIFY(s->topics()[0].type != s->topics()[1].type);
    QCOMPARE(s->problems().size(), std::size_t{1});
    const std::string& p = s->problems()[0];
    QVERIFY2(p.find("/x") != std::string::npos && p.find("test_msgs/Float in a.bag") != std::string::npos &&
                 p.find("std_msgs/Int32 in b.bag") != std::string::npos,
             p.c_str());
    QCOMPARE(s->ownProblems(), s->problems());  // the session's own, not a file's
    // Both are read, each as its own topic, in time order.
    std::vector<TopicId> order;
    QVERIFY(s->forEach({}, [&](const Message& m) { return order.push_back(m.topic), true; }).has_value());
    QCOMPARE(order.size(), std::size_t{2});
    QVERIFY(order[0] != order[1]);
  }

  // Two recordings of /x, a day apart (messages at 1, 2, 3 s and 86401, 86402 s): aligned,
  // both start at 1 s, and every way of reading gives the shifted times.
  void alignedStartsShiftEachFileToTheEarliestStart() {
    constexpr std::int64_t kS = 1'000'000'000, kDay = 86'400 * kS;
    Ros1BagBuilder a, b;
    for (auto* bag : {&a, &b})
      bag->addConnection(0, "/x", "test_msgs/Float", "0123456789abcdef0123456789abcdef", "float64 data\n");
    a.addChunk({{0, 1 * kS, WireWriter().put(1.0).bytes},
                {0, 2 * kS, WireWriter().put(2.0).bytes},
                {0, 3 * kS, WireWriter().put(3.0).bytes}});
    b.addConnection(1, "/y", "test_msgs/Float", "0123456789abcdef0123456789abcdef", "float64 data\n");
    b.addChunk({{0, kDay + 1 * kS, WireWriter().put(10.0).bytes},
                {1, kDay + 3 * kS / 2, WireWriter().put(15.0).bytes},
                {0, kDay + 2 * kS, WireWriter().put(20.0).bytes}});
    auto open = [&](bool align) {
      std::vector<std::unique_ptr<storage::Source>> sources;
      for (auto [bag, name] : {std::pair{&a, "a.bag"}, std::pair{&b, "b.bag"}})
        sources.push_back(std::move(storage::openSource(memorySource(bag->finish({}), name))).value());
      session::SessionOptions o;
      o.alignStarts = align;
      return sessionOf(std::move(sources), o);
    };
    auto plain = open(false);
    QCOMPARE(plain->endNs(), kDay + 2 * kS);
    auto s = open(true);
    QCOMPARE(s->startNs(), 1 * kS);
    QCOMPARE(s->endNs(), 3 * kS);
    // In time order: 1 (a), 1 (b), 2 (a), 2 (b), 3 (a); values say which file.
    std::vector<std::pair<std::int64_t, double>> seen;
    QVERIFY(s->forEach({}, [&](const Message& m) {
               if (m.connection->topic == "/x")
                 seen.emplace_back(m.logTimeNs, asExpectedLine(*s, m)["msg"].toObject()["data"].toDouble());
               return true;
             }).has_value());
    std::vector<std::pair<std::int64_t, double>> expected{
        {1 * kS, 1.0}, {1 * kS, 10.0}, {2 * kS, 2.0}, {2 * kS, 20.0}, {3 * kS, 3.0}};
    QCOMPARE(seen, expected);
    auto second = s->read(0, 1);
    QVERIFY(second);
    QCOMPARE(second->logTimeNs, 1 * kS);
    // A time range in session time, over both files and over one (/y is only in b).
    session::Selection late;
    late.startNs = 2 * kS;
    std::vector<std::int64_t> times;
    QVERIFY(s->forEach(late, [&](const Message& m) { return times.push_back(m.logTimeNs), true; }).has_value());
    QCOMPARE(times, (std::vector<std::int64_t>{2 * kS, 2 * kS, 3 * kS}));
    session::Selection y;
    y.topics = {*s->findTopic("/y")};
    y.startNs = 1 * kS + kS / 4;
    y.endNs = 1 * kS + 3 * kS / 4;
    times.clear();
    QVERIFY(s->forEach(y, [&](const Message& m) { return times.push_back(m.logTimeNs), true; }).has_value());
    QCOMPARE(times, (std::vector<std::int64_t>{3 * kS / 2}));
  }

  void opensFoldersOfBags() {
    QTemporaryDir dir;
    fs::path root = dir.path().toStdString();
    fs::create_directories(root / "day1" / "run2");
    fs::copy_file(data("ros1/demo_lz4.bag"), root / "a.bag");
    fs::copy_file(data("ros2/demo.mcap"), root / "day1" / "b.mcap");
    fs::copy(data("ros2/demo_db3"), root / "day1" / "run2");  // a rosbag2 folder
    {
      QFile junk(QString::fromStdString((root / "broken.bag").string()));
      QVERIFY(junk.open(QIODevice::WriteOnly));
      junk.write("not a bag at all");
    }
    auto flat = openOrFail({root});
    QCOMPARE(flat->sourceCount(), std::size_t{1});
    QCOMPARE(flat->messageCount(), std::uint64_t{717});
    QVERIFY(!flat->problems().empty());
    QVERIFY2(flat->problems()[0].find("broken.bag") != std::string::npos, flat->problems()[0].c_str());
    QVERIFY(flat->ownProblems().empty());  // a skipped file's problem is not the session's own

    session::SessionOptions recursive;
    recursive.recursive = true;
    auto deep = openOrFail({root}, recursive);
    QCOMPARE(deep->sourceCount(), std::size_t{3});
    auto ros2 = expectedLines("ros2/demo.expected.jsonl").size();
    QCOMPARE(deep->messageCount(), std::uint64_t{717 + 2 * ros2});
    // A file named twice is opened once.
    QCOMPARE(openOrFail({root / "a.bag", root / "a.bag"})->sourceCount(), std::size_t{1});
    // Named directly, a broken file is an error, and so is a folder with no recordings.
    auto named = Session::open({root / "broken.bag"});
    QVERIFY(!named.has_value());
    QVERIFY(named.error().file.find("broken.bag") != std::string::npos);
    fs::create_directories(root / "empty");
    auto empty = Session::open({root / "empty"});
    QVERIFY(!empty.has_value());
    QVERIFY2(empty.error().message.find("no recordings") != std::string::npos, empty.error().message.c_str());

    // The desktop app's way: a broken named file is skipped and said; the others open.
    session::SessionOptions keepGoing;
    keepGoing.skipFailedInputs = true;
    std::vector<double> fractions;
    keepGoing.progress = [&](double f) { fractions.push_back(f); };
    auto some = openOrFail({root / "broken.bag", root / "a.bag"}, keepGoing);
    QCOMPARE(some->sourceCount(), std::size_t{1});
    QCOMPARE(some->failures().size(), std::size_t{1});
    QVERIFY(some->failures()[0].path.find("broken.bag") != std::string::npos);
    QVERIFY2(some->failures()[0].reason.find("broken.bag") != std::string::npos, some->failures()[0].reason.c_str());
    QVERIFY(!fractions.empty());
    QCOMPARE(fractions.back(), 1.0);
    auto none = Session::open({root / "broken.bag"}, keepGoing);
    QVERIFY(!none.has_value());
    QVERIFY2(none.error().message.find("broken.bag") != std::string::npos, none.error().message.c_str());
    // A stop requested before opening ends it as cancelled.
    bagscope::StopSource stop;
    stop.request_stop();
    keepGoing.stop = stop.get_token();
    auto cancelled = Session::open({root / "a.bag"}, keepGoing);
    QVERIFY(!cancelled.has_value());
    QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
  }

  // One answer to "what is this path": a folder of bare .mcap files (no metadata.yaml) is a
  // folder of recordings, to the session and to the storage readers alike (the readers took
  // it for one split rosbag2 recording, the session for two bags).
  void everyoneClassifiesAPathTheSameWay() {
    QTemporaryDir dir;
    fs::path root = dir.path().toStdString();
    fs::create_directories(root / "mcaps");
    fs::copy_file(data("ros2/demo.mcap"), root / "mcaps" / "a.mcap");
    fs::copy_file(data("ros2/demo.mcap"), root / "mcaps" / "b.mcap");
    QCOMPARE(storage::classify(root / "mcaps"), storage::PathKind::Folder);
    // Whose recording a path is: the container's id, or "" when it is none (and classify
    // must agree that it is a recording).
    auto containerOf = [](const fs::path& p) {
      const storage::ContainerFormat* f = storage::containerFormatOf(p);
      if (f && storage::classify(p) != storage::PathKind::Recording) return std::string("classify disagrees");
      return std::string(f ? f->id : "");
    };
    QCOMPARE(containerOf(root / "mcaps" / "a.mcap"), std::string("mcap"));
    QCOMPARE(containerOf(root / "mcaps"), std::string());
    auto asOne = storage::openSource(root / "mcaps");
    QVERIFY2(!asOne.has_value(), "a folder of MCAP files is not one recording");
    QVERIFY2(asOne.error().message.find("is a folder without a rosbag2 recording") != std::string::npos,
             asOne.error().message.c_str());
    QCOMPARE(openOrFail({root / "mcaps"})->sourceCount(), std::size_t{2});

    QCOMPARE(containerOf(data("ros1/demo_lz4.bag")), std::string("ros1"));
    QCOMPARE(containerOf(data("ros2/demo_db3")), std::string("rosbag2"));
    QCOMPARE(containerOf(data("ros2/demo_db3") / "metadata.yaml"), std::string("rosbag2"));
    QCOMPARE(containerOf(data("ros2/demo_mcap_bag")), std::string("rosbag2"));  // has metadata.yaml
    QCOMPARE(storage::classify(root / "nothing.bag"), storage::PathKind::Missing);
    {
      QFile junk(QString::fromStdString((root / "junk.bag").string()));
      QVERIFY(junk.open(QIODevice::WriteOnly));
      junk.write("not a bag at all");
    }
    QCOMPARE(storage::classify(root / "junk.bag"), storage::PathKind::Other);  // the name is not enough
    QCOMPARE(containerOf(root / "junk.bag"), std::string());
    QVERIFY(storage::hasRecordingName(root / "junk.bag"));  // but it is looked at
    // rosbag's name for a bag it is still writing is one too; a bare extension or ".active" is not.
    QVERIFY(storage::hasRecordingName(root / "run_2026.bag.active"));
    QVERIFY(!storage::hasRecordingName(root / "notes.active") && !storage::hasRecordingName(root / ".bag"));
    QCOMPARE(storage::classify(root), storage::PathKind::Folder);
    QCOMPARE(storage::recordingFilePatterns(), std::string("*.bag *.bag.active *.mcap *.db3 metadata.yaml"));
  }

  void longJobsReportProgressAndStopWithin100ms() {
    // 2000 chunks from a slow disk (3 ms a read): extraction would take seconds.
    auto bytes = std::make_unique<test::CountingSource>(memorySource(float64Bag(2000, 10), "slow.bag"));
    auto* disk = bytes.get();
    auto s = sessionOf(one(std::move(bytes)));
    disk->delayUs = 3000;
    TopicId x = *s->findTopic("/x");
    std::atomic<int> progressCalls{0};
    std::atomic<double> lastProgress{0};
    std::mutex m;
    std::optional<Result<void>> outcome;
    std::chrono::steady_clock::time_point ended;
    auto started = std::chrono::steady_clock::now();
    auto job = bagscope::startJob(
        [&](bagscope::StopToken stop, const session::ProgressFn& progress) -> Result<void> {
          auto cols = s->extractFields(x, {"data"}, INT64_MIN, INT64_MAX, stop, progress);
          BAGSCOPE_TRY(cols);
          return {};
        },
        [&](double f) {
          ++progressCalls;
          lastProgress = f;
        },
        [&](Result<void> r) {
          std::lock_guard lock(m);
          ended = std::chrono::steady_clock::now();
          outcome = std::move(r);
        });
    std::this_thread::sleep_for(std::chrono::milliseconds(450));
    QVERIFY(!job->finished());
    auto cancelledAt = std::chrono::steady_clock::now();
    job->cancel();
    job->wait();
    std::lock_guard lock(m);
    QVERIFY(outcome.has_value());
    QVERIFY(!outcome->has_value());
    QCOMPARE(outcome->error().code, ErrorCode::Cancelled);
    auto stoppedMs = std::chrono::duration<double, std::milli>(ended - cancelledAt).count();
    QVERIFY2(stoppedMs <= 100, qPrintable(QString::number(stoppedMs) + " ms to stop"));
    // Progress came, but throttled (at most about 10 a second), and was partial.
    auto ranMs = std::chrono::duration<double, std::milli>(ended - started).count();
    QVERIFY(progressCalls >= 2);
    QVERIFY2(progressCalls <= ranMs / 100 + 2, qPrintable(QString::number(progressCalls)));
    QVERIFY(lastProgress > 0 && lastProgress < 1);

    // Time-ordered reading stops too.
    bagscope::StopSource stopper;
    int seen = 0;
    auto r = s->forEach(
        {},
        [&](const Message&) {
          if (++seen == 50) stopper.request_stop();
          return true;
        },
        {}, stopper.get_token());
    QVERIFY(!r.has_value());
    QCOMPARE(r.error().code, ErrorCode::Cancelled);
    QCOMPARE(seen, 50);
  }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
