// bagscope: the desktop entry point. Opens the files named on the command line, or the
// bundled sample bag when there are none.

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include "widgets/main_window.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Bagscope"));
  QApplication::setOrganizationName(QStringLiteral("Bagscope"));
  QApplication::setApplicationVersion(QStringLiteral(BAGSCOPE_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Opens ROS recordings without ROS."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("recording to open"));
  parser.process(app);

  bagscope::widgets::MainWindow window;
  window.show();
  QString path = parser.positionalArguments().value(0);
  if (path.isEmpty()) {
    // Installed and build trees share the layout <prefix>/bin and <prefix>/share/bagscope.
    path = QDir(QApplication::applicationDirPath())
               .filePath(QStringLiteral("../share/bagscope/samples/demo.bag"));
  }
  window.openFile(QFileInfo(path).absoluteFilePath());
  return QApplication::exec();
}
