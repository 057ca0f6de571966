// bagscope: the desktop entry point. Opens the files and folders named on the command line,
// or the bundled sample bag when there are none.

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bagscope/build_info.hpp"
#include "widgets/async/unexpected_error.hpp"
#include "widgets/shell/layout_render.hpp"
#include "widgets/shell/main_window.hpp"
#include "widgets/shell/settings.hpp"

namespace {

// The app's data (sample bag, translations): <prefix>/share/bagscope beside <prefix>/bin in the
// build and installed trees (Linux, Windows), the bundle's Resources folder on macOS.
QString dataDir() {
  QDir dir(QApplication::applicationDirPath());
#ifdef Q_OS_MACOS
  return dir.filePath(QStringLiteral("../Resources"));
#else
  return dir.filePath(QStringLiteral("../share/bagscope"));
#endif
}

// The user's choice, else the system's languages; Qt's own strings (dialog buttons) too: from
// the system's Qt on Linux, from the translations folder the deploy tool fills elsewhere.
void installTranslations(QApplication& app, const QString& chosen) {
  QLocale locale = chosen.isEmpty() ? QLocale::system() : QLocale(chosen);
  auto* ours = new QTranslator(&app);
  if (ours->load(locale, QStringLiteral("bagscope"), QStringLiteral("_"), dataDir() + QStringLiteral("/translations")))
    QApplication::installTranslator(ours);
  auto* qt = new QTranslator(&app);
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
    QApplication::installTranslator(qt);
}

// bagscope --render LAYOUT RECORDING... --out DIR [--format png|svg|pdf] [--size WxH]
// [--start S] [--end S] [--overwrite]: the layout's plots drawn into files, no window shown.
int render(QStringList args) {
  bagscope::widgets::RenderRequest r;
  args.removeFirst();  // the program
  auto value = [&](QString& out) {
    if (args.isEmpty()) return false;
    out = args.takeFirst();
    return true;
  };
  auto usage = [](const QString& why) {
    std::fprintf(stderr, "bagscope: render: %s\n", qPrintable(why));
    return 2;
  };
  QString size;
  while (!args.isEmpty()) {
    QString a = args.takeFirst();
    if (a == QLatin1String("--render")) {
      if (!value(r.layoutPath)) return usage(QStringLiteral("--render needs a layout file"));
    } else if (a == QLatin1String("--out") || a == QLatin1String("-o")) {
      if (!value(r.outDir)) return usage(QStringLiteral("--out needs a folder"));
    } else if (a == QLatin1String("--format")) {
      if (!value(r.format)) return usage(QStringLiteral("--format needs png, svg or pdf"));
    } else if (a == QLatin1String("--size")) {
      QStringList wh = value(size) ? size.split(QLatin1Char('x')) : QStringList();
      if (wh.size() != 2) return usage(QStringLiteral("--size needs WIDTHxHEIGHT (1200x600)"));
      r.size = QSize(wh[0].toInt(), wh[1].toInt());
    } else if (a == QLatin1String("--start") || a == QLatin1String("--end")) {
      if (!value(a == QLatin1String("--start") ? r.start : r.end)) return usage(a + QStringLiteral(" needs a time"));
    } else if (a == QLatin1String("--overwrite")) {
      r.overwrite = true;
    } else if (a == QLatin1String("-platform")) {  // Qt's own, taken by the application
      args.removeFirst();
    } else if (a.startsWith(QLatin1Char('-'))) {
      return usage(QStringLiteral("unknown option '%1'").arg(a));
    } else {
      r.recordings << a;
    }
  }
  if (r.recordings.isEmpty()) return usage(QStringLiteral("no recording given"));
  if (r.outDir.isEmpty()) return usage(QStringLiteral("--out is required"));
  return bagscope::widgets::renderLayout(r);
}

}  // namespace

int main(int argc, char** argv) {
  // Rendering needs no screen: Qt's offscreen platform unless the caller chose one.
  const bool rendering = std::any_of(argv, argv + argc, [](const char* a) { return std::strcmp(a, "--render") == 0; });
  if (rendering && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  bagscope::widgets::Application app(argc, argv);  // reports exceptions that escape a slot
  QApplication::setApplicationName(QStringLiteral("Bagscope"));
  QApplication::setOrganizationName(QStringLiteral("Bagscope"));
  QApplication::setApplicationVersion(QString::fromLatin1(bagscope::build::version));
  // Wayland and desktop environments match the window to the .desktop file (name and icon).
  QGuiApplication::setDesktopFileName(QString::fromLatin1(bagscope::build::appId));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/bagscope.svg")));
  // The language is needed before the parser's own texts: read the option by hand first.
  QString language = bagscope::widgets::AppSettings::load().language;
  QStringList args = QApplication::arguments();
  if (auto i = args.indexOf(QStringLiteral("--language")); i >= 0 && i + 1 < args.size()) language = args[i + 1];
  installTranslations(app, language);
  if (rendering) return render(QApplication::arguments());

  QCommandLineParser parser;
  parser.setApplicationDescription(QApplication::translate("main", "Opens ROS recordings without ROS."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addOption({QStringLiteral("language"),
                    QApplication::translate("main", "user interface language for this run (en, zh_CN, ja_JP)"),
                    QStringLiteral("code")});
  parser.addPositionalArgument(QStringLiteral("files"),
                               QApplication::translate("main", "recordings or folders to open"),
                               QStringLiteral("[files...]"));
  parser.process(app);

  bagscope::widgets::MainWindow window;
  window.show();
  QStringList paths;
  for (const QString& p : parser.positionalArguments()) paths << QFileInfo(p).absoluteFilePath();
  if (paths.isEmpty()) {
    paths << QFileInfo(dataDir() + QStringLiteral("/samples/demo.bag")).absoluteFilePath();
  }
  window.open(paths);
  return QApplication::exec();
}
