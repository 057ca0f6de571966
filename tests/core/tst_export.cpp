// core/export in C++ (the Python suite in tests/export reads exports back with independent
// readers, but only where Python runs): the format table, names and templates, atomic
// writes, the NumPy preamble, LZF, and whole exports of the ROS 1 fixture checked against
// its expectations (python3-rosbag's reading of the same file).

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>

#include <set>
#include <sstream>

#include "common/test_support.hpp"
#include "core/export/export.hpp"
#include "core/export/table.hpp"

using namespace bagscope;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
  QFile f(QString::fromStdString(p.string()));
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}

std::vector<QJsonObject> expectedOf(const QString& topic) {
  QString error;
  std::vector<QJsonObject> out;
  for (auto& line : test::readJsonLines(test::dataPath("ros1/demo.expected.jsonl"), &error))
    if (line.value("topic").toString() == topic) out.push_back(line);
  return out;
}

}  // namespace

class TestExport : public QObject {
  Q_OBJECT

private slots:
  // Static transforms by their publishers: latched (ROS 1), or transient-local in ROS 2's QoS as
  // Jazzy writes it (by name) and as Humble and convert --to-ros2 write it (durability: 1).
  void staticTransformsAreKnownByTheirQos() {
    storage::Connection c;
    session::Topic t{"/transforms_kept", "tf2_msgs/msg/TFMessage", 1, {{0, &c}}};
    QVERIFY(!exporters::isStaticTransforms(t));
    c.offeredQos = "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 1\n";
    QVERIFY(exporters::isStaticTransforms(t));
    c.offeredQos = "- history: keep_last\n  durability: transient_local\n";
    QVERIFY(exporters::isStaticTransforms(t));
    c.offeredQos = "- history: 3\n  durability: 2\n";
    QVERIFY(!exporters::isStaticTransforms(t));
    c.latching = true;
    QVERIFY(exporters::isStaticTransforms(t));
  }

  void everyFormatIsNamedOnceAndTakesWhatItIsMadeFor() {
    std::set<std::string> names;
    for (const auto& f : exporters::formats()) {
      QVERIFY2(names.insert(f.name).second, f.name);
      QCOMPARE(*exporters::formatFromName(f.name), f.format);
      if (f.alias) QCOMPARE(*exporters::formatFromName(f.alias), f.format);
      QCOMPARE(&exporters::formatInfo(f.format), &f);
    }
    QCOMPARE(names.size(), std::size_t{10});
    auto unknown = exporters::formatFromName("tiff");
    QVERIFY(!unknown.has_value());
    QVERIFY2(unknown.error().message.find("pcd, ply, bin") != std::string::npos, unknown.error().message.c_str());
    QCOMPARE(std::string(exporters::extension(exporters::Format::Jpeg)), std::string("jpg"));
    using F = exporters::Format;
    auto list = [](std::string_view type) { return exporters::formatsFor(type); };
    QCOMPARE(list("sensor_msgs/msg/PointCloud2"),
             (std::vector<F>{F::Pcd, F::Ply, F::KittiBin, F::Las, F::Npy, F::Csv}));
    QCOMPARE(list("sensor_msgs/CompressedImage"), (std::vector<F>{F::Png, F::Jpeg, F::Mp4, F::Avi, F::Csv, F::Npy}));
    QCOMPARE(list("sensor_msgs/Imu"), (std::vector<F>{F::Csv, F::Npy}));
    QVERIFY(!exporters::accepts(F::Pcd, "sensor_msgs/Image") && exporters::accepts(F::Pcd, "sensor_msgs/LaserScan"));
    QVERIFY(exporters::filePerMessage(F::Npy, "sensor_msgs/PointCloud2") &&
            !exporters::filePerMessage(F::Npy, "sensor_msgs/Imu"));
    QVERIFY(!exporters::filePerMessage(F::Mp4, "sensor_msgs/Image") &&
            exporters::filePerMessage(F::Png, "sensor_msgs/Image"));
  }

  // A format's row names the options it takes; each is a row of the options' table, each
  // option is taken by some format, and each reads back what it is set to (#35).
  void everyFormatOptionIsARowThatReadsBackWhatItIsSet() {
    std::set<std::string> taken;
    for (const auto& f : exporters::formats()) {
      std::istringstream ids(f.options);
      for (std::string id; ids >> id;) {
        QVERIFY2(exporters::findFormatOption(id), (std::string(f.name) + " names an unknown option " + id).c_str());
        QVERIFY(exporters::takesOption(f.format, id));
        taken.insert(id);
      }
    }
    const exporters::ExportOptions defaults;
    for (const auto& o : exporters::formatOptions()) {
      QVERIFY2(taken.count(o.id), o.id);
      QCOMPARE(exporters::findFormatOption(o.id), &o);
      if (o.alias) QCOMPARE(exporters::findFormatOption(o.alias), &o);
      QVERIFY2(o.set && o.get && o.help, o.id);
      exporters::ExportOptions set;
      QVERIFY2(exporters::setOption(set, o, o.get(defaults)).has_value(), o.id);  // the default is a value
      QCOMPARE(o.get(set), o.get(defaults));
    }
    QVERIFY(!exporters::takesOption(exporters::Format::Png, "quality"));
    QVERIFY(!exporters::takesOption(exporters::Format::Pcd, "pcd"));  // whole ids only
    QVERIFY(exporters::takesOption(exporters::Format::Npy, "array-limit"));
    // Values the kinds refuse, and ones they take.
    exporters::ExportOptions o;
    auto set = [&](const char* id, std::string_view text) {
      return exporters::setOption(o, *exporters::findFormatOption(id), text);
    };
    QVERIFY(!set("quality", "101") && !set("quality", "-1") && !set("quality", "") && !set("quality", "7x"));
    QVERIFY(set("quality", "80") && o.jpegQuality == 80);
    QVERIFY(!set("fps", "nan") && set("fps", "29.97") && o.fps == 29.97);
    auto wrong = set("pcd-encoding", "lzf");
    QVERIFY(!wrong);
    QCOMPARE(wrong.error().message, std::string("pcd-encoding takes binary, binary_compressed or ascii, not 'lzf'"));
    QVERIFY(set("pcd-encoding", "binary_compressed") && o.pcdEncoding == exporters::PcdEncoding::BinaryCompressed);
    QVERIFY(set("fields", "x, y,,intensity=i") && o.fields == (std::vector<std::string>{"x", "y", "intensity=i"}));
    QVERIFY(!set("axes", "x,x,z") && set("axes", "z, -y, x") && o.axes == "z,-y,x");
    QVERIFY(set("ascii", "true") && o.plyAscii && o.pcdEncoding == exporters::PcdEncoding::Ascii);
    QVERIFY(set("field", "a.b") && set("field", "c") && o.paths == (std::vector<std::string>{"a.b", "c"}));
    QVERIFY(!set("seconds", "yes") && set("seconds", "true") && o.timeInSeconds);
  }

  void namesStayInsideTheFolderAndAreSafeEverywhere() {
    QVERIFY(exporters::checkNameTemplate("{topic}/{bag}_{index}.{ext}").has_value());
    for (const char* bad : {"/tmp/x.pcd", "../x.pcd", "a/../../x.pcd"})
      QVERIFY2(!exporters::checkNameTemplate(bad).has_value(), bad);
    QCOMPARE(exporters::safeFileNameComponent("/camera/image:raw"), std::string("_camera_image_raw"));
    QCOMPARE(exporters::safeFileNameComponent("CON"), std::string("_CON"));
    QCOMPARE(exporters::safeFileNameComponent(".."), std::string("_._"));  // a trailing dot replaced, then '_' in front
    QCOMPARE(exporters::safeFileNameComponent(std::string(300, 'a')).size(), std::size_t{200});
    QCOMPARE(exporters::recordingName("/data/run.bag"), std::string("run"));
    QCOMPARE(exporters::recordingName("/data/rosbag2_2024/"), std::string("rosbag2_2024"));
    QCOMPARE(exporters::recordingName("/data/rosbag2_2024/metadata.yaml"), std::string("rosbag2_2024"));
  }

  void filesAreWrittenWholeAndNotReplacedUnlessAsked() {
    QTemporaryDir dir;
    fs::path file = fs::path(dir.path().toStdString()) / "out.csv";
    QVERIFY(exporters::writeFileAtomically(file, "first", false).has_value());
    auto again = exporters::writeFileAtomically(file, "second", false);
    QVERIFY(!again.has_value());
    QVERIFY2(again.error().describe().find("out.csv") != std::string::npos, again.error().describe().c_str());
    QCOMPARE(readAll(file), std::string("first"));
    QVERIFY(exporters::writeFileAtomically(file, "second", true).has_value());
    QCOMPARE(readAll(file), std::string("second"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"out.csv"});  // no temporary left
    // The plot's CSV: long form, only the range, numbers as the CSV export writes them.
    fs::path series = fs::path(dir.path().toStdString()) / "plot.csv";
    QVERIFY(exporters::writeSeriesCsv(series, {{"a,b", {0, 1, 2}, {0.1, 1e300, -2}, {}}}, "t", "value", 0.5, 2, false)
                .has_value());
    QCOMPARE(readAll(series), std::string("series,t,value\n\"a,b\",1.0,1e+300\n\"a,b\",2.0,-2.0\n"));
  }

  void numpyPreamblesAreAlignedVersionOneHeaders() {
    std::string p = exporters::detail::npyPreamble({{"x", "<f4"}, {"t", "<i8"}}, "3,");
    QCOMPARE(p.size() % 64, std::size_t{0});
    QCOMPARE(p.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    auto length = static_cast<std::size_t>(static_cast<unsigned char>(p[8])) |
                  static_cast<std::size_t>(static_cast<unsigned char>(p[9])) << 8;
    QCOMPARE(length + 10, p.size());
    QVERIFY(p.find("{'descr': [('x', '<f4'), ('t', '<i8'), ], 'fortran_order': False, 'shape': (3,), }") == 10);
    QCOMPARE(p.back(), '\n');
    std::vector<std::pair<std::string, std::string>> many(5000, {"a_rather_long_field_name", "<f8"});
    QVERIFY(exporters::detail::npyPreamble(many, "1,").empty());  // over NumPy 1.0's 64 KiB
  }

  void lzfMatchesTheFormatAndRoundTrips() {
    // liblzf's stream for "abcabc": 3 literals, then a 3-byte match 3 back.
    std::string stream = std::string(
                             "\x02"
                             "abc",
                             4) +
                         std::string("\x20\x02", 2);
    QCOMPARE(exporters::lzfDecompress(stream, 6).value_or("?"), std::string("abcabc"));
    QVERIFY(!exporters::lzfDecompress(stream, 7).has_value());                      // size mismatch
    QVERIFY(!exporters::lzfDecompress(std::string("\x20\x09", 2), 3).has_value());  // reference before the start
    std::string data;
    for (int i = 0; i < 300000; ++i) data += static_cast<char>((i % 97) * (i % 13 == 0 ? 3 : 1));
    auto packed = exporters::lzfCompress(data);
    QVERIFY(packed.size() < data.size() / 4);
    QCOMPARE(exporters::lzfDecompress(packed, data.size()).value_or(""), data);
    std::string noise;
    std::uint32_t x = 1;
    for (int i = 0; i < 100000; ++i) noise += static_cast<char>((x = x * 1664525u + 1013904223u) >> 24);
    QCOMPARE(exporters::lzfDecompress(exporters::lzfCompress(noise), noise.size()).value_or(""), noise);
  }
  // A whole export of the fixture: a CSV row per /imu message and a PCD per /points cloud,
  // as many and as large as python3-rosbag read them (the fixture's expectations).
  void exportsOfTheFixtureHaveItsMessages() {
    auto opened = session::Session::open({test::dataPath("ros1/demo_lz4.bag").toStdString()});
    QVERIFY(opened.has_value());
    QTemporaryDir dir;
    exporters::ExportOptions csv;
    csv.format = exporters::Format::Csv;
    csv.topics = {"/imu"};
    csv.outDir = dir.path().toStdString();
    exporters::ExportReport report;
    QVERIFY(exporters::exportSession(**opened, "demo", csv, report).has_value());
    QCOMPARE(report.files.size(), std::size_t{1});
    auto imu = expectedOf("/imu");
    std::string text = readAll(report.files[0].path);
    QCOMPARE(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), imu.size() + 1);  // + the header
    QVERIFY(text.starts_with("log_time_ns,stamp_ns,"));
    auto firstRow = text.substr(text.find('\n') + 1);
    QVERIFY(firstRow.starts_with(QString::number(imu.front().value("log_time_ns").toInteger()).toStdString() + ","));

    exporters::ExportOptions pcd;
    pcd.format = exporters::Format::Pcd;
    pcd.topics = {"/points"};
    pcd.outDir = dir.path().toStdString();
    exporters::ExportReport clouds;
    QVERIFY(exporters::exportSession(**opened, "demo", pcd, clouds).has_value());
    auto points = expectedOf("/points");
    QCOMPARE(clouds.files.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      auto msg = points[i].value("msg").toObject();
      auto n = msg.value("width").toInteger() * msg.value("height").toInteger();
      std::string file = readAll(clouds.files[i].path);
      QVERIFY2(file.find("\nPOINTS " + std::to_string(n) + "\n") != std::string::npos,
               clouds.files[i].path.string().c_str());
    }
    QVERIFY(clouds.skipped.empty());
  }
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
