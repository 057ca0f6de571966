#include "widgets/dialogs/export_wizard.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QCollator>
#include <QComboBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "core/base/text.hpp"
#include "core/export/export.hpp"
#include "core/sensors/sensors.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/settings.hpp"

namespace bagscope::widgets {
namespace {

enum TopicColumn { kTopicName, kTopicType, kTopicCount, kTopicFormat };
enum RunColumn { kRunTask, kRunBar, kRunState };

exporters::Format formatNamed(const QString& name) { return *exporters::formatFromName(name.toStdString()); }

QString defaultTemplate(const QString& format, const QString& type) {
  // Each topic in a folder of its own, or one file per topic: several topics never collide.
  return exporters::filePerMessage(formatNamed(format), type.toStdString())
             ? QStringLiteral("{topic}/{bag}_frame_{index}.{ext}")
             : QStringLiteral("{bag}_{topic}.{ext}");
}

QString formatLabel(const QString& format) {
  return QString::fromLatin1(exporters::formatInfo(formatNamed(format)).label);
}

QString describeSkipped(const std::map<std::string, std::uint64_t>& skipped) {
  QStringList parts;
  for (const auto& [why, n] : skipped) parts << QStringLiteral("%1 × %2").arg(n).arg(toQt(why));
  return parts.join(QStringLiteral("; "));
}

}  // namespace

QStringList exportFormatsFor(const QString& type) {
  QStringList names;
  for (auto f : exporters::formatsFor(type.toStdString())) names << QString::fromLatin1(exporters::formatName(f));
  return names;
}

struct ExportWizard::Task {
  QString topic, type, format;
};

ExportWizard::ExportWizard(Document* document, const QStringList& topics, QWidget* parent)
    : QWizard(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      report_(std::make_shared<exporters::ExportReport>()) {
  setWindowTitle(tr("Export"));
  setWizardStyle(QWizard::ClassicStyle);
  setOption(QWizard::NoBackButtonOnLastPage, true);
  setOption(QWizard::NoCancelButtonOnLastPage, true);
  resize(720, 560);
  setPage(What, static_cast<QWizardPage*>(makeWhatPage()));
  setPage(When, static_cast<QWizardPage*>(makeWhenPage()));
  setPage(How, static_cast<QWizardPage*>(makeHowPage()));
  setPage(Where, static_cast<QWizardPage*>(makeWherePage()));
  setPage(Run, static_cast<QWizardPage*>(makeRunPage()));
  recall();
  if (!topics.isEmpty()) {  // Export This Topic…: those, not the ones remembered
    for (int i = 0; i < topics_->topLevelItemCount(); ++i)
      topics_->topLevelItem(i)->setCheckState(kTopicName, Qt::Unchecked);
    for (const QString& t : topics) chooseTopic(t, {});
  }
}

ExportWizard::~ExportWizard() {
  mailbox_->close();
  job_.reset();  // cancels and waits: the export keeps only complete files
  framesJob_.reset();
}

// ---------------------------------------------------------------------------------------
// Pages

QWidget* ExportWizard::makeWhatPage() {
  auto* page = new QWizardPage;
  page->setTitle(tr("What to export"));
  page->setSubTitle(tr("Tick the topics and choose a format for each."));
  topics_ = new QTreeWidget(page);
  topics_->setHeaderLabels({tr("Topic"), tr("Type"), tr("Messages"), tr("Format")});
  topics_->setRootIsDecorated(false);
  topics_->header()->resizeSection(kTopicName, 220);
  topics_->header()->resizeSection(kTopicType, 200);
  for (const auto& t : document_->topics()) {
    if (!t.decodeProblem.isEmpty() || t.count == 0) continue;
    auto* item = new QTreeWidgetItem(topics_);
    item->setText(kTopicName, t.name);
    item->setText(kTopicType, t.type);
    item->setText(kTopicCount, QLocale().toString(static_cast<qulonglong>(t.count)));
    item->setCheckState(kTopicName, Qt::Unchecked);
    auto* format = new QComboBox(topics_);
    for (const QString& f : exportFormatsFor(t.type)) format->addItem(formatLabel(f), f);
    topics_->setItemWidget(item, kTopicFormat, format);
  }
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(topics_);
  return page;
}

QWidget* ExportWizard::makeWhenPage() {
  auto* page = new QWizardPage;
  page->setTitle(tr("When"));
  page->setSubTitle(tr("Which part of the recording, and how many of its messages."));
  whole_ = new QRadioButton(tr("The whole recording"), page);
  selected_ = new QRadioButton(tr("The range selected on the timeline"), page);
  typed_ = new QRadioButton(tr("From … to … (seconds from the start):"), page);
  whole_->setChecked(true);
  from_ = new QDoubleSpinBox(page);
  to_ = new QDoubleSpinBox(page);
  double duration = static_cast<double>(document_->endNs() - document_->startNs()) / 1e9;
  for (auto* box : {from_, to_}) {
    box->setRange(0, duration);
    box->setDecimals(3);
    box->setSuffix(tr(" s"));
  }
  to_->setValue(duration);
  every_ = new QSpinBox(page);
  every_->setRange(1, 1000000);
  every_->setToolTip(tr("Keep every n-th message of each topic (1: all)"));
  auto* typed = new QHBoxLayout;
  typed->addWidget(typed_);
  typed->addWidget(from_);
  typed->addWidget(new QLabel(QStringLiteral("–"), page));
  typed->addWidget(to_);
  typed->addStretch(1);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(whole_);
  layout->addWidget(selected_);
  layout->addLayout(typed);
  layout->addSpacing(12);
  auto* everyRow = new QHBoxLayout;
  everyRow->addWidget(new QLabel(tr("Keep every n-th message of each topic (1: all):"), page));
  everyRow->addWidget(every_);
  everyRow->addStretch(1);
  layout->addLayout(everyRow);
  layout->addStretch(1);
  auto sync = [this] {
    from_->setEnabled(typed_->isChecked());
    to_->setEnabled(typed_->isChecked());
  };
  connect(typed_, &QRadioButton::toggled, this, sync);
  sync();
  return page;
}

QWidget* ExportWizard::makeHowPage() {
  auto* page = new QWizardPage;
  page->setTitle(tr("How"));
  page->setSubTitle(tr("Options of the chosen formats."));
  QStringList cloudFormats;
  for (const auto& f : exporters::formats())
    if (f.cloud.write) cloudFormats << QString::fromLatin1(f.label);
  auto* clouds = new QGroupBox(tr("Point clouds (%1)").arg(cloudFormats.join(QStringLiteral(", "))), page);
  pcdEncoding_ = new QComboBox(clouds);
  pcdEncoding_->addItem(tr("binary"), "binary");
  pcdEncoding_->addItem(tr("binary_compressed"), "binary_compressed");
  pcdEncoding_->addItem(tr("ascii"), "ascii");
  plyAscii_ = new QCheckBox(tr("PLY as text (ascii) instead of binary"), clouds);
  fields_ = new QLineEdit(clouds);
  fields_->setPlaceholderText(tr("all fields, e.g. x,y,z,intensity=reflectance"));
  fields_->setToolTip(tr("Fields to write, in order; name=newname renames (PLY/PCD/NumPy field names)"));
  dropNaN_ = new QCheckBox(tr("Leave out points without x, y, z (NaN)"), clouds);
  normalise_ = new QCheckBox(tr("Intensity divided by the cloud's maximum (0–1)"), clouds);
  targetFrame_ = new QComboBox(clouds);
  targetFrame_->setEditable(true);
  targetFrame_->addItem(QString());
  targetFrame_->setToolTip(
      tr("Move clouds into this TF frame (from /tf and /tf_static) at their stamp; empty: as recorded"));
  axes_ = new QLineEdit(clouds);
  axes_->setPlaceholderText(tr("x,y,z (as recorded)"));
  axes_->setToolTip(
      tr("Axes remapped after the target frame: z,-y,x makes new x = old z, new y = −old y, "
         "new z = old x (a lidar mounted with another convention)"));
  auto* cloudForm = new QFormLayout(clouds);
  cloudForm->addRow(tr("PCD encoding:"), pcdEncoding_);
  cloudForm->addRow(QString(), plyAscii_);
  cloudForm->addRow(tr("Fields:"), fields_);
  cloudForm->addRow(QString(), dropNaN_);
  cloudForm->addRow(QString(), normalise_);
  cloudForm->addRow(tr("Target frame:"), targetFrame_);
  cloudForm->addRow(tr("Axes (new x, y, z):"), axes_);
  cloudBox_ = clouds;

  auto* images = new QGroupBox(tr("Images and video"), page);
  jpegQuality_ = new QSpinBox(images);
  jpegQuality_->setRange(1, 100);
  jpegQuality_->setValue(95);
  fps_ = new QDoubleSpinBox(images);
  fps_->setRange(0, 1000);
  fps_->setSpecialValueText(tr("the topic's rate"));
  fps_->setSuffix(tr(" fps"));
  auto* imageForm = new QFormLayout(images);
  imageForm->addRow(tr("JPEG quality:"), jpegQuality_);
  imageForm->addRow(tr("Video frame rate:"), fps_);
  imageBox_ = images;

  auto* tables = new QGroupBox(tr("Tables (CSV, NumPy)"), page);
  timeColumns_ = new QComboBox(tables);
  timeColumns_->addItem(tr("log time and header stamp"), static_cast<int>(exporters::TimeColumns::Both));
  timeColumns_->addItem(tr("log time"), static_cast<int>(exporters::TimeColumns::LogTime));
  timeColumns_->addItem(tr("header stamp"), static_cast<int>(exporters::TimeColumns::Stamp));
  seconds_ = new QCheckBox(tr("Times in seconds (else nanoseconds)"), tables);
  arrayLimit_ = new QSpinBox(tables);
  arrayLimit_->setRange(0, 100000);
  arrayLimit_->setValue(16);
  arrayLimit_->setToolTip(tr("Variable-length arrays: at most this many columns"));
  auto* tableForm = new QFormLayout(tables);
  tableForm->addRow(tr("Time columns:"), timeColumns_);
  tableForm->addRow(QString(), seconds_);
  tableForm->addRow(tr("Array columns at most:"), arrayLimit_);
  tableBox_ = tables;

  auto* layout = new QVBoxLayout(page);
  layout->addWidget(clouds);
  layout->addWidget(images);
  layout->addWidget(tables);
  layout->addStretch(1);
  return page;
}

QWidget* ExportWizard::makeWherePage() {
  auto* page = new QWizardPage;
  page->setTitle(tr("Where"));
  page->setSubTitle(
      tr("The folder and the file names. Files are written under a temporary name and renamed when complete."));
  folder_ = new QLineEdit(page);
  auto* browse = new QPushButton(tr("Choose…"), page);
  template_ = new QLineEdit(page);
  template_->setPlaceholderText(
      tr("default: {topic}/{bag}_frame_{index}.{ext} per frame, {bag}_{topic}.{ext} per topic"));
  template_->setToolTip(tr("Placeholders: {bag} {topic} {index} {stamp_ns} {log_time_ns} {ext}; '/' makes folders"));
  keep_ = new QRadioButton(tr("Keep existing files: stop and list them"), page);
  replace_ = new QRadioButton(tr("Replace existing files"), page);
  keep_->setChecked(true);
  preview_ = new QListWidget(page);
  whereProblem_ = new QLabel(page);
  whereProblem_->setWordWrap(true);
  whereProblem_->setStyleSheet(QStringLiteral("color: #b00020"));
  auto* folderRow = new QHBoxLayout;
  folderRow->addWidget(folder_, 1);
  folderRow->addWidget(browse);
  auto* form = new QFormLayout;
  form->addRow(tr("Folder:"), folderRow);
  form->addRow(tr("File names:"), template_);
  form->addRow(QString(), keep_);
  form->addRow(QString(), replace_);
  auto* layout = new QVBoxLayout(page);
  layout->addLayout(form);
  layout->addWidget(new QLabel(tr("The first files:"), page));
  layout->addWidget(preview_, 1);
  choices_ = new QLabel(page);
  choices_->setObjectName(QStringLiteral("choices"));
  choices_->setWordWrap(true);
  layout->addWidget(choices_);
  layout->addWidget(whereProblem_);
  connect(browse, &QPushButton::clicked, this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Export into"), folder_->text());
    if (!dir.isEmpty()) folder_->setText(dir);
  });
  connect(folder_, &QLineEdit::textChanged, this, &ExportWizard::updatePreview);
  connect(template_, &QLineEdit::textChanged, this, &ExportWizard::updatePreview);
  connect(replace_, &QRadioButton::toggled, this, &ExportWizard::updatePreview);
  return page;
}

QWidget* ExportWizard::makeRunPage() {
  auto* page = new QWizardPage;
  page->setTitle(tr("Export"));
  progress_ = new QTreeWidget(page);
  progress_->setHeaderLabels({tr("Topic"), tr("Progress"), tr("State")});
  progress_->setRootIsDecorated(false);
  progress_->header()->resizeSection(kRunTask, 260);
  progress_->header()->resizeSection(kRunBar, 200);
  summary_ = new QLabel(page);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  cancel_ = new QPushButton(tr("Cancel Export"), page);
  openFolder_ = new QPushButton(tr("Open Folder"), page);
  openFolder_->setEnabled(false);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(cancel_);
  buttons->addStretch(1);
  buttons->addWidget(openFolder_);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(progress_, 1);
  layout->addWidget(summary_);
  layout->addLayout(buttons);
  connect(cancel_, &QPushButton::clicked, this, [this] {
    if (job_) job_->cancel();
  });
  connect(openFolder_, &QPushButton::clicked, this,
          [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(folder_->text())); });
  return page;
}

// ---------------------------------------------------------------------------------------
// Choices

void ExportWizard::chooseTopic(const QString& topic, const QString& format) {
  for (int i = 0; i < topics_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = topics_->topLevelItem(i);
    if (item->text(kTopicName) != topic) continue;
    item->setCheckState(kTopicName, Qt::Checked);
    if (!format.isEmpty()) {
      auto* box = static_cast<QComboBox*>(topics_->itemWidget(item, kTopicFormat));
      box->setCurrentIndex(std::max(0, box->findData(format)));
    }
    topics_->scrollToItem(item);
  }
}

void ExportWizard::setEvery(int n) { every_->setValue(n); }

void ExportWizard::setRange(qint64 startNs, qint64 endNs) {
  typed_->setChecked(true);
  from_->setValue(static_cast<double>(startNs - document_->startNs()) / 1e9);
  to_->setValue(static_cast<double>(endNs - document_->startNs()) / 1e9);
}

void ExportWizard::setFolder(const QString& folder) { folder_->setText(folder); }
void ExportWizard::setReplaceExisting(bool replace) { (replace ? replace_ : keep_)->setChecked(true); }

void ExportWizard::setTargetFrame(const QString& frame) { targetFrame_->setCurrentText(frame); }
void ExportWizard::setAxes(const QString& axes) { axes_->setText(axes); }

QStringList ExportWizard::targetFrames() const {
  QStringList out;
  for (int i = 0; i < targetFrame_->count(); ++i) out << targetFrame_->itemText(i);
  return out;
}

QStringList ExportWizard::previewNames() const {
  QStringList out;
  for (int i = 0; i < preview_->count(); ++i) out << preview_->item(i)->text();
  return out;
}

QStringList ExportWizard::ticked() const {
  QStringList out;
  for (const auto& t : tasks()) out << t.topic + QLatin1Char('=') + t.format;
  return out;
}

QString ExportWizard::summary() const { return summary_->text(); }
const exporters::ExportReport& ExportWizard::report() const { return *report_; }

std::vector<ExportWizard::Task> ExportWizard::tasks() const {
  std::vector<Task> out;
  for (int i = 0; i < topics_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = topics_->topLevelItem(i);
    if (item->checkState(kTopicName) != Qt::Checked) continue;
    auto* box = static_cast<QComboBox*>(topics_->itemWidget(item, kTopicFormat));
    out.push_back({item->text(kTopicName), item->text(kTopicType), box->currentData().toString()});
  }
  return out;
}

std::vector<exporters::ExportOptions> ExportWizard::taskOptions() const {
  std::vector<exporters::ExportOptions> out;
  for (const auto& t : tasks()) {
    auto o = optionsFor(t.format);
    o.topics = {t.topic.toStdString()};
    o.nameTemplate =
        (template_->text().isEmpty() ? defaultTemplate(t.format, t.type) : template_->text()).toStdString();
    out.push_back(std::move(o));
  }
  return out;
}

QString ExportWizard::bagName() const {
  return document_->paths().isEmpty() ? QString() : toQt(exporters::recordingName(toPath(document_->paths().front())));
}

bool ExportWizard::namesCollide() const {
  return tasks().size() > 1 && !template_->text().isEmpty() && !template_->text().contains(QLatin1String("{topic}"));
}

exporters::ExportOptions ExportWizard::optionsFor(const QString& format) const {
  exporters::ExportOptions o;
  o.format = formatNamed(format);
  if (selected_->isChecked() && document_->range()) {
    o.startNs = document_->range()->startNs;
    o.endNs = document_->range()->endNs;
  } else if (typed_->isChecked()) {
    o.startNs = document_->startNs() + static_cast<qint64>(std::llround(from_->value() * 1e9));
    o.endNs = document_->startNs() + static_cast<qint64>(std::llround(to_->value() * 1e9));
  }
  o.every = static_cast<std::uint32_t>(every_->value());
  o.outDir = toPath(folder_->text());
  o.overwrite = replace_->isChecked();
  o.pcdEncoding = pcdEncoding_->currentData() == QLatin1String("ascii") ? exporters::PcdEncoding::Ascii
                  : pcdEncoding_->currentData() == QLatin1String("binary_compressed")
                      ? exporters::PcdEncoding::BinaryCompressed
                      : exporters::PcdEncoding::Binary;
  o.plyAscii = plyAscii_->isChecked();
  for (const QString& f : fields_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
    o.fields.push_back(f.trimmed().toStdString());
  o.dropNaN = dropNaN_->isChecked();
  o.normaliseIntensity = normalise_->isChecked();
  o.targetFrame = targetFrame_->currentText().trimmed().toStdString();
  o.axes = axes_->text().remove(QLatin1Char(' ')).toStdString();
  o.jpegQuality = jpegQuality_->value();
  o.fps = fps_->value();
  o.timeColumns = static_cast<exporters::TimeColumns>(timeColumns_->currentData().toInt());
  o.timeInSeconds = seconds_->isChecked();
  o.arrayLimit = static_cast<std::uint32_t>(arrayLimit_->value());
  return o;
}

void ExportWizard::updateHowPage() {
  // Each box shows when a chosen format takes its options (NumPy: the cloud ones and, for a
  // topic it writes as a table, the table ones).
  bool cloud = false, image = false, table = false;
  for (const auto& t : tasks()) {
    const auto& f = exporters::formatInfo(formatNamed(t.format));
    cloud = cloud || f.options == exporters::FormatOptions::Cloud;
    image = image || f.options == exporters::FormatOptions::Image;
    table = table || f.options == exporters::FormatOptions::Table || f.anyTopic;
  }
  cloudBox_->setVisible(cloud);
  imageBox_->setVisible(image);
  tableBox_->setVisible(table);
}

// Choices that change what is written and may be remembered from an earlier export, said
// where the files are chosen and in the summary, so that none applies unseen (issue #33).
QString ExportWizard::changingChoices() const {
  QStringList said;
  if (every_->value() > 1) said << tr("one message in %1 of each topic").arg(every_->value());
  if (cloudBox_->isVisible()) {
    if (!fields_->text().trimmed().isEmpty()) said << tr("fields %1 only").arg(fields_->text().trimmed());
    if (dropNaN_->isChecked()) said << tr("points without x, y, z left out");
    if (normalise_->isChecked()) said << tr("intensity normalised");
    if (!targetFrame_->currentText().isEmpty()) said << tr("moved into frame %1").arg(targetFrame_->currentText());
    if (!axes_->text().trimmed().isEmpty()) said << tr("axes %1").arg(axes_->text().trimmed());
  }
  if (imageBox_->isVisible() && fps_->value() > 0) said << tr("video at %1 fps").arg(fps_->value());
  return said.isEmpty() ? QString() : tr("Also applied: %1.").arg(said.join(QStringLiteral("; ")));
}

void ExportWizard::updatePreview() {
  if (currentId() != Where) return;
  choices_->setText(changingChoices());
  choices_->setVisible(!choices_->text().isEmpty());
  preview_->clear();
  whereProblem_->clear();
  if (tasks().empty() || folder_->text().isEmpty() || !document_->session()) return;
  if (namesCollide())
    whereProblem_->setText(tr("With several topics the file names need {topic}, or they would collide."));
  if (auto r = exporters::checkNameTemplate(template_->text().toStdString()); !r)
    return whereProblem_->setText(
        tr("File names may only make folders inside the chosen folder: no absolute path, no '..'."));
  // A dry run of the first three messages of each topic, on a pool thread.
  int generation = ++previewGeneration_;
  auto session = document_->session();
  QString bag = bagName();
  auto options = taskOptions();
  for (auto& o : options) {
    o.dryRun = true;
    o.overwrite = true;  // names even where files exist; which exist is checked below
    if (auto id = session->findTopic(o.topics[0])) {
      auto index = session->index(*id);
      auto first = session->atOrAfter(*id, o.startNs).value_or(index.size());
      std::size_t third = std::min(index.size() - 1, first + 2 * o.every);
      if (first < index.size()) o.endNs = std::min(o.endNs, index[third].logTimeNs);
    }
  }
  startInPool([session, bag, options, mailbox = mailbox_, generation, this] {
    QStringList names, conflicts;
    QCollator numeric;  // frame 2 before frame 10, as a file manager sorts them
    numeric.setNumericMode(true);
    for (const auto& o : options) {
      exporters::ExportReport r;
      (void)exporters::exportSession(*session, bag.toStdString(), o, r);
      // Written in parallel, the files are reported as they end: listed in name order.
      QStringList paths;
      for (const auto& f : r.files) paths << fromPath(f.path);
      std::sort(paths.begin(), paths.end(),
                [&](const QString& a, const QString& b) { return numeric.compare(a, b) < 0; });
      for (const QString& path : paths.mid(0, 3)) {
        names << QDir(fromPath(o.outDir)).relativeFilePath(path);
        if (QFileInfo::exists(path)) conflicts << path;
      }
    }
    mailbox->post([this, names, conflicts, generation] {
      if (generation != previewGeneration_) return;
      preview_->addItems(names);
      if (!conflicts.isEmpty())
        whereProblem_->setText(replace_->isChecked()
                                   ? tr("Files that exist will be replaced, e.g. %1.").arg(conflicts.front())
                                   : tr("Files exist already, e.g. %1: the export will stop. Choose \"Replace existing "
                                        "files\" or another folder.")
                                         .arg(conflicts.front()));
    });
  });
}

void ExportWizard::initializePage(int id) {
  QWizard::initializePage(id);
  if (id == When) selected_->setEnabled(document_->range().has_value());
  if (id == How) {
    updateHowPage();
    // Frames the clouds could be moved into: those /tf and /tf_static name, read in the
    // background (a long /tf takes a while).
    if (!framesJob_ && document_->session()) {
      auto session = document_->session();
      auto frames = std::make_shared<std::vector<std::string>>();
      framesJob_ = startSessionJob(
          session, mailbox_,
          [session, frames](StopToken stop, const session::ProgressFn&) -> Result<void> {
            auto r = exporters::tfFrames(*session, stop);
            BAGSCOPE_TRY(r);
            *frames = std::move(r).value();
            return {};
          },
          {},
          [frames, this](const Result<void>& r) {
            if (!r) return;
            QString chosen = targetFrame_->currentText();
            for (const auto& f : *frames)
              if (targetFrame_->findText(toQt(f)) < 0) targetFrame_->addItem(toQt(f));
            targetFrame_->setCurrentText(chosen);
            emit targetFramesLoaded();
          });
    }
  }
  if (id == Where) updatePreview();
  if (id == Run) start();
}

bool ExportWizard::validateCurrentPage() {
  if (currentId() == What && tasks().empty()) return false;
  if (currentId() == When && typed_->isChecked() && from_->value() >= to_->value()) return false;
  if (currentId() == How && cloudBox_->isVisible() && !axes_->text().trimmed().isEmpty()) {
    auto axes = exporters::parseAxes(axes_->text().remove(QLatin1Char(' ')).toStdString());
    axes_->setStyleSheet(axes ? QString() : QStringLiteral("color: red"));
    if (!axes) {
      axes_->setToolTip(tr("Three of x, y, z, each once, each with an optional minus: such as z,-y,x"));
      return false;
    }
  }
  if (currentId() == Where) {
    if (folder_->text().trimmed().isEmpty()) {
      whereProblem_->setText(tr("Choose a folder."));
      return false;
    }
    if (namesCollide()) return false;
    if (!exporters::checkNameTemplate(template_->text().toStdString())) return false;
  }
  return QWizard::validateCurrentPage();
}

void ExportWizard::reject() {
  if (job_) {
    job_->cancel();  // the job ends soon; its result closes nothing the user had
    return;
  }
  QWizard::reject();
}

// ---------------------------------------------------------------------------------------
// Remembered choices (per format group)

void ExportWizard::remember() const {
  QSettings s;
  s.beginGroup(QStringLiteral("export"));
  s.setValue("folder", folder_->text());
  s.setValue("template", template_->text());
  s.setValue("every", every_->value());
  s.setValue("pcd/encoding", pcdEncoding_->currentData());
  s.setValue("ply/ascii", plyAscii_->isChecked());
  s.setValue("cloud/fields", fields_->text());
  s.setValue("cloud/dropNaN", dropNaN_->isChecked());
  s.setValue("cloud/normalise", normalise_->isChecked());
  s.setValue("cloud/targetFrame", targetFrame_->currentText());
  s.setValue("cloud/axes", axes_->text());
  s.setValue("jpeg/quality", jpegQuality_->value());
  s.setValue("video/fps", fps_->value());
  s.setValue("csv/timeColumns", timeColumns_->currentData());
  s.setValue("csv/seconds", seconds_->isChecked());
  s.setValue("csv/arrayLimit", arrayLimit_->value());
  // The topics ticked, and the format last chosen for each topic and for each type.
  QStringList ticked;
  for (const auto& t : tasks()) {
    ticked << t.topic;
    s.setValue("topicFormat/" + t.topic, t.format);
    s.setValue("typeFormat/" + t.type, t.format);
  }
  s.setValue("ticked", ticked);
  s.endGroup();
}

void ExportWizard::recall() {
  QSettings s;
  s.beginGroup(QStringLiteral("export"));
  folder_->setText(s.value("folder", AppSettings::load().exportFolder).toString());
  template_->setText(s.value("template").toString());
  every_->setValue(s.value("every", 1).toInt());
  pcdEncoding_->setCurrentIndex(std::max(0, pcdEncoding_->findData(s.value("pcd/encoding", "binary"))));
  plyAscii_->setChecked(s.value("ply/ascii").toBool());
  fields_->setText(s.value("cloud/fields").toString());
  dropNaN_->setChecked(s.value("cloud/dropNaN").toBool());
  normalise_->setChecked(s.value("cloud/normalise").toBool());
  targetFrame_->setCurrentText(s.value("cloud/targetFrame").toString());
  axes_->setText(s.value("cloud/axes").toString());
  jpegQuality_->setValue(s.value("jpeg/quality", 95).toInt());
  fps_->setValue(s.value("video/fps", 0.0).toDouble());
  timeColumns_->setCurrentIndex(std::max(0, timeColumns_->findData(s.value("csv/timeColumns", 2))));
  seconds_->setChecked(s.value("csv/seconds").toBool());
  arrayLimit_->setValue(s.value("csv/arrayLimit", 16).toInt());
  const QStringList ticked = s.value("ticked").toStringList();
  for (int i = 0; i < topics_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = topics_->topLevelItem(i);
    auto* box = static_cast<QComboBox*>(topics_->itemWidget(item, kTopicFormat));
    QVariant format = s.value("topicFormat/" + item->text(kTopicName), s.value("typeFormat/" + item->text(kTopicType)));
    if (int f = box->findData(format); f >= 0) box->setCurrentIndex(f);
    if (ticked.contains(item->text(kTopicName))) item->setCheckState(kTopicName, Qt::Checked);
  }
  s.endGroup();
}

// ---------------------------------------------------------------------------------------
// The run

void ExportWizard::start() {
  remember();
  auto all = tasks();
  progress_->clear();
  taskStartedMs_.assign(all.size(), 0);
  for (const auto& t : all) {
    auto* item = new QTreeWidgetItem(progress_);
    item->setText(kRunTask, QStringLiteral("%1 → %2").arg(t.topic, formatLabel(t.format)));
    auto* bar = new QProgressBar(progress_);
    bar->setRange(0, 1000);
    progress_->setItemWidget(item, kRunBar, bar);
    item->setText(kRunState, tr("waiting"));
  }
  summary_->setText(tr("Exporting…"));
  cancel_->setEnabled(true);
  openFolder_->setEnabled(false);
  button(QWizard::FinishButton)->setEnabled(false);
  *report_ = {};
  QDir().mkpath(folder_->text());
  auto session = document_->session();
  QString bag = bagName();
  auto options = taskOptions();
  auto report = report_;
  auto mailbox = mailbox_;
  auto current = std::make_shared<std::atomic<int>>(0);
  runStartedMs_ = QDateTime::currentMSecsSinceEpoch();
  // One job runs the topics one after another, each on every core.
  job_ = startSessionJob(
      session, mailbox_,
      [session, bag, options, report, mailbox, current, this](StopToken stop,
                                                              const session::ProgressFn&) -> Result<void> {
        std::vector<std::string> failures;
        for (std::size_t i = 0; i < options.size(); ++i) {
          if (stop.stop_requested()) return makeError(ErrorCode::Cancelled, "cancelled");
          current->store(static_cast<int>(i));
          auto progress = session::throttled(
              [mailbox, i, this](double f) { mailbox->post([this, i, f] { onProgress(static_cast<int>(i), f); }); });
          auto r = exporters::exportSession(*session, bag.toStdString(), options[i], *report, stop, progress);
          if (!r && r.error().code == ErrorCode::Cancelled) return std::move(r).error();
          QString state = r ? QString() : describeForApp(r.error());
          mailbox->post([this, i, state] {
            onProgress(static_cast<int>(i), 1.0);
            if (auto* item = progress_->topLevelItem(static_cast<int>(i)))
              item->setText(kRunState, state.isEmpty() ? tr("done") : tr("failed"));
            if (!state.isEmpty()) progress_->topLevelItem(static_cast<int>(i))->setToolTip(kRunState, state);
          });
          if (!r) failures.push_back(describeForApp(r.error()).toStdString());
        }
        if (!report->files.empty())
          if (auto m = exporters::writeManifest(*report, options.front()); !m)
            failures.push_back(describeForApp(m.error()).toStdString());
        if (!failures.empty()) {
          std::string joined;
          for (const auto& f : failures) joined += (joined.empty() ? "" : "\n") + f;
          return makeError(ErrorCode::Io, joined);
        }
        return {};
      },
      {},
      [this](const Result<void>& r) {
        bool cancelled = !r && r.error().code == ErrorCode::Cancelled;
        onFinished(static_cast<bool>(r), r ? QString() : cancelled ? tr("Cancelled.") : toQt(r.error().message));
      });
}

void ExportWizard::onProgress(int task, double fraction) {
  QTreeWidgetItem* item = progress_->topLevelItem(task);
  if (!item) return;
  qint64 now = QDateTime::currentMSecsSinceEpoch();
  auto& started = taskStartedMs_[static_cast<std::size_t>(task)];
  if (!started) started = now;
  static_cast<QProgressBar*>(progress_->itemWidget(item, kRunBar))->setValue(static_cast<int>(fraction * 1000));
  if (fraction >= 1.0) return;
  // Time left for this topic, from its pace so far.
  double elapsed = static_cast<double>(now - started) / 1000.0;
  QString left = fraction > 0.02 ? tr("about %1 s left").arg(std::max(0.0, elapsed / fraction - elapsed), 0, 'f', 0)
                                 : tr("starting");
  item->setText(kRunState, left);
}

void ExportWizard::onFinished(bool ok, QString error) {
  job_.reset();
  cancel_->setEnabled(false);
  button(QWizard::FinishButton)->setEnabled(true);
  const auto& r = *report_;
  double seconds = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - runStartedMs_) / 1000.0;
  QString text = tr("%n file(s), %1, in %2 s.", nullptr, static_cast<int>(r.files.size()))
                     .arg(toQt(formatBytes(r.bytes)))
                     .arg(seconds, 0, 'f', 1);
  if (!r.skipped.empty())
    text += QStringLiteral("<br>") + tr("Skipped messages: %1").arg(describeSkipped(r.skipped).toHtmlEscaped());
  if (!r.conflicts.empty())
    text +=
        QStringLiteral("<br>") + tr("Not replaced (they exist): %1").arg(toQt(r.conflicts.front()).toHtmlEscaped()) +
        (r.conflicts.size() > 1 ? tr(" and %n more", nullptr, static_cast<int>(r.conflicts.size() - 1)) : QString());
  for (const auto& n : r.notes) text += QStringLiteral("<br>") + toQt(n).toHtmlEscaped();
  if (QString choices = changingChoices(); !choices.isEmpty()) text += QStringLiteral("<br>") + choices.toHtmlEscaped();
  if (!error.isEmpty())
    text +=
        QStringLiteral("<br><span style='color:#b00020'>%1</span>").arg(error.toHtmlEscaped().replace('\n', "<br>"));
  summary_->setText(text);
  openFolder_->setEnabled(!r.files.empty());
  emit exportFinished(ok);
}

}  // namespace bagscope::widgets
