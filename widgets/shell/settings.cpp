#include "widgets/shell/settings.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "core/session/session.hpp"
#include "widgets/qt_text.hpp"

namespace bagscope::widgets {

AppSettings AppSettings::load() {
  QSettings s;
  AppSettings a;
  a.language = s.value(QStringLiteral("language")).toString();
  a.timeDisplay = static_cast<TimeDisplay>(std::clamp(s.value(QStringLiteral("timeDisplay"), 0).toInt(), 0, 2));
  a.cacheMiB = std::clamp(s.value(QStringLiteral("cacheMiB"), 1024).toInt(), 0, 1 << 20);
  a.exportFolder =
      s.value(QStringLiteral("exportFolder"),
              QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QStringLiteral("/Bagscope exports"))
          .toString();
  a.messagePaths = s.value(QStringLiteral("messagePaths")).toStringList();
  a.tileUrl = s.value(QStringLiteral("tileUrl")).toString();
  return a;
}

void AppSettings::save() const {
  QSettings s;
  s.setValue(QStringLiteral("language"), language);
  s.setValue(QStringLiteral("timeDisplay"), static_cast<int>(timeDisplay));
  s.setValue(QStringLiteral("cacheMiB"), cacheMiB);
  s.setValue(QStringLiteral("exportFolder"), exportFolder);
  s.setValue(QStringLiteral("messagePaths"), messagePaths);
  s.setValue(QStringLiteral("tileUrl"), tileUrl);
}

QList<QPair<QString, QString>> availableLanguages() {
  return {{QStringLiteral("en"), QStringLiteral("English")},
          {QStringLiteral("zh_CN"), QStringLiteral("简体中文")},
          {QStringLiteral("ja_JP"), QStringLiteral("日本語")}};
}

SettingsDialog::SettingsDialog(const AppSettings& settings, QWidget* parent)
    : QDialog(parent),
      language_(new QComboBox(this)),
      time_(new QComboBox(this)),
      cache_(new QSpinBox(this)),
      exportFolder_(new QLineEdit(settings.exportFolder, this)),
      tileUrl_(new QLineEdit(settings.tileUrl, this)),
      messagePaths_(new QListWidget(this)) {
  setWindowTitle(tr("Settings"));
  setMinimumWidth(480);
  language_->addItem(tr("System default"), QString());
  for (const auto& [code, name] : availableLanguages()) language_->addItem(name, code);
  language_->setCurrentIndex(std::max(0, language_->findData(settings.language)));
  time_->addItem(tr("Seconds from the start"), static_cast<int>(TimeDisplay::Relative));
  time_->addItem(tr("Clock time"), static_cast<int>(TimeDisplay::Clock));
  time_->addItem(tr("Unix time (s)"), static_cast<int>(TimeDisplay::Unix));
  time_->setCurrentIndex(std::max(0, time_->findData(static_cast<int>(settings.timeDisplay))));
  cache_->setRange(64, 65536);
  cache_->setSingleStep(256);
  cache_->setSuffix(tr(" MiB"));
  cache_->setValue(std::max(64, settings.cacheMiB));
  cache_->setToolTip(
      tr("Memory for decompressed chunks, shared by all panels. More makes moving back and forth faster."));

  auto* form = new QFormLayout;
  form->addRow(tr("Language:"), language_);
  auto* note = new QLabel(tr("A new language takes effect when Bagscope starts again."), this);
  note->setWordWrap(true);
  note->setEnabled(false);
  form->addRow(QString(), note);
  form->addRow(tr("Show times as:"), time_);
  form->addRow(tr("Cache budget:"), cache_);
  auto* browse = new QPushButton(tr("Choose…"), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Default export folder"), exportFolder_->text());
    if (!dir.isEmpty()) exportFolder_->setText(dir);
  });
  auto* folderRow = new QHBoxLayout;
  folderRow->addWidget(exportFolder_, 1);
  folderRow->addWidget(browse);
  form->addRow(tr("Default export folder:"), folderRow);

  // Definitions that recordings lack (older rosbag2 files name custom types only).
  messagePaths_->setObjectName(QStringLiteral("messagePaths"));
  messagePaths_->addItems(settings.messagePaths);
  messagePaths_->setToolTip(
      tr("Used for types a recording does not define: folders holding package/msg/Type.msg "
         "files, and recordings whose definitions are borrowed. Applied to the open recording at once."));
  messagePaths_->setMaximumHeight(110);
  auto* addFolder = new QPushButton(tr("Add Folder…"), this);
  auto* addRecording = new QPushButton(tr("Add Recording…"), this);
  auto* remove = new QPushButton(tr("Remove"), this);
  connect(addFolder, &QPushButton::clicked, this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of message definitions"));
    if (!dir.isEmpty()) messagePaths_->addItem(dir);
  });
  connect(addRecording, &QPushButton::clicked, this, [this] {
    QString file = QFileDialog::getOpenFileName(
        this, tr("Recording to borrow definitions from"), QString(),
        tr("Recordings (%1)").arg(QString::fromStdString(session::recordingFilePatterns())));
    // A rosbag2 recording is its folder.
    if (file.isEmpty()) return;
    const auto* container = session::containerFormatOf(toPath(file));
    messagePaths_->addItem(container && container->isFolder ? QFileInfo(file).absolutePath() : file);
  });
  connect(remove, &QPushButton::clicked, this, [this] { delete messagePaths_->currentItem(); });
  auto* pathButtons = new QVBoxLayout;
  pathButtons->addWidget(addFolder);
  pathButtons->addWidget(addRecording);
  pathButtons->addWidget(remove);
  pathButtons->addStretch(1);
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(messagePaths_, 1);
  pathRow->addLayout(pathButtons);
  form->addRow(tr("Message definitions:"), pathRow);
  tileUrl_->setPlaceholderText(QStringLiteral("https://tile.openstreetmap.org/{z}/{x}/{y}.png"));
  tileUrl_->setToolTip(tr("The map's background tiles, fetched only when a map's Tiles box is ticked; empty: none"));
  form->addRow(tr("Map tile URL:"), tileUrl_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
}

AppSettings SettingsDialog::settings() const {
  AppSettings a;
  a.language = language_->currentData().toString();
  a.timeDisplay = static_cast<TimeDisplay>(time_->currentData().toInt());
  a.cacheMiB = cache_->value();
  a.exportFolder = exportFolder_->text();
  for (int i = 0; i < messagePaths_->count(); ++i) a.messagePaths << messagePaths_->item(i)->text();
  a.tileUrl = tileUrl_->text().trimmed();
  return a;
}

}  // namespace bagscope::widgets
