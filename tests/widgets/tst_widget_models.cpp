// The widgets' models, checked without a screen (offscreen platform): topic list sorting
// and filtering, the timeline's time <-> pixel mapping and density, the message inspector's
// tree, and layouts saved and loaded. Expected values come from the fixtures'
// .expected.jsonl files (written by python3-rosbag / Foxglove's libraries) or by hand.

#include <QtTest>

#include <QDockWidget>
#include <QFileOpenEvent>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTextBrowser>
#include <QTreeView>

#include <map>
#include <random>
#include <set>

#include "core/sensors/sensors.hpp"

#include "common/ros1_bag_builder.hpp"
#include "common/test_support.hpp"
#include "common/wire_writer.hpp"
#include "core/export/export.hpp"
#include "core/session/timing.hpp"
#include "core/storage/source.hpp"
#include "core/storage/summary.hpp"
#include "widget_test_support.hpp"
#include "widgets/dialogs/about_dialog.hpp"
#include "widgets/panels/colour_map.hpp"
#include "widgets/panels/image_panel.hpp"
#include "widgets/panels/plot/decimate.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/inspector.hpp"
#include "widgets/shell/layouts.hpp"
#include "widgets/shell/main_window.hpp"
#include "widgets/shell/playback.hpp"
#include "widgets/shell/timeline.hpp"
#include "widgets/shell/topic_list.hpp"

using namespace bagscope;
using namespace bagscope::widgets;
using bagscope::test::dataPath;
using bagscope::test::openAndWait;

namespace {

std::vector<QJsonObject> expected(const QString& relative) {
  QString error;
  auto lines = test::readJsonLines(dataPath(relative), &error);
  if (!error.isEmpty()) qFatal("%s", qPrintable(error));
  return lines;
}

// Per topic: message count and log times, from the expectations.
std::map<QString, std::vector<qint64>> timesByTopic(const std::vector<QJsonObject>& lines) {
  std::map<QString, std::vector<qint64>> out;
  for (const auto& l : lines) out[l["topic"].toString()].push_back(l["log_time_ns"].toInteger());
  return out;
}

// The displayed value of `path` in the inspector model (searching the tree).
QModelIndex findPath(const QAbstractItemModel& m, const QString& path, const QModelIndex& parent = {}) {
  for (int r = 0; r < m.rowCount(parent); ++r) {
    QModelIndex i = m.index(r, 0, parent);
    if (i.data(MessageTreeModel::PathRole).toString() == path) return i;
    if (path.startsWith(i.data(MessageTreeModel::PathRole).toString()))
      if (QModelIndex found = findPath(m, path, i); found.isValid()) return found;
  }
  return {};
}

QString valueText(const QAbstractItemModel& m, const QModelIndex& i) {
  return m.index(i.row(), MessageTreeModel::ValueColumn, i.parent()).data().toString();
}

}  // namespace

class TestWidgetModels : public QObject {
  Q_OBJECT

  QTemporaryDir settings_;

private slots:
  void initTestCase() { bagscope::test::isolateSettings(settings_.path()); }

  void topicListSortsAndFilters() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    auto times = timesByTopic(expected("ros1/demo.expected.jsonl"));
    TopicModel model(&d);
    TopicFilter filter;
    filter.setSourceModel(&model);
    QCOMPARE(filter.rowCount(), static_cast<int>(times.size()));
    // Counts and rates as the expectations give them.
    for (int r = 0; r < model.rowCount(); ++r) {
      QString name = model.index(r, TopicModel::Topic).data().toString();
      const auto& t = times.at(name);
      QCOMPARE(model.index(r, TopicModel::Count).data(TopicModel::SortRole).toULongLong(),
               static_cast<qulonglong>(t.size()));
      if (t.size() > 1) {
        double rate = static_cast<double>(t.size() - 1) * 1e9 / static_cast<double>(t.back() - t.front());
        QVERIFY(qAbs(model.index(r, TopicModel::Rate).data(TopicModel::SortRole).toDouble() - rate) < 1e-9 * rate);
      }
    }
    // Sorting by count is numeric: descending order follows the expectations' counts.
    filter.sort(TopicModel::Count, Qt::DescendingOrder);
    std::vector<std::size_t> counts;
    for (int r = 0; r < filter.rowCount(); ++r)
      counts.push_back(times.at(filter.index(r, TopicModel::Topic).data().toString()).size());
    QVERIFY(std::is_sorted(counts.rbegin(), counts.rend()));
    QCOMPARE(filter.index(0, TopicModel::Topic).data().toString(), QString("/imu"));
    // By name, case-insensitively.
    filter.sort(TopicModel::Topic, Qt::AscendingOrder);
    QStringList names;
    for (int r = 0; r < filter.rowCount(); ++r) names << filter.index(r, 0).data().toString();
    QStringList sorted = names;
    std::sort(sorted.begin(), sorted.end(),
              [](const QString& a, const QString& b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    QCOMPARE(names, sorted);
    // Filter words match name or type, all of them, in any case.
    filter.setFilterText("IMAGE sensor_msgs/Image");
    QStringList images;
    for (int r = 0; r < filter.rowCount(); ++r) images << filter.index(r, 0).data().toString();
    QStringList wanted;
    for (const auto& l : expected("ros1/demo.expected.jsonl"))
      // Both words in the name or the type: "IMAGE" in either, "sensor_msgs/Image" in the type.
      if (l["type"].toString().contains("sensor_msgs/Image", Qt::CaseInsensitive) &&
          !wanted.contains(l["topic"].toString()))
        wanted << l["topic"].toString();
    std::sort(wanted.begin(), wanted.end());
    QCOMPARE(images, wanted);
    filter.setFilterText("imu");
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.shownTopics().size(), std::size_t{1});
    QCOMPARE(d.topics()[filter.shownTopics()[0]].name, QString("/imu"));
    filter.setFilterText("no such topic");
    QCOMPARE(filter.rowCount(), 0);
  }

  void topicSizesAreMeasuredInTheBackground() {
    Document d;
    QSignalSpy sizes(&d, &Document::topicSizesChanged);
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QVERIFY(sizes.count() > 0 || sizes.wait(30000));
    // The sum of sizes is the bytes of all messages, read independently.
    qint64 total = 0;
    for (const auto& t : d.topics()) {
      QVERIFY(t.sizeBytes >= 0);
      total += t.sizeBytes;
    }
    auto source = storage::openSource(dataPath("ros1/demo_lz4.bag").toStdString());
    QVERIFY(source.has_value());
    qint64 bytes = 0;
    QVERIFY((*source)
                ->readMessages(
                    {},
                    [&](const storage::MessageView& m) { return bytes += static_cast<qint64>(m.bytes.size()), true; },
                    {})
                .has_value());
    QCOMPARE(total, bytes);
  }

  // Two recordings a day apart: aligned, they share one start and the timeline spans 2 s.
  void alignStartTimesPutsRecordingsOfDifferentDaysSideBySide() {
    QTemporaryDir dir;
    QStringList bags;
    for (std::int64_t day : {0, 1}) {
      test::Ros1BagBuilder b;
      b.addConnection(0, "/a", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
      const std::int64_t t0 = 1'700'000'000'000'000'000 + day * 86'400'000'000'000;
      b.addChunk({{0, t0, test::WireWriter().put<std::int32_t>(1).bytes},
                  {0, t0 + 2'000'000'000, test::WireWriter().put<std::int32_t>(2).bytes}});
      bags << dir.filePath(QString("day%1.bag").arg(day));
      QFile f(bags.back());
      QVERIFY(f.open(QIODevice::WriteOnly));
      auto bytes = b.finish({});
      f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()));
    }
    Document d;
    QVERIFY(openAndWait(d, bags));
    QCOMPARE(d.endNs() - d.startNs(), qint64{86'402'000'000'000});
    QSignalSpy reopened(&d, &Document::openFinished);
    d.setAlignStarts(true);
    QVERIFY(reopened.wait(30000));
    QCOMPARE(d.startNs(), qint64{1'700'000'000'000'000'000});
    QCOMPARE(d.endNs() - d.startNs(), qint64{2'000'000'000});
    QCOMPARE(d.topicByName("/a")->count, std::uint64_t{4});
  }

  // Stamps far from the recording are unset or on another clock: shown absolute, flagged.
  void stampsOffTheRecordingsClockAreFlaggedNotShownRelative() {
    const qint64 start = 1'700'000'000'000'000'000, end = start + 60'000'000'000;
    QCOMPARE(formatStamp(start + 1'500'000'000, TimeDisplay::Relative, start, end), QString("1.500 s"));
    QCOMPARE(formatStamp(start + 1'500'000'000, TimeDisplay::Unix, start, end), QString("1700000001.500 s"));
    QVERIFY(formatStamp(0, TimeDisplay::Relative, start, end).contains("unset"));
    QString sim = formatStamp(42'000'000'001, TimeDisplay::Relative, start, end);
    QVERIFY2(sim.startsWith("42.000000001 s") && sim.contains("not the recording's clock"), qPrintable(sim));
    QVERIFY(!sim.contains("-"));
    QVERIFY(stampIsForeign(0, start, end) && stampIsForeign(42'000'000'001, start, end));
    QVERIFY(!stampIsForeign(start - 3'600'000'000'000, start, end));  // an hour early: a late log
  }

  // Messages at 0, 1, 2 and 10 s: 3 intervals over 10 s is 0.3 Hz, the median interval 1 Hz.
  // The app's topic list, info and stats give one rate; stats gives the median one too.
  void aTopicHasOneRateInTheAppInfoAndStats() {
    test::Ros1BagBuilder b;
    b.addConnection(0, "/a", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
    std::vector<test::Ros1BagBuilder::Message> messages;
    for (std::int64_t s : {0, 1, 2, 10})
      messages.push_back(
          {0, 1'700'000'000'000'000'000 + s * 1'000'000'000, test::WireWriter().put<std::int32_t>(1).bytes});
    b.addChunk(messages);
    QTemporaryDir dir;
    QString bag = dir.filePath("irregular.bag");
    QFile f(bag);
    QVERIFY(f.open(QIODevice::WriteOnly));
    auto bytes = b.finish({});
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()));
    f.close();
    Document d;
    QVERIFY(openAndWait(d, {bag}));
    QCOMPARE(d.topicByName("/a")->rateHz, 0.3);
    auto source = storage::openSource(toPath(bag));
    QVERIFY(source);
    auto summary = storage::summarize(**source);
    QVERIFY(summary);
    QCOMPARE(summary->topics.at(0).frequencyHz, 0.3);
    auto timing = session::timingStats(*d.session());
    QVERIFY(timing);
    QCOMPARE(timing->at(0).meanRateHz, 0.3);
    QCOMPARE(timing->at(0).medianRateHz, 1.0);
  }

  void undecodableTopicsAreMarkedAndFailedFilesListed() {
    // A type whose definition is missing cannot be decoded: the topic says why.
    test::Ros1BagBuilder b;
    b.addConnection(0, "/good", "std_msgs/Int32", "da5909fbe378aeaf85e547e830cc1bb7", "int32 data\n");
    b.addConnection(1, "/bad", "custom_msgs/Thing", "0123456789abcdef0123456789abcdef", "");
    b.addChunk({{0, 1'000'000'000, test::WireWriter().put<std::int32_t>(7).bytes},
                {1, 1'500'000'000, test::WireWriter().u32(1).bytes}});
    QTemporaryDir dir;
    QString bag = dir.filePath("custom.bag"), junk = dir.filePath("junk.bag");
    {
      QFile f(bag);
      QVERIFY(f.open(QIODevice::WriteOnly));
      auto bytes = b.finish({});
      f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()));
      QFile j(junk);
      QVERIFY(j.open(QIODevice::WriteOnly));
      j.write("this is not a bag");
    }
    Document d;
    QSignalSpy done(&d, &Document::openFinished);
    d.open({junk, bag});
    QVERIFY(done.wait(30000));
    QCOMPARE(done.at(0).at(0).toString(), QString());  // something opened
    QStringList failures = done.at(0).at(1).toStringList();
    QCOMPARE(failures.size(), 1);
    QVERIFY2(failures[0].contains("junk.bag"), qPrintable(failures[0]));
    TopicModel model(&d);
    QCOMPARE(model.rowCount(), 2);
    for (int r = 0; r < 2; ++r) {
      QModelIndex i = model.index(r, 0);
      bool bad = i.data().toString() == "/bad";
      QCOMPARE(i.data(Qt::ForegroundRole).isValid(), bad);
      QCOMPARE(i.data(Qt::ToolTipRole).toString().contains("cannot be decoded"), bad);
    }
    // Nothing openable at all: an error naming the file.
    Document none;
    QString error;
    QVERIFY(!openAndWait(none, {junk}, &error));
    QVERIFY2(error.contains("junk.bag"), qPrintable(error));
  }

  void cancellingAnOpenKeepsWhatWasOpen() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    auto before = d.session();
    QSignalSpy finished(&d, &Document::openFinished), cancelled(&d, &Document::openCancelled);
    d.open({dataPath("ros2/demo_zstd.mcap")});
    QVERIFY(d.isOpening());
    d.cancelOpen();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!d.isOpening());
    QTest::qWait(500);  // the abandoned open's result, if it comes, is dropped
    QCOMPARE(finished.count(), 0);
    QCOMPARE(d.session(), before);
    QCOMPARE(d.paths(), QStringList({dataPath("ros1/demo_lz4.bag")}));
  }

  void timeAxisMapsTimeToPixelsAndBack() {
    TimeAxis a;
    a.setSpan(0, 10'000'000'000);  // 10 s
    a.setWidth(1000);
    a.fit();
    QCOMPARE(a.toPixel(5'000'000'000), 500.0);
    QCOMPARE(a.toTime(250), qint64{2'500'000'000});
    QCOMPARE(a.nsPerPixel(), 1e7);
    // Zooming keeps the time under the cursor under it.
    a.zoom(2.0, 250);
    QCOMPARE(a.toNs() - a.fromNs(), qint64{5'000'000'000});
    QCOMPARE(a.toTime(250), qint64{2'500'000'000});
    QCOMPARE(a.fromNs(), qint64{1'250'000'000});
    // Panning moves by pixels and stops at the span's ends.
    a.pan(100);
    QCOMPARE(a.fromNs(), qint64{1'750'000'000});
    a.pan(-10000);
    QCOMPARE(a.fromNs(), qint64{0});
    QCOMPARE(a.toNs(), qint64{5'000'000'000});
    a.pan(10000);
    QCOMPARE(a.toNs(), qint64{10'000'000'000});
    // Zooming out never shows more than the span; zooming in stops at 1 µs.
    a.zoom(0.001, 500);
    QCOMPARE(a.fromNs(), qint64{0});
    QCOMPARE(a.toNs(), qint64{10'000'000'000});
    a.zoom(1e12, 500);
    QCOMPARE(a.toNs() - a.fromNs(), qint64{1000});
    // Ticks: 1-2-5 steps at least the spacing apart, on round offsets from the start.
    a.fit();
    auto ticks = a.ticks(80);  // 80 px = 0.8 s: the step is 1 s
    QCOMPARE(a.tickStep(80), qint64{1'000'000'000});
    QCOMPARE(ticks.size(), std::size_t{11});
    QCOMPARE(ticks[3].ns, qint64{3'000'000'000});
    QCOMPARE(ticks[3].x, 300.0);
    QCOMPARE(a.tickStep(150), qint64{2'000'000'000});
    QCOMPARE(a.tickStep(300), qint64{5'000'000'000});
  }

  // Labels never overlap and neighbours never read the same: recordings years apart, and
  // one a few microseconds long, in every time display.
  void rulerLabelsStayDistinctAndApartAtAnySpan() {
    QFontMetrics metrics(QApplication::font());
    auto width = [&](const QString& t) { return static_cast<double>(metrics.horizontalAdvance(t)); };
    const qint64 y2020 = 1'577'836'800'000'000'000, y2023 = 1'672'531'200'000'000'000;
    struct Span {
      qint64 from, to;
    };
    for (Span span : {Span{y2020, y2023}, Span{y2020, y2020 + 5'000}, Span{y2020, y2020 + 3'000'000'000},
                      Span{y2020, y2020 + 40 * 86'400'000'000'000}}) {
      for (TimeDisplay display : {TimeDisplay::Relative, TimeDisplay::Unix, TimeDisplay::Clock}) {
        TimeAxis a;
        a.setSpan(span.from, span.to);
        a.setWidth(900);
        a.fit();
        auto labels = a.labels(width, 16, display, span.from);
        QString where = QString("span %1 ns, display %2").arg(span.to - span.from).arg(int(display));
        QVERIFY2(labels.size() >= 2, qPrintable(where));
        for (std::size_t i = 1; i < labels.size(); ++i) {
          QVERIFY2(labels[i].text != labels[i - 1].text, qPrintable(where + ": " + labels[i].text));
          QVERIFY2(labels[i].x - labels[i - 1].x >= width(labels[i - 1].text) + 16,
                   qPrintable(where + ": " + labels[i - 1].text + " / " + labels[i].text));
        }
      }
    }
    // Exact digits, also where a double has too few.
    QCOMPARE(tickLabel(1'700'000'000'123'456'789, TimeDisplay::Unix, 0, 1, 1000), QString("1700000000.123456789"));
    QCOMPARE(tickLabel(y2020 + 2'500, TimeDisplay::Relative, y2020, 500, 5000), QString("0.0000025"));
    QCOMPARE(tickLabel(y2020 + 2'000'000'000, TimeDisplay::Relative, y2020, 1'000'000'000, 10'000'000'000),
             QString("2"));
  }

  void densityCountsEveryMessageOnce() {
    // Against a brute-force count, for random message times and views.
    std::mt19937_64 rng(7);
    std::vector<session::MessageRef> index(20000);
    std::uniform_int_distribution<qint64> when(0, 1'000'000'000);
    for (auto& r : index) r.logTimeNs = when(rng);
    std::sort(index.begin(), index.end(), [](auto& x, auto& y) { return x.logTimeNs < y.logTimeNs; });
    TimeAxis a;
    a.setSpan(0, 1'000'000'000);
    for (int trial = 0; trial < 20; ++trial) {
      int width = 50 + trial * 37;
      a.setWidth(width);
      qint64 from = when(rng) / 2, span = 1 + when(rng) / 2;
      a.setView(from, from + span);
      auto counts = messageDensity(index, a, width);
      for (int c = 0; c < width; c += 7) {
        qint64 t0 = a.toTime(c), t1 = a.toTime(c + 1);
        auto n =
            std::count_if(index.begin(), index.end(), [&](auto& r) { return r.logTimeNs >= t0 && r.logTimeNs < t1; });
        QCOMPARE(static_cast<long>(counts[static_cast<std::size_t>(c)]), static_cast<long>(n));
      }
      auto inView = std::count_if(index.begin(), index.end(),
                                  [&](auto& r) { return r.logTimeNs >= a.toTime(0) && r.logTimeNs < a.toTime(width); });
      QCOMPARE(static_cast<long>(std::accumulate(counts.begin(), counts.end(), 0L)), static_cast<long>(inView));
    }
  }

  void inspectorSaysWhyAMessageIsNotDecodedAndItsSize() {
    // The Foxy bag does not define demo_msgs/VehicleState: the inspector says so, and where
    // the message is and how large (tst_cli checks those sizes against Python's sqlite3).
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros2/demo_db3_old")}));
    auto topic = *d.session()->findTopic("/vehicle_state");
    auto m = readDecoded(*d.session(), topic, 0);
    QVERIFY(m);
    QVERIFY2(m->error.contains("demo_msgs/msg/VehicleState") && m->error.contains("message 1: ") &&
                 m->error.contains(QStringLiteral("%1 bytes, not decoded").arg(m->message.bytes.size())),
             qPrintable(m->error));
    QVERIFY(m->message.bytes.size() > 4);
  }

  // A ROS 2 type without fields decodes rosidl's placeholder byte but shows nothing, as
  // `ros2 topic echo` and Foxglove do (tests/data/ros2/cases/empty_types).
  void emptyRos2MessagesShowNoFields() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros2/cases/empty_types")}));
    MessageTreeModel model;
    model.setMessage(readDecoded(*d.session(), *d.session()->findTopic("/empty"), 0));
    QVERIFY(model.message() && model.message()->error.isEmpty());
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(messageYaml(model.message()->value).trimmed(), QString("{}"));
    QCOMPARE(messageJson(model.message()->value), QString("{}"));
    model.setMessage(readDecoded(*d.session(), *d.session()->findTopic("/with_empty"), 1));
    QModelIndex first = findPath(model, "first");
    QVERIFY(first.isValid());
    QCOMPARE(model.rowCount(first), 0);
    QVERIFY(!model.hasChildren(first));
    QVERIFY(!findPath(model, "first.structure_needs_at_least_one_member").isValid());
    QCOMPARE(valueText(model, findPath(model, "after")), QString("-8"));
  }

  void inspectorShowsNestedAndArrayFields() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    auto lines = expected("ros1/demo.expected.jsonl");
    int imuSeen = 0;
    QJsonObject third;
    for (const auto& l : lines)
      if (l["topic"] == "/imu" && imuSeen++ == 2) third = l["msg"].toObject();
    auto imu = *d.session()->findTopic("/imu");
    MessageTreeModel model;
    model.setMessage(readDecoded(*d.session(), imu, 2));
    QVERIFY(model.message() && model.message()->error.isEmpty());
    // Top level: the fields in definition order.
    QStringList top;
    for (int r = 0; r < model.rowCount(); ++r) top << model.index(r, 0).data().toString();
    QCOMPARE(top, third.keys().size() == 7 ? QStringList({"header", "orientation", "orientation_covariance",
                                                          "angular_velocity", "angular_velocity_covariance",
                                                          "linear_acceleration", "linear_acceleration_covariance"})
                                           : QStringList());
    // Nested struct fields and their values.
    QModelIndex z = findPath(model, "orientation.z");
    QVERIFY(z.isValid());
    QCOMPARE(valueText(model, z).toDouble(), third["orientation"][u"z"].toDouble());
    QCOMPARE(model.index(z.row(), MessageTreeModel::TypeColumn, z.parent()).data().toString(), QString("float64"));
    QModelIndex frame = findPath(model, "header.frame_id");
    QCOMPARE(valueText(model, frame), "\"" + third["header"][u"frame_id"].toString() + "\"");
    QModelIndex stamp = findPath(model, "header.stamp");
    QCOMPARE(valueText(model, stamp),
             QStringLiteral("%1.%2")
                 .arg(third["header"][u"stamp"][u"sec"].toInteger())
                 .arg(third["header"][u"stamp"][u"nsec"].toInteger(), 9, 10, QLatin1Char('0')));
    QCOMPARE(*model.message()->stampNs, third["header"][u"stamp"][u"sec"].toInteger() * 1'000'000'000 +
                                            third["header"][u"stamp"][u"nsec"].toInteger());
    // A fixed array: its length, then its elements as children.
    QModelIndex cov = findPath(model, "orientation_covariance");
    QCOMPARE(valueText(model, cov), QString("9 item(s)"));
    QCOMPARE(model.rowCount(cov), 9);
    QJsonArray covariance = third["orientation_covariance"].toArray();
    for (int i = 0; i < 9; ++i) {
      QModelIndex item = model.index(i, 0, cov);
      QCOMPARE(item.data().toString(), QStringLiteral("[%1]").arg(i));
      QCOMPARE(item.data(MessageTreeModel::PathRole).toString(), QStringLiteral("orientation_covariance[%1]").arg(i));
      QCOMPARE(valueText(model, item).toDouble(), covariance[i].toDouble());
    }
    // The search keeps matching paths with their parents and children.
    FieldFilter filter;
    filter.setSourceModel(&model);
    filter.setText("ANGULAR");
    QStringList shown;
    for (int r = 0; r < filter.rowCount(); ++r) shown << filter.index(r, 0).data().toString();
    QCOMPARE(shown, QStringList({"angular_velocity", "angular_velocity_covariance"}));
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 3);
    filter.setText("stamp");
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 1);  // header: only its stamp
  }

  void longArraysAndBytesStayCollapsed() {
    // float32[] of 2500 and uint8[] of 100000: a "more" row, and bytes never expanded.
    test::Ros1BagBuilder b;
    b.addConnection(0, "/big", "test_msgs/Big", "0123456789abcdef0123456789abcdef", "float32[] values\nuint8[] blob\n");
    test::WireWriter w;
    w.u32(2500);
    for (int i = 0; i < 2500; ++i) w.put<float>(static_cast<float>(i) * 0.5f);
    w.u32(100000);
    for (int i = 0; i < 100000; ++i) w.u8(static_cast<std::uint8_t>(i));
    b.addChunk({{0, 1'000'000'000, w.bytes}});
    auto source = storage::openSource(memorySource(b.finish({}), "big.bag"));
    QVERIFY(source.has_value());
    std::vector<std::unique_ptr<storage::Source>> sources;
    sources.push_back(std::move(source).value());
    auto s = session::Session::open(std::move(sources));
    QVERIFY(s.has_value());
    MessageTreeModel model;
    model.setMessage(readDecoded(**s, 0, 0));
    QModelIndex values = findPath(model, "values");
    QCOMPARE(valueText(model, values), QString("2500 item(s)"));
    QCOMPARE(model.rowCount(values), MessageTreeModel::kMaxShownItems + 1);
    QModelIndex last = model.index(MessageTreeModel::kMaxShownItems - 1, 0, values);
    QCOMPARE(valueText(model, last), QString("499.5"));
    QModelIndex more = model.index(MessageTreeModel::kMaxShownItems, 0, values);
    QCOMPARE(valueText(model, more), QString("1500 more item(s) not shown"));
    QModelIndex blob = findPath(model, "blob");
    QVERIFY(!model.hasChildren(blob));
    QCOMPARE(model.rowCount(blob), 0);
    QVERIFY2(valueText(model, blob).startsWith("100000 byte(s): 00 01 02"), qPrintable(valueText(model, blob)));
    // YAML: flow lists for numbers, long byte arrays summarised.
    QString yaml = messageYaml(model.message()->value);
    QVERIFY2(yaml.startsWith("values: [0, 0.5, 1, 1.5,"), qPrintable(yaml.left(80)));
    QVERIFY2(yaml.contains("blob: \"<100000 bytes, not shown>\""), qPrintable(yaml.right(80)));
  }

  void copiedJsonAndYamlMatchTheExpectations() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QJsonObject first;
    for (const auto& l : expected("ros1/demo.expected.jsonl"))
      if (l["topic"] == "/odom") {
        first = l["msg"].toObject();
        break;
      }
    auto odom = readDecoded(*d.session(), *d.session()->findTopic("/odom"), 0);
    QVERIFY(odom->error.isEmpty());
    QJsonDocument json = QJsonDocument::fromJson(messageJson(odom->value).toUtf8());
    QString diff = test::jsonDifference(json.object(), first);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // YAML: nested blocks with the same values (spot checks by line).
    QString yaml = messageYaml(odom->value);
    QVERIFY2(yaml.contains("header:\n  seq: " + QString::number(first["header"][u"seq"].toInteger()) + "\n"),
             qPrintable(yaml.left(200)));
    QVERIFY(yaml.contains("\n  frame_id: \"" + first["header"][u"frame_id"].toString() + "\"\n"));
    QVERIFY(yaml.contains("child_frame_id: \"" + first["child_frame_id"].toString() + "\"\n"));
    QVERIFY(yaml.contains("pose:\n  pose:\n    position:\n      x: "));
    // A ROS 1 time has the same names in YAML as in JSON (and in the expectation).
    QJsonObject stamp = first["header"][u"stamp"].toObject();
    QString stampLine = yaml.section("stamp: ", 1, 1).section('\n', 0, 0);
    QCOMPARE(stamp.keys(), QStringList({"nsec", "sec"}));
    for (const QString& key : stamp.keys()) {
      QRegularExpression kv(QStringLiteral("(^|[{ ])%1: %2[,}]").arg(key).arg(stamp[key].toInteger()));
      QVERIFY2(kv.match(stampLine).hasMatch(), qPrintable(key + " in " + stampLine));
    }
  }

  void layoutsRoundTripAndMatchTopicsByName() {
    QTemporaryDir folder;
    Layout saved;
    {
      MainWindow w(nullptr, folder.path());
      QSignalSpy opened(&w, &MainWindow::openFinished);
      w.open({dataPath("ros1/demo_lz4.bag")});
      QVERIFY(opened.wait(30000));
      w.topicPanel()->filterBox()->setText("i");
      w.topicPanel()->view()->sortByColumn(TopicModel::Count, Qt::DescendingOrder);
      w.document()->setCurrentTopic(static_cast<int>(w.document()->topicByName("/imu")->id));
      w.inspector()->searchBox()->setText("angular");
      w.playback()->setSpeed(2.0);
      w.playback()->setLoop(true);
      w.docks()[1]->hide();  // the inspector
      saved = w.currentLayout("work");
      QString error;
      QVERIFY2(w.layoutStore().save(saved, &error), qPrintable(error));
      QCOMPARE(w.layoutStore().names(), QStringList({"work"}));
    }
    // Read back from its file, it is the same layout.
    LayoutStore store(folder.path());
    QString error;
    auto loaded = store.load("work", &error);
    QVERIFY2(loaded.has_value(), qPrintable(error));
    QCOMPARE(loaded->toJson(), saved.toJson());
    QCOMPARE(loaded->panels["topics"][u"selected"].toString(), QString("/imu"));
    // Applied to a new window that then opens a ROS 2 bag: same panels, /imu selected there.
    MainWindow w(nullptr, folder.path());
    w.applyLayout(*loaded);
    QVERIFY(openAndWait(w, {dataPath("ros2/demo_zstd.mcap")}));
    QCOMPARE(w.topicPanel()->filterBox()->text(), QString("i"));
    QCOMPARE(w.topicPanel()->view()->header()->sortIndicatorSection(), static_cast<int>(TopicModel::Count));
    QCOMPARE(w.topicPanel()->view()->header()->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(w.inspector()->searchBox()->text(), QString("angular"));
    QCOMPARE(w.playback()->speed(), 2.0);
    QVERIFY(w.playback()->loops());
    QVERIFY(w.docks()[1]->isHidden());
    QVERIFY(w.document()->currentTopic() >= 0);
    QCOMPARE(w.document()->topics()[static_cast<std::size_t>(w.document()->currentTopic())].name, QString("/imu"));
    // Broken layout files are refused with a reason.
    QFile bad(folder.filePath("bad.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"kind\": \"something else\"}");
    bad.close();
    QVERIFY(!Layout::readFile(bad.fileName(), &error).has_value());
    QVERIFY2(error.contains("not a Bagscope layout"), qPrintable(error));
    QCOMPARE(store.names(), QStringList({"work"}));  // the bad file is not listed
  }

  void decimationKeepsEveryColumnsMinAndMax() {
    // Property test against brute force: for random series and views, each pixel column's
    // lowest and highest point (and its first and last) are among the points drawn.
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 30; ++trial) {
      std::size_t n = 1000 + rng() % 200000;
      std::vector<double> x(n), y(n);
      double t = 0;
      std::normal_distribution<double> step(0, 1);
      for (std::size_t i = 0; i < n; ++i) {
        t += 0.001 + static_cast<double>(rng() % 100) * 1e-5;
        x[i] = t;
        y[i] = (i ? y[i - 1] : 0) + step(rng);
        if (rng() % 997 == 0) y[i] = std::numeric_limits<double>::quiet_NaN();
      }
      double x0 = x[rng() % (n / 2)], x1 = x[n / 2 + rng() % (n / 2)];
      int columns = 50 + static_cast<int>(rng() % 1500);
      auto drawn = decimateMinMax(x, y, x0, x1, columns);
      std::set<std::pair<double, double>> kept;
      for (const auto& p : drawn) kept.insert({p.x, p.y});
      QVERIFY(std::is_sorted(drawn.begin(), drawn.end(), [](auto& a, auto& b) { return a.x < b.x; }));
      // Brute force per column, with the same column arithmetic.
      double per = (x1 - x0) / columns;
      std::map<long, std::vector<std::size_t>> byColumn;
      for (std::size_t i = 0; i < n; ++i)
        if (x[i] >= x0 && x[i] <= x1 && !std::isnan(y[i]))
          byColumn[std::min(static_cast<long>(std::floor((x[i] - x0) / per)), static_cast<long>(columns - 1))]
              .push_back(i);
      std::size_t inView = 0;
      for (auto& [c, idx] : byColumn) {
        inView += idx.size();
        auto lo = *std::min_element(idx.begin(), idx.end(), [&](auto a, auto b) { return y[a] < y[b]; });
        auto hi = *std::max_element(idx.begin(), idx.end(), [&](auto a, auto b) { return y[a] < y[b]; });
        for (auto i : {lo, hi, idx.front(), idx.back()})
          QVERIFY2(kept.count({x[i], y[i]}),
                   qPrintable(QString("trial %1 column %2 lost point %3").arg(trial).arg(c).arg(i)));
      }
      // And it is a reduction when there are many points per column.
      if (inView > 8 * static_cast<std::size_t>(columns))
        QVERIFY(drawn.size() <= 4 * static_cast<std::size_t>(columns) + 2);
      for (const auto& p : drawn) QVERIFY(!std::isnan(p.y));
    }
  }

  void colourMapsGiveTheirStops() {
    // Hand-checked ends and middle of the maps (Turbo's and Viridis' published colours).
    QCOMPARE(colourAt(ColourMap::Turbo, 0.0), QColor(48, 18, 59));
    QCOMPARE(colourAt(ColourMap::Turbo, 0.5), QColor(164, 252, 60));
    QCOMPARE(colourAt(ColourMap::Turbo, 1.0), QColor(122, 4, 3));
    QCOMPARE(colourAt(ColourMap::Viridis, 0.0), QColor(68, 1, 84));
    QCOMPARE(colourAt(ColourMap::Viridis, 1.0), QColor(253, 231, 37));
    QCOMPARE(colourAt(ColourMap::Grey, 0.25), QColor(64, 64, 64));
    QCOMPARE(colourAt(ColourMap::Turbo, -3.0), QColor(48, 18, 59));  // clamped
  }

  void cloudColouringMapsFieldValues() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    auto topic = *d.session()->findTopic("/points");
    // Coloured by intensity over its own range: the lowest point gets the map's first
    // colour, the highest its last, one at the middle value the middle colour.
    CloudFrame frame = readCloud(*d.session(), topic, 0, "intensity", nullptr, {});
    QVERIFY2(frame.error.isEmpty(), qPrintable(frame.error));
    QCOMPARE(frame.size(), std::size_t{2000});
    QVERIFY(frame.fields.contains("ring") && frame.fields.contains("intensity"));
    QCOMPARE(frame.frameId, QString("lidar"));
    auto [lo, hi] = std::minmax_element(frame.values.begin(), frame.values.end());
    std::vector<std::uint8_t> rgb(3 * frame.size());
    cloudColours(frame, ColourMap::Turbo, *lo, *hi, rgb);
    auto colourOf = [&](std::size_t i) { return QColor(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]); };
    QCOMPARE(colourOf(static_cast<std::size_t>(lo - frame.values.begin())), QColor(48, 18, 59));
    QCOMPARE(colourOf(static_cast<std::size_t>(hi - frame.values.begin())), QColor(122, 4, 3));
    // A range that puts a point's value exactly in the middle gives Turbo's middle stop.
    std::vector<std::uint8_t> one(3);
    CloudFrame single;
    single.xyz = {0, 0, 0};
    single.values = {frame.values[7]};
    cloudColours(single, ColourMap::Turbo, frame.values[7] - 10, frame.values[7] + 10, one);
    QCOMPARE(QColor(one[0], one[1], one[2]), QColor(164, 252, 60));
    // By ring (an integer field): every point of the highest ring has the last colour.
    CloudFrame rings = readCloud(*d.session(), topic, 0, "ring", nullptr, {});
    auto top = *std::max_element(rings.values.begin(), rings.values.end());
    cloudColours(rings, ColourMap::Viridis, 0, top, rgb);
    for (std::size_t i = 0; i < rings.size(); ++i)
      if (rings.values[i] == top) QCOMPARE(colourOf(i), QColor(253, 231, 37));
    // Into the fixed frame: /tf_static puts the lidar 0.5 m ahead of and 1.2 m above
    // base_link (the fixture's documented mounting).
    sensors::TfBuffer tf;
    QJsonObject tfStatic;
    for (const auto& l : expected("ros1/demo.expected.jsonl"))
      if (l["topic"] == "/tf_static") tfStatic = l["msg"].toObject();
    QVERIFY(!tfStatic.isEmpty());
    auto staticRow = readDecoded(*d.session(), *d.session()->findTopic("/tf_static"), 0);
    tf.add(staticRow->value, true);
    CloudFrame moved = readCloud(*d.session(), topic, 0, "intensity", &tf, "base_link");
    QVERIFY2(moved.warning.isEmpty(), qPrintable(moved.warning));
    QJsonObject lidar;
    for (const auto& t : tfStatic["transforms"].toArray())
      if (t.toObject()["child_frame_id"] == "lidar") lidar = t.toObject()["transform"].toObject();
    QVERIFY(!lidar.isEmpty());
    QCOMPARE(lidar["rotation"][u"w"].toDouble(), 1.0);  // translation only: a shift
    for (std::size_t i = 0; i < 3 * frame.size(); i += 3) {
      QVERIFY(qAbs(moved.xyz[i] - (frame.xyz[i] + lidar["translation"][u"x"].toDouble())) < 1e-4);
      QVERIFY(qAbs(moved.xyz[i + 2] - (frame.xyz[i + 2] + lidar["translation"][u"z"].toDouble())) < 1e-4);
    }
  }

  void imageReadoutGivesTheRawPixel() {
    // The fixture's documented images (shared/fixtures-gen/ros1/generate.py): depth 16UC1 is
    // 1000 + 20 y + 5 x + 50 frame mm, 0 in the top-left 8x8 block, 65535 in the last
    // pixel; depth_float is the same in metres (NaN for 0); image_bgr has red, green, blue
    // bands left to right.
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    const auto& s = *d.session();
    ImageStyle style;
    RenderedImage depth = renderImage(s, *s.findTopic("/camera/depth"), 1, style);
    QVERIFY2(depth.error.isEmpty(), qPrintable(depth.error));
    QCOMPARE(depth.picture.size(), QSize(64, 48));
    QCOMPARE(pixelReadout(*depth.raw, depth.encoding, 10, 20), QString("%1 mm").arg(1000 + 20 * 20 + 5 * 10 + 50 * 1));
    QCOMPARE(pixelReadout(*depth.raw, depth.encoding, 3, 3), QString("0 mm"));
    QCOMPARE(pixelReadout(*depth.raw, depth.encoding, 63, 47), QString("65535 mm"));
    QCOMPARE(pixelReadout(*depth.raw, depth.encoding, 64, 0), QString());  // outside
    // Auto range skips invalid 0 and the lone 65535: it spans the plane's values.
    QVERIFY(depth.low >= 1000 + 50 && depth.high <= 1000 + 20 * 47 + 5 * 63 + 50);
    QCOMPARE(depth.picture.pixelColor(3, 3), QColor(0, 0, 0));  // no measurement: black
    RenderedImage metres = renderImage(s, *s.findTopic("/camera/depth_float"), 1, style);
    QCOMPARE(pixelReadout(*metres.raw, metres.encoding, 10, 20), QString("1.500 m"));
    QCOMPARE(pixelReadout(*metres.raw, metres.encoding, 0, 0), QString("NaN m"));
    RenderedImage bgr = renderImage(s, *s.findTopic("/camera/image_bgr"), 0, style);
    QCOMPARE(pixelReadout(*bgr.raw, bgr.encoding, 5, 2), QString("R 255  G 0  B 0"));
    QCOMPARE(pixelReadout(*bgr.raw, bgr.encoding, 60, 2), QString("R 0  G 0  B 255"));
    QCOMPARE(bgr.picture.pixelColor(5, 2), QColor(255, 0, 0));  // drawn in true colour
    // A manual range: values at `low` get the map's first colour.
    style.autoRange = false;
    style.low = 1450;
    style.high = 2000;
    RenderedImage fixed = renderImage(s, *s.findTopic("/camera/depth"), 0, style);
    QCOMPARE(fixed.picture.pixelColor(10, 20), colourAt(ColourMap::Turbo, 0.0));
    // The PNG of /camera/png/compressed decodes to the same bands.
    RenderedImage png = renderImage(s, *s.findTopic("/camera/png/compressed"), 0, ImageStyle{});
    QVERIFY2(png.error.isEmpty(), qPrintable(png.error));
    QCOMPARE(pixelReadout(*png.raw, png.encoding, 30, 2), QString("R 0  G 255  B 0"));
  }

  void playbackStepsAndLoops() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    auto times = timesByTopic(expected("ros1/demo.expected.jsonl"));
    std::vector<qint64> all;
    for (const auto& [name, t] : times) all.insert(all.end(), t.begin(), t.end());
    std::sort(all.begin(), all.end());
    const auto& gps = times.at("/gps");
    Playback p(&d);
    int topic = static_cast<int>(d.topicByName("/gps")->id);
    QCOMPARE(d.playheadNs(), all.front());
    for (std::size_t i = 0; i < gps.size(); ++i) {
      QVERIFY(p.step(+1, topic));
      QCOMPARE(d.playheadNs(), gps[i]);
    }
    QVERIFY(!p.step(+1, topic));  // none after the last
    QVERIFY(p.step(-1, topic));
    QCOMPARE(d.playheadNs(), gps[gps.size() - 2]);
    // Any topic: the next distinct time of all messages.
    auto next = std::upper_bound(all.begin(), all.end(), d.playheadNs());
    QVERIFY(p.step(+1, -1));
    QCOMPARE(d.playheadNs(), *next);
    p.toEnd();
    QCOMPARE(d.playheadNs(), all.back());
    p.toStart();
    QCOMPARE(d.playheadNs(), all.front());
    // Looping within a range at 10x: the playhead stays inside it and comes round again.
    TimeRange range{all.front() + 500'000'000, all.front() + 700'000'000};
    d.setRange(range);
    p.setLoop(true);
    p.setSpeed(10);
    p.play();
    QCOMPARE(d.playheadNs(), range.startNs);
    qint64 highest = 0;
    bool wrapped = false;
    qint64 previous = d.playheadNs();
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 200) {
      QTest::qWait(10);
      QVERIFY(d.playheadNs() >= range.startNs && d.playheadNs() <= range.endNs);
      wrapped |= d.playheadNs() < previous;
      previous = d.playheadNs();
      highest = std::max(highest, d.playheadNs());
    }
    QVERIFY(p.isPlaying());
    QVERIFY2(wrapped, "10x over a 0.2 s range for 0.2 s must wrap at least once");
    QVERIFY(highest > range.startNs + 100'000'000);
    p.pause();
    QVERIFY(!p.isPlaying());
  }

  // Paths with characters outside ASCII (and outside any 8-bit code page) round-trip through
  // toPath/fromPath and open; an export writes under such a folder.
  void nonAsciiPathsOpenAndExport() {
    QTemporaryDir tmp;
    const QString folder = tmp.filePath(QStringLiteral("ロボット 数据 ü"));
    QVERIFY(QDir().mkpath(folder));
    const QString bag = folder + QStringLiteral("/記録 données.bag");
    QVERIFY(QFile::copy(dataPath("ros1/demo_lz4.bag"), bag));
    QCOMPARE(fromPath(toPath(bag)), bag);
    QVERIFY(std::filesystem::exists(toPath(bag)));
    Document d;
    QString error;
    QVERIFY2(openAndWait(d, {bag}, &error), qPrintable(error));
    QCOMPARE(d.paths(), QStringList({bag}));
    exporters::ExportOptions o;
    o.format = exporters::Format::Csv;
    o.topics = {"/gps"};
    o.outDir = toPath(folder + QStringLiteral("/書き出し"));
    exporters::ExportReport report;
    auto r = exporters::exportSession(*d.session(), "記録", o, report);
    QVERIFY2(r.has_value(), r ? "" : r.error().describe().c_str());
    QCOMPARE(report.files.size(), std::size_t{1});
    const QString csv = fromPath(report.files[0].path);
    QVERIFY2(csv.startsWith(folder + QStringLiteral("/書き出し/")), qPrintable(csv));
    QVERIFY2(QFileInfo(csv).size() > 0, qPrintable(csv));
  }

  // macOS delivers Finder's double click as a QFileOpenEvent to the application.
  void systemFileOpenEventOpensTheFile() {
    QTemporaryDir folder;
    MainWindow w(nullptr, folder.path());
    QSignalSpy opened(&w, &MainWindow::openFinished);
    QFileOpenEvent event(dataPath("ros2/demo.mcap"));
    QCoreApplication::sendEvent(qApp, &event);
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.at(0).at(0).toString(), QString());
    QCOMPARE(w.document()->paths(), QStringList({dataPath("ros2/demo.mcap")}));
  }

  void aboutDialogShowsBuildAndLicences() {
    AboutDialog about;
    const QString report = about.findChild<QPlainTextEdit*>("buildReport")->toPlainText();
    QVERIFY2(report.startsWith("Bagscope: " BAGSCOPE_EXPECTED_VERSION "\n"), qPrintable(report));
    QVERIFY(report.contains(QStringLiteral("Qt: %1 ").arg(qVersion())));
    QVERIFY(report.contains("VTK: 9."));
    QVERIFY(report.contains("OpenCV: 4."));
    QVERIFY(!report.contains("Commit: \n"));
    // Every component names a licence; the two shipped inside the program show their full text.
    auto* list = about.findChild<QListWidget*>("licences");
    auto* text = about.findChild<QTextBrowser*>("licenceText");
    QVERIFY(list->count() >= 10);
    auto show = [&](const QString& name) {
      auto items = list->findItems(name, Qt::MatchExactly);
      if (items.size() != 1) return QString();
      list->setCurrentItem(items[0]);
      return text->toPlainText();
    };
    QString own = show("Bagscope");
    QVERIFY(own.contains("GPL-3.0-or-later"));
    QVERIFY(own.contains("GNU GENERAL PUBLIC LICENSE"));
    QVERIFY(own.contains("Version 3, 29 June 2007"));
    QString ros2 = show("ROS 2 message definitions");
    QVERIFY(ros2.contains("Apache-2.0"));
    QVERIFY(ros2.contains("Apache License"));
    QVERIFY(ros2.contains("Version 2.0, January 2004"));
    QVERIFY(show("QCustomPlot").contains("GPL-3.0"));
    QVERIFY(show("VTK").contains("BSD-3-Clause"));
  }
};

QTEST_MAIN(TestWidgetModels)
#include "tst_widget_models.moc"
