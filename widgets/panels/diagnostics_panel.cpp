#include "widgets/panels/diagnostics_panel.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/async/mailbox.hpp"
#include "widgets/async/topic_job.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

namespace {

QColor levelColour(int level) {
  switch (level) {
    case 0: return {220, 245, 220};
    case 1: return {255, 236, 180};
    case 2: return {255, 200, 200};
    default: return {225, 225, 225};  // stale
  }
}

}  // namespace

QString diagnosticLevelName(int level) {
  switch (level) {
    case 0: return QStringLiteral("OK");
    case 1: return QStringLiteral("WARN");
    case 2: return QStringLiteral("ERROR");
    case 3: return QStringLiteral("STALE");
    default: return QString::number(level);
  }
}

DiagnosticsPanel::DiagnosticsPanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      topic_(new TopicChoice(this)),
      tree_(new QTreeWidget(this)),
      status_(new QLabel(this)) {
  tree_->setHeaderLabels({tr("Hardware / Name"), tr("Level"), tr("Message"), tr("Since (s)")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(2, QHeaderView::Stretch);  // messages and level histories
  tree_->setToolTip(
      tr("The latest status of each entry at the playhead; expand an entry for its values and "
         "its level changes"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(topic_);
  layout->addWidget(tree_, 1);
  layout->addWidget(status_);
  status_->setEnabled(false);
  connect(topic_, &TopicChoice::chosen, this, &DiagnosticsPanel::sessionChanged);
  connect(document_, &Document::playheadChanged, this, &DiagnosticsPanel::refresh);
  sessionChanged();
}

DiagnosticsPanel::~DiagnosticsPanel() {
  mailbox_->close();
  job_.reset();
}

bool DiagnosticsPanel::shows(const QString& type) {
  return sensors::kindOf(type.toStdString()) == sensors::SensorKind::Diagnostics;
}

void DiagnosticsPanel::sessionChanged() {
  topic_->refill(document_->topics(), [](const TopicInfo& t) { return shows(t.type); });
  job_.reset();
  entries_.clear();
  tree_->clear();
  emit titleChanged(topic_->currentText());
  auto session = document_->session();
  if (!session || topic_->currentIndex() < 0) {
    status_->setText(topic_->noTopicText(session != nullptr, tr("This recording has no diagnostics topics.")));
    return;
  }
  status_->setText(tr("Reading…"));
  using Entries = std::map<std::pair<std::string, std::string>, History>;
  auto entries = std::make_shared<Entries>();
  job_ = decodeTopic(
      session, mailbox_, static_cast<session::TopicId>(topic_->currentData().toUInt()),
      [entries](qint64 logTimeNs, const decode::Value& v) {
        if (auto statuses = sensors::readDiagnostics(v))
          for (auto& s : *statuses) (*entries)[{s.hardwareId, s.name}].samples.emplace_back(logTimeNs, std::move(s));
      },
      [this, entries](Result<TopicJobResult> r) {
        entries_ = std::move(*entries);
        QString problem = problemText(r);
        status_->setText(problem.isEmpty() ? tr("%n entries", nullptr, static_cast<int>(entries_.size())) : problem);
        refresh();
        emit loaded();
      });
}

void DiagnosticsPanel::refresh() {
  // Rebuilt each time: a handful of entries, and expansion kept by key.
  QSet<QString> expanded;
  for (int i = 0; i < tree_->topLevelItemCount(); ++i)
    if (tree_->topLevelItem(i)->isExpanded()) expanded << tree_->topLevelItem(i)->data(0, Qt::UserRole).toString();
  tree_->clear();
  const qint64 at = document_->playheadNs(), origin = document_->startNs();
  auto seconds = [origin](qint64 ns) { return QString::number(static_cast<double>(ns - origin) / 1e9, 'f', 3); };
  for (const auto& [key, history] : entries_) {
    const auto& samples = history.samples;
    auto after =
        std::upper_bound(samples.begin(), samples.end(), at, [](qint64 t, const auto& s) { return t < s.first; });
    if (after == samples.begin()) continue;  // not reported yet at the playhead
    const auto& [time, s] = *(after - 1);
    QString id =
        key.first.empty() ? toQt(key.second) : QStringLiteral("%1 / %2").arg(toQt(key.first), toQt(key.second));
    auto* item = new QTreeWidgetItem(tree_, {id, diagnosticLevelName(s.level), toQt(s.message), seconds(time)});
    item->setData(0, Qt::UserRole, id);
    for (int c = 0; c < 4; ++c) item->setBackground(c, levelColour(s.level));
    for (const auto& [k, v] : s.values) new QTreeWidgetItem(item, {toQt(k), QString(), toQt(v)});
    // Its level changes up to the playhead.
    QStringList changes;
    int last = -1;
    for (auto it = samples.begin(); it != after; ++it)
      if (it->second.level != last) {
        last = it->second.level;
        changes << QStringLiteral("%1 s %2").arg(seconds(it->first), diagnosticLevelName(last));
      }
    auto* changesItem =
        new QTreeWidgetItem(item, {tr("Level changes"), QString(), changes.join(QStringLiteral(" → "))});
    changesItem->setToolTip(2, changes.join(QLatin1Char('\n')));
    item->setExpanded(expanded.contains(id));
  }
}

QStringList DiagnosticsPanel::shownStatus() const {
  QStringList out;
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    auto* item = tree_->topLevelItem(i);
    out << QStringLiteral("%1: %2 %3").arg(item->text(0), item->text(1), item->text(2));
  }
  return out;
}

void DiagnosticsPanel::setTopic(const QString& name) {
  topic_->ask(name);
  sessionChanged();
}

QJsonObject DiagnosticsPanel::saveSettings() const { return {{QStringLiteral("topic"), topic_->topic()}}; }

void DiagnosticsPanel::restoreSettings(const QJsonObject& s) { setTopic(s.value(QStringLiteral("topic")).toString()); }

}  // namespace bagscope::widgets
