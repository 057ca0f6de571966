// The image and 3D panels: pixels, the camera overlay, the 3D view's navigation, layers and
// clouds, against the fixtures and baselines.

#include "panel_test_support.hpp"

#include <QElapsedTimer>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "widgets/shell/playback.hpp"
#include "widgets/shell/timeline.hpp"

namespace {

// `panel` (600 x 400, on screen) on demo_lz4.bag's /points, its first cloud drawn.
void showPoints(CloudPanel& panel, QSignalSpy& shown) {
  panel.resize(600, 400);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  panel.setTopic("/points");
  QVERIFY(shown.count() || shown.wait(10000));
  QTRY_COMPARE(panel.pointsOnScreen(), std::size_t{2000});
}

}  // namespace

class TestScenePanels : public QObject {
  Q_OBJECT

  QTemporaryDir settings_;

private slots:
  void initTestCase() { bagscope::test::setUpPanelTest(settings_.path()); }

  void cameraOverlayProjectsTheCloudWhereThePinholeModelSays() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    ImagePanel panel(&d);
    panel.resize(640, 520);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setTopic("/camera/image_raw");
    d.setPlayhead(d.startNs() + 1'000'000'000);
    panel.setOverlay("/points", false);
    QTRY_VERIFY2(!panel.shown().projected.empty(), qPrintable(panel.shown().overlayNote));
    // By hand, from the fixture's values: base_link -> lidar (0.5, 0, 1.2), base_link ->
    // camera_optical (0.6, 0, 1.0) rotated by q = (-0.5, 0.5, -0.5, 0.5); the camera's K and
    // plumb_bob D. The cloud's points as Bagscope reads them (checked against the references
    // by the export tests).
    QString error;
    QJsonObject info, tfStatic;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error)) {
      if (l["topic"] == "/camera/camera_info" && l["log_time_ns"].toInteger() <= d.playheadNs())
        info = l["msg"].toObject();
      if (l["topic"] == "/tf_static") tfStatic = l["msg"].toObject();
    }
    double qx = 0, qy = 0, qz = 0, qw = 1, tx = 0, ty = 0, tz = 0, lx = 0, ly = 0, lz = 0;
    for (const auto& t : tfStatic["transforms"].toArray()) {
      QJsonObject tr = t.toObject()["transform"].toObject();
      QJsonObject tt = tr["translation"].toObject(), rr = tr["rotation"].toObject();
      if (t.toObject()["child_frame_id"] == "camera_optical") {
        tx = tt["x"].toDouble(), ty = tt["y"].toDouble(), tz = tt["z"].toDouble();
        qx = rr["x"].toDouble(), qy = rr["y"].toDouble(), qz = rr["z"].toDouble(), qw = rr["w"].toDouble();
      }
      if (t.toObject()["child_frame_id"] == "lidar")
        lx = tt["x"].toDouble(), ly = tt["y"].toDouble(), lz = tt["z"].toDouble();
    }
    // The rotation matrix of q, applied transposed: base -> camera.
    double R[3][3] = {{1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)},
                      {2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)},
                      {2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)}};
    QJsonArray K = info["K"].toArray(), D = info["D"].toArray();
    auto points = d.session()->findTopic("/points");
    std::size_t row = *d.session()->atOrBefore(*points, panel.shown().logTimeNs);
    CloudFrame cloud = readCloud(*d.session(), *points, row, "z", nullptr, {});
    std::vector<QPointF> want;
    std::vector<std::size_t> inView;  // their indices in the cloud
    for (std::size_t i = 0; i + 2 < cloud.xyz.size(); i += 3) {
      double b[3] = {cloud.xyz[i] + lx, cloud.xyz[i + 1] + ly, cloud.xyz[i + 2] + lz};
      double rel[3] = {b[0] - tx, b[1] - ty, b[2] - tz}, c[3];
      for (int r = 0; r < 3; ++r) c[r] = R[0][r] * rel[0] + R[1][r] * rel[1] + R[2][r] * rel[2];
      if (c[2] <= 0) continue;
      double x = c[0] / c[2], y = c[1] / c[2], r2 = x * x + y * y;
      double k1 = D[0].toDouble(), k2 = D[1].toDouble(), p1 = D[2].toDouble(), p2 = D[3].toDouble(),
             k3 = D[4].toDouble();
      double radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2;
      double xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x),
             yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
      double u = K[0].toDouble() * xd + K[2].toDouble(), v = K[4].toDouble() * yd + K[5].toDouble();
      if (u >= 0 && v >= 0 && u < info["width"].toDouble() && v < info["height"].toDouble())
        want.emplace_back(u, v), inView.push_back(i / 3);
    }
    QVERIFY(want.size() > 10);
    QCOMPARE(panel.shown().projected.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      QVERIFY2(std::abs(panel.shown().projected[i].x() - want[i].x()) < 1e-4 &&
                   std::abs(panel.shown().projected[i].y() - want[i].y()) < 1e-4,
               qPrintable(QString("point %1").arg(i)));
    QVERIFY(panel.shown().overlayNote.contains(QString("%1 of %2 points").arg(want.size()).arg(cloud.size())));
    // Coloured by a field of the cloud: each point in view its intensity, the colours spread
    // over the intensities in view.
    QVERIFY(panel.shown().cloudFields.contains("intensity"));
    panel.setOverlayColour("intensity");
    QTRY_VERIFY2(panel.shown().overlayNote.contains("intensity"), qPrintable(panel.shown().overlayNote));
    CloudFrame intensities = readCloud(*d.session(), *points, row, "intensity", nullptr, {});
    QCOMPARE(panel.shown().projectedValues.size(), inView.size());
    double low = 1e300, high = -1e300;
    for (std::size_t i = 0; i < inView.size(); ++i) {
      const double want_i = intensities.values[inView[i]];
      QCOMPARE(panel.shown().projectedValues[i], want_i);
      low = std::min(low, want_i), high = std::max(high, want_i);
    }
    QVERIFY2(panel.shown().overlayNote.contains(QString("(%1 – %2)").arg(low, 0, 'g', 6).arg(high, 0, 'g', 6)),
             qPrintable(panel.shown().overlayNote));
    QCOMPARE(panel.saveSettings()["overlayColour"].toString(), QString("intensity"));
    panel.setOverlayColour({});
    QTRY_VERIFY(panel.shown().overlayNote.contains("range"));
    // Undistorted, the points go through P instead; the picture is remapped.
    panel.setOverlay("/points", true);
    QTRY_VERIFY(panel.shown().undistorted);
    QVERIFY(!panel.shown().projected.empty());
    QCOMPARE(panel.saveSettings()["overlay"].toString(), QString("/points"));
    QVERIFY(panel.saveSettings()["undistort"].toBool());
    panel.setOverlay("/points", false);
    QTRY_VERIFY(!panel.shown().undistorted && !panel.shown().projected.empty());
    QTest::qWait(50);
    QString diff = compareToBaseline(panel.grab().toImage(), "image_overlay");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void imagesShowTheirPixels() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    ImagePanel panel(&d);
    panel.resize(1000, 480);  // wider than its toolbar needs: the view's size is fixed
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    for (const char* topic : {"/camera/image_raw", "/camera/depth"}) {
      QSignalSpy shown(&panel, &ImagePanel::frameShown);
      panel.setTopic(topic);
      QVERIFY(shown.count() || shown.wait(10000));
      QTRY_COMPARE(panel.topic(), QString(topic));
      QTRY_VERIFY(!panel.shown().picture.isNull());
      QTest::qWait(100);
      QString diff = compareToBaseline(panel.view()->grab().toImage(), QString(topic).mid(1).replace('/', '_'));
      QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
    // The readout under the pointer: hovering the centre of the depth image.
    QPointF centre = panel.view()->rect().center();
    QPointF pixel = panel.view()->toImage(centre);
    int x = static_cast<int>(pixel.x()), y = static_cast<int>(pixel.y());
    QCOMPARE(panel.readout(x, y), QString("%1 mm").arg(1000 + 20 * y + 5 * x));  // frame 0

    // Save Frame goes through the export core in the background: the 16-bit millimetres of
    // frame 0 as a 16-bit PNG, read back by Qt's PNG reader; a suffix it cannot write is refused.
    QTemporaryDir out;
    QSignalSpy saved(&panel, &Panel::saved);
    panel.saveFrame(out.filePath("depth.png"));
    QVERIFY(saved.count() || saved.wait(10000));
    QVERIFY2(saved.at(0).at(1).toString().isEmpty(), qPrintable(saved.at(0).at(1).toString()));
    QImage png(out.filePath("depth.png"));
    QCOMPARE(png.format(), QImage::Format_Grayscale16);
    // The generator's plane, its 8x8 corner of "no measurement" and its saturated last pixel.
    auto at = [&](int xx, int yy) { return int(reinterpret_cast<const quint16*>(png.constScanLine(yy))[xx]); };
    QCOMPARE(png.size(), QSize(64, 48));
    for (int yy = 0; yy < 48; ++yy)
      for (int xx = 0; xx < 64; ++xx) {
        int expected = xx < 8 && yy < 8 ? 0 : xx == 63 && yy == 47 ? 65535 : 1000 + 20 * yy + 5 * xx;
        if (at(xx, yy) != expected)
          QFAIL(qPrintable(QString("pixel %1,%2: %3, not %4").arg(xx).arg(yy).arg(at(xx, yy)).arg(expected)));
      }
    saved.clear();
    panel.saveFrame(out.filePath("depth.bmp"));
    QVERIFY(saved.count() || saved.wait(10000));
    QVERIFY2(saved.at(0).at(1).toString().contains(".bmp"), qPrintable(saved.at(0).at(1).toString()));
    QVERIFY(!QFile::exists(out.filePath("depth.bmp")));
  }

  // Issue #33: the wheel zooms toward the point under the pointer (it stays there); Reset
  // View frames what is drawn, not the 20 m grid; Follow moves the camera with a frame as
  // the playhead moves, by as much as the fixture's /tf moves base_link in odom.
  void theThreeDViewZoomsToThePointerFramesTheDataAndFollowsAFrame() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    CloudPanel panel(&d);
    panel.resize(640, 480);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.restoreSettings({{"topic", "/points"}, {"fixedFrame", "odom"}, {"grid", true}});
    QTRY_VERIFY(!panel.frames().empty());
    QTest::qWait(200);
    VtkView* view = panel.view();
    auto distance = [&] {
      auto f = view->focalPoint(), p = view->cameraPosition();
      return std::hypot(f[0] - p[0], f[1] - p[1], f[2] - p[2]);
    };

    // Reset View: every point of the cloud in sight, filling a good part of it (framing the
    // 20 m grid left the few metres of cloud a small patch in the middle).
    panel.resetView();
    const auto& frame = panel.frames().back();
    QRectF extent;
    for (std::size_t i = 0; i < frame.size(); i += 20) {
      QPointF at = view->toWidget({frame.xyz[3 * i], frame.xyz[3 * i + 1], frame.xyz[3 * i + 2]});
      QVERIFY2(QRectF(0, 0, view->width(), view->height()).contains(at), "a point of the cloud out of sight");
      extent = extent.isNull() ? QRectF(at, QSizeF(0.01, 0.01)) : extent.united(QRectF(at, QSizeF(0.01, 0.01)));
    }
    QVERIFY2(extent.width() > 0.4 * view->width() || extent.height() > 0.4 * view->height(),
             qPrintable(QString("the cloud fills %1 x %2 px").arg(extent.width()).arg(extent.height())));

    // The wheel: the world point under the pointer stays under it; the distance shrinks.
    const QPointF pointer(view->width() * 0.25, view->height() * 0.3);
    const auto under = view->underPointer(pointer);
    const double before = distance();
    QWheelEvent wheel(pointer, view->mapToGlobal(pointer), {}, {0, 240}, Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
    QVERIFY(std::abs(distance() - before / 1.21) < 1e-6 * before);  // two notches of 10 %
    QPointF after = view->toWidget(under);
    QVERIFY2(
        std::abs(after.x() - pointer.x()) < 1.0 && std::abs(after.y() - pointer.y()) < 1.0,
        qPrintable(QString("%1,%2 moved to %3,%4").arg(pointer.x()).arg(pointer.y()).arg(after.x()).arg(after.y())));

    // Follow base_link: the camera moves as base_link does between two /tf stamps.
    std::map<qint64, std::array<double, 3>> baseLink;  // stamp: translation in odom
    QString error;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/tf")
        for (const auto& t : l["msg"][u"transforms"].toArray()) {
          QJsonObject o = t.toObject();
          if (o["header"][u"frame_id"] != "odom" || o["child_frame_id"] != "base_link") continue;
          qint64 stamp = static_cast<qint64>(o["header"][u"stamp"][u"sec"].toInteger()) * 1'000'000'000 +
                         o["header"][u"stamp"][u"nsec"].toInteger();
          QJsonObject v = o["transform"][u"translation"].toObject();
          baseLink[stamp] = {v["x"].toDouble(), v["y"].toDouble(), v["z"].toDouble()};
        }
    const qint64 t1 = 1'700'000'000'500'000'000, t2 = 1'700'000'001'000'000'000;
    QVERIFY(baseLink.count(t1) && baseLink.count(t2));
    d.setPlayhead(t1);
    auto* follow = panel.findChild<QComboBox*>("follow");
    QVERIFY(follow);
    QTRY_VERIFY(follow->findData("base_link") >= 0);
    follow->setCurrentIndex(follow->findData("base_link"));
    const auto f1 = view->focalPoint(), p1 = view->cameraPosition();
    for (std::size_t i = 0; i < 3; ++i) QVERIFY(std::abs(f1[i] - baseLink[t1][i]) < 1e-6);
    d.setPlayhead(t2);
    const auto f2 = view->focalPoint(), p2 = view->cameraPosition();
    for (std::size_t i = 0; i < 3; ++i) {
      const double moved = baseLink[t2][i] - baseLink[t1][i];
      QVERIFY(std::abs((f2[i] - f1[i]) - moved) < 1e-6);
      QVERIFY(std::abs((p2[i] - p1[i]) - moved) < 1e-6);
    }
    QCOMPARE(panel.saveSettings().value("followFrame").toString(), QString("base_link"));
    QTest::qWait(100);
    panel.grab().save(QStringLiteral(BAGSCOPE_SHOTS "/view_follow.png"));
  }

  void cloudLastNFramesCountBackFromThePlayheadAfterASeek() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    CloudPanel panel(&d);
    panel.resize(600, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.restoreSettings({{"topic", "/points"}, {"accumulate", 5}});
    auto topic = d.session()->findTopic("/points");
    QVERIFY(topic);
    auto index = d.session()->index(*topic);
    // Seeks, with no frame before them visited: the five messages at or before the playhead
    // (fewer near the start), oldest first.
    for (qint64 at : {1'500'000'000LL, 600'000'000LL, 150'000'000LL, 1'900'000'000LL}) {
      d.setPlayhead(d.startNs() + at);
      std::size_t row = *d.session()->atOrBefore(*topic, d.playheadNs());
      std::size_t first = row >= 4 ? row - 4 : 0;
      QTRY_COMPARE(panel.frames().size(), row - first + 1);
      QTRY_COMPARE(panel.frames().back().logTimeNs, index[row].logTimeNs);
      for (std::size_t k = 0; k < panel.frames().size(); ++k)
        QCOMPARE(panel.frames()[k].logTimeNs, index[first + k].logTimeNs);
    }
    // More frames asked for: read at once, without moving the playhead.
    panel.restoreSettings({{"topic", "/points"}, {"accumulate", 8}});
    QTRY_COMPARE(panel.frames().size(), std::size_t{8});
    // A decay of 0.45 s: the messages of the last 0.45 s before the playhead (at most 8).
    panel.restoreSettings({{"topic", "/points"}, {"accumulate", 8}, {"decaySeconds", 0.45}});
    std::size_t last = *d.session()->atOrBefore(*topic, d.playheadNs()), inWindow = 0;
    for (std::size_t r = 0; r <= last; ++r) inWindow += index[r].logTimeNs > d.playheadNs() - 450'000'000;
    QTRY_COMPARE(panel.frames().size(), std::min<std::size_t>(inWindow, 8));
    QCOMPARE(panel.frames().front().logTimeNs, index[last + 1 - panel.frames().size()].logTimeNs);
  }

  // While playing, a cloud whose drawing takes the frame budget or more is drawn thinned
  // (every 2nd point, then every 4th...), and whole again once playing stops; a cloud stepped
  // to, or one drawn within the budget, never is. Playback says when it plays.
  void aCloudTooSlowToDrawIsThinnedOnlyWhilePlaying() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    CloudPanel panel(&d);
    QSignalSpy shown(&panel, &CloudPanel::frameShown);
    showPoints(panel, shown);
    if (QTest::currentTestFailed()) return;
    auto topic = d.session()->findTopic("/points");
    QVERIFY(topic);
    auto index = d.session()->index(*topic);
    auto stepTo = [&](std::size_t row) {
      shown.clear();
      d.setPlayhead(index[row].logTimeNs);
      return shown.wait(10000);
    };
    panel.setFrameBudget(0);  // every drawing is too slow
    QVERIFY(stepTo(1));
    QCOMPARE(panel.drawEvery(), 1);  // stepped: whole
    QCOMPARE(panel.pointsOnScreen(), std::size_t{2000});

    Playback playback(&d);
    playback.play();
    QVERIFY(d.isPlaying());
    playback.pause();
    QVERIFY(!d.isPlaying());

    // Thinned at once, and more with each frame drawn too slowly; while playing, a change that
    // comes while a frame is drawn is in the next one (theThreeDViewDrawsOffTheGuiThread).
    d.setPlaying(true);
    QCOMPARE(panel.drawEvery(), 2);
    QTRY_COMPARE(panel.pointsOnScreen(), std::size_t{1000});
    QVERIFY2(panel.status().contains("1 in 2 points"), qPrintable(panel.status()));
    QVERIFY(stepTo(2));
    QCOMPARE(panel.drawEvery(), 4);
    // Drawn as thinned as the panel now says (a frame read meanwhile may thin it once more).
    QTRY_COMPARE(panel.pointsOnScreen(), std::size_t{2000} / static_cast<std::size_t>(panel.drawEvery()));
    QVERIFY(panel.drawEvery() >= 4);
    d.setPlaying(false);
    QCOMPARE(panel.drawEvery(), 1);
    QCOMPARE(panel.pointsOnScreen(), std::size_t{2000});
    QVERIFY2(!panel.status().contains("1 in"), qPrintable(panel.status()));

    panel.setFrameBudget(1'000'000);  // no drawing takes that long
    d.setPlaying(true);
    QVERIFY(stepTo(3));
    QCOMPARE(panel.drawEvery(), 1);
    QCOMPARE(panel.pointsOnScreen(), std::size_t{2000});
    d.setPlaying(false);
  }

  // VTK draws on the view's own thread. While it draws (here another thread holds the scene
  // for 1.5 s, as a slow software renderer would), playback goes on, the GUI thread never
  // waits, and the clouds that came meanwhile are in the next frame.
  void theThreeDViewDrawsOffTheGuiThread() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    CloudPanel panel(&d);
    QSignalSpy shown(&panel, &CloudPanel::frameShown);
    showPoints(panel, shown);
    if (QTest::currentTestFailed()) return;
    panel.setFrameBudget(1'000'000);  // not thinned
    shown.clear();
    panel.restoreSettings({{"topic", "/points"}, {"accumulate", 3}});
    QVERIFY(shown.wait(10000));
    QTRY_COMPARE(panel.pointsOnScreen(), std::size_t{2000});  // the first message: one cloud
    const QImage before = panel.view()->frame();
    auto index = d.session()->index(*d.session()->findTopic("/points"));
    d.setPlaying(true);
    std::atomic<bool> held = false;
    std::thread slowRender([&] {
      auto scene = panel.view()->lockScene();
      held = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    });
    struct Join {
      std::thread& t;
      ~Join() { t.join(); }
    } join{slowRender};
    while (!held) std::this_thread::yield();
    QElapsedTimer took;
    took.start();
    int ticks = 0;
    QTimer watchdog;
    connect(&watchdog, &QTimer::timeout, [&] { ++ticks; });
    watchdog.start(10);
    for (std::size_t row : {1, 2}) {
      shown.clear();
      d.setPlayhead(index[row].logTimeNs);
      QVERIFY(shown.wait(1000));  // read and taken while the scene is held
    }
    panel.view()->render();  // a frame asked for while one is drawn
    const qint64 steps = took.elapsed();
    QTest::qWait(200);
    QVERIFY2(steps < 1000 && ticks >= 10,
             qPrintable(QString("GUI thread waited: %1 ms for two steps, %2 ticks").arg(steps).arg(ticks)));
    QCOMPARE(panel.frames().size(), std::size_t{3});
    // Then drawn: the three clouds on screen, and the frame shows more of them.
    QTRY_COMPARE(panel.pointsOnScreen(), std::size_t{6000});
    d.setPlaying(false);
    QVERIFY(panel.view()->frame() != before);
  }

  // Each view draws on its own thread; two views step together and both show every step
  // (their renders take turns: VTK's text caches are process-wide).
  void twoThreeDViewsDrawSideBySide() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    CloudPanel a(&d), b(&d);
    for (CloudPanel* p : {&a, &b}) {
      p->resize(500, 400);
      p->show();
      QVERIFY(QTest::qWaitForWindowExposed(p));
      p->restoreSettings({{"fixedFrame", "map"}, {"layers", QJsonArray{"/markers", "/plan", "/goal"}}});
    }
    d.setPlaying(true);
    for (qint64 ms : {1000, 1100, 1200, 1300, 1400}) {
      d.setPlayhead(1'700'000'000'000'000'000 + ms * 1'000'000);
      QTest::qWait(30);
    }
    d.setPlaying(false);
    QTRY_VERIFY(a.layerItemsDrawn() > 0 && a.layerItemsDrawn() == b.layerItemsDrawn());
    const QImage one = a.view()->frame(), two = b.view()->frame();
    QVERIFY(!one.isNull() && one == two);  // the same scene, drawn the same
  }

  void cloudViewKeepsDrawingWhenFloatedAndDockedAgain() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.resize(1200, 800);
    w.show();
    QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    auto* panel = static_cast<CloudPanel*>(w.addPanel("cloud"));
    QSignalSpy shown(panel, &CloudPanel::frameShown);
    panel->setTopic("/points");
    QVERIFY(shown.count() || shown.wait(10000));
    QTRY_COMPARE(panel->pointsDrawn(), std::size_t{2000});
    panel->topView();
    auto colouredPixels = [&] {
      QImage view = panel->view()->frame();
      int coloured = 0;
      for (int yy = 0; yy < view.height(); yy += 2)
        for (int xx = 0; xx < view.width(); xx += 2) coloured += view.pixelColor(xx, yy).saturation() > 100;
      return coloured;
    };
    QTRY_VERIFY(colouredPixels() > 50);
    QDockWidget* dock = nullptr;
    for (auto* d : w.docks())
      if (d->widget() == panel) dock = d;
    QVERIFY(dock);
    dock->setFloating(true);  // a window of its own: another OpenGL context
    QVERIFY(QTest::qWaitForWindowExposed(dock));
    QTRY_VERIFY2(colouredPixels() > 50, "blank when floating");
    dock->setFloating(false);
    QTest::qWait(200);
    QTRY_VERIFY2(colouredPixels() > 50, "blank when docked again");
  }

  void sceneLayersDrawMarkersPathsPosesAndMapsInTheFixedFrame() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    CloudPanel panel(&d);
    panel.resize(800, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    d.setPlayhead(1'700'000'001'200'000'000);
    panel.restoreSettings({{"fixedFrame", "map"},
                           {"layers", QJsonArray{"/markers", "/plan", "/map", "/goal", "/footprint", "/camera_info"}}});
    // At 1.2 s: markers a/3 (a mesh: a box and its name), b/1 (text), b/2 (a strip); the plan,
    // the map, the goal, the footprint and the camera's frustum.
    QTRY_COMPARE(panel.layerItemsDrawn(), std::size_t{8});
    // The same items' triangles as the scene core makes them: the map's 400, the mesh box's 12,
    // and the goal's arrow.
    QVERIFY2(panel.layerTriangles() > 412, qPrintable(QString::number(panel.layerTriangles())));
    // The mesh is reported, with its resource, under the view.
    QVERIFY2(
        panel.layerStatus().contains("drawn as") && panel.layerStatus().contains("package://robot/meshes/base.dae"),
        qPrintable(panel.layerStatus()));
    // Namespaces toggle: hiding "a" leaves the mesh out.
    panel.setHiddenNamespaces({"a"});
    QCOMPARE(panel.layerItemsDrawn(), std::size_t{7});
    const std::size_t withoutA = panel.layerTriangles();
    panel.setHiddenNamespaces({});
    QCOMPARE(panel.layerTriangles(), withoutA + 12);
    auto saved = panel.saveSettings();
    QCOMPARE(saved["layers"].toArray().size(), 6);
    // Top View frames what is drawn, and the frames' axes come from a background read: frame
    // again until two looks agree (under load, one 200 ms wait framed it before they came).
    QImage before, now;
    for (int i = 0; i < 25 && (now.isNull() || now != before); ++i) {
      before = now;
      panel.topView();
      QTest::qWait(200);
      now = panel.view()->frame();
    }
    QString diff = compareToBaseline(now, "scene_layers");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void layersLookAsTheUserSetsThem() {
    // robot_state.bag at 1.2 s, each item in its own frame: the plan, the goal's arrow, the
    // camera's frustum and the map, each a part of its own.
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    SceneLayers layers;
    QSignalSpy read(&layers, &SceneLayers::changed);
    layers.setTopics({"/plan", "/goal", "/camera_info", "/map"}, d.session());
    QTRY_COMPARE(read.count(), 4);
    const std::int64_t now = 1'700'000'001'200'000'000;
    QStringList notes;
    auto parts = layers.geometryAt(now, nullptr, "", notes);
    QCOMPARE(parts.size(), std::size_t{4});
    QCOMPARE(layers.sizeUnit("/plan"), SceneLayers::SizeUnit::Pixels);
    QCOMPARE(layers.sizeUnit("/goal"), SceneLayers::SizeUnit::Metres);
    QCOMPARE(layers.sizeUnit("/map"), SceneLayers::SizeUnit::None);
    QVERIFY(!layers.colourable("/map"));
    auto extent = [](const std::vector<float>& xyz) {
      float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
      for (std::size_t i = 0; i + 2 < xyz.size(); i += 3)
        for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], xyz[i + k]), hi[k] = std::max(hi[k], xyz[i + k]);
      return std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    };
    const double arrowOf1m = extent(parts[1].geometry.triangles);
    QVERIFY(arrowOf1m > 0.9);
    // The plan in red, 5 px; the goal's arrow 2 m; the frustum 0.5 m deep; the map hidden.
    layers.setLook("/plan", {true, QColor(255, 0, 0), 5});
    layers.setLook("/goal", {true, {}, 2});
    layers.setLook("/camera_info", {true, {}, 0.5});
    layers.setLook("/map", {false, {}, 0});
    parts = layers.geometryAt(now, nullptr, "", notes);
    QCOMPARE(parts.size(), std::size_t{3});
    const auto& plan = parts[0];
    QCOMPARE(plan.lineWidth, 5.0f);
    QVERIFY(!plan.geometry.lineColours.empty());
    for (std::size_t i = 0; i < plan.geometry.lineColours.size(); i += 4)
      QVERIFY(plan.geometry.lineColours[i] == 1 && plan.geometry.lineColours[i + 1] == 0 &&
              plan.geometry.lineColours[i + 2] == 0);
    QVERIFY(std::abs(extent(parts[1].geometry.triangles) - 2 * arrowOf1m) < 1e-4);
    // The frustum's first corner: ((0 - 320) / 500, (0 - 240) / 500, 1) × 0.5.
    const auto& lines = parts[2].geometry.lines;
    QVERIFY(std::abs(lines[3] + 0.32f) < 1e-5 && std::abs(lines[4] + 0.24f) < 1e-5 && std::abs(lines[5] - 0.5f) < 1e-5);
    QCOMPARE(layers.looks().size(), std::size_t{4});
    layers.setLook("/goal", {});  // back to the default: forgotten
    QCOMPARE(layers.looks().size(), std::size_t{3});
    // The map in costmap colours: read again; its lethal row 5 (gen_robot_state.py) magenta.
    read.clear();
    layers.setLook("/map", {true, {}, 0, true});
    QTRY_COMPARE(read.count(), 1);
    parts = layers.geometryAt(now, nullptr, "", notes);
    const auto& cells = parts.back().geometry.triangleColours;
    std::size_t magenta = 0;
    for (std::size_t i = 0; i + 3 < cells.size(); i += 4)
      magenta += cells[i] == 1 && cells[i + 1] == 0 && cells[i + 2] == 1;
    QCOMPARE(magenta, std::size_t{18 * 6});  // row 5 but its 2 unknown cells (x < 2), 6 vertices each
  }

  void layerSettingsAreKeptAndSetFromTheirDialog() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    CloudPanel panel(&d);
    panel.resize(600, 400);
    panel.show();
    d.setPlayhead(1'700'000'001'200'000'000);
    panel.restoreSettings({{"fixedFrame", "map"}, {"layers", QJsonArray{"/plan", "/goal"}}});
    QTRY_COMPARE(panel.layerItemsDrawn(), std::size_t{2});
    // The dialog: unticking the plan hides it; the goal's size is in metres.
    QDialog* dialog = panel.showLayerSettings();
    auto* planShown = dialog->findChild<QCheckBox*>("visible:/plan");
    auto* goalSize = dialog->findChild<QDoubleSpinBox*>("size:/goal");
    QVERIFY(planShown && goalSize);
    QCOMPARE(goalSize->suffix(), QString(" m"));
    QVERIFY(!dialog->findChild<QComboBox*>("colour:/plan"));  // a path's colour is a colour
    planShown->setChecked(false);
    QCOMPARE(panel.layerItemsDrawn(), std::size_t{1});
    const std::size_t arrowTriangles = panel.layerTriangles();
    goalSize->setValue(3);
    QCOMPARE(panel.layerTriangles(), arrowTriangles);  // the same arrow, longer
    dialog->close();
    panel.setLayerLook("/goal", {true, QColor(0, 255, 0), 3});
    // Kept in the layout, and restored from it.
    const QJsonObject saved = panel.saveSettings();
    const QJsonObject looks = saved["layerLooks"].toObject();
    QCOMPARE(looks["/plan"].toObject()["visible"].toBool(), false);
    QCOMPARE(looks["/goal"].toObject()["colour"].toString(), QString("#00ff00"));
    QCOMPARE(looks["/goal"].toObject()["size"].toDouble(), 3.0);
    CloudPanel again(&d);
    again.restoreSettings(saved);
    QTRY_COMPARE(again.layerItemsDrawn(), std::size_t{1});
    QCOMPARE(again.saveSettings()["layerLooks"].toObject(), looks);
  }

  void foxgloveSceneEntitiesAreLayers() {
    // mcap_foreign/scene.mcap's /scene at 0.05 s: seven entities of eight primitives
    // (make_scene.mjs), car's in base_link placed through /tf.
    Document d;
    QVERIFY(openAndWait(d, {dataPath("mcap_foreign/scene.mcap")}));
    CloudPanel panel(&d);
    panel.resize(800, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    d.setPlayhead(d.startNs() + 50'000'000);
    panel.restoreSettings({{"fixedFrame", "map"}, {"layers", QJsonArray{"/scene"}}});
    QTRY_COMPARE(panel.layerItemsDrawn(), std::size_t{8});
    panel.setHiddenNamespaces({"car"});
    QCOMPARE(panel.layerItemsDrawn(), std::size_t{6});
    panel.setHiddenNamespaces({});
    d.setPlayhead(d.startNs() + 300'000'000);  // everything deleted, then "after"
    QTRY_COMPARE(panel.layerItemsDrawn(), std::size_t{1});
    d.setPlayhead(d.startNs() + 50'000'000);
    QTRY_COMPARE(panel.layerItemsDrawn(), std::size_t{8});
    panel.topView();
    QTest::qWait(200);
    QString diff = compareToBaseline(panel.view()->frame(), "scene_entities");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void odometryLayerHasItsArrowEllipseAndTrail() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    CloudPanel panel(&d);
    panel.resize(500, 400);
    panel.show();
    d.setPlayhead(d.startNs() + 1'000'000'000);
    panel.setLayers({"/odom"});
    // The last /odom message: its arrow and covariance ellipse; and the trail of all so far.
    QTRY_COMPARE(panel.layerItemsDrawn(), std::size_t{3});
    // Another cloud as a layer: the /scan message at the playhead, its points (those with a range).
    panel.setLayers({"/odom", "/scan"});
    QTRY_COMPARE(panel.layerItemsDrawn(), std::size_t{4});
    auto scan = d.session()->findTopic("/scan");
    CloudFrame frame =
        readCloud(*d.session(), *scan, *d.session()->atOrBefore(*scan, d.playheadNs()), "z", nullptr, {});
    QVERIFY(frame.size() > 0);
    QCOMPARE(panel.layerPoints(), frame.size());
  }

  void cloudsAreColouredAndDrawn() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    CloudPanel panel(&d);
    panel.resize(1000, 560);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy shown(&panel, &CloudPanel::frameShown);
    panel.setTopic("/points");
    QVERIFY(shown.count() || shown.wait(10000));
    QTRY_COMPARE(panel.pointsDrawn(), std::size_t{2000});
    // The colour bar names the field and spans the range the colours use.
    QVERIFY2(panel.colourBarText().startsWith(panel.saveSettings()["field"].toString() + " "),
             qPrintable(panel.colourBarText()));
    panel.topView();
    QTest::qWait(200);
    QImage view = panel.view()->frame();
    // Something was drawn besides the background: coloured points.
    int coloured = 0;
    for (int yy = 0; yy < view.height(); yy += 2)
      for (int xx = 0; xx < view.width(); xx += 2) coloured += view.pixelColor(xx, yy).saturation() > 100;
    QVERIFY2(coloured > 50, qPrintable(QString("%1 coloured pixels").arg(coloured)));
    QString diff = compareToBaseline(view, "cloud_points");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));

    // Save Frame: the cloud shown (message 0, at the playhead) as the export writes it, in the
    // background, checked by Open3D against python3-rosbag's decoding; an unknown suffix is
    // refused (it was written as PCD under that name).
    QTemporaryDir out;
    QSignalSpy saved(&panel, &Panel::saved);
    panel.saveFrame(out.filePath("first.pcd"));
    QVERIFY(saved.count() || saved.wait(20000));
    QVERIFY2(saved.at(0).at(1).toString().isEmpty(), qPrintable(saved.at(0).at(1).toString()));
    QProcess verify;
    verify.start(BAGSCOPE_PYTHON, {QStringLiteral(BAGSCOPE_EXPORT_TESTS "/verify_export.py"), "pcd",
                                   dataPath("ros1/demo_lz4.bag"), "/points", out.path(), "--every", "20"});
    QVERIFY(verify.waitForFinished(120000));
    QVERIFY2(verify.exitCode() == 0, verify.readAllStandardOutput() + verify.readAllStandardError());
    saved.clear();
    panel.saveFrame(out.filePath("first.xyz"));
    QVERIFY(saved.count() || saved.wait(10000));
    QVERIFY2(saved.at(0).at(1).toString().contains(".xyz"), qPrintable(saved.at(0).at(1).toString()));
    QVERIFY(!QFile::exists(out.filePath("first.xyz")));
  }

  // A compressed video topic (#40): ffmpeg_image_transport packets of an H.264 stream ffmpeg
  // encodes and rosbags writes (tests/video/test_video.py), shown frame by frame as ffmpeg
  // itself decodes them: a seek decodes from the keyframe before, a step goes on, a step back
  // seeks again; a stream that starts without a keyframe says so instead of a picture.
  void videoTopicsAreShownFrameByFrame() {
    QTemporaryDir dir;
    QProcess make;
    make.start(BAGSCOPE_PYTHON,
               {"-c",
                "import sys; sys.path.insert(0, sys.argv[1]); import test_video as t\n"
                "t.ARGS = type('A', (), {'rosbags': sys.argv[2]})\n"
                "p = t.encode(sys.argv[3] + '/s.h264', 'h264')\n"
                "t.write_rosbag2(sys.argv[3] + '/video', p, 'libx264')\n"
                "t.write_rosbag2(sys.argv[3] + '/late', p[3:], 'libx264')\n"
                "t.ffmpeg_frames(sys.argv[3] + '/s.h264', 'h264').tofile(sys.argv[3] + '/frames.bgr')\n"
                "b, order = t.encode_with_b_frames(sys.argv[3] + '/b.h264')\n"
                "t.write_rosbag2(sys.argv[3] + '/bframes', b, 'libx264')\n"
                "t.ffmpeg_frames(sys.argv[3] + '/b.h264', 'h264').tofile(sys.argv[3] + '/bframes.bgr')\n"
                "open(sys.argv[3] + '/bframes.order', 'w').write(' '.join(map(str, order)))",
                QStringLiteral(BAGSCOPE_EXPORT_TESTS "/../video"), QStringLiteral(BAGSCOPE_ROSBAGS), dir.path()});
    QVERIFY(make.waitForFinished(120000));
    QVERIFY2(make.exitCode() == 0, make.readAllStandardError().constData());
    auto readFile = [&](const char* name) {
      QFile f(dir.filePath(name));
      return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray frames = readFile("frames.bgr");
    const int w = 320, h = 240, size = w * h * 3;
    QCOMPARE(frames.size(), 30 * size);

    Document d;
    QVERIFY(openAndWait(d, {dir.filePath("video")}));
    ImagePanel panel(&d);
    panel.resize(640, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const auto id = *d.session()->findTopic("/camera/ffmpeg");
    // Message `row` shown as ffmpeg's frame `frame` (in display order) of `reference`.
    auto showsFrame = [&](Document& doc, ImagePanel& shown, std::size_t row, const QByteArray& reference,
                          int frame) -> QString {
      doc.setPlayhead(doc.session()->index(id)[row].logTimeNs);
      // (a frame asked for before may still arrive first: wait for this one)
      if (!QTest::qWaitFor([&] { return shown.shown().logTimeNs == doc.playheadNs(); }, 10000))
        return "no frame shown: " + shown.status();
      const auto& raw = shown.shown().raw;
      if (!raw || raw->width != w || raw->height != h || raw->channels != 3)
        return "not a 320x240 BGR frame: " + shown.status();
      for (int y = 0; y < h; ++y)
        if (std::memcmp(raw->row(y), reference.constData() + static_cast<std::size_t>(frame) * size + y * w * 3, w * 3))
          return QString("message %1 differs from ffmpeg's frame %2 in row %3").arg(row).arg(frame).arg(y);
      return {};
    };
    auto showAt = [&](std::size_t row) { return showsFrame(d, panel, row, frames, static_cast<int>(row)); };
    panel.setTopic("/camera/ffmpeg");
    for (std::size_t row : {15, 16, 17, 14, 0, 29}) {  // seek, step, step, back, start, end
      QString failed = showAt(row);
      QVERIFY2(failed.isEmpty(), qPrintable(QString("at %1: %2").arg(row).arg(failed)));
    }
    // The timeline marks the keyframes (a keyframe every 10 frames): where a seek starts.
    TimelineWidget timeline(&d);
    timeline.setRows({id});
    const auto& index = d.session()->index(id);
    QTRY_VERIFY_WITH_TIMEOUT(timeline.keyframes(id).size() == 3, 10000);
    // Wide enough that the frames (0.1 s apart) are a thumbnail apart: each drawn as its picture,
    // decoded from the keyframe before it.
    timeline.resize(1100, 90);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    timeline.zoomToFit();
    timeline.update();
    QTRY_COMPARE_WITH_TIMEOUT(timeline.thumbnailsDrawn(), 30, 20000);
    QVERIFY(timeline.grab().save(QStringLiteral(BAGSCOPE_SHOTS "/video_timeline.png")));
    QCOMPARE(timeline.keyframes(id),
             (std::vector<qint64>{index[0].logTimeNs, index[10].logTimeNs, index[20].logTimeNs}));
    QCOMPARE(panel.shown().encoding, QString("h264"));  // the codec, where an image says its encoding
    QVERIFY(panel.grab().save(QStringLiteral(BAGSCOPE_SHOTS "/video_frame.png")));

    Document late;
    QVERIFY(openAndWait(late, {dir.filePath("late")}));
    ImagePanel second(&late);
    second.show();
    QSignalSpy shown(&second, &ImagePanel::frameShown);
    second.setTopic("/camera/ffmpeg");
    QTRY_VERIFY_WITH_TIMEOUT(second.status().contains("no keyframe"), 10000);
    QVERIFY(!second.shown().raw);

    // B-frames: a message's picture comes out of the decoder after later packets, and its
    // place in display order is not its message's. Each message shows its own picture.
    const QByteArray bFrames = readFile("bframes.bgr");
    const QStringList order = QString(readFile("bframes.order")).split(' ');
    QCOMPARE(bFrames.size(), 30 * size);
    QCOMPARE(order.size(), 30);
    QVERIFY(order.mid(0, 3) != QStringList({"0", "1", "2"}));  // they are reordered
    Document bDoc;
    QVERIFY(openAndWait(bDoc, {dir.filePath("bframes")}));
    ImagePanel third(&bDoc);
    third.show();
    third.setTopic("/camera/ffmpeg");
    for (std::size_t row : {0, 1, 2, 3, 4, 5, 14, 13, 26, 27, 28, 29, 7}) {  // steps, seeks, the end, back
      QString failed = showsFrame(bDoc, third, row, bFrames, order[static_cast<int>(row)].toInt());
      QVERIFY2(failed.isEmpty(), qPrintable(QString("B-frames, at %1: %2").arg(row).arg(failed)));
    }
  }

  // `bagscope-cli render` draws a layout's 3D view where a display is given (here the test's
  // Xvfb), as the app shows it at the range's end; without one it says so and draws the rest.
  void aRenderedLayoutDrawsItsThreeDViewWhereThereIsADisplay() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    CloudPanel panel(&d);
    panel.resize(640, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy shown(&panel, &CloudPanel::frameShown);
    panel.setTopic("/points");
    QVERIFY(shown.count() || shown.wait(10000));
    d.setPlayhead(d.endNs());
    QTRY_VERIFY_WITH_TIMEOUT(!panel.frames().empty() && panel.frames().back().logTimeNs > d.endNs() - 500'000'000,
                             10000);
    panel.resetView();  // fitted to the cloud shown, as a view that opens at the range's end is
    QTest::qWait(300);
    QTemporaryDir dir;
    Layout layout;
    layout.panels["views"] =
        QJsonArray{QJsonObject{{"kind", "cloud"}, {"name", "view-1"}, {"settings", panel.saveSettings()}}};
    QString error;
    QVERIFY2(layout.writeFile(dir.filePath("layout.json"), &error), qPrintable(error));
    auto render = [&](bool display) {
      QProcess cli;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      if (display) env.insert("QT_QPA_PLATFORM", "xcb");
      else
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
      cli.setProcessEnvironment(env);
      cli.start(BAGSCOPE_CLI, {"render", dir.filePath("layout.json"), dataPath("ros1/demo_lz4.bag"), "-o",
                               dir.filePath("out"), "--size", "640x400", "--overwrite"});
      cli.waitForFinished(120000);
      return std::pair{cli.exitCode(), QString(cli.readAllStandardError())};
    };
    auto [code, said] = render(true);
    QVERIFY2(code == 0, qPrintable(said));
    QImage rendered(dir.filePath("out/demo_lz4_view-1.png"));
    QVERIFY2(!rendered.isNull(), qPrintable(said));
    QString diff = compareImages(rendered, panel.grab().toImage(), "render_view-1", 1, 0.01);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY(QFile::remove(dir.filePath("out/demo_lz4_view-1.png")));
    std::tie(code, said) = render(false);
    QVERIFY2(said.contains("view-1 (a 3D view) is not drawn: 3D views need a display"), qPrintable(said));
    QVERIFY(!QFile::exists(dir.filePath("out/demo_lz4_view-1.png")));
  }
};

QTEST_MAIN(TestScenePanels)
#include "tst_scene_panels.moc"
