// bagscope: the desktop entry point. Opens the files and folders named on the command line,
// or the bundled sample bag when there are none.

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QSurfaceFormat>
#include <QTranslator>

#include "widgets/main_window.hpp"
#include "widgets/settings.hpp"
#include "widgets/vtk_view.hpp"

namespace {

// The user's choice, else the system's languages; Qt's own strings (dialog buttons) too.
void installTranslations(QApplication& app, const QString& chosen) {
  QLocale locale = chosen.isEmpty() ? QLocale::system() : QLocale(chosen);
  auto* ours = new QTranslator(&app);
  if (ours->load(locale, QStringLiteral("bagscope"), QStringLiteral("_"), QStringLiteral(":/i18n")))
    QApplication::installTranslator(ours);
  auto* qt = new QTranslator(&app);
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
    QApplication::installTranslator(qt);
}

}  // namespace

int main(int argc, char** argv) {
  // The 3D view's OpenGL context (VTK needs 3.2 core) is chosen before the application.
  QSurfaceFormat::setDefaultFormat(bagscope::widgets::VtkView::defaultFormat());
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Bagscope"));
  QApplication::setOrganizationName(QStringLiteral("Bagscope"));
  QApplication::setApplicationVersion(QStringLiteral(BAGSCOPE_VERSION));
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
  parser.addPositionalArgument(QStringLiteral("files"), QApplication::translate("main", "recordings or folders to open"),
                               QStringLiteral("[files...]"));
  parser.process(app);

  bagscope::widgets::MainWindow window;
  window.show();
  QStringList paths;
  for (const QString& p : parser.positionalArguments()) paths << QFileInfo(p).absoluteFilePath();
  if (paths.isEmpty()) {
    // Installed and build trees share the layout <prefix>/bin and <prefix>/share/bagscope.
    paths << QFileInfo(QDir(QApplication::applicationDirPath()).filePath(QStringLiteral("../share/bagscope/samples/demo.bag")))
                 .absoluteFilePath();
  }
  window.open(paths);
  return QApplication::exec();
}
