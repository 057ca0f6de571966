// The main window opens a bag in the background and lists its topics.

#include <QtTest>

#include <QTreeWidget>

#include "common/test_support.hpp"
#include "widgets/main_window.hpp"

using bagscope::widgets::MainWindow;

class TestMainWindow : public QObject {
  Q_OBJECT

private slots:
  void opensABagAndListsItsTopics() {
    MainWindow w;
    w.show();
    QSignalSpy done(&w, &MainWindow::openFinished);
    w.openFile(bagscope::test::dataPath("ros1/demo_lz4.bag"));
    QVERIFY(done.wait(20000));
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(w.topicTable()->topLevelItemCount(), 21);
    QVERIFY(w.windowTitle().contains("demo_lz4.bag"));
    QList<QTreeWidgetItem*> imu = w.topicTable()->findItems("/imu", Qt::MatchExactly, 0);
    QCOMPARE(imu.size(), 1);
    QCOMPARE(imu[0]->text(1), QString("sensor_msgs/Imu"));
    QCOMPARE(imu[0]->text(2), QString("400"));
    QCOMPARE(imu[0]->text(3), QString("200.00"));
  }

  void opensARosbag2Folder() {
    MainWindow w;
    QSignalSpy done(&w, &MainWindow::openFinished);
    w.openFile(bagscope::test::dataPath("ros2/demo_db3_split"));
    QVERIFY(done.wait(20000));
    QCOMPARE(done.at(0).at(1).toString(), QString());
    QCOMPARE(w.topicTable()->topLevelItemCount(), 21);
    QList<QTreeWidgetItem*> imu = w.topicTable()->findItems("/imu", Qt::MatchExactly, 0);
    QCOMPARE(imu.size(), 1);
    QCOMPARE(imu[0]->text(1), QString("sensor_msgs/msg/Imu"));
    QCOMPARE(imu[0]->text(2), QString("400"));
  }

  void sortsCountsAsNumbers() {
    MainWindow w;
    QSignalSpy done(&w, &MainWindow::openFinished);
    w.openFile(bagscope::test::dataPath("ros1/demo_bz2.bag"));
    QVERIFY(done.wait(20000));
    w.topicTable()->sortByColumn(2, Qt::DescendingOrder);
    QCOMPARE(w.topicTable()->topLevelItem(0)->text(0), QString("/imu"));  // 400 > 100 > 40 ...
    QCOMPARE(w.topicTable()->topLevelItem(1)->text(0), QString("/tf"));
  }

  void aFileThatIsNotABagReportsAnError() {
    MainWindow w;
    QSignalSpy done(&w, &MainWindow::openFinished);
    QTemporaryDir dir;
    QString zero = dir.filePath("zero.bag");
    QFile(zero).open(QIODevice::WriteOnly);
    w.openFile(zero);
    QVERIFY(done.wait(20000));
    QString error = done.at(0).at(1).toString();
    QVERIFY2(error.contains("zero.bag") && error.contains("empty"), qPrintable(error));
    QVERIFY(w.currentPath().isEmpty());
  }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
