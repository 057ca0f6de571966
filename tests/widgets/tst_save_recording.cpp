// File ▸ Save Selection As… and File ▸ Recover… driven as a user would (offscreen): the
// recordings they write are read back by python3-rosbag (not Bagscope), message for message;
// a damaged recording is offered Recover…; Cancel leaves nothing under the name.

#include <QtTest>

#include <QDialogButtonBox>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>

#include "common/test_support.hpp"
#include "widget_test_support.hpp"
#include "widgets/dialogs/save_recording_dialog.hpp"
#include "widgets/shell/document.hpp"

using namespace bagscope::widgets;
using bagscope::test::dataPath;
using bagscope::test::openAndWait;

namespace {

// "topic count" per line for every message python3-rosbag reads from `bag` in [lo, hi] s after its start.
QString rosbagCounts(const QString& bag, double lo = -1, double hi = 1e9) {
  QProcess p;
  p.start(BAGSCOPE_PYTHON, {"-c",
                            "import rosbag, sys, collections\n"
                            "b = rosbag.Bag(sys.argv[1]); t0 = b.get_start_time(); c = collections.Counter()\n"
                            "for topic, raw, t in b.read_messages(raw=True):\n"
                            "    if float(sys.argv[2]) <= t.to_sec() - t0 <= float(sys.argv[3]): c[topic] += 1\n"
                            "print('\\n'.join(f'{k} {v}' for k, v in sorted(c.items())))",
                            bag, QString::number(lo), QString::number(hi)});
  p.waitForFinished(60000);
  return p.exitCode() == 0 ? QString::fromUtf8(p.readAllStandardOutput())
                           : QStringLiteral("error: ") + p.readAllStandardError();
}

bool runDialog(SaveRecordingDialog& d) {
  QSignalSpy finished(&d, &SaveRecordingDialog::finished);
  d.show();
  auto* save = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save);
  save->click();
  return finished.wait(60000) && finished.at(0).at(0).toBool();
}

}  // namespace

class TestSaveRecording : public QObject {
  Q_OBJECT

  QTemporaryDir settings_;

private slots:
  void initTestCase() { bagscope::test::isolateSettings(settings_.path()); }

  // Two topics over the selected range, as a ROS 1 bag: python3-rosbag finds exactly the
  // messages of those topics in that range of the fixture.
  void savesTheTickedTopicsOverTheSelectedRange() {
    Document doc;
    QString bag = dataPath("ros1/demo_lz4.bag");
    QVERIFY(openAndWait(doc, {bag}));
    QVERIFY(!SaveRecordingDialog::hasDamage(doc));
    doc.setRange(TimeRange{doc.startNs() + 500'000'000, doc.startNs() + 1'250'000'000});
    SaveRecordingDialog d(&doc, SaveRecordingDialog::Purpose::SaveSelection);
    for (const auto& t : doc.topics()) d.setTopicTicked(t.name, t.name == "/imu" || t.name == "/odom");
    QTemporaryDir out;
    QString path = out.filePath("cut.bag");
    d.setContainer(bagscope::write::Container::Ros1Bag);
    d.setOutput(path);
    QVERIFY2(runDialog(d), qPrintable(d.outcome()));
    QVERIFY2(d.outcome().contains("cut.bag"), qPrintable(d.outcome()));
    QString expected;
    for (const QString& line : rosbagCounts(bag, 0.5, 1.25).split('\n', Qt::SkipEmptyParts))
      if (line.startsWith("/imu ") || line.startsWith("/odom ")) expected += line + '\n';
    QVERIFY(expected.contains("/imu 15"));  // 200 Hz over 0.75 s: 150 or 151
    QCOMPARE(rosbagCounts(path), expected);
  }

  // A cut bag: the window offers Recover…, which writes every complete message (668, all of
  // those before the cut; rosbag reindex finds 633) in a bag python3-rosbag reads whole.
  void recoversADamagedBag() {
    Document doc;
    QVERIFY(openAndWait(doc, {dataPath("ros1/demo_truncated.bag")}));
    QVERIFY(SaveRecordingDialog::hasDamage(doc));
    SaveRecordingDialog d(&doc, SaveRecordingDialog::Purpose::Recover);
    QTemporaryDir out;
    QString path = out.filePath("recovered.bag");
    d.setOutput(path);
    QVERIFY2(runDialog(d), qPrintable(d.outcome()));
    QVERIFY2(d.outcome().contains("668"), qPrintable(d.outcome()));
    QVERIFY2(d.outcome().contains("lost"), qPrintable(d.outcome()));
    int total = 0;
    for (const QString& line : rosbagCounts(path).split('\n', Qt::SkipEmptyParts))
      total += line.section(' ', 1).toInt();
    QCOMPARE(total, 668);
  }

  // "Messages as: ROS 1 (translate messages)" on a ROS 2 recording (rosbag2's own): a ROS 1 bag
  // python3-rosbag reads whole, topic for topic, and the translation's report in the outcome.
  // A ROS 1 recording is offered the other way only.
  void translatesBetweenRosVersions() {
    Document doc;
    QVERIFY(openAndWait(doc, {dataPath("ros2/demo.mcap")}));
    SaveRecordingDialog d(&doc, SaveRecordingDialog::Purpose::SaveSelection);
    QVERIFY(!d.setTranslation(bagscope::schema::Dialect::Ros2));
    QVERIFY(d.setTranslation(bagscope::schema::Dialect::Ros1));
    QTemporaryDir out;
    QString path = out.filePath("as-ros1.bag");
    d.setOutput(path);
    QVERIFY2(runDialog(d), qPrintable(d.outcome()));
    QVERIFY2(d.outcome().contains("visualization_msgs/Marker.texture has no ROS 1 field: dropped"),
             qPrintable(d.outcome()));
    QString expected;
    for (const auto& t : doc.topics()) expected += QStringLiteral("%1 %2\n").arg(t.name).arg(t.count);
    QStringList lines = expected.split('\n', Qt::SkipEmptyParts);
    lines.sort();
    QCOMPARE(rosbagCounts(path), lines.join('\n') + '\n');

    Document ros1;
    QVERIFY(openAndWait(ros1, {dataPath("ros1/robot_state.bag")}));
    SaveRecordingDialog back(&ros1, SaveRecordingDialog::Purpose::SaveSelection);
    QVERIFY(!back.setTranslation(bagscope::schema::Dialect::Ros1));
    QVERIFY(back.setTranslation(bagscope::schema::Dialect::Ros2));
    back.setOutput(out.filePath("as-ros2"));
    QVERIFY2(runDialog(back), qPrintable(back.outcome()));
    QVERIFY2(back.outcome().contains("rosgraph_msgs/Log.topics has no ROS 2 field: dropped"),
             qPrintable(back.outcome()));
    QVERIFY(QFileInfo(out.filePath("as-ros2/metadata.yaml")).exists());  // a rosbag2 folder by default
  }

  // Cancel while writing: the dialog says nothing was written, and nothing is under the name.
  void cancellingLeavesNothing() {
    Document doc;
    QVERIFY(openAndWait(doc, {dataPath("ros2/demo.mcap")}));
    QTemporaryDir out;
    QString path = out.filePath("never");
    SaveRecordingDialog d(&doc, SaveRecordingDialog::Purpose::SaveSelection);
    d.setContainer(bagscope::write::Container::Rosbag2Db3);
    d.setOutput(path);
    QSignalSpy finished(&d, &SaveRecordingDialog::finished);
    d.show();
    d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->click();
    QVERIFY(d.running());
    d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Cancel)->click();
    QVERIFY(finished.wait(60000));
    if (!finished.at(0).at(0).toBool()) QVERIFY2(d.outcome().contains("nothing was written"), qPrintable(d.outcome()));
    else QVERIFY(QFileInfo(path + "/metadata.yaml").exists());  // it finished before the cancel reached it
    QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(),
             finished.at(0).at(0).toBool() ? 1 : 0);
  }

  // A ROS 1 bag cannot hold ROS 2 messages: with a ROS 2 recording open, choosing the bag
  // format greys every topic, and Save says to tick one.
  void topicsAContainerCannotHoldAreGreyed() {
    Document doc;
    QVERIFY(openAndWait(doc, {dataPath("ros2/demo.mcap")}));
    SaveRecordingDialog d(&doc, SaveRecordingDialog::Purpose::SaveSelection);
    d.setContainer(bagscope::write::Container::Ros1Bag);
    auto* list = d.findChild<QListWidget*>();
    QVERIFY(list && list->count() > 0);
    for (int i = 0; i < list->count(); ++i) {
      QVERIFY(!(list->item(i)->flags() & Qt::ItemIsEnabled));
      QCOMPARE(list->item(i)->checkState(), Qt::Unchecked);
    }
    d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->click();
    QVERIFY(!d.running());
    QVERIFY2(d.outcome().contains("Tick"), qPrintable(d.outcome()));
  }
};

QTEST_MAIN(TestSaveRecording)
#include "tst_save_recording.moc"
