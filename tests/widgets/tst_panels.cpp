// The log, diagnostics, TF tree, messages and map panels, the timeline's thumbnails, and
// what every panel does when a recording is replaced.

#include "panel_test_support.hpp"

namespace {

// A tile server on localhost: GET /{z}/{x}/{y}.png answers a 256 × 256 PNG of tileColour(x,
// y); a path under /missing/ answers 404, one under /huge/ 5 MB of junk. It keeps each
// request's path and User-Agent.
QColor tileColour(int x, int y) { return QColor((x * 37) % 256, (y * 53) % 256, 128); }
class TileServer : public QTcpServer {
public:
  QStringList paths, agents;
  TileServer() {
    listen(QHostAddress::LocalHost);
    connect(this, &QTcpServer::newConnection, this, [this] {
      while (QTcpSocket* socket = nextPendingConnection()) {
        auto* request = new QByteArray;
        connect(socket, &QTcpSocket::disconnected, socket, [socket, request] {
          delete request;
          socket->deleteLater();
        });
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket, request] {
          request->append(socket->readAll());
          const qsizetype end = request->indexOf("\r\n\r\n");
          if (end < 0) return;
          const QList<QByteArray> lines = request->left(end).split('\n');
          const QString path = QString::fromLatin1(lines[0].split(' ').value(1));
          request->remove(0, end + 4);
          paths << path;
          for (const auto& l : lines)
            if (l.toLower().startsWith("user-agent:")) agents << QString::fromLatin1(l.mid(11).trimmed());
          const QStringList zxy = QString(path).remove(".png").split('/', Qt::SkipEmptyParts);
          QByteArray body, status = "404 Not Found";
          if (path.startsWith("/huge/")) {  // 5 MB that is no tile
            body = QByteArray(5 << 20, 'x');
            status = "200 OK";
          } else if (zxy.size() == 3 && !path.startsWith("/missing/")) {
            QImage tile(256, 256, QImage::Format_RGB32);
            tile.fill(tileColour(zxy[1].toInt(), zxy[2].toInt()));
            QBuffer out(&body);
            out.open(QIODevice::WriteOnly);
            tile.save(&out, "PNG");
            status = "200 OK";
          }
          socket->write("HTTP/1.1 " + status + "\r\nContent-Type: image/png\r\nContent-Length: " +
                        QByteArray::number(body.size()) + "\r\n\r\n" + body);
        });
      }
    });
  }
  QString urlTemplate(const char* under = "") const {
    return QString("http://127.0.0.1:%1%2/{z}/{x}/{y}.png").arg(serverPort()).arg(under);
  }
};

}  // namespace

class TestPanels : public QObject {
  Q_OBJECT

  QTemporaryDir settings_;

private slots:
  void initTestCase() { bagscope::test::setUpPanelTest(settings_.path()); }

  void logPanelFiltersByLevelNodeAndText() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    LogPanel log(&d);
    QSignalSpy loaded(&log, &LogPanel::loaded);
    log.resize(800, 360);
    log.show();
    QVERIFY(QTest::qWaitForWindowExposed(&log));
    QVERIFY2(loaded.count() || loaded.wait(20000), qPrintable(log.status()));
    // The counts by hand from python3-rosbag's reading of the lines.
    QString error;
    std::vector<QJsonObject> lines;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/robot_state.expected.jsonl"), &error))
      if (l["topic"] == "/rosout") lines.push_back(l);
    auto count = [&](int minLevel, const QString& node, const QString& text) {
      int n = 0;
      for (const auto& l : lines) {
        QJsonObject m = l["msg"].toObject();
        if (m["level"].toInt() < minLevel) continue;
        if (!node.isEmpty() && m["name"].toString() != node) continue;
        if (!text.isEmpty() && !m["msg"].toString().contains(text, Qt::CaseInsensitive) &&
            !m["name"].toString().contains(text, Qt::CaseInsensitive) &&
            !m["file"].toString().contains(text, Qt::CaseInsensitive))
          continue;
        ++n;
      }
      return n;
    };
    QCOMPARE(log.model()->rowCount(), static_cast<int>(lines.size()));
    log.setMinimumLevel(bagscope::sensors::LogLevel::Warn);  // ROS 1 WARN = 4
    QCOMPARE(log.model()->rowCount(), count(4, {}, {}));
    log.setNodeFilter("/driver");
    QCOMPARE(log.model()->rowCount(), count(4, "/driver", {}));
    log.setSearchText("OBSTACLE");
    QCOMPARE(log.model()->rowCount(), count(4, "/driver", "obstacle"));
    log.setNodeFilter({});
    log.setMinimumLevel(bagscope::sensors::LogLevel::Debug);
    QCOMPARE(log.model()->rowCount(), count(1, {}, "obstacle"));
    QVERIFY(log.status().startsWith(QString("%1 of %2").arg(count(1, {}, "obstacle")).arg(lines.size())));
    // A double-click moves the playhead to the line; following the playhead selects the last
    // line at or before it.
    log.setSearchText({});
    QModelIndex fifth = log.model()->index(4, 0);
    QPoint at = log.table()->visualRect(fifth).center();
    QTest::mouseClick(log.table()->viewport(), Qt::LeftButton, {}, at);  // an item view's double-click follows a press
    QTest::mouseDClick(log.table()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(d.playheadNs(), static_cast<qint64>(lines[4]["log_time_ns"].toInteger()));
    log.setFollowPlayhead(true);
    d.setPlayhead(static_cast<qint64>(lines[10]["log_time_ns"].toInteger()) + 1);
    QCOMPARE(log.table()->currentIndex().row(), 10);
    QCOMPARE(log.model()->data(log.model()->index(10, LogModel::Message), Qt::DisplayRole).toString(),
             lines[10]["msg"][u"msg"].toString());
    // Kept in layouts.
    LogPanel again(&d);
    again.restoreSettings(log.saveSettings());
    QCOMPARE(again.saveSettings(), log.saveSettings());
    d.setPlayhead(d.startNs() + 700'000'000);
    QTest::qWait(50);
    QString diff = compareToBaseline(log.grab().toImage(), "log_panel");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void diagnosticsShowTheLatestStatusAtThePlayhead() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    DiagnosticsPanel panel(&d);
    QSignalSpy loaded(&panel, &DiagnosticsPanel::loaded);
    panel.resize(700, 300);
    panel.show();
    QVERIFY(loaded.count() || loaded.wait(20000));
    QString error;
    std::vector<QJsonObject> arrays;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/robot_state.expected.jsonl"), &error))
      if (l["topic"] == "/diagnostics") arrays.push_back(l);
    // At each array's time (and just before the next): its statuses, sorted by hardware id.
    for (const auto& a : arrays) {
      d.setPlayhead(static_cast<qint64>(a["log_time_ns"].toInteger()) + 1000);
      QStringList want;
      for (const auto& st : a["msg"][u"status"].toArray()) {
        QJsonObject o = st.toObject();
        want << QString("%1 / %2: %3 %4")
                    .arg(o["hardware_id"].toString(), o["name"].toString(), diagnosticLevelName(o["level"].toInt()),
                         o["message"].toString());
      }
      want.sort();
      QCOMPARE(panel.shownStatus(), want);
    }
    d.setPlayhead(d.startNs());  // before the first array: nothing reported yet
    QVERIFY(panel.shownStatus().isEmpty());
    d.setPlayhead(d.startNs() + 1'300'000'000);
    panel.tree()->expandAll();
    QTest::qWait(50);
    QString diff = compareToBaseline(panel.grab().toImage(), "diagnostics_panel");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void tfTreeShowsFramesAndTheirRelativeTransform() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    TfTreePanel panel(&d);
    QSignalSpy loaded(&panel, &TfTreePanel::loaded);
    panel.resize(760, 360);
    panel.show();
    QVERIFY(loaded.count() || loaded.wait(20000));
    QCOMPARE(panel.frameRows(), (QStringList{"map root", "  odom static", "    base_link dynamic",
                                             "      camera static", "      lidar static"}));
    // The lidar in the map at 1 s, by hand: map -> odom (1, 2, 0) yaw 90°, odom -> base_link
    // (1, 0, 0) yaw 0.1 rad, base_link -> lidar (0.5, 0, 1.2).
    d.setPlayhead(1'700'000'001'000'000'000);
    panel.setFrames("lidar", "map");
    double x = 1 - 0.5 * std::sin(0.1), y = 3 + 0.5 * std::cos(0.1), yaw = 90 + 0.1 * 180 / 3.14159265358979323846;
    QCOMPARE(panel.relativeText(),
             QString("%1 %2 1.200 m · 0.000 0.000 %3 °")
                 .arg(QString::number(x, 'f', 3), QString::number(y, 'f', 3), QString::number(yaw, 'f', 3)));
    panel.setFrames("lidar", "nowhere");
    QVERIFY(!panel.relativeText().contains(" m · "));
    panel.setFrames("camera", "base_link");  // static: 0.2 0.1 1.0, yaw -90°
    QCOMPARE(panel.relativeText(), QString("0.200 0.100 1.000 m · 0.000 0.000 -90.000 °"));
    QTest::qWait(50);
    QString diff = compareToBaseline(panel.grab().toImage(), "tf_tree_panel");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  // A topic is transforms by its type: tf/tfMessage (ROS 1 before tf2) on /tf and a latched
  // /tf_static, and tf2_msgs/TFMessage on /robot/tf (tests/data/gen_tf_old.py).
  void tfTreeReadsEveryTransformsTypeWhateverItsName() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/tf_old.bag")}));
    TfTreePanel panel(&d);
    QSignalSpy loaded(&panel, &TfTreePanel::loaded);
    panel.resize(760, 360);
    panel.show();
    QVERIFY(loaded.count() || loaded.wait(20000));
    QCOMPARE(panel.frameRows(),
             (QStringList{"map root", "  odom dynamic", "    base_link dynamic", "      lidar static"}));
    // The lidar in the map at 1 s: (1, 2, 0) + (1, 0, 0) + (0.5, 0, 1.2).
    d.setPlayhead(1'700'000'001'000'000'000);
    panel.setFrames("lidar", "map");
    QCOMPARE(panel.relativeText(), QString("2.500 2.000 1.200 m · 0.000 0.000 0.000 °"));
  }

  void messagesListReadsTheRowsInViewAndMovesThePlayhead() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    MessagesPanel panel(&d);
    panel.resize(800, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setTopic("/imu");
    QString error;
    std::vector<QJsonObject> imu;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/imu") imu.push_back(l);
    auto* m = panel.model();
    QCOMPARE(m->rowCount(), static_cast<int>(imu.size()));
    auto cell = [&](int row, int column) { return m->data(m->index(row, column), Qt::DisplayRole).toString(); };
    (void)cell(0, MessagesModel::Summary);  // asks for the first rows
    QTRY_VERIFY(cell(0, MessagesModel::Summary) != "…");
    for (int row : {0, 1, 5}) {
      QJsonObject e = imu[static_cast<std::size_t>(row)];
      QCOMPARE(cell(row, MessagesModel::LogTime),
               QString::number(static_cast<double>(e["log_time_ns"].toInteger() - d.startNs()) / 1e9, 'f', 6));
      QJsonObject stamp = e["msg"][u"header"][u"stamp"].toObject();
      qint64 stampNs = static_cast<qint64>(stamp["sec"].toInteger()) * 1'000'000'000 + stamp["nsec"].toInteger();
      QCOMPARE(cell(row, MessagesModel::Stamp),
               QString::number(static_cast<double>(stampNs - d.startNs()) / 1e9, 'f', 6));
      QVERIFY2(
          cell(row, MessagesModel::Summary).contains(QString("\"seq\":%1").arg(e["msg"][u"header"][u"seq"].toInt())),
          qPrintable(cell(row, MessagesModel::Summary)));
    }
    // A row far down is read when asked for, not before.
    QCOMPARE(cell(350, MessagesModel::Summary), QString("…"));
    QTRY_VERIFY(cell(350, MessagesModel::Summary) != "…");
    // A click moves the playhead to the message; following selects the row at the playhead.
    QTest::mouseClick(panel.table()->viewport(), Qt::LeftButton, {},
                      panel.table()->visualRect(m->index(3, 1)).center());
    QCOMPARE(d.playheadNs(), static_cast<qint64>(imu[3]["log_time_ns"].toInteger()));
    panel.setFollowPlayhead(true);
    d.setPlayhead(static_cast<qint64>(imu[200]["log_time_ns"].toInteger()) + 10);
    QCOMPARE(panel.table()->currentIndex().row(), 200);
  }

  void mapPlacesFixesOnTheLocalGrid() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    MapPanel panel(&d);
    QSignalSpy loaded(&panel, &MapPanel::loaded);
    panel.resize(500, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(loaded.count() || loaded.wait(20000));
    // The fixes with a position, east and north of the first by the radii of curvature
    // (north = (M + h) Δφ, east = (N + h) cos φ Δλ: exact to micrometres over metres).
    QString error;
    std::vector<QJsonObject> gps;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/gps" && l["msg"][u"latitude"].isDouble()) gps.push_back(l);
    const auto& track = panel.view()->track();
    QCOMPARE(track.size(), gps.size());
    const double a = 6378137.0, f = 1 / 298.257223563, e2 = f * (2 - f), deg = 3.14159265358979323846 / 180;
    double lat0 = gps[0]["msg"][u"latitude"].toDouble(), lon0 = gps[0]["msg"][u"longitude"].toDouble();
    double w = 1 - e2 * std::sin(lat0 * deg) * std::sin(lat0 * deg), M = a * (1 - e2) / std::pow(w, 1.5),
           N = a / std::sqrt(w);
    double h = gps[0]["msg"][u"altitude"].toDouble();
    for (std::size_t i = 0; i < gps.size(); ++i) {
      QJsonObject m = gps[i]["msg"].toObject();
      double north = (M + h) * (m["latitude"].toDouble() - lat0) * deg;
      double east = (N + h) * std::cos(lat0 * deg) * (m["longitude"].toDouble() - lon0) * deg;
      QVERIFY2(
          std::abs(track[i].north - north) < 1e-3 && std::abs(track[i].east - east) < 1e-3,
          qPrintable(
              QString("fix %1: %2 %3 vs %4 %5").arg(i).arg(track[i].east).arg(track[i].north).arg(east).arg(north)));
      QCOMPARE(track[i].status, m["status"].toObject()["status"].toInt());
      QCOMPARE(track[i].sigma, 0.5);  // sqrt(0.25)
    }
    QVERIFY2(panel.status().contains("1 without a position"), qPrintable(panel.status()));
    d.setPlayhead(static_cast<qint64>(gps[4]["log_time_ns"].toInteger()) + 1000);
    QCOMPARE(panel.currentFix(), 4);
    QVERIFY2(panel.status().contains(QString::number(gps[4]["msg"][u"latitude"].toDouble(), 'f', 7)),
             qPrintable(panel.status()));
    QTest::qWait(50);
    QString diff = compareToBaseline(panel.grab().toImage(), "map_panel");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void aDroppedTopicJobReportsNothing() {
    // A panel drops its topic job to read another topic: the job stops, and its end (stopped
    // on request, with what it had read) must not reach the panel after the new job's.
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag")}));
    auto mailbox = Mailbox::create(&d);
    int called = 0;
    auto job = decodeTopic(
        d.session(), mailbox, *d.session()->findTopic("/rosout"),
        [](qint64, const bagscope::decode::Value&) { QThread::msleep(20); },  // 30 lines: 600 ms
        [&called](bagscope::Result<TopicJobResult>) { ++called; });
    QTest::qWait(50);
    job.reset();  // stops it
    QTest::qWait(300);
    QCOMPARE(called, 0);
    // One cancelled and kept says that it stopped (the export and save dialogs rely on it).
    bool stopped = false;
    job = decodeTopic(
        d.session(), mailbox, *d.session()->findTopic("/rosout"),
        [](qint64, const bagscope::decode::Value&) { QThread::msleep(20); },
        [&stopped](bagscope::Result<TopicJobResult> r) {
          stopped = !r && r.error().code == bagscope::ErrorCode::Cancelled;
        });
    QTest::qWait(50);
    job->cancel();
    QTRY_VERIFY(stopped);
    mailbox->close();
  }

  void mapReadsFoxgloveLocationFixes() {
    // mcap_foreign/scene.mcap's /fix (make_scene.mjs): foxglove.LocationFix from 48.137 N,
    // 11.575 E, 520 m, 1e-5° north and 2e-5° east a message; covariance diag(0.25, 0.25, 1).
    Document d;
    QVERIFY(openAndWait(d, {dataPath("mcap_foreign/scene.mcap")}));
    MapPanel panel(&d);
    QSignalSpy loaded(&panel, &MapPanel::loaded);
    panel.setTopic("/fix");
    QVERIFY(loaded.count() || loaded.wait(20000));
    const auto& track = panel.view()->track();
    QCOMPARE(track.size(), std::size_t{4});
    // North = (M + h) Δφ, east = (N + h) cos φ Δλ, by hand (exact to micrometres here).
    const double a = 6378137.0, f = 1 / 298.257223563, e2 = f * (2 - f), deg = 3.14159265358979323846 / 180;
    const double lat0 = 48.137, w = 1 - e2 * std::sin(lat0 * deg) * std::sin(lat0 * deg);
    const double M = a * (1 - e2) / std::pow(w, 1.5), N = a / std::sqrt(w), h = 520;
    for (std::size_t i = 0; i < 4; ++i) {
      QVERIFY(std::abs(track[i].north - (M + h) * 1e-5 * static_cast<double>(i) * deg) < 1e-3);
      QVERIFY(std::abs(track[i].east - (N + h) * std::cos(lat0 * deg) * 2e-5 * static_cast<double>(i) * deg) < 1e-3);
      QCOMPARE(track[i].sigma, 0.5);
      QCOMPARE(track[i].logTimeNs, d.startNs() + static_cast<qint64>(i) * 100'000'000);
    }
  }

  void mapTilesAreFetchedOnlyWhenAskedAndDrawnWhereTheyBelong() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    TileServer server;
    QVERIFY(server.isListening());
    MapPanel panel(&d);
    QSignalSpy loaded(&panel, &MapPanel::loaded);
    panel.resize(500, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(loaded.count() || loaded.wait(20000));
    QTest::qWait(300);
    QCOMPARE(server.paths.size(), 0);  // off by default: nothing asked of any server
    panel.setTileUrl(server.urlTemplate());
    QTRY_VERIFY(panel.tiles()->fetched() > 0);
    QTRY_COMPARE(panel.tiles()->fetched(), static_cast<int>(server.paths.size()));
    QVERIFY(server.agents.value(0).startsWith("Bagscope/"));
    const int z = server.paths[0].split('/', Qt::SkipEmptyParts)[0].toInt();
    QVERIFY2(z >= 15, qPrintable(server.paths.join(' ')));  // a view tens of metres across
    // Zoomed out to a few tiles across the view.
    const qsizetype asked = server.paths.size();
    for (int i = 0; i < 2; ++i) {
      QWheelEvent wheel(QPointF(250, 180), panel.view()->mapToGlobal(QPointF(250, 180)), {}, {0, -1200}, Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(panel.view(), &wheel);
    }
    QTRY_VERIFY2(server.paths.size() > asked && panel.tiles()->fetched() == static_cast<int>(server.paths.size()),
                 qPrintable(QString("%1 asked before, %2 now, %3 fetched, %4 failed")
                                .arg(asked)
                                .arg(server.paths.size())
                                .arg(panel.tiles()->fetched())
                                .arg(panel.tiles()->failed())));
    const int zoom = server.paths.last().split('/', Qt::SkipEmptyParts)[0].toInt();
    QVERIFY2(zoom < z, qPrintable(server.paths.join(' ')));
    // Pixels of the view: each one's latitude and longitude from the view's local linear map,
    // its tile by the Web Mercator formulas worked out here, and that tile's colour on screen
    // — away from tile edges, the track and the overlays.
    const auto& track = panel.view()->track();
    const auto& first = track.front();
    const QPointF o = panel.view()->toScreen(first.latitude, first.longitude);
    const QPointF dLat = panel.view()->toScreen(first.latitude + 1e-5, first.longitude) - o;
    const QPointF dLon = panel.view()->toScreen(first.latitude, first.longitude + 1e-5) - o;
    const double det = dLat.x() * dLon.y() - dLat.y() * dLon.x();
    const double pi = 3.14159265358979323846;
    auto tileAt = [&](double px, double py) {
      const QPointF v = QPointF(px, py) - o;
      const double lat = first.latitude + 1e-5 * (v.x() * dLon.y() - v.y() * dLon.x()) / det;
      const double lon = first.longitude + 1e-5 * (dLat.x() * v.y() - dLat.y() * v.x()) / det;
      const double n = std::ldexp(1.0, zoom), r = lat * pi / 180;
      return QPoint(static_cast<int>(std::floor((lon + 180) / 360 * n)),
                    static_cast<int>(std::floor((1 - std::log(std::tan(r) + 1 / std::cos(r)) / pi) / 2 * n)));
    };
    auto nearTrack = [&](QPointF at) {
      for (std::size_t i = 0; i < track.size(); ++i) {
        QPointF a = panel.view()->toScreen(track[i].latitude, track[i].longitude);
        QPointF b = i + 1 < track.size() ? panel.view()->toScreen(track[i + 1].latitude, track[i + 1].longitude) : a;
        QPointF ab = b - a;
        double t = QPointF::dotProduct(ab, ab) > 0
                       ? std::clamp(QPointF::dotProduct(at - a, ab) / QPointF::dotProduct(ab, ab), 0.0, 1.0)
                       : 0;
        QPointF off = at - (a + t * ab);
        if (std::hypot(off.x(), off.y()) < 14) return true;
      }
      return false;
    };
    QImage shot = panel.view()->grab().toImage();
    const int w = shot.width(), h = shot.height();
    int checked = 0;
    QSet<QPair<int, int>> tilesSeen;
    for (int py = 12; py < h - 12; py += 23)
      for (int px = 12; px < w - 12; px += 23) {
        if ((px > w - 50 && py < 55) || (px < 160 && py > h - 45) || (px > w - 260 && py > h - 35)) continue;
        const QPoint tile = tileAt(px, py);
        if (tileAt(px - 4, py - 4) != tile || tileAt(px + 4, py + 4) != tile || nearTrack(QPointF(px, py))) continue;
        const QColor want = tileColour(tile.x(), tile.y());
        int matching = 0;  // of a 5 × 5 patch: a grid line may cross it
        for (int k = 0; k < 25; ++k) {
          const QColor got = shot.pixelColor(px - 2 + k % 5, py - 2 + k / 5);
          matching += std::abs(got.red() - want.red()) <= 3 && std::abs(got.green() - want.green()) <= 3 &&
                      std::abs(got.blue() - want.blue()) <= 3;
        }
        QVERIFY2(matching >= 15, qPrintable(QString("(%1, %2): tile %3/%4/%5 %6, %7 matching")
                                                .arg(px)
                                                .arg(py)
                                                .arg(zoom)
                                                .arg(tile.x())
                                                .arg(tile.y())
                                                .arg(want.name())
                                                .arg(matching)));
        ++checked;
        tilesSeen.insert({tile.x(), tile.y()});
      }
    QVERIFY2(tilesSeen.size() >= 2, qPrintable(QString::number(checked)));
    // Kept in layouts; a server that fails is reported, not hidden.
    QCOMPARE(panel.saveSettings()["tileUrl"].toString(), server.urlTemplate());
    panel.setTileUrl(server.urlTemplate("/missing"));
    QTRY_VERIFY(panel.tiles()->failed() > 0);
    QVERIFY2(panel.status().contains("not fetched") && panel.status().contains("/missing/"),
             qPrintable(panel.status()));
    // A server that sends more than a tile can be is cut off.
    panel.setTileUrl(server.urlTemplate("/huge"));
    QTRY_VERIFY(panel.tiles()->failed() > 0);
    QVERIFY2(panel.tiles()->lastError().contains("more than 4 MB"), qPrintable(panel.tiles()->lastError()));
    QCOMPARE(panel.tiles()->fetched(), 0);
    panel.restoreSettings({{"topic", "/gps"}});
    QCOMPARE(panel.tiles()->urlTemplate(), QString());
  }

  void timelineShowsThumbnailsOfImageTopicsWhenZoomedIn() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.resize(1280, 900);
    w.show();
    QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    auto* timeline = w.findChild<TimelineWidget*>();
    QVERIFY(timeline);
    // The whole 2 s in about 1000 pixels: /camera/image_raw's 10 Hz frames are 50 px apart,
    // each drawn as its picture once read.
    timeline->zoomToFit();
    timeline->update();
    // Every image message of every image topic (all rows are in view), each its picture.
    int images = 0;
    for (const auto& t : w.document()->topics())
      if (ImagePanel::shows(t.type)) images += static_cast<int>(t.count);
    QCOMPARE(images, 55);
    QTRY_COMPARE(timeline->thumbnailsDrawn(), images);
    QTest::qWait(50);
    QImage shot = timeline->grab().toImage();
    shot.save(QStringLiteral(BAGSCOPE_SHOTS "/timeline_thumbnails.png"));
  }

  // On every close and open each panel shows the new recording's data for its topic, or
  // nothing and says the topic is absent; reopening the first recording binds it again.
  void panelsNeverShowTheRecordingOpenBefore() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.resize(1400, 900);
    w.show();
    QSignalSpy opened(&w, &MainWindow::openFinished);
    auto openAndWaitFor = [&](const QString& path) {
      opened.clear();
      w.open({path});
      return opened.wait(30000);
    };
    QVERIFY(openAndWaitFor(dataPath("ros1/demo_lz4.bag")));
    auto* image = static_cast<ImagePanel*>(w.addPanel("image"));
    auto* cloud = static_cast<CloudPanel*>(w.addPanel("cloud"));
    auto* plot = static_cast<PlotPanel*>(w.addPanel("plot"));
    image->setTopic("/camera/image_raw");
    cloud->setTopic("/points");
    QSignalSpy loaded(plot, &PlotPanel::loaded);
    plot->addSeries("/imu", "linear_acceleration.y");
    QVERIFY(loaded.count() || loaded.wait(20000));
    QTRY_VERIFY(!image->shown().picture.isNull());
    QTRY_COMPARE(cloud->pointsDrawn(), std::size_t{2000});
    QCOMPARE(plot->drawnPoints(0), 400);

    w.document()->close();
    QTRY_VERIFY(image->shown().picture.isNull());
    QCOMPARE(cloud->pointsDrawn(), std::size_t{0});
    QCOMPARE(plot->drawnPoints(0), 0);
    QCOMPARE(plot->plot()->graph(0)->dataCount(), 0);

    // A recording without those topics: nothing shown, and each panel says why.
    QVERIFY(openAndWaitFor(dataPath("mcap_foreign/json.mcap")));
    QVERIFY(image->shown().picture.isNull());
    QVERIFY2(image->status().contains("/camera/image_raw") && image->status().contains("not in this recording"),
             qPrintable(image->status()));
    QCOMPARE(cloud->pointsDrawn(), std::size_t{0});
    QVERIFY2(cloud->status().contains("/points"), qPrintable(cloud->status()));
    QCOMPARE(plot->plot()->graph(0)->dataCount(), 0);
    QVERIFY2(plot->problemText().contains("/imu"), qPrintable(plot->problemText()));

    // The first one again: the same topics, loaded again, and no stale complaint.
    loaded.clear();
    QVERIFY(openAndWaitFor(dataPath("ros1/demo_lz4.bag")));
    QCOMPARE(image->topic(), QString("/camera/image_raw"));
    QCOMPARE(cloud->topic(), QString("/points"));
    QVERIFY(loaded.count() || loaded.wait(20000));
    QCOMPARE(plot->drawnPoints(0), 400);
    QVERIFY2(plot->problemText().isEmpty(), qPrintable(plot->problemText()));
    QTRY_VERIFY(!image->shown().picture.isNull());
    QTRY_COMPARE(cloud->pointsDrawn(), std::size_t{2000});
  }
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
