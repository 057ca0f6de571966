// The real main window on a virtual X screen (run by xvfb-run): opens a fixture bag,
// selects a topic with the mouse, steps and plays with the keyboard, moves the playhead by
// clicking the timeline, and takes a screenshot. Asserts on the window's state, with the
// expected message times from the fixture's .expected.jsonl (written by python3-rosbag).

#include <QtTest>

#include <qcustomplot.h>
#include <QDockWidget>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QToolButton>
#include <QTreeView>

#include <atomic>
#include <chrono>
#include <map>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/test_support.hpp"
#include "core/write/write.hpp"
#include "widget_test_support.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/newest_read.hpp"
#include "widgets/async/unexpected_error.hpp"
#include "widgets/dialogs/export_wizard.hpp"
#include "widgets/panels/panel_registry.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/inspector.hpp"
#include "widgets/shell/layouts.hpp"
#include "widgets/shell/main_window.hpp"
#include "widgets/shell/playback.hpp"
#include "widgets/shell/problems_panel.hpp"
#include "widgets/shell/settings.hpp"
#include "widgets/shell/timeline.hpp"
#include "widgets/shell/topic_list.hpp"

using namespace bagscope::widgets;
using bagscope::test::dataPath;
using bagscope::test::openAndWait;

namespace {

// A ROS 1 bag written by Bagscope's writer: std_msgs/Float64 on /value, one message at each
// of `times` (its data: the message's index / 2).
bool writeValues(const QString& path, const std::vector<qint64>& times) {
  bagscope::write::WriterOptions options;
  options.container = bagscope::write::Container::Ros1Bag;
  auto writer = bagscope::write::openWriter(path.toStdString(), options);
  if (!writer) return false;
  bagscope::storage::Connection c;
  c.topic = "/value";
  c.type = "std_msgs/Float64";
  c.messageEncoding = "ros1";
  c.schemaEncoding = "ros1msg";
  c.definition = "float64 data\n";
  c.md5sum = "fdb28210bfa9d7c91146260178d9a584";
  auto channel = (*writer)->addConnection(c);
  if (!channel) return false;
  for (std::size_t i = 0; i < times.size(); ++i) {
    double v = static_cast<double>(i) * 0.5;
    if (!(*writer)->write(*channel, times[i], std::as_bytes(std::span(&v, 1)))) return false;
  }
  return static_cast<bool>((*writer)->finish());
}

}  // namespace

class TestAppWindow : public QObject {
  Q_OBJECT

  QTemporaryDir settings_;

  std::map<QString, std::vector<qint64>> times_;

private slots:
  void initTestCase() {
    bagscope::test::isolateSettings(settings_.path());
    QVERIFY2(QGuiApplication::platformName() == "xcb",
             qPrintable("this test needs a real X server (xvfb-run), not " + QGuiApplication::platformName()));
    QString error;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      times_[l["topic"].toString()].push_back(l["log_time_ns"].toInteger());
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QDir().mkpath(BAGSCOPE_SHOTS);
  }

  void opensStepsPlaysAndShowsTheWindow() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.resize(1280, 860);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();  // no window manager on Xvfb gives it focus
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QSignalSpy opened(&w, &MainWindow::openFinished);
    w.open({dataPath("ros1/demo_lz4.bag")});
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.at(0).at(0).toString(), QString());
    QVERIFY(w.windowTitle().contains("demo_lz4.bag"));

    // Every topic listed, and one timeline row each.
    QTreeView* view = w.topicPanel()->view();
    QCOMPARE(view->model()->rowCount(), static_cast<int>(times_.size()));
    QCOMPARE(w.timeline()->rows().size(), times_.size());

    // The timeline's rows follow the list's filter and order.
    w.topicPanel()->filterBox()->setText("camera");
    std::vector<QString> listed, rows;
    for (int r = 0; r < view->model()->rowCount(); ++r) listed.push_back(view->model()->index(r, 0).data().toString());
    for (auto id : w.timeline()->rows()) rows.push_back(w.document()->topics()[id].name);
    QCOMPARE(rows, listed);
    QVERIFY(listed.size() >= 5 &&
            std::all_of(listed.begin(), listed.end(), [](auto& n) { return n.contains("camera"); }));
    view->sortByColumn(TopicModel::Count, Qt::DescendingOrder);
    rows.clear();
    for (auto id : w.timeline()->rows()) rows.push_back(w.document()->topics()[id].name);
    QCOMPARE(rows.front(), QString("/camera/camera_info"));  // 20 messages, ties by the proxy's order
    QCOMPARE(w.document()->topics()[w.timeline()->rows().back()].count, std::uint64_t{5});
    w.topicPanel()->filterBox()->clear();
    view->sortByColumn(TopicModel::Topic, Qt::AscendingOrder);
    QCOMPARE(w.timeline()->rows().size(), times_.size());

    // Click /imu in the list: it becomes the selected topic, and the inspector shows it.
    QModelIndex imuRow;
    for (int r = 0; r < view->model()->rowCount(); ++r)
      if (view->model()->index(r, 0).data().toString() == "/imu") imuRow = view->model()->index(r, 0);
    QVERIFY(imuRow.isValid());
    view->scrollTo(imuRow);
    QSignalSpy shown(w.inspector(), &InspectorPanel::messageShown);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(imuRow).center());
    QCOMPARE(w.document()->topics()[static_cast<std::size_t>(w.document()->currentTopic())].name, QString("/imu"));

    // Keys go through the window system, as typed (so shortcuts apply), to the focused list.
    QTRY_VERIFY(view->hasFocus());
    // → steps to the next /imu message; Shift+→ to the next message of any topic.
    const auto& imu = times_.at("/imu");
    qint64 start = w.document()->playheadNs();
    auto next = *std::upper_bound(imu.begin(), imu.end(), start);
    QTest::keyClick(w.windowHandle(), Qt::Key_Right);
    QCOMPARE(w.document()->playheadNs(), next);
    QTest::keyClick(w.windowHandle(), Qt::Key_Right);
    QCOMPARE(w.document()->playheadNs(), *std::upper_bound(imu.begin(), imu.end(), next));
    std::vector<qint64> all;
    for (const auto& [topic, t] : times_) all.insert(all.end(), t.begin(), t.end());
    std::sort(all.begin(), all.end());
    qint64 before = w.document()->playheadNs();
    QTest::keyClick(w.windowHandle(), Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(w.document()->playheadNs(), *std::upper_bound(all.begin(), all.end(), before));
    QTest::keyClick(w.windowHandle(), Qt::Key_Left);
    QCOMPARE(w.document()->playheadNs(),
             *(std::lower_bound(imu.begin(), imu.end(), w.document()->playheadNs() + 1) - 1));
    // The inspector follows: the /imu message at the playhead.
    QTRY_VERIFY_WITH_TIMEOUT(w.inspector()->model()->message() &&
                                 w.inspector()->model()->message()->message.logTimeNs == w.document()->playheadNs(),
                             5000);
    QCOMPARE(w.inspector()->model()->message()->topic, QString("/imu"));

    // End / Home.
    QTest::keyClick(w.windowHandle(), Qt::Key_End);
    QCOMPARE(w.document()->playheadNs(), all.back());
    QTest::keyClick(w.windowHandle(), Qt::Key_Home);
    QCOMPARE(w.document()->playheadNs(), all.front());

    // A click on the timeline's track puts the playhead at that time.
    TimelineWidget* t = w.timeline();
    int x = t->trackLeft() + static_cast<int>(t->axis().width() / 2);
    qint64 clicked = t->axis().toTime(x - t->trackLeft());
    QTest::mouseClick(t, Qt::LeftButton, {}, QPoint(x, t->height() - 5));
    QVERIFY2(qAbs(w.document()->playheadNs() - clicked) <= static_cast<qint64>(t->axis().nsPerPixel()) + 1,
             qPrintable(QString("%1 vs %2").arg(w.document()->playheadNs()).arg(clicked)));

    // Space plays (the playhead moves on by itself), Space again pauses.
    qint64 beforePlay = w.document()->playheadNs();
    QTest::keyClick(w.windowHandle(), Qt::Key_Space);
    QVERIFY(w.playback()->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->playheadNs() > beforePlay + 100'000'000, 3000);
    QTest::keyClick(w.windowHandle(), Qt::Key_Space);
    QVERIFY(!w.playback()->isPlaying());

    // Shift-drag on the timeline selects a range, shown in the playback bar's fields.
    QPoint from(t->trackLeft() + 100, t->height() - 5), to(t->trackLeft() + 300, t->height() - 5);
    QTest::mousePress(t, Qt::LeftButton, Qt::ShiftModifier, from);
    QMouseEvent move(QEvent::MouseMove, to, t->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(t, &move);
    QTest::mouseRelease(t, Qt::LeftButton, Qt::ShiftModifier, to);
    QVERIFY(w.document()->range().has_value());
    QVERIFY(qAbs(w.document()->range()->startNs - t->axis().toTime(100)) <=
            static_cast<qint64>(t->axis().nsPerPixel()) + 1);
    QVERIFY(qAbs(w.document()->range()->endNs - t->axis().toTime(300)) <=
            static_cast<qint64>(t->axis().nsPerPixel()) + 1);

    // The screenshot: the timeline's rows are drawn (coloured ticks) and the playhead is red
    // where the document says it is.
    w.document()->setPlayhead(imu[imu.size() / 2]);
    QTest::qWait(300);
    QImage shot = w.screen()->grabWindow(w.winId()).toImage();
    QVERIFY(!shot.isNull());
    QString file = QStringLiteral(BAGSCOPE_SHOTS "/app_window.png");
    QVERIFY(shot.save(file));
    QPoint origin = t->mapTo(&w, QPoint(0, 0));
    double scale = shot.width() / static_cast<double>(w.width());
    int playheadX =
        origin.x() + t->trackLeft() + static_cast<int>(std::lround(t->axis().toPixel(w.document()->playheadNs())));
    int redRows = 0, colouredPixels = 0;
    for (int y = origin.y() + 40; y < origin.y() + t->height() - 2; ++y) {
      QColor c = shot.pixelColor(static_cast<int>(playheadX * scale), static_cast<int>(y * scale));
      if (c.red() > 180 && c.green() < 80 && c.blue() < 80) ++redRows;
      for (int xx = origin.x() + t->trackLeft() + 2; xx < origin.x() + t->width() - 20; xx += 3) {
        QColor p = shot.pixelColor(static_cast<int>(xx * scale), static_cast<int>(y * scale));
        if (p.saturation() > 80) ++colouredPixels;
      }
    }
    QVERIFY2(redRows > t->height() / 2, qPrintable(QString("playhead column red in %1 rows").arg(redRows)));
    QVERIFY2(colouredPixels > 500, qPrintable(QString("%1 coloured timeline pixels").arg(colouredPixels)));
  }

  // Issue #33: a saved arrangement with floating docks (tests/data/layouts/crash-on-start.*,
  // from a maximized window, docks floated, closed and tabbed), restored before the window
  // was shown, crashed Qt's dock layout at the first layout pass, on every start. It is
  // restored once the window is shown; and a start that dies restoring the last arrangement
  // makes the next start show the default one, with a message.
  void aSavedArrangementThatCrashedQtIsRepairedNotLooped() {
    QSettings repro(dataPath("layouts/crash-on-start.Bagscope.conf"), QSettings::IniFormat);
    const QByteArray last = repro.value("lastLayout").toByteArray();
    QVERIFY(!last.isEmpty());
    auto layout = Layout::fromJson(QJsonDocument::fromJson(last).object(), nullptr);
    QVERIFY(layout);
    QTemporaryDir layouts;
    QSettings().setValue("lastLayout", last);
    {
      MainWindow w(nullptr, layouts.path());
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QSignalSpy opened(&w, &MainWindow::openFinished);
      w.open({dataPath("ros1/demo_lz4.bag")});  // the crash was here: the first layout pass
      QVERIFY(opened.wait(30000));
      QTRY_VERIFY(!QSettings().contains("restoringLastLayout"));
      QCOMPARE(w.panels().size(), 6);
      w.close();
    }
    // The same layout imported from its file, applied in the window that restored the last
    // arrangement: its panels go and the new ones come, no crash either.
    {
      MainWindow w(nullptr, layouts.path());
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QVERIFY(w.importLayoutFile(dataPath("layouts/crash-on-start.layout.json")));
      w.applyLayout(*w.layoutStore().load(w.layoutStore().names().front(), nullptr));
      QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    }
    // A start that died restoring the last arrangement (the mark still set): the next one
    // shows the default arrangement, says so, and forgets the arrangement that failed.
    QSettings().setValue("lastLayout", last);
    QSettings().setValue("restoringLastLayout", true);
    {
      MainWindow w(nullptr, layouts.path());
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QTRY_VERIFY(w.findChild<QMessageBox*>());
      QVERIFY(w.findChild<QMessageBox*>()->text().contains("could not be restored"));
      QCOMPARE(w.panels().size(), 0);
      QVERIFY(!QSettings().contains("restoringLastLayout"));
      QVERIFY(!QSettings().contains("lastLayout"));
    }
    QSettings().remove("lastLayout");
  }

  void dropsManyFilesAndRemembersThem() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // A ROS 1 bag and a ROS 2 MCAP dropped together open as one timeline.
    QStringList files{dataPath("ros1/demo_lz4.bag"), dataPath("ros2/demo_zstd.mcap")};
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(files[0]), QUrl::fromLocalFile(files[1])});
    QPoint at(w.width() / 2, w.height() / 2);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, {});
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy opened(&w, &MainWindow::openFinished);
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, {});
    QCoreApplication::sendEvent(&w, &drop);
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.at(0).at(0).toString(), QString());
    QCOMPARE(w.document()->session()->sourceCount(), std::size_t{2});
    QString error;
    auto ros2 = bagscope::test::readJsonLines(dataPath("ros2/demo.expected.jsonl"), &error);
    std::size_t ros1 = 0;
    for (const auto& [topic, t] : times_) ros1 += t.size();
    QCOMPARE(w.document()->session()->messageCount(), static_cast<std::uint64_t>(ros1 + ros2.size()));
    QVERIFY(w.windowTitle().contains("demo_lz4.bag"));
    // File > Open Recent has them, newest first, as one entry.
    QVariantList recent = QSettings().value("recent").toList();
    QVERIFY(!recent.isEmpty());
    QCOMPARE(recent.front().toStringList(), files);
  }

  // A drop of something no reader takes (a text file) is refused before anything opens; a
  // folder is taken (it may hold recordings).
  void dropsOnlyWhatCanBeOpened() {
    QTemporaryDir layouts, files;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString text = files.filePath("notes.txt");
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a recording");
    f.close();
    auto entered = [&](const QString& path) {
      QMimeData mime;
      mime.setUrls({QUrl::fromLocalFile(path)});
      QDragEnterEvent enter(QPoint(w.width() / 2, w.height() / 2), Qt::CopyAction, &mime, Qt::LeftButton, {});
      QCoreApplication::sendEvent(&w, &enter);
      return enter.isAccepted();
    };
    QVERIFY(!entered(text));
    QVERIFY(!entered(files.filePath("gone.bag")));
    QVERIFY(entered(files.path()));
    QVERIFY(entered(dataPath("ros2/demo_db3")));
    QVERIFY(entered(dataPath("ros2/demo.mcap")));
  }

  // Every panel type of the registry is in View ▸ New and opens from the topic list on the
  // topics it shows; a layout restores it by its kind.
  void panelsComeFromTheirRegistry() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    QStringList newActions;
    for (QAction* a : w.findChildren<QAction*>()) newActions << a->text();
    for (const auto& type : bagscope::widgets::panelTypes())
      QVERIFY2(newActions.contains(bagscope::widgets::translated(type.newAction)), type.kind);
    QCOMPARE(bagscope::widgets::panelTypes().size(),
             std::size_t{8});  // plot, image, 3D, log, diagnostics, TF tree, messages, map
    QVERIFY(bagscope::widgets::panelType("log")->shows("rcl_interfaces/msg/Log"));
    QVERIFY(bagscope::widgets::panelType("diagnostics")->shows("diagnostic_msgs/DiagnosticArray"));
    QVERIFY(!bagscope::widgets::panelType("tf")->shows);
    const auto* image = bagscope::widgets::panelType("image");
    const auto* cloud = bagscope::widgets::panelType("cloud");
    QVERIFY(image && cloud && !bagscope::widgets::panelType("nonsense"));
    QVERIFY(image->shows("sensor_msgs/CompressedImage") && !image->shows("sensor_msgs/Imu"));
    QVERIFY(cloud->shows("sensor_msgs/msg/LaserScan") && !cloud->shows("sensor_msgs/Image"));
    QVERIFY(!bagscope::widgets::panelType("plot")->shows);
    // "Show in 3D View" on /points: a 3D view of /points.
    int points = -1;
    for (std::size_t i = 0; i < w.document()->topics().size(); ++i)
      if (w.document()->topics()[i].name == "/points") points = static_cast<int>(i);
    QVERIFY(points >= 0);
    emit w.topicPanel()->showRequested(points, QStringLiteral("cloud"));
    auto* view = w.findChild<CloudPanel*>();
    QVERIFY(view);
    QCOMPARE(view->topic(), QString("/points"));
    QCOMPARE(view->kind(), QString("cloud"));
  }

  // Issue #33: a closed plot or view stays listed in View ▸ Panels and comes back from there
  // (before, it was deleted and could not be reopened, though saved layouts still held it);
  // Remove Closed Panels drops it. A layout chosen while maximized keeps the window maximized.
  void closedPanelsCanBeReopenedAndALayoutKeepsTheWindowMaximized() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Panel* plot = w.addPanel("plot");
    auto* dock = qobject_cast<QDockWidget*>(plot->parentWidget());
    QVERIFY(dock);
    QVERIFY(dock->close());
    QVERIFY(dock->isHidden());
    QMenu* panelsMenu = nullptr;
    for (QMenu* m : w.findChildren<QMenu*>())
      if (m->title().remove('&') == "Panels") panelsMenu = m;
    QVERIFY(panelsMenu);
    emit panelsMenu->aboutToShow();
    QAction* reopen = nullptr;
    QAction* removeClosed = nullptr;
    for (QAction* a : panelsMenu->actions()) {
      if (a->text() == dock->windowTitle()) reopen = a;
      if (a->text() == "Remove Closed Panels") removeClosed = a;
    }
    QVERIFY(reopen && removeClosed && removeClosed->isEnabled());
    QVERIFY(reopen->isCheckable() && !reopen->isChecked());
    reopen->trigger();
    QTRY_VERIFY(dock->isVisible());
    QCOMPARE(w.panels().size(), 1);
    QVERIFY(dock->close());
    emit panelsMenu->aboutToShow();
    for (QAction* a : panelsMenu->actions())
      if (a->text() == "Remove Closed Panels") a->trigger();
    QCOMPARE(w.panels().size(), 0);

    Layout small = w.currentLayout("small");
    w.resize(500, 400);
    small.geometry = w.saveGeometry();
    w.setWindowState(Qt::WindowMaximized);
    QVERIFY(w.windowState() & Qt::WindowMaximized);
    w.applyLayout(small);
    QVERIFY2(w.windowState() & Qt::WindowMaximized, "a layout switched while maximized un-maximized the window");
  }

  // Issue #33: a plot still loading when another recording is opened ran on the freed session
  // (its job held a raw pointer the document released first). Every job holds the session
  // now. Run under ASan in CI; its timing is the machine's, so the test after it checks
  // the rule itself.
  void openingARecordingWhileAPlotLoadsKeepsTheOldSessionForTheJob() {
    QTemporaryDir dir;
    const QString big = dir.filePath("many.bag");
    std::vector<qint64> times(1'000'000);  // the plot's read takes long enough to be cut short
    for (std::size_t i = 0; i < times.size(); ++i) times[i] = 1'000'000'000LL + static_cast<qint64>(i) * 1000;
    QVERIFY(writeValues(big, times));
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    QSignalSpy opened(&w, &MainWindow::openFinished);
    w.open({big});
    QVERIFY(opened.wait(60000));
    std::weak_ptr<const bagscope::session::Session> first = w.document()->session();
    auto* plot = qobject_cast<PlotPanel*>(w.addPanel("plot"));
    QVERIFY(plot);
    plot->addSeries("/value", "data");
    QVERIFY(plot->seriesX(0).empty());        // still reading
    w.open({dataPath("ros1/demo_lz4.bag")});  // while the plot reads /value
    QVERIFY(opened.wait(60000));
    QVERIFY(w.document()->session() && w.document()->session() != first.lock());
    QTRY_VERIFY_WITH_TIMEOUT(first.expired(), 30000);  // the job let it go when it ended
    QCOMPARE(w.document()->paths(), QStringList{dataPath("ros1/demo_lz4.bag")});
  }

  // Issue #33: the rule under the test above, without its timing: a session job holds its
  // session until its work ends, whoever else lets go of it meanwhile.
  void aSessionJobHoldsItsSessionUntilItEnds() {
    auto opened = bagscope::session::Session::open({dataPath("ros1/demo_lz4.bag").toStdString()});
    QVERIFY(opened);
    std::shared_ptr<const bagscope::session::Session> session = std::move(opened).value();
    std::weak_ptr<const bagscope::session::Session> weak = session;
    const bagscope::session::Session* raw = session.get();
    std::atomic<bool> go{false};
    std::atomic<std::size_t> topicsSeen{0};
    bool ended = false;
    QObject owner;
    auto job = startSessionJob(
        session, Mailbox::create(&owner),
        [raw, &go, &topicsSeen](bagscope::StopToken, const bagscope::session::ProgressFn&) -> bagscope::Result<void> {
          while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          topicsSeen = raw->topics().size();  // what a job reads of its session
          return {};
        },
        {}, [&ended](const bagscope::Result<void>&) { ended = true; });
    session.reset();  // the document opened another recording
    QVERIFY2(!weak.expired(), "the job does not hold its session");
    go = true;
    QTRY_VERIFY(ended);
    QCOMPARE(topicsSeen.load(), std::size_t{21});
    job.reset();
    QTRY_VERIFY(weak.expired());  // and lets it go when it has ended
  }

  // Issue #33: on a topic of one message, "after the playhead" goes once the playhead has
  // passed it (End); a new image viewer or Messages list opens on the selected topic; the
  // toolbar's time shows steps under a millisecond.
  void theInspectorNewPanelsAndTheToolbarFollowTheSelection() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QSignalSpy opened(&w, &MainWindow::openFinished);
    w.open({dataPath("ros1/robot_state.bag")});
    QVERIFY(opened.wait(30000));
    auto* d = w.document();
    auto topicIndex = [&](const QString& name) {
      for (const auto& t : d->topics())
        if (t.name == name) return static_cast<int>(t.id);
      return -1;
    };
    d->setCurrentTopic(topicIndex("/goal"));  // one message, 0.3 s after the start
    QTRY_VERIFY(w.inspector()->headerText().contains("after the playhead"));
    d->setPlayhead(d->endNs());
    QTRY_VERIFY(w.inspector()->headerText().contains("message 1 of 1"));
    QVERIFY2(!w.inspector()->headerText().contains("after the playhead"), qPrintable(w.inspector()->headerText()));

    d->setCurrentTopic(topicIndex("/rosout"));
    QAction* newMessages = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == "New &Messages List") newMessages = a;
    QVERIFY(newMessages);
    newMessages->trigger();
    QCOMPARE(w.panels().size(), 1);
    QCOMPARE(w.panels().front()->saveSettings().value("topic").toString(), QString("/rosout"));

    d->setPlayhead(d->startNs() + 300'250'000);  // between milliseconds
    QVERIFY2(w.playbackBar()->timeText().startsWith("0.300250"), qPrintable(w.playbackBar()->timeText()));
    d->setPlayhead(d->startNs() + 300'000'000);
    QVERIFY2(w.playbackBar()->timeText().startsWith("0.300 "), qPrintable(w.playbackBar()->timeText()));

    // Clock time with its date when the recording spans days (two messages two days apart).
    QTemporaryDir dir;
    const QString days = dir.filePath("days.bag");
    QVERIFY(writeValues(days, {1'700'000'000'000'000'000LL, 1'700'172'800'000'000'000LL}));
    w.open({days});
    QVERIFY(opened.wait(30000));
    w.playbackBar()->setTimeDisplay(TimeDisplay::Clock);
    d->setPlayhead(d->endNs());
    const QString date = QDateTime::fromMSecsSinceEpoch(d->endNs() / 1'000'000).toString("yyyy-MM-dd ");
    QVERIFY2(w.playbackBar()->timeText().startsWith(date), qPrintable(w.playbackBar()->timeText()));
  }

  // Issue #33: new panels share the room above the timeline as a grid — none squeezed into
  // the right column, none hidden behind another's tab, a plot's canvas well over 100 px.
  void newPanelsGoWhereThereIsRoom() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    for (const char* kind : {"plot", "plot", "image", "messages"}) {
      QVERIFY(w.addPanel(kind));
      QApplication::processEvents();
    }
    QTest::qWait(200);
    for (Panel* p : w.panels()) {
      auto* dock = qobject_cast<QDockWidget*>(p->parentWidget());
      QVERIFY(dock->isVisible() && !dock->isFloating());
      QVERIFY2(w.tabifiedDockWidgets(dock).isEmpty(), qPrintable(dock->objectName()));
      QVERIFY2(dock->width() >= 300 && dock->height() >= 180,
               qPrintable(QString("%1: %2x%3").arg(dock->objectName()).arg(dock->width()).arg(dock->height())));
    }
    auto* plot = qobject_cast<PlotPanel*>(w.panels().front());
    QVERIFY(plot->plot()->height() >= 150);
    w.grab().save(QStringLiteral(BAGSCOPE_SHOTS "/new_panels.png"));
  }

  // A recovered file says so for as long as it is open: a badge and the Problems panel.
  void problemsStayVisibleWhileTheRecordingIsOpen() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QSignalSpy opened(&w, &MainWindow::openFinished);
    w.open({dataPath("ros1/demo_truncated.bag")});
    QVERIFY(opened.wait(30000));
    QTest::qWait(50);
    QVERIFY(w.problemsBadge()->isVisible());
    QVERIFY2(w.problemsBadge()->text().startsWith("3 problem"),
             qPrintable(w.problemsBadge()->text()));  // index lost, chunk cut, scan
    QString text = w.problemsPanel()->text();
    QVERIFY2(text.startsWith("demo_truncated.bag (3)"), qPrintable(text));
    QVERIFY2(text.contains("recovered 668 messages by scanning"), qPrintable(text));
    QVERIFY2(text.contains("19979 bytes after them are unreadable"), qPrintable(text));
    QTest::mouseClick(w.problemsBadge(), Qt::LeftButton);
    QVERIFY(w.problemsPanel()->isVisible());
    // A whole file: no badge, and the panel says all is well.
    opened.clear();
    w.open({dataPath("ros1/demo_lz4.bag")});
    QVERIFY(opened.wait(30000));
    QVERIFY(!w.problemsBadge()->isVisible());
    QVERIFY(w.problemsPanel()->text().startsWith("No problems"));
    // Topics that cannot be decoded are listed with the reason.
    opened.clear();
    w.open({dataPath("ros2/demo_db3_old")});
    QVERIFY(opened.wait(30000));
    QString all = w.problemsPanel()->text();
    QVERIFY2(all.contains("/vehicle_state cannot be decoded"), qPrintable(all));
    QVERIFY(w.problemsBadge()->isVisible());
  }

  // `bagscope notabag.txt demo.bag`: the file that failed is reported and named nowhere else.
  void onlyFilesThatOpenedNameTheSession() {
    QTemporaryDir layouts, dir;
    QString junk = dir.filePath("notabag.txt");
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("hello, not a recording\n") > 0);
    f.close();
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(openAndWait(w, {junk, dataPath("ros1/demo_lz4.bag")}));
    QCOMPARE(w.document()->paths(), QStringList{dataPath("ros1/demo_lz4.bag")});
    QCOMPARE(w.windowTitle(), QString("demo_lz4.bag — Bagscope"));
    ExportWizard wizard(w.document(), {}, &w);
    QCOMPARE(wizard.bagName(), QString("demo_lz4"));
    QVariantList recent = QSettings().value("recent").toList();
    QCOMPARE(recent.front().toStringList(), QStringList{dataPath("ros1/demo_lz4.bag")});
  }

  // An exception out of a slot (or out of a pool read) is shown in a dialog, and the app
  // goes on: events are still delivered afterwards.
  void anExceptionInASlotIsShownAndTheAppGoesOn() {
    QTimer::singleShot(0, qApp, [] { throw std::runtime_error("a slot threw"); });
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = findTopLevel()));
    QVERIFY2(box->informativeText().contains("a slot threw"), qPrintable(box->informativeText()));
    // A second failure while the dialog is open joins it.
    QObject owner;
    NewestRead<int> reader(&owner);
    reader.want(
        {reinterpret_cast<const bagscope::session::Session*>(&owner), 1, 7, 0},
        []() -> int { throw std::out_of_range("row 7 is past the end"); }, [](const ReadKey&, int) {});
    QTRY_VERIFY2(box->informativeText().contains("row 7 is past the end"), qPrintable(box->informativeText()));
    QCOMPARE(topLevelBoxes(), 1);
    // The reader reads again when asked.
    int got = 0;
    reader.want(
        {reinterpret_cast<const bagscope::session::Session*>(&owner), 1, 8, 0}, [] { return 42; },
        [&](const ReadKey&, int v) { got = v; });
    QTRY_COMPARE(got, 42);
    box->close();
    bool later = false;
    QTimer::singleShot(0, qApp, [&] { later = true; });
    QTRY_VERIFY(later);
  }

  // Layout ▸ Import names a layout by the name inside the file (never a path) and asks before
  // replacing one of the same name.
  void importedLayoutsAreNamedAndAskBeforeReplacing() {
    QTemporaryDir layouts, dir;
    MainWindow w(nullptr, layouts.path());
    w.show();
    Layout l = w.currentLayout("/home/me/imported.json");  // as older exports wrote it
    l.panels["marker"] = 1;
    QString first = dir.filePath("imported.json");
    QString error;
    QVERIFY2(l.writeFile(first, &error), qPrintable(error));
    QVERIFY(w.importLayoutFile(first));
    QCOMPARE(w.layoutStore().names(), QStringList{"imported"});
    QVERIFY(QFile::exists(layouts.filePath("imported.json")));
    // Same name again: No keeps the stored one, Yes replaces it.
    l.name = "imported";
    l.panels["marker"] = 2;
    QString second = dir.filePath("other.json");
    QVERIFY(l.writeFile(second, &error));
    answerNextQuestion(QMessageBox::No);
    QVERIFY(!w.importLayoutFile(second));
    QCOMPARE(w.layoutStore().load("imported", &error)->panels["marker"].toInt(), 1);
    answerNextQuestion(QMessageBox::Yes);
    QVERIFY(w.importLayoutFile(second));
    QCOMPARE(w.layoutStore().load("imported", &error)->panels["marker"].toInt(), 2);
    QCOMPARE(w.layoutStore().names(), QStringList{"imported"});
  }

  // Settings ▸ Message definitions: a folder of .msg files or a recording that defines a type
  // the file lacks, applied to the open recording at once; the greyed topic's tooltip says
  // where to add them (not the CLI's --msg-path).
  void messageDefinitionsFromSettingsApplyAtOnce() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QSignalSpy opened(&w, &MainWindow::openFinished);
    w.open({dataPath("ros2/demo_db3_old")});
    QVERIFY(opened.wait(30000));
    const TopicInfo* t = w.document()->topicByName("/vehicle_state");
    QVERIFY(t && !t->decodeProblem.isEmpty() && t->definitionMissing);
    QString tip = tooltipOf(w, "/vehicle_state");
    QVERIFY2(tip.contains("Settings ▸ Message definitions") && !tip.contains("--msg-path"), qPrintable(tip));

    AppSettings chosen = AppSettings::load();
    chosen.messagePaths = {dataPath("msg")};
    QCOMPARE(SettingsDialog(chosen).settings().messagePaths, chosen.messagePaths);  // the dialog keeps them
    opened.clear();
    w.applySettings(chosen);
    QVERIFY(opened.wait(30000));
    t = w.document()->topicByName("/vehicle_state");
    QVERIFY2(t && t->decodeProblem.isEmpty(), qPrintable(t ? t->decodeProblem : "no topic"));
    QCOMPARE(tooltipOf(w, "/vehicle_state"), QString("/vehicle_state"));

    // A recording that stores the definition works too; one that is gone is named, not fatal.
    chosen.messagePaths = {dataPath("ros2/demo_db3"), dataPath("ros2/gone.mcap")};
    opened.clear();
    w.applySettings(chosen);
    QVERIFY(opened.wait(30000));
    t = w.document()->topicByName("/vehicle_state");
    QVERIFY2(t && t->decodeProblem.isEmpty(), qPrintable(t ? t->decodeProblem : "no topic"));
    QString problems = w.problemsPanel()->text();
    QVERIFY2(problems.contains("definitions not used") && problems.contains("gone.mcap"), qPrintable(problems));
  }

  // At 10x the playhead outruns reading and drawing a cloud: requests made meanwhile give way
  // to the newest, one read at a time, and the panel ends on the row last asked for; timers
  // (the playhead, input) still run between two draws.
  // A panel switched to another topic never shows the old topic's frame that was still being
  // read (the 3D view or image viewer would flash the previous topic under the new name).
  void aReadForAnotherTopicIsNotShownOnceTheTopicChanged() {
    QObject owner;
    NewestRead<int> reader(&owner);
    const auto* session = reinterpret_cast<const bagscope::session::Session*>(&owner);
    std::vector<int> shown;
    auto want = [&](int topic, int sleepMs) {
      reader.want(
          {session, topic, 0, 0},
          [topic, sleepMs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));
            return topic;
          },
          [&](const ReadKey&, int t) { shown.push_back(t); });
    };
    want(1, 200);  // a slow read of topic 1 in flight…
    QTest::qWait(20);
    want(2, 5);  // …when the user picks topic 2
    QTRY_VERIFY(!shown.empty() && shown.back() == 2);
    QCOMPARE(shown, std::vector<int>{2});
  }

  void panelReadsKeepOnlyTheNewestRequest() {
    QObject owner;
    NewestRead<std::size_t> reader(&owner);
    const auto* session = reinterpret_cast<const bagscope::session::Session*>(&owner);
    std::atomic<int> reads{0}, inFlight{0}, mostInFlight{0};
    std::vector<std::size_t> shown;
    int ticks = 0, ticksAtLastDraw = 0, drawsWithoutTicks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(1);
    auto want = [&](std::size_t row) {
      reader.want(
          {session, 1, row, 0},
          [&, row] {
            ++reads;
            mostInFlight = std::max(mostInFlight.load(), ++inFlight);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));  // a fast read
            --inFlight;
            return row;
          },
          [&](const ReadKey&, std::size_t r) {
            if (!shown.empty() && ticks == ticksAtLastDraw) ++drawsWithoutTicks;
            std::this_thread::sleep_for(std::chrono::milliseconds(30));  // a slow draw
            ticksAtLastDraw = ticks;
            shown.push_back(r);
          });
    };
    QElapsedTimer clock;
    clock.start();
    std::size_t row = 0;
    while (clock.elapsed() < 800) {  // a new row every 2 ms, as a fast playhead asks
      want(++row);
      QTest::qWait(2);
    }
    QTRY_VERIFY(!shown.empty() && shown.back() == row);
    QVERIFY2(std::is_sorted(shown.begin(), shown.end()), "an older row was shown after a newer one");
    QCOMPARE(mostInFlight.load(), 1);
    QVERIFY2(reads.load() <= 800 / 35 + 3, qPrintable(QString::number(reads.load()) + " reads"));  // stale ones dropped
    QVERIFY2(drawsWithoutTicks <= static_cast<int>(shown.size()) / 4,
             qPrintable(QString("%1 of %2 draws came back to back").arg(drawsWithoutTicks).arg(shown.size())));
  }

  // Qt splits image conversion and painting onto its global pool and waits for it: the
  // app's long reads must not sit there (the window froze for seconds while topic sizes were
  // measured or the export preview ran).
  void backgroundWorkLeavesQtsOwnPoolFree() {
    std::atomic<int> running{0};
    const int busy = std::max(2, QThread::idealThreadCount()) * 2;
    for (int i = 0; i < busy; ++i)
      startInPool([&running] {
        ++running;
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        --running;
      });
    QTRY_VERIFY(running.load() > 0);
    QImage big(4000, 3000, QImage::Format_ARGB32);
    big.fill(Qt::darkCyan);
    QElapsedTimer t;
    t.start();
    QImage converted = big.convertToFormat(QImage::Format_RGB888);  // segmented on Qt's pool
    qint64 ms = t.elapsed();
    QVERIFY(!converted.isNull());
    QVERIFY2(ms < 1000, qPrintable(QString("a conversion waited %1 ms for the app's background work").arg(ms)));
    QVERIFY2(running.load() > 0, "the background work ended before the conversion: nothing was measured");
    QTRY_COMPARE_WITH_TIMEOUT(running.load(), 0, 10000);
  }

private:
  static QString tooltipOf(MainWindow& w, const QString& topic) {
    QAbstractItemModel* m = w.topicPanel()->view()->model();
    for (int r = 0; r < m->rowCount(); ++r)
      if (m->index(r, 0).data().toString() == topic) return m->index(r, 0).data(Qt::ToolTipRole).toString();
    return "no row for " + topic;
  }
  // Clicks `button` in the next modal message box, once it is shown.
  static void answerNextQuestion(QMessageBox::StandardButton button) {
    auto* poll = new QTimer(qApp);
    QObject::connect(poll, &QTimer::timeout, [poll, button] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        poll->deleteLater();
        box->button(button)->click();
      }
    });
    poll->start(20);
  }
  static QMessageBox* findTopLevel() {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (w->objectName() == "unexpectedError" && w->isVisible()) return qobject_cast<QMessageBox*>(w);
    return nullptr;
  }
  static int topLevelBoxes() {
    int n = 0;
    for (QWidget* w : QApplication::topLevelWidgets()) n += w->objectName() == "unexpectedError" && w->isVisible();
    return n;
  }
};

// The app's own QApplication (as app/gui/main.cpp makes it), which reports exceptions.
int main(int argc, char** argv) {
  Application app(argc, argv);
  TestAppWindow test;
  return QTest::qExec(&test, argc, argv);
}
#include "tst_app_window.moc"
