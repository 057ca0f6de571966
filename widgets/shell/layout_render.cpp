// Rendering a layout's plots without a screen: each recording opened in a Document of its own,
// each plot panel made from the layout's settings as Layout ▸ load makes it, drawn once its
// series have loaded, and saved as Save as Image saves it.

#include "widgets/shell/layout_render.hpp"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QTimer>

#include <cstdio>
#include <memory>

#include "core/export/export.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
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

// A time of the command line (seconds since the epoch, or "+S" after the start) as seconds
// after the recording's start; nothing when it does not read.
std::optional<double> secondsAfterStart(const QString& text, qint64 startNs) {
  const bool relative = text.startsWith(QLatin1Char('+'));
  bool ok = false;
  const double s = (relative ? text.mid(1) : text).toDouble(&ok);
  if (!ok) return std::nullopt;
  return relative ? s : s - static_cast<double>(startNs) / 1e9;
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
    QString name;
    QJsonObject settings;
  };
  std::vector<View> plots;
  for (const auto& v : layout->panels.value(QStringLiteral("views")).toArray()) {
    QJsonObject o = v.toObject();
    const QString kind = o.value(QStringLiteral("kind")).toString(), name = o.value(QStringLiteral("name")).toString();
    if (kind == QLatin1String(PlotPanel::kKind))
      plots.push_back({name, o.value(QStringLiteral("settings")).toObject()});
    else
      say(QStringLiteral("render: %1 (a %2 panel) is not drawn: only plots render without a screen").arg(name, kind));
  }
  if (plots.empty()) {
    say(QStringLiteral("render: the layout %1 has no plot").arg(r.layoutPath));
    return 1;
  }
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
    const std::string bag = exporters::recordingName(QFileInfo(recording).absoluteFilePath().toStdString());
    for (const auto& view : plots) {
      const QString file = QDir(r.outDir).filePath(
          toQt(exporters::safeFileNameComponent(bag + "_" + view.name.toStdString())) + QLatin1Char('.') + format);
      if (!r.overwrite && QFileInfo::exists(file)) {
        say(QStringLiteral("render: %1 exists (use --overwrite)").arg(file));
        worse(4);
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
