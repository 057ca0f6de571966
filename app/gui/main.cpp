// bagscope: the desktop entry point. Opens the files and folders named on the command line,
// or the bundled sample bag when there are none.

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSurfaceFormat>
#include <QTranslator>

#include "bagscope/build_info.hpp"
#include "widgets/async/unexpected_error.hpp"
#include "widgets/panels/scene3d/vtk_view.hpp"
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

}  // namespace

int main(int argc, char** argv) {
  // The 3D view's OpenGL context (VTK needs 3.2 core) is chosen before the application.
  QSurfaceFormat::setDefaultFormat(bagscope::widgets::VtkView::defaultFormat());
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
