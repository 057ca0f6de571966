// Rendering a layout without a screen: each recording opened in a Document of its own, each
// plot panel made from the layout's settings as loading a layout makes it, drawn once its
// series have loaded and saved as Save as Image saves it; each image panel's frame at the
// range's end, as the panel shows it, and each 3D view's where a display is given. A layout
// that compares runs compares each recording with its run B.

#include "widgets/shell/layout_render.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonArray>
#include <QSaveFile>
#include <QTimer>

#include <cmath>
#include <cstdio>
#include <memory>

#include "core/base/text.hpp"
#include "core/export/export.hpp"
#include "widgets/panels/image_panel.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/panels/scene3d/vtk_view.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/layouts.hpp"

namespace bagscope::widgets {
namespace {

void say(const QString& text) { std::fprintf(stderr, "bagscope: %s\n", qPrintable(text)); }

// Runs the event loop until `done` or `seconds` pass; false on the time-out.
template <typename Object, typename Signal>
bool waitFor(Object* object, Signal signal, int seconds) {
  QEventLoop loop;
  QTimer timeout;
  timeout.setSingleShot(true);
  QObject::connect(&timeout, &QTimer::timeout, &loop, [&] { loop.exit(1); });
  QObject::connect(object, signal, &loop, [&] { loop.exit(0); });
  timeout.start(seconds * 1000);
  return loop.exec() == 0;
}

// Runs the event loop until `done()` or `seconds` pass; false on the time-out.
template <typename Done>
bool waitUntil(Done done, int seconds) {
  QElapsedTimer waited;
  waited.start();
  while (!done() && waited.elapsed() < seconds * 1000)
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
  return done();
}

// A time of the command line (seconds since the epoch, or "+S" after the start, read exactly
// as the CLI reads them) as seconds after the recording's start; nothing when it does not read.
std::optional<double> secondsAfterStart(const QString& text, qint64 startNs) {
  std::int64_t ns = 0;
  if (!parseTimeArgument(text.toStdString(), startNs, ns)) return std::nullopt;
  return static_cast<double>(ns - startNs) / 1e9;
}

}  // namespace

int renderLayout(const RenderRequest& r) {
  const QString format = r.format.toLower();
  if (format != QLatin1String("png") && format != QLatin1String("svg") && format != QLatin1String("pdf")) {
    say(QStringLiteral("render: --format takes png, svg or pdf, not '%1'").arg(r.format));
    return 2;
  }
  if (!r.size.isValid() || r.size.width() > 16384 || r.size.height() > 16384) {
    say(QStringLiteral("render: --size takes WIDTHxHEIGHT, each from 1 to 16384"));
    return 2;
  }
  QString error;
  auto layout = Layout::readFile(r.layoutPath, &error);
  if (!layout) {
    say(error);
    return 1;
  }
  struct View {
    QString kind, name;
    QJsonObject settings;
  };
  std::vector<View> views;
  for (const auto& v : layout->panels.value(QStringLiteral("views")).toArray()) {
    QJsonObject o = v.toObject();
    const QString kind = o.value(QStringLiteral("kind")).toString(), name = o.value(QStringLiteral("name")).toString();
    // 3D views draw through OpenGL, which Qt's offscreen platform does not give VTK.
    const bool screen = QGuiApplication::platformName() != QLatin1String("offscreen");
    if (kind == QLatin1String(PlotPanel::kKind) || kind == QLatin1String(ImagePanel::kKind) ||
        (screen && kind == QLatin1String(CloudPanel::kKind)))
      views.push_back({kind, name, o.value(QStringLiteral("settings")).toObject()});
    else if (kind == QLatin1String(CloudPanel::kKind))
      say(QStringLiteral("render: %1 (a 3D view) is not drawn: 3D views need a display "
                         "(xvfb-run with QT_QPA_PLATFORM=xcb gives one)")
              .arg(name));
    else say(QStringLiteral("render: %1 (a %2 panel) is not drawn: plots, images and 3D views are").arg(name, kind));
  }
  if (views.empty()) {
    say(QStringLiteral("render: the layout %1 has no plot or image panel").arg(r.layoutPath));
    return 1;
  }
  const QJsonObject comparison = layout->panels.value(QStringLiteral("comparison")).toObject();
  QStringList runB;
  for (const auto& p : comparison.value(QStringLiteral("recordings")).toArray()) runB << p.toString();
  if (!QDir().mkpath(r.outDir)) {
    say(QStringLiteral("render: cannot create the folder %1").arg(r.outDir));
    return 4;
  }

  int code = 0;
  auto worse = [&](int c) {
    if (code == 0 || (c != 0 && c > code)) code = c;
  };
  int written = 0;
  for (const QString& recording : r.recordings) {
    Document document;
    QString openError;
    QObject::connect(&document, &Document::openFinished, &document,
                     [&](const QString& e, const QStringList&) { openError = e; });
    document.open({QFileInfo(recording).absoluteFilePath()});
    if (!waitFor(&document, &Document::openFinished, 600) || !document.session()) {
      say(QStringLiteral("render: %1: %2")
              .arg(recording, openError.isEmpty() ? QStringLiteral("not opened") : openError));
      worse(1);
      continue;
    }
    // The layout's comparison: its run B set against each recording, as the app does.
    if (!runB.isEmpty()) {
      document.compareWith(runB, comparison.value(QStringLiteral("alignment")).toString(QStringLiteral("start")));
      const bool compared = waitUntil(
          [&] {
            return !document.comparisonProblem().isEmpty() ||
                   (document.comparison()->session() && !document.topicComparison().empty());
          },
          600);
      if (!compared || !document.comparisonProblem().isEmpty()) {
        say(QStringLiteral("render: %1: run B (%2): %3")
                .arg(recording, runB.join(QStringLiteral(", ")),
                     compared ? document.comparisonProblem() : QStringLiteral("not opened")));
        worse(1);
        continue;
      }
    }
    for (const auto& problem : document.session()->problems()) {  // drawn as far as it reads, as export does
      say(QStringLiteral("render: %1").arg(toQt(problem)));
      worse(3);
    }
    const std::string bag = exporters::recordingName(QFileInfo(recording).absoluteFilePath().toStdString());
    // The playhead at the range's end, where images are shown and the plots' cursor stands.
    auto end = r.end.isEmpty() ? std::optional(static_cast<double>(document.endNs() - document.startNs()) / 1e9)
                               : secondsAfterStart(r.end, document.startNs());
    if (!end) {
      say(QStringLiteral("render: --end takes seconds (since the epoch, or +S after the start)"));
      return 2;
    }
    document.setPlayhead(document.startNs() + static_cast<qint64>(std::llround(*end * 1e9)));
    for (const auto& view : views) {
      const bool image = view.kind == QLatin1String(ImagePanel::kKind);
      const bool picture = image || view.kind == QLatin1String(CloudPanel::kKind);
      const QString file =
          QDir(r.outDir).filePath(toQt(exporters::safeFileNameComponent(bag + "_" + view.name.toStdString())) +
                                  QLatin1Char('.') + (picture ? QStringLiteral("png") : format));
      if (!r.overwrite && QFileInfo::exists(file)) {
        say(QStringLiteral("render: %1 exists (use --overwrite)").arg(file));
        worse(4);
        continue;
      }
      if (picture) {  // the frame at the playhead, the range's end (a picture: PNG)
        std::unique_ptr<Panel> panel;
        if (image) panel = std::make_unique<ImagePanel>(&document);
        else panel = std::make_unique<CloudPanel>(&document);
        panel->resize(r.size);
        panel->show();
        bool shown = false;
        if (auto* i = qobject_cast<ImagePanel*>(panel.get()))
          QObject::connect(i, &ImagePanel::frameShown, panel.get(), [&] { shown = true; });
        if (auto* c = qobject_cast<CloudPanel*>(panel.get()))
          QObject::connect(c, &CloudPanel::frameShown, panel.get(), [&] { shown = true; });
        panel->restoreSettings(view.settings);
        if (!waitUntil([&] { return shown; }, 60)) {
          say(QStringLiteral("render: %1: %2 shows no frame at %3 s").arg(recording, view.name).arg(*end));
          worse(3);
          continue;
        }
        QCoreApplication::processEvents();                                         // drawn before it is grabbed
        if (auto* c = qobject_cast<CloudPanel*>(panel.get())) c->view()->frame();  // drawn on its thread
        QSaveFile out(file);
        if (!out.open(QIODevice::WriteOnly) || !panel->grab().toImage().save(&out, "PNG") || !out.commit()) {
          say(QStringLiteral("render: %1: %2").arg(file, out.errorString()));
          worse(4);
          continue;
        }
        ++written;
        continue;
      }
      auto plot = std::make_unique<PlotPanel>(&document);
      plot->resize(r.size);
      plot->show();  // laid out as on a screen (on the offscreen platform nothing is seen)
      plot->restoreSettings(view.settings);
      if (plot->seriesCount() > 0 && !waitFor(plot.get(), &PlotPanel::loaded, 600)) {
        say(QStringLiteral("render: %1: %2 did not load within 10 minutes").arg(recording, view.name));
        worse(3);
        continue;
      }
      if (!plot->problemText().isEmpty()) {
        say(QStringLiteral("render: %1: %2: %3").arg(recording, view.name, plot->problemText()));
        worse(3);
      }
      if (!r.start.isEmpty() || !r.end.isEmpty()) {
        auto [lower, upper] = plot->xRange();
        auto from = r.start.isEmpty() ? std::optional(lower) : secondsAfterStart(r.start, document.startNs());
        auto to = r.end.isEmpty() ? std::optional(upper) : secondsAfterStart(r.end, document.startNs());
        if (!from || !to || *from >= *to) {
          say(
              QStringLiteral("render: --start and --end take seconds (since the epoch, or +S after the start), "
                             "the start before the end"));
          return 2;
        }
        plot->setXRange(*from, *to);
      }
      QString saveError;
      if (!plot->saveImage(file, &saveError, r.size)) {
        say(QStringLiteral("render: %1").arg(saveError));
        worse(4);
        continue;
      }
      ++written;
    }
  }
  say(QStringLiteral("render: wrote %1 files into %2").arg(written).arg(r.outDir));
  return code;
}

}  // namespace bagscope::widgets
