// bagscope-gui-bench panels BAG: how long the panels take to show the next frame when
// stepping (a 640x480 image, a 100,000-point cloud: from the playhead moving to the frame
// painted) and to redraw a plot of 10 million points on zoom and pan. Prints JSON with
// the median and all samples in ms.
//
// bagscope-gui-bench video RECORDING TOPIC: the same for a compressed video topic, stepping
// forwards and seeking to frames between keyframes.
//
// bagscope-gui-bench BAG...: how long the GUI thread ever goes without handling events
// while the real main window opens a large bag, builds its index, measures topic sizes in
// the background, and plays it at 10x with the message inspector and a 3D view following the
// cloud topic (the inspector on the busiest topic when there is none), sampling how far
// behind the playhead they are; then the export wizard's Where page on every topic (its
// preview computed in the background).
//
// A 2 ms timer on the GUI thread is the watchdog: the longest time between two of its ticks
// is the worst stall a user could feel. Run under xvfb-run (bench/run_gui.py does). Prints
// one JSON object: per phase, the worst stall and the 99th percentile, in ms.

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>

#include <QJsonArray>

#include <qcustomplot.h>

#include <cmath>

#include "widgets/dialogs/export_wizard.hpp"
#include "widgets/panels/image_panel.hpp"
#include "widgets/panels/log_panel.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/panels/scene3d/vtk_view.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/inspector.hpp"
#include "widgets/shell/main_window.hpp"
#include "widgets/shell/playback.hpp"

using namespace bagscope::widgets;

namespace {

struct Watchdog {
  QElapsedTimer clock;
  qint64 last = 0;
  std::vector<double> gapsMs;
  void tick() {
    qint64 now = clock.nsecsElapsed();
    if (last) gapsMs.push_back(static_cast<double>(now - last) / 1e6);
    last = now;
  }
  QJsonObject take(double seconds) {
    QJsonObject o;
    std::vector<double> g = std::move(gapsMs);
    gapsMs.clear();
    std::sort(g.begin(), g.end());
    o["seconds"] = seconds;
    o["ticks"] = static_cast<qint64>(g.size());
    o["worst_stall_ms"] = g.empty() ? 0.0 : g.back();
    o["p99_ms"] = g.empty() ? 0.0 : g[g.size() * 99 / 100];
    return o;
  }
};

QJsonObject summarize(std::vector<double> ms) {
  QJsonArray all;
  for (double v : ms) all.append(v);
  std::sort(ms.begin(), ms.end());
  return {
      {"median_ms", ms.empty() ? 0.0 : ms[ms.size() / 2]}, {"max_ms", ms.empty() ? 0.0 : ms.back()}, {"samples", all}};
}

bool waitFor(QObject* sender, const char* signal, int timeoutMs) {
  QEventLoop loop;
  QObject::connect(sender, signal, &loop, SLOT(quit()));
  QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
  QElapsedTimer t;
  t.start();
  loop.exec();
  return t.elapsed() < timeoutMs;
}

// Steps the playhead to the next message of `topic` and times until `panel` has painted it.
template <typename PanelT>
std::vector<double> stepFrames(Document& d, PanelT& panel, QWidget* view, const QString& topic, int frames) {
  std::vector<double> out;
  auto id = d.topicByName(topic)->id;
  auto index = d.session()->index(id);
  for (int i = 1; i <= frames && static_cast<std::size_t>(i) < index.size(); ++i) {
    QElapsedTimer t;
    t.start();
    d.setPlayhead(index[static_cast<std::size_t>(i)].logTimeNs);
    waitFor(&panel, SIGNAL(frameShown()), 10000);
    if (auto* scene = qobject_cast<VtkView*>(view)) scene->frame();  // drawn on its thread
    view->repaint();                                                 // painted, not just scheduled
    QApplication::processEvents();
    out.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
  }
  return out;
}

int panelsBench(const QString& bag, const QString& sceneBag) {
  Document d;
  d.open(sceneBag.isEmpty() ? QStringList{bag} : QStringList{bag, sceneBag});
  waitFor(&d, SIGNAL(openFinished(QString, QStringList)), 600000);
  if (!d.session()) return std::fprintf(stderr, "could not open %s\n", qPrintable(bag)), 1;
  QJsonObject report;
  {
    ImagePanel image(&d);
    image.resize(800, 640);
    image.show();
    image.setTopic(QStringLiteral("/camera/image_raw"));
    waitFor(&image, SIGNAL(frameShown()), 10000);
    report["image_640x480_step"] =
        summarize(stepFrames(d, image, image.view(), QStringLiteral("/camera/image_raw"), 30));
    report["image_size"] =
        QStringLiteral("%1x%2").arg(image.shown().picture.width()).arg(image.shown().picture.height());
  }
  d.setPlayhead(d.startNs());
  {
    CloudPanel cloud(&d);
    cloud.resize(800, 640);
    cloud.show();
    cloud.setTopic(QStringLiteral("/points"));
    waitFor(&cloud, SIGNAL(frameShown()), 10000);
    report["cloud_step"] = summarize(stepFrames(d, cloud, cloud.view(), QStringLiteral("/points"), 20));
    report["cloud_points"] = static_cast<qint64>(cloud.pointsDrawn());
    if (!sceneBag.isEmpty()) {
      // The same steps with 500 markers (a new MarkerArray every 0.1 s) and a 10,000-pose path
      // drawn with the cloud.
      cloud.setLayers({QStringLiteral("/markers"), QStringLiteral("/plan")});
      QElapsedTimer wait;
      wait.start();
      while (cloud.layerItemsDrawn() < 501 && wait.elapsed() < 60000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
      d.setPlayhead(d.startNs());
      waitFor(&cloud, SIGNAL(frameShown()), 10000);
      report["scene_step"] = summarize(stepFrames(d, cloud, cloud.view(), QStringLiteral("/points"), 20));
      report["scene_items"] = static_cast<qint64>(cloud.layerItemsDrawn());
      report["scene_triangles"] = static_cast<qint64>(cloud.layerTriangles());
    }
  }
  {
    // 10 million points (a noisy sine, 1 kHz for 10,000 s), zoomed and panned.
    PlotPanel plot(&d);
    plot.resize(1000, 500);
    plot.show();
    plot.addSeries(QStringLiteral("/synthetic"), QStringLiteral("value"));
    const std::size_t n = 10'000'000;
    std::vector<double> x(n), y(n);
    std::uint32_t r = 1;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<double>(i) * 1e-3;
      r = r * 1664525u + 1013904223u;
      y[i] = std::sin(x[i] * 0.01) + (r >> 8) * 1e-7;
    }
    plot.setSeriesData(0, x, y);
    QApplication::processEvents();
    // Zoom in by 1.25 around the middle for 20 steps, then pan by a tenth for 20.
    auto zoomAndPan = [&plot] {
      std::vector<double> ms;
      double lo = 0, hi = 10'000;
      for (int step = 0; step < 40; ++step) {
        double mid = (lo + hi) / 2, half = (hi - lo) / 2;
        if (step < 20) half /= 1.25;
        else mid += (hi - lo) / 10;
        lo = mid - half, hi = mid + half;
        QElapsedTimer t;
        t.start();
        plot.plot()->xAxis->setRange(lo, hi);  // as a wheel or drag does: re-decimates
        plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
      }
      return ms;
    };
    report["plot_10M_zoom_pan"] = summarize(zoomAndPan());
    QElapsedTimer t;
    t.start();
    plot.fitAll();  // the whole 10 M points on screen
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    report["plot_10M_fit_ms"] = static_cast<double>(t.nsecsElapsed()) / 1e6;
    // Again with a second 10 M-point series on the right y axis and the readout following the
    // pointer (over the plot's middle).
    plot.addSeries(QStringLiteral("/synthetic"), QStringLiteral("other"));
    for (auto& v : y) v = -v;
    plot.setSeriesData(1, std::move(x), std::move(y));
    plot.setSeriesOnRightAxis(1, true);
    QPoint middle = plot.plot()->axisRect()->center();
    QMouseEvent move(QEvent::MouseMove, middle, plot.plot()->mapToGlobal(middle), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(plot.plot(), &move);
    QApplication::processEvents();
    report["plot_10M_zoom_pan_right_axis_readout"] = summarize(zoomAndPan());
    report["plot_readout"] = plot.readoutText();
    report["plot_drawn_points_fit"] = plot.drawnPoints(0);
  }
  {
    // 1 M log lines of five levels and 20 nodes, filtered by text, level and node in turn
    // (the filter pass and the table's repaint).
    LogPanel log(&d);
    log.resize(1000, 500);
    log.show();
    std::vector<LogLine> lines(1'000'000);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      lines[i].logTimeNs = d.startNs() + static_cast<qint64>(i) * 1'000'000;
      auto& e = lines[i].entry;
      e.level = static_cast<bagscope::sensors::LogLevel>(i % 5);
      e.node = "/node_" + std::to_string(i % 20);
      e.message =
          "step " + std::to_string(i) + (i % 7 == 0 ? ": obstacle ahead at 3.2 m" : ": all clear, speed nominal");
      e.file = "planner.cpp";
      e.line = static_cast<std::uint32_t>(i % 500);
    }
    log.setLines(std::move(lines));
    QApplication::processEvents();
    std::vector<double> ms;
    for (int round = 0; round < 5; ++round) {
      for (auto step : {0, 1, 2, 3}) {
        QElapsedTimer t;
        t.start();
        if (step == 0) log.setSearchText(QStringLiteral("obstacle"));
        if (step == 1) log.setMinimumLevel(bagscope::sensors::LogLevel::Warn);
        if (step == 2) log.setNodeFilter(QStringLiteral("/node_7"));
        if (step == 3) {
          log.setSearchText({}), log.setNodeFilter({});
          log.setMinimumLevel(bagscope::sensors::LogLevel::Debug);
        }
        log.table()->viewport()->repaint();
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
      }
    }
    report["log_1M_filter"] = summarize(ms);
  }
  std::printf("%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
  return 0;
}

// A compressed video topic in the image viewer (#40): steps forwards (each one frame more to
// decode) and seeks to frames that are not keyframes (decoded from the keyframe before), each
// timed from the playhead moving to the frame painted; then plays it at 1x under the watchdog.
int videoBench(const QString& recording, const QString& topic) {
  Document d;
  d.open({recording});
  waitFor(&d, SIGNAL(openFinished(QString, QStringList)), 600000);
  const TopicInfo* info = d.session() ? d.topicByName(topic) : nullptr;
  if (!info) return std::fprintf(stderr, "no topic %s in %s\n", qPrintable(topic), qPrintable(recording)), 1;
  ImagePanel image(&d);
  image.resize(1000, 640);
  image.show();
  image.setTopic(topic);
  waitFor(&image, SIGNAL(frameShown()), 10000);
  QJsonObject report;
  report["step"] = summarize(stepFrames(d, image, image.view(), topic, 30));
  auto index = d.session()->index(info->id);
  std::vector<double> seeks;
  for (std::size_t k = 1; k <= 10 && index.size() > 2; ++k) {  // spread over the topic, back and forth
    const std::size_t row = (k % 2 ? index.size() - 1 - k * 7 : k * 11) % index.size();
    QElapsedTimer t;
    t.start();
    d.setPlayhead(index[row].logTimeNs);
    waitFor(&image, SIGNAL(frameShown()), 10000);
    image.view()->repaint();
    QApplication::processEvents();
    seeks.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
  }
  report["seek"] = summarize(seeks);
  // Playing at 1x from the start for 4 s: the GUI thread's worst stall (the watchdog's
  // longest gap) and how many of the frames the playhead passed were shown.
  d.setPlayhead(index.front().logTimeNs);
  waitFor(&image, SIGNAL(frameShown()), 10000);
  Watchdog dog;
  dog.clock.start();
  QTimer timer;
  timer.setTimerType(Qt::PreciseTimer);
  QObject::connect(&timer, &QTimer::timeout, [&] { dog.tick(); });
  int shown = 0;
  QObject::connect(&image, &ImagePanel::frameShown, [&] { ++shown; });
  Playback playback(&d);
  timer.start(2);
  playback.play();
  QEventLoop loop;
  QTimer::singleShot(4000, &loop, &QEventLoop::quit);
  loop.exec();
  playback.pause();
  QJsonObject playing = dog.take(4.0);
  const auto passed = d.session()->atOrBefore(info->id, d.playheadNs());
  playing["frames_passed"] = static_cast<qint64>(passed ? *passed + 1 : 0);
  playing["frames_shown"] = shown;
  report["play_1x"] = playing;
  report["image_size"] = QStringLiteral("%1x%2").arg(image.shown().picture.width()).arg(image.shown().picture.height());
  std::printf("%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Settings of their own, empty: the window restores the panels it closed with, and runs
  // must not inherit the panels of the runs before (they added up to 80 3D views).
  QTemporaryDir settings;
  qputenv("XDG_CONFIG_HOME", QFile::encodeName(settings.filePath(QStringLiteral("config"))));
  qputenv("XDG_DATA_HOME", QFile::encodeName(settings.filePath(QStringLiteral("data"))));
  QApplication app(argc, argv);
  if (argc == 4 && QString::fromLocal8Bit(argv[1]) == QLatin1String("video"))
    return videoBench(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
  if ((argc == 3 || argc == 4) && QString::fromLocal8Bit(argv[1]) == QLatin1String("panels"))
    return panelsBench(QString::fromLocal8Bit(argv[2]), argc == 4 ? QString::fromLocal8Bit(argv[3]) : QString());
  QApplication::setApplicationName(QStringLiteral("bagscope-gui-bench"));
  QStringList bags = QApplication::arguments().mid(1);
  if (bags.isEmpty()) {
    std::fprintf(stderr, "usage: bagscope-gui-bench BAG...\n");
    return 2;
  }
  MainWindow window;
  window.resize(1280, 860);
  window.show();
  Watchdog dog;
  dog.clock.start();
  QTimer timer;
  timer.setTimerType(Qt::PreciseTimer);
  QObject::connect(&timer, &QTimer::timeout, [&] { dog.tick(); });
  timer.start(2);

  QJsonObject report;
  QElapsedTimer phase;
  auto wait = [&](auto* sender, auto signal, int timeoutMs) {
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
  };
  QTimer::singleShot(500, [&] {
    dog.take(0);  // start-up is not part of it
    phase.start();
    window.open(bags);
    wait(&window, &MainWindow::openFinished, 600000);
    report["open_and_index"] = dog.take(static_cast<double>(phase.nsecsElapsed()) / 1e9);
    Document* d = window.document();
    if (!d->session()) {
      std::fprintf(stderr, "could not open\n");
      QApplication::exit(1);
      return;
    }
    phase.restart();
    bool measured =
        std::all_of(d->topics().begin(), d->topics().end(), [](const TopicInfo& t) { return t.sizeBytes >= 0; });
    if (!measured) wait(d, &Document::topicSizesChanged, 600000);
    report["measure_sizes"] = dog.take(static_cast<double>(phase.nsecsElapsed()) / 1e9);
    // Play at 10x for 5 s with the inspector following the busiest topic, and (when the
    // bag has clouds) the inspector and a 3D view on the first cloud topic instead.
    auto busiest = std::max_element(d->topics().begin(), d->topics().end(),
                                    [](const TopicInfo& a, const TopicInfo& b) { return a.count < b.count; });
    auto cloudTopic = std::find_if(d->topics().begin(), d->topics().end(),
                                   [](const TopicInfo& t) { return t.type.endsWith(QLatin1String("PointCloud2")); });
    const bool clouds = cloudTopic != d->topics().end();
    auto followed = clouds ? cloudTopic->id : busiest->id;
    d->setCurrentTopic(static_cast<int>(followed));
    CloudPanel* cloud = nullptr;
    QEventLoop loop0;
    if (clouds) {
      cloud = static_cast<CloudPanel*>(window.addPanel(QStringLiteral("cloud")));
      cloud->setTopic(cloudTopic->name);
      // A new 3D view's first draw compiles its shaders: not part of playing.
      if (cloud->frames().empty()) wait(cloud, &CloudPanel::frameShown, 30000);
      QTimer::singleShot(300, &loop0, &QEventLoop::quit);
      loop0.exec();
      dog.take(0);
    }
    // How far behind the playhead the panels are: the log time of the message the playhead is
    // at minus that of the message shown, in wall-clock ms at 10x.
    auto lagMs = std::make_shared<std::vector<double>>(), cloudLagMs = std::make_shared<std::vector<double>>();
    auto* sampler = new QTimer(&window);
    QObject::connect(sampler, &QTimer::timeout, [&window, d, followed, cloud, lagMs, cloudLagMs] {
      auto s = d->session();
      auto at = s->atOrBefore(followed, d->playheadNs());
      if (!at) return;
      qint64 due = s->index(followed)[*at].logTimeNs;
      if (const auto* m = window.inspector()->model()->message(); m && m->row <= *at)
        lagMs->push_back(static_cast<double>(due - s->index(followed)[m->row].logTimeNs) / 10 / 1e6);
      if (cloud && cloud->sceneLogTimeNs() > 0)  // the cloud in the 3D view's scene
        cloudLagMs->push_back(std::max(0.0, static_cast<double>(due - cloud->sceneLogTimeNs()) / 10 / 1e6));
    });
    window.playback()->setSpeed(10);
    phase.restart();
    window.playback()->play();
    sampler->start(50);
    QTimer::singleShot(5000, [&, d, cloud, sampler, lagMs, cloudLagMs] {
      window.playback()->pause();
      sampler->stop();
      report["play_10x"] = dog.take(static_cast<double>(phase.nsecsElapsed()) / 1e9);
      report["inspector_lag_10x"] = summarize(*lagMs);
      if (cloud) report["cloud_lag_10x"] = summarize(*cloudLagMs);
      // The export wizard's Where page on every topic: its preview (a dry run) runs in the
      // background while the window stays live for 3 s.
      auto* wizard = new ExportWizard(d, {}, &window);
      for (const auto& t : d->topics()) wizard->chooseTopic(t.name, {});
      wizard->setFolder(QDir::temp().filePath(QStringLiteral("bagscope-bench-preview")));
      wizard->show();
      dog.take(0);
      phase.restart();
      for (int page = ExportWizard::What; page < ExportWizard::Where; ++page) wizard->next();
      QTimer::singleShot(3000, [&, d, wizard] {
        report["export_preview"] = dog.take(static_cast<double>(phase.nsecsElapsed()) / 1e9);
        report["preview_names"] = static_cast<qint64>(wizard->previewNames().size());
        report["bags"] = bags.join(QLatin1Char(' '));
        report["bytes"] = d->totalBytes();
        report["messages"] = static_cast<qint64>(d->session()->messageCount());
        std::printf("%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
        QApplication::quit();
      });
    });
  });
  return QApplication::exec();
}
