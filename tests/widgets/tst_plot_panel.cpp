// The plot panel in each mode, its series, menus, readout and layouts, against the fixtures'
// .expected.jsonl and values worked out in the tests; pictures against baselines.

#include <QMimeData>
#include <QSvgRenderer>

#include "panel_test_support.hpp"

class TestPlotPanel : public QObject {
  Q_OBJECT

  QTemporaryDir settings_;

private slots:
  void initTestCase() { bagscope::test::setUpPanelTest(settings_.path()); }

  void plotShowsTheFixtureImu() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 360);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "linear_acceleration.y");
    plot.addSeries("/imu", "angular_velocity.z");
    QVERIFY(loaded.wait(20000));
    // Every /imu message, at its log time, with the expectation's value.
    QString error;
    std::vector<QJsonObject> imu;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/imu") imu.push_back(l);
    QCOMPARE(plot.seriesX(0).size(), imu.size());
    for (std::size_t i = 0; i < imu.size(); ++i) {
      double t = static_cast<double>(imu[i]["log_time_ns"].toInteger() - d.startNs()) / 1e9;
      QCOMPARE(plot.seriesX(0)[i], t);
      QCOMPARE(plot.seriesY(0)[i], imu[i]["msg"][u"linear_acceleration"][u"y"].toDouble());
      QCOMPARE(plot.seriesY(1)[i], imu[i]["msg"][u"angular_velocity"][u"z"].toDouble());
    }
    // Few points per pixel column: all of them are drawn.
    QCOMPARE(plot.drawnPoints(0), static_cast<int>(imu.size()));
    // A click on the plot moves the playhead to the time under the pointer.
    QCustomPlot* p = plot.plot();
    QPoint at(p->axisRect()->center());
    double seconds = p->xAxis->pixelToCoord(at.x());
    QTest::mouseClick(p, Qt::LeftButton, {}, at);
    QVERIFY(qAbs(d.playheadNs() - (d.startNs() + static_cast<qint64>(seconds * 1e9))) < 10'000'000);
    d.setPlayhead(d.startNs() + 1'000'000'000);
    QTest::qWait(100);
    // The legend holds each series' value at the playhead: the fixture's last sample at or
    // before 1 s, the message the inspector shows there (issue #33).
    std::size_t nearest = 0;
    for (std::size_t i = 0; i < imu.size(); ++i)
      if (imu[i]["log_time_ns"].toInteger() <= d.playheadNs()) nearest = i;
    QCOMPARE(plot.legendValue(0),
             "= " + QString::number(imu[nearest]["msg"][u"linear_acceleration"][u"y"].toDouble(), 'g', 6));
    QCOMPARE(plot.legendValue(1),
             "= " + QString::number(imu[nearest]["msg"][u"angular_velocity"][u"z"].toDouble(), 'g', 6));
    QString diff = compareToBaseline(plot.grab().toImage(), "plot_imu");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  void plotsLinkTheirTimeAxesAndExport() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    auto* a = static_cast<PlotPanel*>(w.addPanel("plot"));
    auto* b = static_cast<PlotPanel*>(w.addPanel("plot"));
    QSignalSpy la(a, &PlotPanel::loaded), lb(b, &PlotPanel::loaded);
    a->addSeries("/imu", "linear_acceleration.x");
    b->addSeries("/odom", "pose.pose.position.x");
    QVERIFY(la.count() || la.wait(20000));
    QVERIFY(lb.count() || lb.wait(20000));
    // Zooming one (as the wheel does, through the axis) moves the other.
    a->plot()->xAxis->setRange(0.5, 0.8);
    QCOMPARE(b->xRange().first, 0.5);
    QCOMPARE(b->xRange().second, 0.8);
    // The visible range as CSV: the /imu rows logged between 0.5 s and 0.8 s.
    // Written in the background (saved() says when), every number exact.
    QTemporaryDir out;
    QString error;
    QSignalSpy written(a, &Panel::saved);
    a->exportVisibleCsv(out.filePath("v.csv"));
    QVERIFY(written.wait(10000));
    QCOMPARE(written.at(0).at(0).toString(), out.filePath("v.csv"));
    QVERIFY2(written.at(0).at(1).toString().isEmpty(), qPrintable(written.at(0).at(1).toString()));
    QFile csv(out.filePath("v.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QString("series,time_s,value"));
    std::vector<std::pair<double, double>> inRange;
    for (std::size_t i = 0; i < a->seriesX(0).size(); ++i)
      if (a->seriesX(0)[i] >= 0.5 && a->seriesX(0)[i] <= 0.8) inRange.push_back({a->seriesX(0)[i], a->seriesY(0)[i]});
    QCOMPARE(lines.size() - 1, static_cast<qsizetype>(inRange.size()));
    for (std::size_t i = 0; i < inRange.size(); ++i) {
      QStringList cells = lines[static_cast<qsizetype>(i + 1)].split(',');
      QCOMPARE(cells.size(), 3);
      QCOMPARE(cells[0], QString("/imu/linear_acceleration.x"));
      QCOMPARE(cells[1].toDouble(), inRange[i].first);  // the shortest text that reads back exactly
      QCOMPARE(cells[2].toDouble(), inRange[i].second);
    }
    QVERIFY2(a->saveImage(out.filePath("p.svg"), &error), qPrintable(error));
    QVERIFY(QFileInfo(out.filePath("p.svg")).size() > 1000);
    // Layouts keep the panels, their series and settings.
    Layout saved = w.currentLayout("views");
    MainWindow again(nullptr, layouts.path());
    again.applyLayout(saved);
    QCOMPARE(again.panels().size(), 2);
    auto* restored = static_cast<PlotPanel*>(again.panels()[0]);
    QCOMPARE(restored->seriesCount(), 1);
    QCOMPARE(restored->saveSettings(), a->saveSettings());
  }

  void plotMessagePathsExpressionsAndTheirLayout() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    auto* plot = static_cast<PlotPanel*>(w.addPanel("plot"));
    QSignalSpy loaded(plot, &PlotPanel::loaded);
    plot->addSeries("/markers", "markers[:]{id==1}.pose.position.y");
    plot->addSeries("/imu", "orientation_covariance[0:2]");  // three series
    plot->addSeries("/imu", "angular_velocity.y");
    plot->addExpressionSeries("/imu", "angular_velocity.x", "a - 2*b + 0*t", {{"/imu", "angular_velocity.y"}});
    QCOMPARE(plot->seriesCount(), 6);
    QVERIFY(loaded.wait(20000));
    QTRY_VERIFY(plot->problemText().isEmpty() && !plot->seriesX(5).empty());
    QString error;
    std::vector<QJsonObject> markers, imu;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error)) {
      if (l["topic"] == "/markers") markers.push_back(l);
      if (l["topic"] == "/imu") imu.push_back(l);
    }
    std::vector<double> want;  // the y of marker 1 in each message that has it
    for (const auto& m : markers)
      for (const auto& mk : m["msg"][u"markers"].toArray())
        if (mk[u"id"].toInt() == 1) want.push_back(mk[u"pose"][u"position"][u"y"].toDouble());
    QCOMPARE(plot->seriesY(0), want);
    for (int k = 0; k < 3; ++k) QCOMPARE(plot->seriesY(1 + k).size(), imu.size());
    QCOMPARE(plot->seriesY(3)[0], imu[0]["msg"][u"orientation_covariance"][2].toDouble());
    QCOMPARE(plot->seriesY(5).size(), imu.size());
    for (std::size_t i = 0; i < imu.size(); ++i) {
      double x = imu[i]["msg"][u"angular_velocity"][u"x"].toDouble(),
             y = imu[i]["msg"][u"angular_velocity"][u"y"].toDouble();
      QCOMPARE(plot->seriesY(5)[i], x - 2 * y);
    }
    // A layout keeps the expression and its inputs.
    Layout saved = w.currentLayout("paths");
    MainWindow again(nullptr, layouts.path());
    QSignalSpy reopened(&again, &MainWindow::openFinished);
    again.open({dataPath("ros1/demo_lz4.bag")});
    QVERIFY(reopened.wait(30000));
    again.applyLayout(saved);
    auto* restored = static_cast<PlotPanel*>(again.panels()[0]);
    QCOMPARE(restored->seriesCount(), 6);
    QTRY_COMPARE(restored->seriesY(5), plot->seriesY(5));
    QCOMPARE(restored->saveSettings(), plot->saveSettings());
    // A faulty expression says what and where.
    plot->addExpressionSeries("/imu", "angular_velocity.x", "a + * 2", {});
    QTRY_VERIFY(plot->problemText().contains("at column 5"));
  }

  void plotSpectrumAndHistogramOfTheShownTimeRange() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 360);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "angular_velocity.x");
    QVERIFY(loaded.wait(20000));
    // 4 Hz, amplitude 3, at 100 Hz for 20 s; the plot shows 0–10 s.
    std::vector<double> t, v;
    for (int i = 0; i < 2000; ++i) {
      t.push_back(i / 100.0);
      v.push_back(1 + 3 * std::sin(2 * 3.14159265358979 * 4 * t.back()) + (t.back() > 10 ? 100 : 0));
    }
    plot.setSeriesData(0, t, v);
    plot.setXRange(0, 10);
    QTemporaryDir out;
    auto exported = [&](const QString& name) {
      QSignalSpy written(&plot, &Panel::saved);
      plot.exportVisibleCsv(out.filePath(name));
      if (!written.wait(10000)) return QStringList();
      QFile f(out.filePath(name));
      if (!f.open(QIODevice::ReadOnly)) return QStringList();
      return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    };
    plot.setMode(PlotPanel::Mode::Spectrum);
    QStringList spectrum = exported("fft.csv");
    QCOMPARE(spectrum.value(0), QString("series,hz,amplitude"));
    double peakHz = 0, peak = 0;
    for (const QString& line : spectrum.mid(1)) {
      QStringList c = line.split(',');
      if (c[2].toDouble() > peak) peak = c[2].toDouble(), peakHz = c[1].toDouble();
    }
    QVERIFY2(std::abs(peakHz - 4) < 0.1 && std::abs(peak - 3) < 0.4,
             qPrintable(QString("%1 Hz, %2").arg(peakHz).arg(peak)));
    // The histogram of the same 0–10 s (the +100 after 10 s is outside): values in [-2, 4].
    plot.setMode(PlotPanel::Mode::Histogram);
    QStringList histogram = exported("hist.csv");
    QCOMPARE(histogram.value(0), QString("series,bin_start,samples"));
    double total = 0, lo = 1e9, hi = -1e9;
    for (const QString& line : histogram.mid(1, histogram.size() - 2)) {  // the last row closes the last step
      QStringList c = line.split(',');
      total += c[2].toDouble();
      lo = std::min(lo, c[1].toDouble()), hi = std::max(hi, c[1].toDouble());
    }
    QCOMPARE(total, 1001.0);  // 0 … 10 s inclusive at 100 Hz
    QVERIFY(lo >= -2.0001 && hi <= 4);
    // Back to time: the same series, the same range.
    plot.setMode(PlotPanel::Mode::Time);
    QCOMPARE(plot.seriesCount(), 1);
    QCOMPARE(plot.xRange().first, 0.0);
    QCOMPARE(plot.xRange().second, 10.0);
  }

  // Export Aligned Table: /odom's x and /imu's y on /odom's times over the visible range,
  // each /imu value the last logged at or before the row (pandas merge_asof), worked out here
  // from the fixture's expectation.
  void alignedTableOfThePlotsSeries() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 360);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/odom", "pose.pose.position.x");
    plot.addSeries("/imu", "linear_acceleration.y");
    QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > 0 && plot.seriesX(1).size() > 0, 20000);
    plot.setXRange(0.5, 1.5);
    QTemporaryDir out;
    QSignalSpy written(&plot, &Panel::saved);
    plot.exportAlignedCsv(out.filePath("aligned.csv"));
    QVERIFY(written.wait(10000));
    QVERIFY2(written.at(0).at(1).toString().isEmpty(), qPrintable(written.at(0).at(1).toString()));
    QFile csv(out.filePath("aligned.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QString("time_s,/odom/pose.pose.position.x,/imu/linear_acceleration.y"));
    QString error;
    std::vector<std::pair<qint64, QJsonObject>> odom, imu;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error)) {
      if (l["topic"] == "/odom") odom.emplace_back(l["log_time_ns"].toInteger(), l["msg"].toObject());
      if (l["topic"] == "/imu") imu.emplace_back(l["log_time_ns"].toInteger(), l["msg"].toObject());
    }
    std::vector<std::array<double, 3>> want;
    for (const auto& [t, m] : odom) {
      const double s = static_cast<double>(t - d.startNs()) / 1e9;
      if (s < 0.5 || s > 1.5) continue;
      double y = std::nan("");  // the last /imu at or before t
      for (const auto& [ti, mi] : imu)
        if (ti <= t) y = mi[u"linear_acceleration"][u"y"].toDouble();
      want.push_back({s, m[u"pose"][u"pose"][u"position"][u"x"].toDouble(), y});
    }
    QCOMPARE(lines.size() - 1, static_cast<qsizetype>(want.size()));
    QVERIFY(want.size() >= 15);
    for (std::size_t i = 0; i < want.size(); ++i) {
      QStringList got = lines[static_cast<qsizetype>(i) + 1].split(',');
      QCOMPARE(got.size(), 3);
      for (int c = 0; c < 3; ++c) QCOMPARE(got[c].toDouble(), want[i][static_cast<std::size_t>(c)]);
    }
  }

  // bagscope-cli render (the app, with no display) draws each plot of a layout as the app
  // draws it: a time plot, an XY plot and state lanes saved as a layout, rendered, and each
  // file compared with the panel's own Save as Image at that size; a range given on the
  // command line as the panel showing that range; SVG and PDF files that readers take.
  void aRenderedLayoutIsWhatTheAppDraws() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_uncompressed.bag")}));
    PlotPanel time(&d), xy(&d), states(&d);
    xy.setMode(PlotPanel::Mode::XY);
    states.setMode(PlotPanel::Mode::States);
    std::vector<std::unique_ptr<QSignalSpy>> loaded;
    for (PlotPanel* p : {&time, &xy, &states}) {
      p->resize(640, 360);
      p->show();
      QVERIFY(QTest::qWaitForWindowExposed(p));
      loaded.push_back(std::make_unique<QSignalSpy>(p, &PlotPanel::loaded));
    }
    time.addSeries("/imu", "linear_acceleration.x");
    time.addSeries("/imu", "angular_velocity.z");
    xy.addXYSeries("/odom", "pose.pose.position.x", "/odom", "pose.pose.position.y");
    states.addStateLane("/diagnostics", "status[1].message");
    for (auto& spy : loaded) QTRY_VERIFY_WITH_TIMEOUT(spy->count() > 0, 20000);
    // An image viewer at the recording's end, as the render shows images.
    ImagePanel image(&d);
    image.resize(640, 360);
    image.show();
    QVERIFY(QTest::qWaitForWindowExposed(&image));
    QSignalSpy frame(&image, &ImagePanel::frameShown);
    image.setTopic("/camera/image_raw");
    d.setPlayhead(d.endNs());
    QTRY_VERIFY_WITH_TIMEOUT(frame.count() > 0 && image.shown().logTimeNs > d.endNs() - 200'000'000, 20000);
    QTemporaryDir dir;
    Layout layout;
    layout.name = "three";
    QJsonArray views;
    int k = 0;
    for (PlotPanel* p : {&time, &xy, &states})
      views.append(
          QJsonObject{{"kind", "plot"}, {"name", QString("plot-%1").arg(++k)}, {"settings", p->saveSettings()}});
    views.append(QJsonObject{{"kind", "image"}, {"name", "image-1"}, {"settings", image.saveSettings()}});
    layout.panels["views"] = views;
    QString error;
    QVERIFY2(layout.writeFile(dir.filePath("layout.json"), &error), qPrintable(error));
    // State lanes restored from a layout keep their names on the y axis (they lost them to a
    // numeric ticker, which the rendering showed).
    PlotPanel restored(&d);
    restored.restoreSettings(states.saveSettings());
    auto names = qSharedPointerDynamicCast<QCPAxisTickerText>(restored.plot()->yAxis->ticker());
    QVERIFY(names);

    // Without a display: no DISPLAY, no platform chosen.
    auto render = [&](const QStringList& more) {
      QProcess cli;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
      cli.setProcessEnvironment(env);
      cli.start(BAGSCOPE_CLI, QStringList{"render", dir.filePath("layout.json"), dataPath("ros1/demo_uncompressed.bag"),
                                          "-o", dir.filePath("out"), "--size", "640x360", "--overwrite"} +
                                  more);
      return cli.waitForFinished(120000) && cli.exitCode() == 0 ? QString() : QString(cli.readAllStandardError());
    };
    QString failed = render({});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    k = 0;
    for (PlotPanel* p : {&time, &xy, &states}) {
      QString name = QString("plot-%1").arg(++k);
      QVERIFY(p->saveImage(dir.filePath(name + ".app.png"), &error, QSize(640, 360)));
      QImage rendered(dir.filePath("out/demo_uncompressed_" + name + ".png"));
      QVERIFY2(!rendered.isNull(), qPrintable(name));
      // Drawn by the same code at the same size: alike pixel for pixel but for a few.
      QString diff = compareImages(rendered, QImage(dir.filePath(name + ".app.png")), "render_" + name, 1, 0.002);
      QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
    QString imageDiff = compareImages(QImage(dir.filePath("out/demo_uncompressed_image-1.png")), image.grab().toImage(),
                                      "render_image-1", 1, 0.002);
    QVERIFY2(imageDiff.isEmpty(), qPrintable(imageDiff));
    // A range: 0.5 s to 1 s after the start, as the time plot shows it when zoomed there.
    failed = render({"--start", "+0.5", "--end", "+1"});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    time.setXRange(0.5, 1.0);
    d.setPlayhead(d.startNs() + 1'000'000'000);  // the render puts the playhead at the range's end
    QVERIFY(time.saveImage(dir.filePath("zoomed.app.png"), &error, QSize(640, 360)));
    QImage zoomed(dir.filePath("out/demo_uncompressed_plot-1.png"));
    QString diff = compareImages(zoomed, QImage(dir.filePath("zoomed.app.png")), "render_zoomed", 1, 0.002);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY(!compareImages(zoomed, QImage(dir.filePath("plot-1.app.png")), "render_not_full", 1, 0.002).isEmpty());
    // SVG that Qt's SVG reader takes, PDF that starts as PDF does.
    QVERIFY(render({"--format", "svg"}).isEmpty() && render({"--format", "pdf"}).isEmpty());
    QSvgRenderer svg(dir.filePath("out/demo_uncompressed_plot-2.svg"));
    QVERIFY(svg.isValid());
    QCOMPARE(svg.viewBox(), QRect(0, 0, 640, 360));
    QFile pdf(dir.filePath("out/demo_uncompressed_plot-3.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly) && pdf.read(5) == "%PDF-");
    // A damaged recording is drawn as far as it reads, and says so: exit 3, as export does.
    QProcess damaged;
    damaged.start(BAGSCOPE_CLI, {"render", dir.filePath("layout.json"), dataPath("ros1/demo_truncated.bag"), "-o",
                                 dir.filePath("damaged")});
    QVERIFY(damaged.waitForFinished(120000));
    QCOMPARE(damaged.exitCode(), 3);
    QVERIFY(QFileInfo::exists(dir.filePath("damaged/demo_truncated_plot-1.png")));
    // What cannot be rendered says so: an unknown format is a usage error.
    QVERIFY(render({"--format", "gif"}).contains("png, svg or pdf"));
  }

  void plotStateLanesAndRollPitchYawLookRight() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 300);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addStateLane("/diagnostics", "status[1].message");
    plot.addStateLane("/diagnostics", "status[1].level");
    QVERIFY(loaded.wait(20000));
    QTRY_VERIFY(plot.laneSpans(1).size() > 0);
    // The spans by hand from the expectation: runs of equal messages, each to the next run's start.
    QString error;
    QStringList want;
    double begin = 0, last = 0;
    QString current;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error)) {
      if (l["topic"] != "/diagnostics") continue;
      double t = static_cast<double>(l["log_time_ns"].toInteger() - d.startNs()) / 1e9;
      QString message = l["msg"][u"status"][1][u"message"].toString();
      if (want.isEmpty() && current.isNull()) begin = t, current = message;
      if (message != current) {
        want << QString("%1-%2 %3").arg(QString::number(begin, 'g', 6), QString::number(t, 'g', 6), current);
        begin = t, current = message;
      }
      last = t;
    }
    // The last state holds to the end of the recording.
    double end = std::max(last, static_cast<double>(d.endNs() - d.startNs()) / 1e9);
    want << QString("%1-%2 %3").arg(QString::number(begin, 'g', 6), QString::number(end, 'g', 6), current);
    QCOMPARE(plot.laneSpans(0), want);
    d.setPlayhead(d.startNs() + 2'000'000'000);
    QTest::qWait(100);
    QVERIFY2(plot.readoutText().contains("status[1].message = "), qPrintable(plot.readoutText()));
    QString diff = compareToBaseline(plot.grab().toImage(), "plot_states");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));

    PlotPanel rpy(&d);
    rpy.resize(640, 300);
    rpy.show();
    QVERIFY(QTest::qWaitForWindowExposed(&rpy));
    QSignalSpy rpyLoaded(&rpy, &PlotPanel::loaded);
    for (const char* angle : {"roll", "pitch", "yaw"}) rpy.addDerivedSeries("/imu", "orientation", angle);
    QVERIFY(rpyLoaded.wait(20000));
    QTRY_COMPARE(rpy.seriesY(2).size(), rpy.seriesX(0).size());
    QTest::qWait(100);
    diff = compareToBaseline(rpy.grab().toImage(), "plot_rpy");
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
  }

  // Issue #33: one name, two types (rosgraph_msgs/Log in a bag, rcl_interfaces/msg/Log in a
  // rosbag2 opened with it): the topic box shows each with its type, and each can be chosen.
  void aTopicNameOfTwoTypesIsOfferedOnceForEach() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/robot_state.bag"), dataPath("ros2/cases/bad_definition")}));
    LogPanel log(&d);
    QSignalSpy loaded(&log, &LogPanel::loaded);
    log.show();
    QVERIFY2(loaded.count() || loaded.wait(20000), qPrintable(log.status()));
    auto* box = log.findChild<TopicChoice*>();
    QVERIFY(box);
    QStringList items;
    for (int i = 0; i < box->count(); ++i) items << box->itemText(i);
    items.sort();
    QCOMPARE(items, (QStringList{"/rosout (rcl_interfaces/msg/Log)", "/rosout (rosgraph_msgs/Log)"}));
    QString error;
    auto rows = [&](const QString& file) {
      int n = 0;
      for (const auto& l : bagscope::test::readJsonLines(dataPath(file), &error)) n += l["topic"] == "/rosout";
      return n;
    };
    for (const auto& [text, file] :
         {std::pair{QString("/rosout (rosgraph_msgs/Log)"), "ros1/robot_state.expected.jsonl"},
          {QString("/rosout (rcl_interfaces/msg/Log)"), "ros2/cases/bad_definition.expected.jsonl"}}) {
      loaded.clear();
      box->setCurrentIndex(box->findText(text));
      QVERIFY2(loaded.count() || loaded.wait(20000), qPrintable(log.status()));
      QCOMPARE(log.model()->rowCount(), rows(file));
      // Kept in layouts with its type, and found again by it.
      LogPanel again(&d);
      QSignalSpy loadedAgain(&again, &LogPanel::loaded);
      again.restoreSettings(log.saveSettings());
      QVERIFY2(loadedAgain.count() || loadedAgain.wait(20000), qPrintable(again.status()));
      QCOMPARE(again.findChild<TopicChoice*>()->currentText(), text);
    }
  }

  // Settings ▸ time display takes effect at once in plots and the range boxes.
  void timeDisplayChangesPlotsAndRangeBoxesAtOnce() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(openAndWait(w, {dataPath("ros1/demo_lz4.bag")}));
    auto* plot = static_cast<PlotPanel*>(w.addPanel("plot"));
    QSignalSpy loaded(plot, &PlotPanel::loaded);
    plot->addSeries("/imu", "linear_acceleration.x");
    QVERIFY(loaded.count() || loaded.wait(20000));
    AppSettings clock;
    clock.timeDisplay = TimeDisplay::Clock;
    w.applySettings(clock);
    plot->plot()->replot();
    QCOMPARE(plot->plot()->xAxis->label(), QString("time of day"));
    QStringList labels = plot->plot()->xAxis->tickVectorLabels().toList();
    QVERIFY(labels.size() >= 2);
    QRegularExpression hms("^\\d\\d:\\d\\d:\\d\\d");
    for (const QString& l : labels) QVERIFY2(hms.match(l).hasMatch(), qPrintable(labels.join(" ")));
    QList<QDoubleSpinBox*> boxes = w.findChildren<QDoubleSpinBox*>();
    QVERIFY(!boxes.isEmpty());
    QString start = QDateTime::fromMSecsSinceEpoch(w.document()->startNs() / 1'000'000).toString("HH:mm:ss");
    QVERIFY2(boxes.front()->text().startsWith(start), qPrintable(boxes.front()->text() + " vs " + start));
    AppSettings relative;
    w.applySettings(relative);
    plot->plot()->replot();
    QCOMPARE(plot->plot()->xAxis->label(), QString("seconds from the start"));
    QVERIFY2(boxes.front()->text().startsWith("0.000"), qPrintable(boxes.front()->text()));
  }

  void xyPlotsOneFieldAgainstAnotherAndMarksThePlayhead() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(500, 400);
    plot.show();
    plot.setMode(PlotPanel::Mode::XY);
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/odom", "pose.pose.position.y", "pose.pose.position.x");
    QVERIFY(loaded.wait(20000));
    QString error;
    std::vector<QJsonObject> odom;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/odom") odom.push_back(l["msg"].toObject());
    QCOMPARE(plot.seriesX(0).size(), odom.size());
    for (std::size_t i = 0; i < odom.size(); ++i) {
      QCOMPARE(plot.seriesX(0)[i], odom[i]["pose"][u"pose"][u"position"][u"x"].toDouble());
      QCOMPARE(plot.seriesY(0)[i], odom[i]["pose"][u"pose"][u"position"][u"y"].toDouble());
    }
    // Issue #33: each axis says which field it shows.
    QCOMPARE(plot.plot()->xAxis->label(), QString("pose.pose.position.x"));
    QCOMPARE(plot.plot()->yAxis->label(), QString("pose.pose.position.y"));
    // The marker sits on the message at or before the playhead.
    auto id = *d.session()->findTopic("/odom");
    qint64 t = d.session()->index(id)[7].logTimeNs + 1000;
    d.setPlayhead(t);
    QCPGraph* marker = plot.plot()->graph(plot.plot()->graphCount() - 1);
    QCOMPARE(marker->data()->size(), 1);
    QCOMPARE(marker->data()->begin()->key, plot.seriesX(0)[7]);
    QCOMPARE(marker->data()->begin()->value, plot.seriesY(0)[7]);
  }

  // Issue #20: a click on a legend entry toggles its series and leaves the playhead where it
  // was; a right-click on it changes nothing.
  void legendClicksToggleWithoutMovingThePlayhead() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 360);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "linear_acceleration.y");
    QVERIFY(loaded.wait(20000));
    QCustomPlot* p = plot.plot();
    p->replot();
    QPoint entry = p->legend->item(0)->outerRect().center();
    QVERIFY(p->axisRect()->rect().contains(entry));  // the legend lies over the plot
    const qint64 before = d.playheadNs();
    QTest::mouseClick(p, Qt::RightButton, {}, entry);
    QVERIFY(p->graph(0)->visible());
    QTest::mouseClick(p, Qt::LeftButton, {}, entry);
    QVERIFY(!p->graph(0)->visible());
    QCOMPARE(d.playheadNs(), before);
    QTest::mouseClick(p, Qt::LeftButton, {}, entry);
    QVERIFY(p->graph(0)->visible());
    QCOMPARE(d.playheadNs(), before);
  }

  // Issue #20's derived series: roll/pitch/yaw of /imu's orientation against the fixture's
  // quaternions turned into angles here; a derivative from the legend's menu; both restored
  // from the panel's saved settings (layouts) with the same values.
  void derivedSeriesFromOrientationsAndTheLegend() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QVERIFY(bagscope::widgets::quaternionPaths(d, static_cast<int>(*d.session()->findTopic("/imu")))
                .contains("orientation"));
    PlotPanel plot(&d);
    plot.resize(640, 360);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/odom", "twist.twist.linear.x");
    for (const char* angle : {"roll", "pitch", "yaw"}) plot.addDerivedSeries("/imu", "orientation", angle);
    QVERIFY(loaded.wait(20000));
    QString error;
    std::vector<QJsonObject> imu;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/imu") imu.push_back(l["msg"][u"orientation"].toObject());
    QCOMPARE(plot.seriesY(3).size(), imu.size());
    for (std::size_t i = 0; i < imu.size(); ++i) {
      double x = imu[i]["x"].toDouble(), y = imu[i]["y"].toDouble(), z = imu[i]["z"].toDouble(),
             w = imu[i]["w"].toDouble();
      QVERIFY(qAbs(plot.seriesY(1)[i] - std::atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))) < 1e-12);
      QVERIFY(qAbs(plot.seriesY(2)[i] - std::asin(2 * (w * y - z * x))) < 1e-12);
      QVERIFY(qAbs(plot.seriesY(3)[i] - std::atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))) < 1e-12);
    }
    QVERIFY(plot.plot()->graph(3)->name().startsWith("yaw"));

    QMenu* menu = plot.seriesMenu(0);
    QMenu* derived = nullptr;
    for (QAction* a : menu->actions())
      if (a->menu() && a->text() == "Derived Series") derived = a->menu();
    QVERIFY(derived);
    QAction* derivative = derived->actions().front();
    QCOMPARE(derivative->text(), QString("Derivative"));
    derivative->trigger();
    delete menu;
    QVERIFY(loaded.wait(20000));
    QCOMPARE(plot.seriesCount(), 5);
    const auto& t = plot.seriesX(0);
    const auto& v = plot.seriesY(0);
    for (std::size_t i = 1; i + 1 < t.size(); ++i)
      QVERIFY(qAbs(plot.seriesY(4)[i] - (v[i + 1] - v[i - 1]) / (t[i + 1] - t[i - 1])) < 1e-9);

    PlotPanel again(&d);
    QSignalSpy loadedAgain(&again, &PlotPanel::loaded);
    again.restoreSettings(plot.saveSettings());
    QVERIFY(loadedAgain.wait(20000));
    QCOMPARE(again.seriesCount(), 5);
    for (int i = 0; i < 5; ++i) QCOMPARE(again.seriesY(i), plot.seriesY(i));
    QCOMPARE(again.plot()->graph(4)->name(), plot.plot()->graph(4)->name());
  }

  // Issue #35: derived series are a registry. The low-pass filter from the legend's menu asks
  // for its cutoff and gives the RC filter worked out here from the series' own samples; a
  // layout naming a kind there is not shows an error that names it (it was plotted as the
  // difference of consecutive samples, silently).
  void lowPassFromTheMenuAndAnUnknownKindInALayout() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 360);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "orientation.z");  // turns from 0.71 to 0.96
    QVERIFY(loaded.wait(20000));
    QMenu* menu = plot.seriesMenu(0);
    QAction* lowPass = nullptr;
    for (QAction* a : menu->actions())
      if (a->menu() && a->text() == "Derived Series")
        for (QAction* b : a->menu()->actions())
          if (b->text() == "Low-Pass Filter…") lowPass = b;
    QVERIFY(lowPass);
    bool asked = false;
    QTimer::singleShot(200, [&] {
      auto* dialog = plot.findChild<QInputDialog*>();
      QVERIFY(dialog);
      asked = dialog->labelText().contains("Cutoff frequency (Hz)");
      dialog->setDoubleValue(2.5);
      dialog->accept();
    });
    lowPass->trigger();
    delete menu;
    QVERIFY(asked);
    QCOMPARE(plot.seriesCount(), 2);
    QVERIFY(loaded.wait(20000));
    QVERIFY2(plot.plot()->graph(1)->name().startsWith("low-pass filter (2.5 Hz)"),
             qPrintable(plot.plot()->graph(1)->name()));
    const auto& t = plot.seriesX(0);
    const auto& v = plot.seriesY(0);
    const auto& y = plot.seriesY(1);
    QCOMPARE(y.size(), v.size());
    QVERIFY(v.size() > 10);
    const double rc = 1 / (2 * std::numbers::pi * 2.5);
    double expected = v[0];
    QCOMPARE(y[0], expected);
    for (std::size_t i = 1; i < v.size(); ++i) {
      double dt = t[i] - t[i - 1];
      expected += dt / (rc + dt) * (v[i] - expected);
      QVERIFY2(qAbs(y[i] - expected) < 1e-9, qPrintable(QString::number(i)));
    }
    QVERIFY2(y.back() < v.back() - 0.004,
             qPrintable(QString("%1 %2").arg(y.back()).arg(v.back())));  // it lags: not the input

    QJsonObject layout = plot.saveSettings();
    QJsonArray series = layout["series"].toArray();
    QCOMPARE(series[1].toObject()["derive"].toString(), QString("lowpass:2.5"));
    QJsonObject unknown = series[1].toObject();
    unknown["derive"] = "butterworth:3";
    series.append(unknown);
    layout["series"] = series;
    PlotPanel again(&d);
    QSignalSpy loadedAgain(&again, &PlotPanel::loaded);
    again.restoreSettings(layout);
    QVERIFY(loadedAgain.wait(20000));
    QCOMPARE(again.seriesY(1), y);
    QTRY_VERIFY2(again.problemText().contains("no derived series is called 'butterworth'"),
                 qPrintable(again.problemText()));
    QVERIFY(again.seriesY(2).empty());
  }

  // Issue #20: the readout gives each visible series' value at the pointer (its nearest
  // sample), else at the playhead; the statistics line gives the visible range's count, min,
  // max and mean — both against the fixture's values picked out here.
  void readoutAndStatisticsOfTheVisibleRange() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "linear_acceleration.y");
    QVERIFY(loaded.wait(20000));
    QString error;
    std::vector<std::pair<double, double>> imu;  // seconds from the start, value
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/imu")
        imu.emplace_back(static_cast<double>(l["log_time_ns"].toInteger() - d.startNs()) / 1e9,
                         l["msg"][u"linear_acceleration"][u"y"].toDouble());
    auto valueText = [](double v) { return QString::number(v, 'g', 6); };
    auto nearestTo = [&](double t) {
      return *std::min_element(imu.begin(), imu.end(),
                               [&](auto& a, auto& b) { return std::abs(a.first - t) < std::abs(b.first - t); });
    };

    QCustomPlot* p = plot.plot();
    p->replot();
    QPoint at = p->axisRect()->center();
    QTest::mouseMove(p, at);
    double t = p->xAxis->pixelToCoord(at.x());
    // Waited for: under ctest -j2 beside a build the readout once did not show the pointer yet.
    QTRY_VERIFY2(plot.readoutText().startsWith(QString("At %1 s:").arg(t, 0, 'f', 6)), qPrintable(plot.readoutText()));
    QVERIFY2(plot.readoutText().contains("= " + valueText(nearestTo(t).second)), qPrintable(plot.readoutText()));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(p, &leave);
    // Issue #33: at the playhead, the last sample at or before it (the inspector's message),
    // never a nearer one after it. 1.2349 s lies just before a sample (every 5 ms from 0).
    auto lastUpTo = [&](double time) {
      std::pair<double, double> last{-1, 0};
      for (auto sample : imu)
        if (sample.first <= time) last = sample;
      return last;
    };
    const double playhead = 1.2349;
    QVERIFY(nearestTo(playhead).first > playhead);  // the old rule's answer lies after it
    d.setPlayhead(d.startNs() + 1'234'900'000);
    QVERIFY2(plot.readoutText().startsWith("At the playhead (1.234900 s):"), qPrintable(plot.readoutText()));
    QVERIFY2(plot.readoutText().contains("= " + valueText(lastUpTo(playhead).second)), qPrintable(plot.readoutText()));
    QCOMPARE(plot.legendValue(0), "= " + valueText(lastUpTo(playhead).second));
    QVERIFY(lastUpTo(playhead).second != nearestTo(playhead).second);

    plot.setXRange(0.5, 1.0);
    std::size_t count = 0;
    double lo = 1e300, hi = -1e300, sum = 0;
    for (auto [time, v] : imu)
      if (time >= 0.5 && time <= 1.0) ++count, lo = std::min(lo, v), hi = std::max(hi, v), sum += v;
    QString stats = plot.statisticsText();
    QVERIFY2(stats.contains(QString(": %1 sample").arg(count)), qPrintable(stats));
    QVERIFY2(stats.contains("min " + valueText(lo)) && stats.contains("max " + valueText(hi)), qPrintable(stats));
    QVERIFY2(stats.contains("mean " + valueText(sum / static_cast<double>(count))), qPrintable(stats));
  }

  // Issue #20: a series renamed, coloured, on the right y axis (the left one then fits only
  // the others), one removed; a logarithmic y axis; equal scales in XY; all kept in settings.
  void seriesOwnSettingsAndAxes() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 400);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/odom", "twist.twist.linear.x");  // about 1
    plot.addSeries("/imu", "linear_acceleration.z");  // about 9.8
    plot.addSeries("/imu", "angular_velocity.z");
    QVERIFY(loaded.wait(20000));
    QCustomPlot* p = plot.plot();
    plot.renameSeries(0, "speed");
    QCOMPARE(p->graph(0)->name(), QString("speed"));
    plot.setSeriesColour(0, QColor(10, 20, 30));
    QCOMPARE(p->graph(0)->pen().color(), QColor(10, 20, 30));
    plot.setSeriesOnRightAxis(1, true);
    QVERIFY(p->yAxis2->visible());
    QCOMPARE(p->graph(1)->valueAxis(), p->yAxis2);
    auto [zlo, zhi] = std::minmax_element(plot.seriesY(1).begin(), plot.seriesY(1).end());
    QVERIFY(p->yAxis2->range().contains(*zlo) && p->yAxis2->range().contains(*zhi));
    QVERIFY(!p->yAxis->range().contains(*zlo));  // the left axis no longer stretches to 9.8
    plot.removeSeries(2);
    QCOMPARE(plot.seriesCount(), 2);
    QCOMPARE(p->graphCount(), 2);

    plot.setSeriesStyle(1, "points");
    QCOMPARE(p->graph(1)->lineStyle(), QCPGraph::lsNone);
    QCOMPARE(p->graph(1)->scatterStyle().shape(), QCPScatterStyle::ssDisc);
    plot.setLegendOutside(true);
    QVERIFY(!p->axisRect()->rect().intersects(p->legend->outerRect()));  // beside, not over
    plot.setLogScale(true);
    QCOMPARE(p->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(p->yAxis->range().lower > 0);

    PlotPanel again(&d);
    QSignalSpy loadedAgain(&again, &PlotPanel::loaded);
    again.restoreSettings(plot.saveSettings());
    QVERIFY(loadedAgain.wait(20000));
    QCOMPARE(again.plot()->graph(0)->name(), QString("speed"));
    QCOMPARE(again.plot()->graph(0)->pen().color(), QColor(10, 20, 30));
    QCOMPARE(again.plot()->graph(1)->valueAxis(), again.plot()->yAxis2);
    QVERIFY(again.logScale());
    QCOMPARE(again.plot()->graph(1)->lineStyle(), QCPGraph::lsNone);
    QVERIFY(again.plot()->plotLayout()->hasElement(0, 1));  // the legend's column

    // XY with equal scales: a metre is as long across as up.
    PlotPanel xy(&d);
    xy.resize(600, 300);
    xy.show();
    QVERIFY(QTest::qWaitForWindowExposed(&xy));
    xy.setMode(PlotPanel::Mode::XY);
    xy.setEqualAspect(true);
    QSignalSpy loadedXy(&xy, &PlotPanel::loaded);
    xy.addSeries("/odom", "pose.pose.position.y", "pose.pose.position.x");
    QVERIFY(loadedXy.wait(20000));
    QCPAxisRect* r = xy.plot()->axisRect();
    double perPixelX = xy.plot()->xAxis->range().size() / r->width();
    double perPixelY = xy.plot()->yAxis->range().size() / r->height();
    QVERIFY2(qAbs(perPixelX - perPixelY) < 1e-9 * qMax(perPixelX, perPixelY) + 1e-12,
             qPrintable(QString("%1 %2").arg(perPixelX).arg(perPixelY)));
  }

  // Issue #20: a series placed at its header stamps instead of its log times, against the
  // fixture's stamps; the legend and the time axis say so; kept in saved settings.
  void aSeriesCanUseItsHeaderStamps() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 400);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "linear_acceleration.y");
    plot.addSeries("/odom", "twist.twist.linear.x");
    QVERIFY(loaded.wait(20000));
    QVERIFY(!plot.plot()->xAxis->label().contains("stamp"));
    plot.setSeriesStampTime(0, true);
    QVERIFY(loaded.wait(20000));
    QString error;
    std::vector<double> stamps;  // seconds from the recording's start
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/imu") {
        auto stamp = l["msg"][u"header"][u"stamp"];
        qint64 ns = stamp[u"sec"].toInteger() * 1'000'000'000 + stamp[u"nsec"].toInteger();
        stamps.push_back(static_cast<double>(ns - d.startNs()) / 1e9);
      }
    QCOMPARE(plot.seriesX(0).size(), stamps.size());
    for (std::size_t i = 0; i < stamps.size(); ++i) QVERIFY(qAbs(plot.seriesX(0)[i] - stamps[i]) < 1e-6);
    QVERIFY(plot.plot()->graph(0)->name().endsWith("[header stamp]"));
    QVERIFY2(plot.plot()->xAxis->label().contains("by header stamp where marked"),
             qPrintable(plot.plot()->xAxis->label()));
    PlotPanel again(&d);
    QSignalSpy loadedAgain(&again, &PlotPanel::loaded);
    again.restoreSettings(plot.saveSettings());
    QTRY_COMPARE_WITH_TIMEOUT(again.seriesX(0).size(), stamps.size(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(qAbs(again.seriesX(0).front() - stamps.front()) < 1e-6, 20000);
  }

  // Issue #33: "Header Stamp as Time" for ROS 2 types too (their stamp a builtin_interfaces
  // Time message), placed at the fixture's stamps.
  void ros2SeriesCanUseTheirHeaderStamps() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros2/demo.mcap")}));
    PlotPanel plot(&d);
    plot.resize(640, 400);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/odom", "twist.twist.linear.x");
    QVERIFY(loaded.wait(20000));
    QMenu* menu = plot.seriesMenu(0);
    QStringList actions;
    for (QAction* a : menu->actions()) actions << a->text();
    QVERIFY2(actions.contains("Header Stamp as Time"), qPrintable(actions.join(", ")));
    plot.setSeriesStampTime(0, true);
    QVERIFY(loaded.wait(20000));
    QString error;
    std::vector<double> stamps;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros2/demo.expected.jsonl"), &error))
      if (l["topic"] == "/odom") {
        auto stamp = l["msg"][u"header"][u"stamp"];
        qint64 ns = stamp[u"sec"].toInteger() * 1'000'000'000 + stamp[u"nanosec"].toInteger();
        stamps.push_back(static_cast<double>(ns - d.startNs()) / 1e9);
      }
    QVERIFY(!stamps.empty());
    QCOMPARE(plot.seriesX(0).size(), stamps.size());
    for (std::size_t i = 0; i < stamps.size(); ++i) QVERIFY(qAbs(plot.seriesX(0)[i] - stamps[i]) < 1e-6);
  }

  // Issue #20: a typed path the type does not have is said in the panel, naming it, beside a
  // series that loads.
  void aPathThatDoesNotExistIsSaid() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(500, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/odom", "pose.pose.position.x");
    plot.addSeries("/odom", "pose.pose.orientation.yaw");
    QVERIFY(loaded.wait(20000));
    QVERIFY2(plot.problemText().contains("pose.pose.orientation.yaw"), qPrintable(plot.problemText()));
    QVERIFY(!plot.seriesX(0).empty());
  }

  // Issue #20: Time <-> XY keeps each mode's series (back with their data), XY draws no time
  // playhead line, and each mode's axis fits its own data.
  void switchingModesKeepsEachModesSeries() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(500, 400);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "angular_velocity.z");
    plot.addSeries("/odom", "twist.twist.linear.x");
    QVERIFY(loaded.wait(20000));
    auto imuY = plot.seriesY(0);
    auto* cursor = qobject_cast<QCPItemStraightLine*>(plot.plot()->item(0));
    QVERIFY(cursor && cursor->visible());

    plot.setMode(PlotPanel::Mode::XY);
    QCOMPARE(plot.seriesCount(), 0);
    QVERIFY(!cursor->visible());
    plot.addSeries("/odom", "pose.pose.position.y", "pose.pose.position.x");
    QVERIFY(loaded.wait(20000));
    auto [lo, hi] = plot.xRange();
    auto xs = plot.seriesX(0);
    QCOMPARE(lo, *std::min_element(xs.begin(), xs.end()));
    QCOMPARE(hi, *std::max_element(xs.begin(), xs.end()));

    plot.setMode(PlotPanel::Mode::Time);
    QCOMPARE(plot.seriesCount(), 2);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(plot.seriesY(0), imuY);
    QVERIFY(cursor->visible());
    QCOMPARE(plot.xRange().first,
             plot.seriesX(0).front() < plot.seriesX(1).front() ? plot.seriesX(0).front() : plot.seriesX(1).front());
    plot.setMode(PlotPanel::Mode::XY);
    QCOMPARE(plot.seriesCount(), 1);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(plot.seriesX(0), xs);
  }

  // A field dropped from the inspector goes where the mode puts it (#35, the modes as
  // strategies): a time series in time mode, a lane in states mode, and from XY (where one
  // field is not a curve) a time series, the plot switching to time.
  void aDroppedFieldGoesWhereTheModePutsIt() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(500, 400);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    auto drop = [&](const QByteArray& field) {
      QMimeData mime;
      mime.setData(kFieldMimeType, field);
      QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, {});
      QCoreApplication::sendEvent(&plot, &enter);
      QDropEvent event(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, {});
      QCoreApplication::sendEvent(&plot, &event);
      return enter.isAccepted() && event.isAccepted();
    };
    plot.setMode(PlotPanel::Mode::States);
    QVERIFY(drop("/diagnostics\nstatus[1].level"));
    QVERIFY(loaded.wait(20000));
    QCOMPARE(plot.mode(), PlotPanel::Mode::States);
    QCOMPARE(plot.seriesCount(), 1);
    QVERIFY2(!plot.laneSpans(0).isEmpty(), "a lane of spans");
    plot.setMode(PlotPanel::Mode::XY);
    QVERIFY(drop("/imu\nangular_velocity.z"));
    QCOMPARE(plot.mode(), PlotPanel::Mode::Time);
    QCOMPARE(plot.seriesCount(), 1);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(plot.seriesY(0).size(), std::size_t{400});  // the fixture's /imu
    QVERIFY(!drop("no newline"));
    QCOMPARE(plot.seriesCount(), 1);
  }

  // Issue #33: a saved layout keeps every mode's series, not only the shown mode's: Time and
  // XY series, saved while Time is shown, both come back.
  void layoutsKeepTheSeriesOfEveryMode() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    QJsonObject saved;
    {
      PlotPanel plot(&d);
      QSignalSpy loaded(&plot, &PlotPanel::loaded);
      plot.addSeries("/imu", "angular_velocity.z");
      QVERIFY(loaded.wait(20000));
      plot.setMode(PlotPanel::Mode::XY);
      plot.addSeries("/odom", "pose.pose.position.y", "pose.pose.position.x");
      QVERIFY(loaded.wait(20000));
      plot.setMode(PlotPanel::Mode::States);
      plot.addStateLane("/vehicle_state", "mode");
      QVERIFY(loaded.wait(20000));
      plot.setMode(PlotPanel::Mode::Time);
      saved = plot.saveSettings();
    }
    PlotPanel back(&d);
    QSignalSpy loaded(&back, &PlotPanel::loaded);
    back.restoreSettings(saved);
    QCOMPARE(back.mode(), PlotPanel::Mode::Time);
    QCOMPARE(back.seriesCount(), 1);
    back.setMode(PlotPanel::Mode::XY);
    QCOMPARE(back.seriesCount(), 1);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(back.seriesX(0).size(), std::size_t{40});  // /odom's 40 messages
    back.setMode(PlotPanel::Mode::States);
    QCOMPARE(back.seriesCount(), 1);
  }

  // Issue #33: a state lane of a field with constants names its values by them, as the
  // definition of demo_msgs/VehicleState says (MODE_MANUAL=0, MODE_AUTO=1).
  void stateLanesNameEnumConstants() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 300);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.setMode(PlotPanel::Mode::States);
    plot.addStateLane("/vehicle_state", "mode");
    QVERIFY(loaded.wait(20000));
    QString error;
    QSet<QString> want;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error))
      if (l["topic"] == "/vehicle_state") {
        int mode = l["msg"][u"mode"].toInt();
        want << (mode == 0 ? "MODE_MANUAL (0)" : mode == 1 ? "MODE_AUTO (1)" : QString::number(mode));
      }
    QVERIFY(want.size() >= 2);
    QSet<QString> shown;
    for (const QString& span : plot.laneSpans(0)) shown << span.section(' ', 1);
    QCOMPARE(shown, want);
  }

  // Issue #33: a custom expression that does not parse stays in its dialog with the column of
  // the fault, and adds no series; Remove All Series leaves no problem line and no y label.
  void aCustomExpressionIsCheckedInItsDialog() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(640, 400);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addSeries("/imu", "angular_velocity.z");
    QVERIFY(loaded.wait(20000));
    QString faultShown;
    bool stayedOpen = false;
    QTimer::singleShot(200, [&] {
      auto* dialog = plot.findChild<QDialog*>("customExpression");
      QVERIFY(dialog);
      auto* edit = dialog->findChild<QLineEdit*>();
      edit->setText("a +* foo");
      dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
      stayedOpen = dialog->isVisible();
      faultShown = dialog->findChild<QLabel*>("expressionError")->text();
      edit->setText("a * 2");
      dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    });
    plot.askExpression(0);
    QVERIFY(stayedOpen);
    QVERIFY2(faultShown.contains("at column"), qPrintable(faultShown));
    QCOMPARE(plot.seriesCount(), 2);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(plot.seriesY(1).size(), plot.seriesY(0).size());
    QCOMPARE(plot.seriesY(1)[3], plot.seriesY(0)[3] * 2);

    plot.addSeries("/imu", "no_such_field");
    QVERIFY(loaded.wait(20000));
    QVERIFY2(plot.problemText().contains("no_such_field"), qPrintable(plot.problemText()));
    QVERIFY(!plot.plot()->yAxis->label().isEmpty());
    plot.clearSeries();
    QCOMPARE(plot.seriesCount(), 0);
    QVERIFY(plot.problemText().isEmpty());
    plot.plot()->replot();
    QCOMPARE(plot.plot()->yAxis->label(), QString());
    for (QLabel* label : plot.findChildren<QLabel*>()) QVERIFY(!label->text().contains("no_such_field"));
  }

  // Issue #20: XY across topics — /imu's linear_acceleration.y against /odom's position.x, the
  // IMU value interpolated here at each odometry message's log time; kept in saved settings.
  void xyAcrossTopicsAlignsByTime() {
    Document d;
    QVERIFY(openAndWait(d, {dataPath("ros1/demo_lz4.bag")}));
    PlotPanel plot(&d);
    plot.resize(500, 400);
    plot.show();
    QSignalSpy loaded(&plot, &PlotPanel::loaded);
    plot.addXYSeries("/odom", "pose.pose.position.x", "/imu", "linear_acceleration.y");
    QCOMPARE(plot.mode(), PlotPanel::Mode::XY);
    QTRY_VERIFY_WITH_TIMEOUT(!plot.seriesX(0).empty(), 20000);
    QString error;
    std::vector<std::pair<qint64, double>> imu, odom;
    for (const auto& l : bagscope::test::readJsonLines(dataPath("ros1/demo.expected.jsonl"), &error)) {
      if (l["topic"] == "/imu")
        imu.emplace_back(l["log_time_ns"].toInteger(), l["msg"][u"linear_acceleration"][u"y"].toDouble());
      if (l["topic"] == "/odom")
        odom.emplace_back(l["log_time_ns"].toInteger(), l["msg"][u"pose"][u"pose"][u"position"][u"x"].toDouble());
    }
    QCOMPARE(plot.seriesX(0).size(), odom.size());
    for (std::size_t i = 0; i < odom.size(); ++i) {
      QCOMPARE(plot.seriesX(0)[i], odom[i].second);
      qint64 t = odom[i].first;
      auto after = std::lower_bound(imu.begin(), imu.end(), t, [](auto& a, qint64 v) { return a.first < v; });
      double want = std::numeric_limits<double>::quiet_NaN();
      if (after != imu.end() && after->first == t) want = after->second;
      else if (after != imu.end() && after != imu.begin()) {
        auto before = after - 1;
        double f = static_cast<double>(t - before->first) / static_cast<double>(after->first - before->first);
        want = before->second + (after->second - before->second) * f;
      }
      double got = plot.seriesY(0)[i];
      QVERIFY2(std::isnan(want) ? std::isnan(got) : qAbs(got - want) < 1e-9,
               qPrintable(QString("%1: %2, want %3").arg(i).arg(got).arg(want)));
    }
    QStringList names;
    for (int k = 0; k < plot.plot()->plottableCount(); ++k) names << plot.plot()->plottable(k)->name();
    QVERIFY2(names.contains("/imu linear_acceleration.y / /odom pose.pose.position.x"), qPrintable(names.join('|')));
    PlotPanel again(&d);
    again.restoreSettings(plot.saveSettings());
    QTRY_COMPARE_WITH_TIMEOUT(again.seriesY(0).size(), odom.size(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(again.seriesX(0) == plot.seriesX(0), 20000);
  }
};

QTEST_MAIN(TestPlotPanel)
#include "tst_plot_panel.moc"
