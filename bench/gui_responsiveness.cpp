// bagscope-gui-bench BAG...: how long the GUI thread ever goes without handling events
// while the real main window opens a large bag, builds its index, measures topic sizes in
// the background, and plays it at 10x with the message inspector following a topic.
//
// A 2 ms timer on the GUI thread is the watchdog: the longest time between two of its ticks
// is the worst stall a user could feel. Run under xvfb-run (bench/run_gui.py does). Prints
// one JSON object: per phase, the worst stall and the 99th percentile, in ms.

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>
#include <cstdio>

#include "widgets/document.hpp"
#include "widgets/main_window.hpp"
#include "widgets/playback.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
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
    bool measured = std::all_of(d->topics().begin(), d->topics().end(), [](const TopicInfo& t) { return t.sizeBytes >= 0; });
    if (!measured) wait(d, &Document::topicSizesChanged, 600000);
    report["measure_sizes"] = dog.take(static_cast<double>(phase.nsecsElapsed()) / 1e9);
    // Play at 10x for 5 s with the inspector following the busiest topic.
    auto busiest = std::max_element(d->topics().begin(), d->topics().end(),
                                    [](const TopicInfo& a, const TopicInfo& b) { return a.count < b.count; });
    d->setCurrentTopic(static_cast<int>(busiest->id));
    window.playback()->setSpeed(10);
    phase.restart();
    window.playback()->play();
    QTimer::singleShot(5000, [&, d] {
      window.playback()->pause();
      report["play_10x"] = dog.take(static_cast<double>(phase.nsecsElapsed()) / 1e9);
      report["bags"] = bags.join(QLatin1Char(' '));
      report["bytes"] = d->totalBytes();
      report["messages"] = static_cast<qint64>(d->session()->messageCount());
      std::printf("%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
      QApplication::quit();
    });
  });
  return QApplication::exec();
}
