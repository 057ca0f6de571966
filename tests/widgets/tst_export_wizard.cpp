// The export wizard driven as a user would (offscreen): a fixture topic exported to PCD
// through every page, the files checked by the export test's independent readers
// (python3-rosbag + numpy for the bag, Open3D for the files); existing files kept; the
// choices remembered; a cancelled run leaves no partial file.

#include <QtTest>

#include <QLabel>

#include <QAbstractButton>
#include <QDirIterator>
#include <QDoubleSpinBox>

#include "common/test_support.hpp"
#include "core/export/export.hpp"
#include "widget_test_support.hpp"
#include "widgets/dialogs/export_wizard.hpp"
#include "widgets/shell/document.hpp"

using namespace bagscope::widgets;
using bagscope::test::dataPath;
using bagscope::test::openAndWait;

namespace {

// Pages 1–4 with Next, then the run page starts the export; waits for its end.
bool runThrough(ExportWizard& w, bool* ok) {
  QSignalSpy finished(&w, &ExportWizard::exportFinished);
  w.show();
  for (int page = ExportWizard::What; page < ExportWizard::Run; ++page) {
    if (w.currentId() != page) return false;
    w.next();
  }
  if (w.currentId() != ExportWizard::Run) return false;
  if (!finished.wait(60000)) return false;
  *ok = finished.at(0).at(0).toBool();
  return true;
}

QStringList filesUnder(const QString& folder) {
  QStringList out;
  QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) out << QDir(folder).relativeFilePath(it.next());
  out.sort();
  return out;
}

}  // namespace

class TestExportWizard : public QObject {
  Q_OBJECT

  QTemporaryDir settings_;

private slots:
  void initTestCase() { bagscope::test::isolateSettings(settings_.path()); }

  void exportsATopicThatIndependentReadersRead() {
    Document d;
    QString bag = dataPath("ros1/demo_uncompressed.bag");
    QVERIFY(openAndWait(d, {bag}));
    QTemporaryDir out;
    ExportWizard w(&d, {"/points"});
    w.chooseTopic("/points", "pcd");
    w.setEvery(2);
    w.setFolder(out.path());
    bool ok = false;
    QVERIFY(runThrough(w, &ok));
    QVERIFY2(ok, qPrintable(w.summary()));
    QCOMPARE(w.report().files.size(), std::size_t{10});  // 20 clouds, every 2nd
    QVERIFY2(w.summary().contains("10 file"), qPrintable(w.summary()));
    QStringList files = filesUnder(out.path());
    QCOMPARE(files.front(), QString("manifest.json"));
    QCOMPARE(files[1], QString("points/demo_uncompressed_frame_000000.pcd"));
    QProcess verify;
    verify.start(BAGSCOPE_PYTHON, {QStringLiteral(BAGSCOPE_EXPORT_TESTS "/verify_export.py"), "pcd", bag, "/points",
                                   out.path(), "--every", "2"});
    QVERIFY(verify.waitForFinished(120000));
    QVERIFY2(verify.exitCode() == 0, verify.readAllStandardOutput() + verify.readAllStandardError());

    // Again into the same folder: existing files are kept, the wizard says which.
    QDateTime before = QFileInfo(out.filePath(files[1])).lastModified();
    ExportWizard again(&d, {"/points"});
    QCOMPARE(QSettings().value("export/every").toInt(), 2);  // remembered
    again.chooseTopic("/points", "pcd");
    again.setFolder(out.path());
    again.setEvery(2);
    again.show();
    again.next();
    again.next();
    again.next();
    QTRY_VERIFY_WITH_TIMEOUT(!again.previewNames().isEmpty(), 10000);
    // Issue #33: the first files in their order (they are written in parallel), and the
    // remembered "every n-th" said where the files are chosen, and again in the summary.
    QCOMPARE(again.previewNames(),
             QStringList({"points/demo_uncompressed_frame_000000.pcd", "points/demo_uncompressed_frame_000001.pcd",
                          "points/demo_uncompressed_frame_000002.pcd"}));
    auto* choices = again.findChild<QLabel*>("choices");
    QVERIFY(choices && choices->isVisibleTo(&again));
    QVERIFY2(choices->text().contains("one message in 2 of each topic"), qPrintable(choices->text()));
    again.next();
    QSignalSpy finished(&again, &ExportWizard::exportFinished);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY2(again.summary().contains("exist"), qPrintable(again.summary()));
    QVERIFY2(again.summary().contains("one message in 2 of each topic"), qPrintable(again.summary()));
    QVERIFY2(!again.summary().contains("--overwrite"), qPrintable(again.summary()));  // a CLI flag
    QCOMPARE(QFileInfo(out.filePath(files[1])).lastModified(), before);
    QCOMPARE(filesUnder(out.path()), files);
  }

  // The fixture's /tf and /tf_static hold odom, base_link, lidar and camera_optical; /scan
  // is in frame 'laser', which they do not connect (shared/fixtures/ros1 generator).
  void targetFramesComeFromTfAndAnUnconnectedOneSaysWhy() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QTemporaryDir out;
    ExportWizard w(&d, {"/scan"});
    w.chooseTopic("/scan", "pcd");
    w.setFolder(out.path());
    QSignalSpy frames(&w, &ExportWizard::targetFramesLoaded);
    w.show();
    w.next();
    w.next();  // How: the frames are read
    QVERIFY(frames.count() || frames.wait(20000));
    QCOMPARE(w.targetFrames(), QStringList({"", "base_link", "camera_optical", "lidar", "odom"}));
    w.setFormatOption("frame", "odom");
    QSignalSpy finished(&w, &ExportWizard::exportFinished);
    w.next();
    w.next();
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY2(w.summary().contains("frames 'laser' and 'odom' are not connected"), qPrintable(w.summary()));
    QVERIFY2(!w.summary().contains("cannot be decoded"), qPrintable(w.summary()));
    QCOMPARE(filesUnder(out.path()), QStringList());
  }

  // The axes box: a remap that is not one keeps the wizard on How; one that is reaches the
  // manifest (the points themselves are checked against python3-rosbag in test_export.py).
  void axesAreCheckedAndRecorded() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QTemporaryDir out;
    ExportWizard w(&d, {"/points"});
    w.chooseTopic("/points", "pcd");
    w.setFolder(out.path());
    w.show();
    w.next();
    w.next();
    QCOMPARE(w.currentId(), int(ExportWizard::How));
    w.setFormatOption("axes", "x,x,z");
    w.next();
    QCOMPARE(w.currentId(), int(ExportWizard::How));
    w.setFormatOption("axes", "z, -y, x");
    QSignalSpy finished(&w, &ExportWizard::exportFinished);
    w.next();
    QCOMPARE(w.currentId(), int(ExportWizard::Where));
    QTRY_VERIFY_WITH_TIMEOUT(!w.previewNames().isEmpty(), 10000);
    w.next();
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(w.summary()));
    QFile manifest(out.filePath("manifest.json"));
    QVERIFY(manifest.open(QIODevice::ReadOnly));
    QVERIFY(manifest.readAll().contains("\"axes\": \"z,-y,x\""));
  }

  // The ticks and formats of the last export come back (the README says so); an explicit
  // topic (Export This Topic…) replaces the ticks but keeps the formats.
  void remembersTickedTopicsAndTheirFormats() {
    QSettings().remove("export");
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QTemporaryDir out;
    {
      ExportWizard w(&d, {});
      QCOMPARE(w.ticked(), QStringList());
      w.chooseTopic("/imu", "npy");
      w.chooseTopic("/points", "ply");
      w.setFolder(out.path());
      bool ok = false;
      QVERIFY(runThrough(w, &ok));
      QVERIFY2(ok, qPrintable(w.summary()));
    }
    ExportWizard next(&d, {});
    QCOMPARE(next.ticked(), QStringList({"/imu=npy", "/points=ply"}));
    ExportWizard one(&d, {"/points"});
    QCOMPARE(one.ticked(), QStringList({"/points=ply"}));
    // Another recording: the same topic names and types get the same choices.
    Document other;
    QVERIFY(openAndWait(other, {dataPath("ros2/demo_db3")}));
    ExportWizard there(&other, {});
    QCOMPARE(there.ticked(), QStringList({"/imu=npy", "/points=ply"}));
  }

  // The How page is made from the formats' option table (#35): a control per option, shown
  // when a chosen format takes it; a refused value keeps the wizard on the page; the values
  // are remembered, and a changed one is said where the files are chosen.
  void howPageShowsTheChosenFormatsOptionsAndRemembersThem() {
    QSettings().remove("export");
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QTemporaryDir out;
    auto shown = [](const ExportWizard& w) {
      QStringList ids;
      for (const auto& o : bagscope::exporters::formatOptions()) {
        auto* control = w.findChild<QWidget*>(o.id);
        if (o.label && !control) ids << QStringLiteral("no control for ") + o.id;
        if (control && control->isVisibleTo(&w)) ids << o.id;
      }
      return ids;
    };
    {
      ExportWizard w(&d, {"/camera/image_raw"});
      w.chooseTopic("/camera/image_raw", "mp4");
      w.setFolder(out.path());
      w.show();
      w.next();
      w.next();
      QCOMPARE(w.currentId(), int(ExportWizard::How));
      QCOMPARE(shown(w), QStringList({"fps", "codec", "crf", "preset", "video-time"}));  // H.264 by default (#40)
      w.setFormatOption("fps", "12.5");
      w.next();
      QCOMPARE(w.currentId(), int(ExportWizard::Where));
      QVERIFY2(w.changingChoices().contains("video at 12.5 fps"), qPrintable(w.changingChoices()));
      QSignalSpy finished(&w, &ExportWizard::exportFinished);
      w.next();
      QVERIFY(finished.wait(60000));
      QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(w.summary()));
      // The rate reached the file: OpenCV reads it back.
      QProcess probe;
      probe.start(BAGSCOPE_PYTHON, {"-c", "import cv2, sys; print(cv2.VideoCapture(sys.argv[1]).get(cv2.CAP_PROP_FPS))",
                                    out.filePath("demo_lz4_camera_image_raw.mp4")});
      QVERIFY(probe.waitForFinished(60000));
      QCOMPARE(probe.readAllStandardOutput().trimmed(), QByteArray("12.5"));
    }
    {
      ExportWizard w(&d, {"/points"});  // not the video ticked last time
      w.chooseTopic("/points", "ply");
      w.chooseTopic("/imu", "csv");
      w.setFolder(out.path());
      w.show();
      w.next();
      w.next();
      QCOMPARE(shown(w), QStringList({"ascii", "fields", "drop-nan", "normalise-intensity", "frame", "axes", "time",
                                      "seconds", "array-limit"}));
      w.setFormatOption("axes", "x,y");
      w.next();
      QCOMPARE(w.currentId(), int(ExportWizard::How));
      QVERIFY2(w.findChild<QWidget*>("axes")->toolTip().contains("axes 'x,y'"),
               qPrintable(w.findChild<QWidget*>("axes")->toolTip()));
      w.setFormatOption("axes", "");
      w.next();
      QCOMPARE(w.currentId(), int(ExportWizard::Where));
      w.close();
    }
    QCOMPARE(QSettings().value("export/option/fps").toString(), QString("12.5"));
    ExportWizard again(&d, {"/camera/image_raw"});
    QCOMPARE(again.findChild<QDoubleSpinBox*>("fps")->value(), 12.5);
  }

  void cancellingLeavesNoPartialFiles() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_uncompressed.bag")}));
    QTemporaryDir out;
    ExportWizard w(&d, {});
    for (const char* t : {"/camera/image_raw", "/points", "/points_organized", "/camera/depth"}) w.chooseTopic(t, {});
    w.setEvery(1);
    w.setFolder(out.path());
    QSignalSpy finished(&w, &ExportWizard::exportFinished);
    w.show();
    for (int page = 0; page < ExportWizard::Run; ++page) w.next();
    w.reject();  // Cancel while it runs
    QVERIFY(finished.count() || finished.wait(60000));
    // Whatever was written is complete: no temporary ".*.part-*" files, every PCD readable.
    for (const QString& f : filesUnder(out.path())) {
      QVERIFY2(!f.contains(".part-"), qPrintable(f));
      if (f.endsWith(".pcd")) {
        QFile file(out.filePath(f));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readLine().startsWith("# .PCD"));
      }
    }
  }
};

QTEST_MAIN(TestExportWizard)
#include "tst_export_wizard.moc"
