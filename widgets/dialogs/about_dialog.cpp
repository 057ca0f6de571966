#include "widgets/dialogs/about_dialog.hpp"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSysInfo>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <qcustomplot.h>
#include <vtkVersion.h>

#include "bagscope/build_info.hpp"
#include "core/sensors/sensors.hpp"
#include "widgets/qt_text.hpp"

namespace bagscope::widgets {
namespace {

struct Component {
  const char* name;
  const char* licence;  // SPDX identifier
  QString version;
  const char* url;
  const char* text = nullptr;  // full text shipped inside the program (resource path)
};

// What the programs are built from. Bagscope links QCustomPlot (GPL-3.0), so the whole is
// GPL-3.0-or-later; the ROS 2 definitions are compiled in and keep their Apache-2.0 licence.
// The OpenCV that does the pixel work is a module loaded on first use; asking loads it.
QString openCvText() {
  auto version = sensors::openCvVersion();
  return version ? toQt(*version) : AboutDialog::tr("not available: %1").arg(toQt(version.error().describe()));
}

std::vector<Component> components() {
  const QString openCv = openCvText();
  return {
      {"Bagscope", "GPL-3.0-or-later", QString::fromLatin1(build::version), build::homepage, ":/licenses/LICENSE"},
      {"ROS 2 message definitions",
       "Apache-2.0",
       {},
       "https://github.com/ros2/common_interfaces",
       ":/licenses/resources/ros2-interfaces/LICENSE"},
      {"Qt", "LGPL-3.0-only", QString::fromLatin1(qVersion()), "https://www.qt.io/licensing/"},
      {"QCustomPlot", "GPL-3.0-or-later", QStringLiteral(QCUSTOMPLOT_VERSION_STR), "https://www.qcustomplot.com/"},
      {"VTK", "BSD-3-Clause", QString::fromLatin1(vtkVersion::GetVTKVersion()), "https://vtk.org/"},
      {"OpenCV", "Apache-2.0", openCv, "https://opencv.org/license/"},
      {"SQLite", "blessing (public domain)", {}, "https://www.sqlite.org/copyright.html"},
      {"SQLiteCpp", "MIT", {}, "https://github.com/SRombauts/SQLiteCpp"},
      {"yaml-cpp", "MIT", {}, "https://github.com/jbeder/yaml-cpp"},
      {"LZ4", "BSD-2-Clause", {}, "https://github.com/lz4/lz4"},
      {"Zstandard", "BSD-3-Clause", {}, "https://github.com/facebook/zstd"},
      {"bzip2", "bzip2-1.0.6", {}, "https://sourceware.org/bzip2/"},
  };
}

QString resourceText(const char* path) {
  QFile file(QString::fromLatin1(path));
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QWidget* aboutTab() {
  auto* page = new QWidget;
  auto* layout = new QHBoxLayout(page);
  auto* icon = new QLabel;
  icon->setPixmap(QApplication::windowIcon().pixmap(96, 96));
  icon->setAlignment(Qt::AlignTop);
  layout->addWidget(icon);
  auto* text = new QLabel(
      QStringLiteral("<h2>Bagscope %1</h2><p>%2</p><p><a href=\"%3\">%3</a></p><p>%4</p>")
          .arg(QString::fromLatin1(build::version),
               AboutDialog::tr("Opens ROS 1 and ROS 2 recordings (.bag, .mcap, rosbag2 folders) without ROS: "
                               "look inside, plot, and export."),
               QString::fromLatin1(build::homepage),
               AboutDialog::tr("Copyright © 2026 The Bagscope developers. Free software under the GNU General "
                               "Public License, version 3 or later; see Licences.")));
  text->setWordWrap(true);
  text->setOpenExternalLinks(true);
  text->setTextInteractionFlags(Qt::TextBrowserInteraction);
  text->setAlignment(Qt::AlignTop);
  layout->addWidget(text, 1);
  return page;
}

QWidget* buildTab() {
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  auto* report = new QPlainTextEdit(AboutDialog::buildReport());
  report->setReadOnly(true);
  report->setObjectName(QStringLiteral("buildReport"));
  layout->addWidget(report);
  auto* copy = new QPushButton(AboutDialog::tr("Copy to Clipboard"));
  QObject::connect(copy, &QPushButton::clicked, page,
                   [report] { QApplication::clipboard()->setText(report->toPlainText()); });
  layout->addWidget(copy, 0, Qt::AlignRight);
  return page;
}

QWidget* licencesTab() {
  auto* page = new QWidget;
  auto* layout = new QHBoxLayout(page);
  auto* list = new QListWidget;
  list->setObjectName(QStringLiteral("licences"));
  auto* text = new QTextBrowser;
  text->setObjectName(QStringLiteral("licenceText"));
  text->setOpenExternalLinks(true);
  const auto all = components();
  for (const auto& c : all) list->addItem(QString::fromUtf8(c.name));
  list->setMaximumWidth(list->sizeHintForColumn(0) + 24);
  QObject::connect(list, &QListWidget::currentRowChanged, text, [all, text](int row) {
    if (row < 0) return;
    const Component& c = all[static_cast<std::size_t>(row)];
    QString head = QStringLiteral("<h3>%1 %2</h3><p>%3: <b>%4</b><br><a href=\"%5\">%5</a></p>")
                       .arg(QString::fromUtf8(c.name), c.version.toHtmlEscaped(), AboutDialog::tr("Licence"),
                            QString::fromLatin1(c.licence), QString::fromLatin1(c.url));
    if (c.text) head += QStringLiteral("<pre>%1</pre>").arg(resourceText(c.text).toHtmlEscaped());
    else
      head += QStringLiteral("<p>%1</p>")
                  .arg(AboutDialog::tr(
                      "Linked from the system's copy on Linux, where its package carries the full licence text; "
                      "shipped beside the program on Windows and macOS."));
    text->setHtml(head);
  });
  list->setCurrentRow(0);
  layout->addWidget(list);
  layout->addWidget(text, 1);
  return page;
}

}  // namespace

QString AboutDialog::buildReport() {
  QStringList lines{
      QStringLiteral("Bagscope: %1").arg(QString::fromLatin1(build::version)),
      QStringLiteral("Commit: %1").arg(QString::fromLatin1(build::commit)),
      QStringLiteral("Build type: %1").arg(QString::fromLatin1(build::buildType)),
      QStringLiteral("Compiler: %1").arg(QString::fromLatin1(build::compiler)),
      QStringLiteral("Built for: %1 (%2)").arg(QString::fromLatin1(build::system), QSysInfo::buildAbi()),
      QStringLiteral("Running on: %1, %2").arg(QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture()),
      QStringLiteral("Qt: %1 (built with %2), platform %3")
          .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR), QGuiApplication::platformName()),
      QStringLiteral("VTK: %1").arg(QString::fromLatin1(vtkVersion::GetVTKVersion())),
      QStringLiteral("OpenCV: %1").arg(openCvText()),
      QStringLiteral("QCustomPlot: %1").arg(QStringLiteral(QCUSTOMPLOT_VERSION_STR)),
  };
  return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("About Bagscope"));
  auto* layout = new QVBoxLayout(this);
  auto* tabs = new QTabWidget;
  tabs->addTab(aboutTab(), tr("About"));
  tabs->addTab(buildTab(), tr("Build"));
  tabs->addTab(licencesTab(), tr("Licences"));
  layout->addWidget(tabs);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(900, 560);  // a licence text's 80 columns beside the list
}

}  // namespace bagscope::widgets
