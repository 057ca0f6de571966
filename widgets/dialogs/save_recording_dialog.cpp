#include "widgets/dialogs/save_recording_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include "core/base/text.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {
namespace {

constexpr int kTopicIdRole = Qt::UserRole;

QString codecLabel(compress::Codec c) {
  switch (c) {
    case compress::Codec::None: return SaveRecordingDialog::tr("None", "no compression");
    case compress::Codec::Lz4Frame: return QStringLiteral("LZ4");
    case compress::Codec::Zstd: return QStringLiteral("Zstandard");
    case compress::Codec::Bz2: return QStringLiteral("bzip2");
  }
  return {};
}

// "name.bag" for a file container, "name" (a folder) for rosbag2.
QString withExtension(QString path, const write::ContainerInfo& info) {
  QFileInfo f(path);
  QString stem =
      f.suffix() == QLatin1String("bag") || f.suffix() == QLatin1String("mcap") ? f.completeBaseName() : f.fileName();
  return f.dir().filePath(stem + toQt(info.extension));
}

}  // namespace

SaveRecordingDialog::SaveRecordingDialog(Document* document, Purpose purpose, QWidget* parent)
    : QDialog(parent),
      document_(document),
      purpose_(purpose),
      mailbox_(Mailbox::create(this)),
      topics_(new QListWidget(this)),
      whole_(new QRadioButton(tr("The whole recording"), this)),
      range_(new QRadioButton(this)),
      translate_(new QComboBox(this)),
      format_(new QComboBox(this)),
      compression_(new QComboBox(this)),
      path_(new QLineEdit(this)),
      progress_(new QProgressBar(this)),
      outcome_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this)) {
  setWindowTitle(purpose == Purpose::Recover ? tr("Recover Recording") : tr("Save Selection As"));
  resize(560, 560);
  layOut();
  fillTopics();
  for (const auto& c : write::containers()) format_->addItem(toQt(c.label), static_cast<int>(c.container));
  // Translation is offered where there is something to translate: ROS 1 topics to ROS 2, CDR
  // ones back to ROS 1.
  translate_->addItem(tr("As recorded"), -1);
  if (auto s = document_->session()) {
    format_->setCurrentIndex(format_->findData(static_cast<int>(write::containerOf(*s))));
    bool ros1 = false, cdr = false;
    for (const auto& t : s->topics())
      for (const auto& m : t.members) {
        ros1 |= m.connection->messageEncoding == "ros1";
        cdr |= m.connection->messageEncoding == "cdr";
      }
    if (ros1) translate_->addItem(tr("ROS 2 (translate messages)"), static_cast<int>(schema::Dialect::Ros2));
    if (cdr) translate_->addItem(tr("ROS 1 (translate messages)"), static_cast<int>(schema::Dialect::Ros1));
  }
  translate_->setEnabled(translate_->count() > 1 && purpose_ == Purpose::SaveSelection);
  translate_->setToolTip(
      tr("Types, definitions and messages in the other ROS version's form, as bagscope-cli "
         "convert --to-ros2 or --to-ros1 writes them; what is renamed, dropped or left zero is "
         "listed when it is done"));
  containerChanged();
  connect(format_, &QComboBox::currentIndexChanged, this, &SaveRecordingDialog::containerChanged);
  connect(translate_, &QComboBox::currentIndexChanged, this, &SaveRecordingDialog::translationChanged);

  // A suggested name beside the first input (the user sees and may change it before saving).
  if (!document_->paths().isEmpty()) {
    QFileInfo first(document_->paths().front());
    QString stem = first.isDir() ? first.fileName() : first.completeBaseName();
    // Suffixes stay ASCII in every language: they are file names.
    QString suffix = purpose == Purpose::Recover ? QStringLiteral("-recovered") : QStringLiteral("-selection");
    path_->setText(withExtension(first.dir().filePath(stem + suffix), write::containerInfo(container())));
  }
}

SaveRecordingDialog::~SaveRecordingDialog() {
  mailbox_->close();
  job_.reset();  // cancels and waits: nothing is left under the output's name
}

void SaveRecordingDialog::layOut() {
  auto* layout = new QVBoxLayout(this);
  if (purpose_ == Purpose::Recover) {
    auto* why = new QLabel(tr("Every message that could be read from the damaged recording is written to a new, "
                              "indexed one. What could not be read is listed when it is done."),
                           this);
    why->setWordWrap(true);
    layout->addWidget(why);
  }
  layout->addWidget(new QLabel(tr("Topics:"), this));
  layout->addWidget(topics_, 1);
  auto* ticks = new QHBoxLayout;
  auto* all = new QPushButton(tr("All"), this);
  auto* none = new QPushButton(tr("None"), this);
  ticks->addWidget(all);
  ticks->addWidget(none);
  ticks->addStretch();
  layout->addLayout(ticks);
  auto tickAll = [this](bool on) {
    for (int i = 0; i < topics_->count(); ++i)
      if (topics_->item(i)->flags() & Qt::ItemIsEnabled)
        topics_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  };
  connect(all, &QPushButton::clicked, this, [tickAll] { tickAll(true); });
  connect(none, &QPushButton::clicked, this, [tickAll] { tickAll(false); });

  auto* form = new QFormLayout;
  auto* span = new QVBoxLayout;
  span->addWidget(whole_);
  span->addWidget(range_);
  whole_->setChecked(true);
  if (const auto& r = document_->range()) {
    range_->setText(tr("The selected range (%1 s to %2 s after the start)")
                        .arg(static_cast<double>(r->startNs - document_->startNs()) / 1e9, 0, 'f', 3)
                        .arg(static_cast<double>(r->endNs - document_->startNs()) / 1e9, 0, 'f', 3));
    if (purpose_ == Purpose::SaveSelection) range_->setChecked(true);
  } else {
    range_->setText(tr("The selected range (none: Shift-drag on the timeline)"));
    range_->setEnabled(false);
  }
  form->addRow(tr("Messages:"), span);
  form->addRow(tr("Messages as:"), translate_);
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("Compression:"), compression_);
  auto* where = new QHBoxLayout;
  where->addWidget(path_, 1);
  auto* browse = new QPushButton(tr("Browse…"), this);
  where->addWidget(browse);
  form->addRow(tr("Save to:"), where);
  layout->addLayout(form);
  connect(browse, &QPushButton::clicked, this, &SaveRecordingDialog::browse);

  progress_->setRange(0, 1000);
  progress_->hide();
  layout->addWidget(progress_);
  outcome_->setWordWrap(true);
  outcome_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(outcome_);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &SaveRecordingDialog::start);
  connect(buttons_, &QDialogButtonBox::rejected, this, [this] {
    if (job_) job_->cancel();  // ended() follows
    else reject();
  });
}

void SaveRecordingDialog::fillTopics() {
  for (const auto& t : document_->topics()) {
    auto* item = new QListWidgetItem(QStringLiteral("%1  (%2, %3)").arg(t.name, t.type).arg(t.count), topics_);
    item->setData(kTopicIdRole, static_cast<int>(t.id));
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    item->setCheckState(Qt::Checked);
  }
}

write::Container SaveRecordingDialog::container() const {
  return static_cast<write::Container>(format_->currentData().toInt());
}

std::optional<schema::Dialect> SaveRecordingDialog::translation() const {
  int to = translate_->currentData().toInt();
  return to < 0 ? std::nullopt : std::optional(static_cast<schema::Dialect>(to));
}

// A translation picks the container its dialect is usually kept in (the user may change it).
void SaveRecordingDialog::translationChanged() {
  if (auto to = translation())
    setContainer(*to == schema::Dialect::Ros2 ? write::Container::Rosbag2Mcap : write::Container::Ros1Bag);
  containerChanged();
}

// Topics the container cannot hold are unticked and greyed, saying why; the compressions and
// the file name follow the container.
void SaveRecordingDialog::containerChanged() {
  const auto& info = write::containerInfo(container());
  compression_->clear();
  for (auto c : info.codecs) compression_->addItem(codecLabel(c), static_cast<int>(c));
  auto s = document_->session();
  for (int i = 0; i < topics_->count() && s; ++i) {
    auto* item = topics_->item(i);
    const auto& topic = s->topics()[static_cast<std::size_t>(item->data(kTopicIdRole).toInt())];
    std::string encoding = topic.members.empty() ? std::string() : topic.members.front().connection->messageEncoding;
    if (auto to = translation(); to && encoding == (*to == schema::Dialect::Ros2 ? "ros1" : "cdr"))
      encoding = *to == schema::Dialect::Ros2 ? "cdr" : "ros1";
    bool fits = info.encoding.empty() || encoding == info.encoding;
    bool wasEnabled = item->flags() & Qt::ItemIsEnabled;
    item->setFlags(fits ? item->flags() | Qt::ItemIsEnabled : item->flags() & ~Qt::ItemIsEnabled);
    if (!fits) item->setCheckState(Qt::Unchecked);
    else if (!wasEnabled) item->setCheckState(Qt::Checked);
    item->setToolTip(fits ? QString()
                          : tr("A %1 cannot hold %2 messages")
                                .arg(toQt(info.label), toQt(encoding.empty() ? "unencoded" : encoding)));
  }
  if (!path_->text().isEmpty()) path_->setText(withExtension(path_->text(), info));
}

void SaveRecordingDialog::browse() {
  const auto& info = write::containerInfo(container());
  QString chosen =
      info.extension.empty()
          ? QFileDialog::getSaveFileName(this, tr("New rosbag2 Folder"), path_->text(), QString(), nullptr,
                                         QFileDialog::DontConfirmOverwrite)
          : QFileDialog::getSaveFileName(this, tr("Save Recording"), path_->text(),
                                         QStringLiteral("%1 (*%2)").arg(toQt(info.label), toQt(info.extension)));
  if (!chosen.isEmpty()) path_->setText(withExtension(chosen, info));
}

void SaveRecordingDialog::setOutput(const QString& path) { path_->setText(path); }
void SaveRecordingDialog::setContainer(write::Container c) {
  format_->setCurrentIndex(format_->findData(static_cast<int>(c)));
}
bool SaveRecordingDialog::setTranslation(std::optional<schema::Dialect> to) {
  int i = translate_->findData(to ? static_cast<int>(*to) : -1);
  if (i < 0 || !translate_->isEnabled()) return false;
  translate_->setCurrentIndex(i);
  return true;
}
void SaveRecordingDialog::setTopicTicked(const QString& topic, bool ticked) {
  for (int i = 0; i < topics_->count(); ++i)
    if (topics_->item(i)->text().startsWith(topic + QStringLiteral("  ")))
      topics_->item(i)->setCheckState(ticked ? Qt::Checked : Qt::Unchecked);
}
QString SaveRecordingDialog::outcome() const { return outcome_->text(); }

bool SaveRecordingDialog::hasDamage(const Document& document) {
  auto s = document.session();
  if (!s) return false;
  for (std::uint32_t i = 0; i < s->sourceCount(); ++i)
    if (!s->sourceInfo(i).indexed || !s->sourceInfo(i).problems.empty()) return true;
  return false;
}

void SaveRecordingDialog::start() {
  auto s = document_->session();
  if (!s || job_) return;
  write::CopyRequest request;
  for (int i = 0; i < topics_->count(); ++i)
    if (topics_->item(i)->checkState() == Qt::Checked)
      request.selection.topics.push_back(static_cast<session::TopicId>(topics_->item(i)->data(kTopicIdRole).toInt()));
  if (request.selection.topics.empty()) {
    outcome_->setText(tr("Tick at least one topic."));
    return;
  }
  QString path = path_->text().trimmed();
  if (path.isEmpty()) {
    outcome_->setText(tr("Choose where to save."));
    return;
  }
  if (QFileInfo::exists(path)) {
    if (QMessageBox::question(this, windowTitle(), tr("%1 exists already. Replace it?").arg(path)) != QMessageBox::Yes)
      return;
    request.writer.overwrite = true;
  }
  if (range_->isChecked() && document_->range()) {
    request.selection.startNs = document_->range()->startNs;
    request.selection.endNs = document_->range()->endNs;
  }
  request.output = toPath(path);
  for (const QString& folder : document_->messagePaths()) request.msgPaths.push_back(toPath(folder));
  request.writer.container = container();
  request.translateTo = translation();
  request.writer.compression = static_cast<compress::Codec>(compression_->currentData().toInt());

  report_ = std::make_shared<write::CopyReport>();
  auto report = report_;
  progress_->setValue(0);
  progress_->show();
  outcome_->setText(tr("Writing %1…").arg(path));
  buttons_->button(QDialogButtonBox::Save)->setEnabled(false);
  job_ = startSessionJob(
      s, mailbox_,
      [s, request, report](StopToken stop, const session::ProgressFn& progress) -> Result<void> {
        auto r = write::copyRecording(*s, request, stop, progress);
        BAGSCOPE_TRY(r);
        *report = std::move(r).value();
        return {};
      },
      [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); },
      [this](const Result<void>& r) { ended(r); });
}

void SaveRecordingDialog::ended(const Result<void>& r) {
  job_.reset();
  progress_->hide();
  buttons_->button(QDialogButtonBox::Save)->setEnabled(true);
  if (!r) {
    outcome_->setText(r.error().code == ErrorCode::Cancelled ? tr("Cancelled: nothing was written.")
                                                             : tr("Not saved: %1").arg(toQt(r.error().describe())));
    emit finished(false);
    return;
  }
  QString text =
      tr("Wrote %n message(s) on %1 topic(s) to %2 (%3).", nullptr, static_cast<int>(report_->messagesWritten))
          .arg(report_->perTopic.size())
          .arg(path_->text(), toQt(formatBytes(report_->bytesWritten)));
  if (!report_->lost.empty()) {
    text += QStringLiteral("\n\n") + tr("Could not be read (%n):", nullptr, static_cast<int>(report_->lost.size()));
    for (const auto& l : report_->lost) text += QStringLiteral("\n• ") + toQt(l);
  }
  for (const auto& skipped : report_->skipped)
    text += QStringLiteral("\n• ") + tr("Not written: %1").arg(toQt(skipped));
  // The translation's report: renamed topics, fields dropped or left zero.
  for (const auto& note : report_->notes) text += QStringLiteral("\n• ") + toQt(note);
  // What the damaged input itself lost (found when it was opened), beside what was saved.
  if (auto s = document_->session(); s && purpose_ == Purpose::Recover && !s->problems().empty()) {
    text += QStringLiteral("\n\n") + tr("What the damaged recording lost:");
    for (const auto& p : s->problems()) text += QStringLiteral("\n• ") + toQt(p);
  }
  outcome_->setText(text);
  buttons_->button(QDialogButtonBox::Save)->hide();
  buttons_->button(QDialogButtonBox::Cancel)->setText(tr("Close"));
  emit finished(true);
}

}  // namespace bagscope::widgets
