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

// ---- The formats' options as controls (exporters::formatOptions(): one row each) ----

QString optionText(const char* text) { return text ? QCoreApplication::translate("ExportOption", text) : QString(); }

QWidget* makeOptionControl(const exporters::FormatOption& o, QWidget* parent) {
  using K = exporters::OptionKind;
  QWidget* w = nullptr;
  switch (o.kind) {
    case K::Flag: w = new QCheckBox(optionText(o.label), parent); break;
    case K::Choice: {
      auto* box = new QComboBox(parent);
      for (const auto& c : o.choices) box->addItem(optionText(c.label), QString::fromLatin1(c.value));
      w = box;
      break;
    }
    case K::Whole: {
      auto* box = new QSpinBox(parent);
      box->setRange(static_cast<int>(o.min), static_cast<int>(o.max));
      w = box;
      break;
    }
    case K::Number: {
      auto* box = new QDoubleSpinBox(parent);
      box->setRange(o.min, o.max);
      if (o.placeholder) box->setSpecialValueText(optionText(o.placeholder));
      w = box;
      break;
    }
    case K::Frame: {
      auto* box = new QComboBox(parent);
      box->setEditable(true);
      box->addItem(QString());
      w = box;
      break;
    }
    case K::Text:
    case K::List:
    case K::Repeated: {
      auto* line = new QLineEdit(parent);
      if (o.placeholder) line->setPlaceholderText(optionText(o.placeholder));
      w = line;
      break;
    }
  }
  w->setObjectName(QString::fromLatin1(o.id));
  w->setToolTip(optionText(o.help));
  return w;
}

QString describeSkipped(const std::map<std::string, std::uint64_t>& skipped) {
  QStringList parts;
  for (const auto& [why, n] : skipped) parts << QStringLiteral("%1 × %2").arg(n).arg(toQt(why));
  return parts.join(QStringLiteral("; "));
}

}  // namespace

QString ExportWizard::OptionControl::text() const {
  if (auto* b = qobject_cast<QCheckBox*>(widget)) return b->isChecked() ? QStringLiteral("true") : QString();
  if (auto* b = qobject_cast<QSpinBox*>(widget)) return QString::number(b->value());
  if (auto* b = qobject_cast<QDoubleSpinBox*>(widget)) return QString::number(b->value());
  if (auto* b = qobject_cast<QComboBox*>(widget))
    return b->isEditable() ? b->currentText().trimmed() : b->currentData().toString();
  return static_cast<QLineEdit*>(widget)->text().trimmed();
}

void ExportWizard::OptionControl::setText(const QString& text) const {
  if (auto* b = qobject_cast<QCheckBox*>(widget)) return b->setChecked(text == QLatin1String("true"));
  if (auto* b = qobject_cast<QSpinBox*>(widget)) return b->setValue(text.toInt());
  if (auto* b = qobject_cast<QDoubleSpinBox*>(widget)) return b->setValue(text.toDouble());
  if (auto* b = qobject_cast<QComboBox*>(widget)) {
    if (b->isEditable()) return b->setCurrentText(text);
    return b->setCurrentIndex(std::max(0, b->findData(text)));
  }
  static_cast<QLineEdit*>(widget)->setText(text);
}

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
  const QString titles[] = {tr("Point clouds (%1)").arg(cloudFormats.join(QStringLiteral(", "))),
                            tr("Images and video"), tr("Tables (CSV, NumPy)")};
  auto* layout = new QVBoxLayout(page);
  std::vector<QFormLayout*> forms;
  for (const QString& title : titles) {
    auto* box = new QGroupBox(title, page);
    forms.push_back(new QFormLayout(box));
    groupBoxes_.push_back(box);
    layout->addWidget(box);
  }
  const exporters::ExportOptions defaults;
  for (const auto& o : exporters::formatOptions()) {
    if (!o.label) continue;  // the command line's only
    auto g = static_cast<std::size_t>(o.group);
    QWidget* control = makeOptionControl(o, groupBoxes_[g]);
    const QString label = o.kind == exporters::OptionKind::Flag ? QString() : optionText(o.label);
    forms[g]->addRow(label, control);
    optionControls_.push_back({&o, control, forms[g]->labelForField(control)});
    optionControls_.back().setText(toQt(o.get(defaults)));
  }
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

void ExportWizard::setFormatOption(const char* id, const QString& text) {
  if (const OptionControl* c = optionControl(id)) c->setText(text);
}

QStringList ExportWizard::targetFrames() const {
  QStringList out;
  for (const auto& c : optionControls_)
    if (c.option->kind == exporters::OptionKind::Frame) {
      auto* box = static_cast<QComboBox*>(c.widget);
      for (int i = 0; i < box->count(); ++i) out << box->itemText(i);
    }
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
  // The rows in table order (on the command line, too, a later option wins).
  for (const auto& c : optionControls_) (void)exporters::setOption(o, *c.option, c.text().toStdString());
  return o;
}

void ExportWizard::updateHowPage() {
  // Each control shows when a chosen format takes its option, each box when one of its do.
  std::vector<exporters::Format> chosen;
  for (const auto& t : tasks()) chosen.push_back(formatNamed(t.format));
  std::vector<bool> boxShown(groupBoxes_.size(), false);
  for (const auto& c : optionControls_) {
    bool taken = std::any_of(chosen.begin(), chosen.end(),
                             [&](exporters::Format f) { return exporters::takesOption(f, c.option->id); });
    c.widget->setVisible(taken);
    if (c.label) c.label->setVisible(taken);
    if (taken) boxShown[static_cast<std::size_t>(c.option->group)] = true;
  }
  for (std::size_t g = 0; g < groupBoxes_.size(); ++g) groupBoxes_[g]->setVisible(boxShown[g]);
}

const ExportWizard::OptionControl* ExportWizard::optionControl(const char* id) const {
  for (const auto& c : optionControls_)
    if (qstrcmp(c.option->id, id) == 0) return &c;
  return nullptr;
}

// Choices that change what is written and may be remembered from an earlier export, said
// where the files are chosen and in the summary, so that none applies unseen (issue #33).
QString ExportWizard::changingChoices() const {
  QStringList said;
  if (every_->value() > 1) said << tr("one message in %1 of each topic").arg(every_->value());
  const exporters::ExportOptions defaults;
  for (const auto& c : optionControls_) {
    if (!c.option->applied || c.widget->isHidden()) continue;
    const QString value = c.text();
    if (value != toQt(c.option->get(defaults))) said << optionText(c.option->applied).arg(value);
  }
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
            for (const auto& c : optionControls_) {
              if (c.option->kind != exporters::OptionKind::Frame) continue;
              auto* box = static_cast<QComboBox*>(c.widget);
              QString chosen = box->currentText();
              for (const auto& f : *frames)
                if (box->findText(toQt(f)) < 0) box->addItem(toQt(f));
              box->setCurrentText(chosen);
            }
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
  if (currentId() == How) {
    // Each option shown is checked as the command line checks it; a refused one stays red
    // and says why in its tooltip.
    bool fine = true;
    for (const auto& c : optionControls_) {
      if (c.widget->isHidden()) continue;
      exporters::ExportOptions scratch;
      auto r = exporters::setOption(scratch, *c.option, c.text().toStdString());
      c.widget->setStyleSheet(r ? QString() : QStringLiteral("color: red"));
      c.widget->setToolTip(r ? optionText(c.option->help)
                             : optionText(c.option->help) + QStringLiteral("\n") + toQt(r.error().message));
      fine = fine && r;
    }
    if (!fine) return false;
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
  for (const auto& c : optionControls_) s.setValue(QStringLiteral("option/") + c.option->id, c.text());
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
  const exporters::ExportOptions defaults;
  for (const auto& c : optionControls_)
    c.setText(s.value(QStringLiteral("option/") + c.option->id, toQt(c.option->get(defaults))).toString());
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
          auto progress = throttled(
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
