#include "widgets/panels/log_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

#include "widgets/async/mailbox.hpp"
#include "widgets/async/topic_job.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

using sensors::LogLevel;

namespace {

QColor levelColour(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return {120, 120, 120};
    case LogLevel::Info: return {30, 30, 30};
    case LogLevel::Warn: return {190, 120, 0};
    case LogLevel::Error: return {200, 30, 30};
    case LogLevel::Fatal: return {150, 0, 120};
    case LogLevel::Unknown: break;
  }
  return {30, 30, 30};
}

std::string lowerAscii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
// What a text search looks through: message, node and file, in lower case, made once.
std::string searchText(const sensors::LogEntry& e) { return lowerAscii(e.message + '\n' + e.node + '\n' + e.file); }

}  // namespace

void LogModel::setLines(std::vector<LogLine> lines, qint64 originNs) {
  beginResetModel();
  lines_ = std::move(lines);
  originNs_ = originNs;
  searchable_.resize(lines_.size());
  for (std::size_t i = 0; i < lines_.size(); ++i) searchable_[i] = searchText(lines_[i].entry);
  shown_.resize(lines_.size());
  for (std::uint32_t i = 0; i < shown_.size(); ++i) shown_[i] = i;
  endResetModel();
}

void LogModel::setFilter(LogLevel minLevel, const QString& node, const QString& text) {
  beginResetModel();
  shown_.clear();
  const std::string wantedNode = node.toStdString();
  const std::string needle = lowerAscii(text.toStdString());
  for (std::uint32_t i = 0; i < lines_.size(); ++i) {
    const auto& e = lines_[i].entry;
    if (e.level < minLevel && e.level != LogLevel::Unknown) continue;
    if (!wantedNode.empty() && e.node != wantedNode) continue;
    if (!needle.empty() && searchable_[i].find(needle) == std::string::npos) continue;
    shown_.push_back(i);
  }
  endResetModel();
}

int LogModel::rowAtOrBefore(qint64 ns) const {
  auto it = std::upper_bound(shown_.begin(), shown_.end(), ns,
                             [this](qint64 t, std::uint32_t i) { return t < lines_[i].logTimeNs; });
  return static_cast<int>(it - shown_.begin()) - 1;
}

int LogModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(shown_.size());
}
int LogModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LogModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const LogLine& line = lineAt(index.row());
  const auto& e = line.entry;
  if (role == Qt::ForegroundRole && index.column() == Level) return levelColour(e.level);
  if (role == Qt::ForegroundRole && e.level >= LogLevel::Error && e.level != LogLevel::Unknown)
    return levelColour(e.level);
  if (role == Qt::ToolTipRole && index.column() == Message) return toQt(e.message);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Time: return QString::number(static_cast<double>(line.logTimeNs - originNs_) / 1e9, 'f', 3);
    case Level: return QString::fromLatin1(sensors::levelName(e.level));
    case Node: return toQt(e.node);
    case Message: return toQt(e.message).section(QLatin1Char('\n'), 0, 0);  // the first line
    case Source: return e.file.empty() ? QString() : QStringLiteral("%1:%2").arg(toQt(e.file)).arg(e.line);
    default: return {};
  }
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Time: return LogPanel::tr("Time (s)");
    case Level: return LogPanel::tr("Level");
    case Node: return LogPanel::tr("Node");
    case Message: return LogPanel::tr("Message");
    case Source: return LogPanel::tr("Source");
    default: return {};
  }
}

LogPanel::LogPanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      topic_(new TopicChoice(this)),
      level_(new QComboBox(this)),
      node_(new QComboBox(this)),
      search_(new QLineEdit(this)),
      follow_(new QCheckBox(tr("Follow playhead"), this)),
      table_(new QTableView(this)),
      status_(new QLabel(this)),
      model_(new LogModel(this)) {
  for (LogLevel l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warn, LogLevel::Error, LogLevel::Fatal})
    level_->addItem(tr("%1 and above").arg(QString::fromLatin1(sensors::levelName(l))), static_cast<int>(l));
  level_->setToolTip(tr("The least severe level shown"));
  node_->addItem(tr("All nodes"));
  search_->setPlaceholderText(tr("Search messages, nodes, files"));
  search_->setClearButtonEnabled(true);
  follow_->setToolTip(tr("Scroll to the last line at or before the playhead as it moves"));
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);  // uniform: fast with 1 M rows
  table_->horizontalHeader()->setStretchLastSection(false);
  table_->horizontalHeader()->setSectionResizeMode(LogModel::Message, QHeaderView::Stretch);
  table_->setWordWrap(false);
  table_->setToolTip(tr("Double-click a line to move the playhead there"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(topic_, 1);
  bar->addWidget(level_);
  bar->addWidget(node_);
  bar->addWidget(search_, 1);
  bar->addWidget(follow_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addWidget(table_, 1);
  layout->addWidget(status_);
  status_->setEnabled(false);
  connect(topic_, &TopicChoice::chosen, this, &LogPanel::sessionChanged);
  connect(level_, &QComboBox::currentIndexChanged, this, &LogPanel::applyFilter);
  connect(node_, &QComboBox::currentIndexChanged, this, &LogPanel::applyFilter);
  connect(search_, &QLineEdit::textChanged, this, &LogPanel::applyFilter);
  connect(follow_, &QCheckBox::toggled, this, &LogPanel::followPlayhead);
  connect(document_, &Document::playheadChanged, this, &LogPanel::followPlayhead);
  connect(table_, &QTableView::doubleClicked, this,
          [this](const QModelIndex& i) { document_->setPlayhead(model_->lineAt(i.row()).logTimeNs); });
  sessionChanged();
}

LogPanel::~LogPanel() {
  mailbox_->close();
  job_.reset();
}

bool LogPanel::shows(const QString& type) { return sensors::kindOf(type.toStdString()) == sensors::SensorKind::Log; }

void LogPanel::sessionChanged() {
  topic_->refill(document_->topics(), [](const TopicInfo& t) { return shows(t.type); });
  job_.reset();
  model_->setLines({}, document_->startNs());
  emit titleChanged(topic_->currentText());
  auto session = document_->session();
  if (!session || topic_->currentIndex() < 0) {
    status_->setText(topic_->noTopicText(session != nullptr, tr("This recording has no log topics.")));
    return;
  }
  status_->setText(tr("Reading…"));
  auto lines = std::make_shared<std::vector<LogLine>>();
  auto topic = static_cast<session::TopicId>(topic_->currentData().toUInt());
  job_ = decodeTopic(
      session, mailbox_, topic,
      [lines](qint64 logTimeNs, const decode::Value& v) {
        if (auto e = sensors::readLog(v)) lines->push_back({logTimeNs, std::move(*e)});
      },
      [this, lines](Result<TopicJobResult> r) {
        setLines(std::move(*lines));
        if (!r) status_->setText(problemText(r));
        else if (r->unreadable > 0) status_->setText(status_->text() + QLatin1String(" · ") + problemText(r));
        emit loaded();
      });
}

void LogPanel::setTopic(const QString& name) {
  topic_->ask(name);
  sessionChanged();
}

void LogPanel::setLines(std::vector<LogLine> lines) {
  model_->setLines(std::move(lines), document_->startNs());
  fillNodes();
  applyFilter();
}

void LogPanel::fillNodes() {
  std::set<std::string> nodes;
  for (const auto& l : model_->lines()) nodes.insert(l.entry.node);
  std::vector<std::pair<QString, QString>> choices;
  for (const auto& n : nodes) choices.emplace_back(toQt(n), toQt(n));
  if (refillChoice(node_, tr("All nodes"), choices,
                   pendingNode_.isEmpty() ? node_->currentData().toString() : pendingNode_))
    pendingNode_.clear();
}

void LogPanel::applyFilter() {
  model_->setFilter(static_cast<LogLevel>(level_->currentData().toInt()), node_->currentData().toString(),
                    search_->text());
  status_->setText(tr("%1 of %n line(s)", nullptr, static_cast<int>(model_->lines().size())).arg(model_->rowCount()));
  followPlayhead();
}

void LogPanel::followPlayhead() {
  if (!follow_->isChecked()) return;
  int row = model_->rowAtOrBefore(document_->playheadNs());
  if (row < 0) return;
  table_->selectRow(row);
  table_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtCenter);
}

void LogPanel::setMinimumLevel(LogLevel level) {
  level_->setCurrentIndex(std::max(0, level_->findData(static_cast<int>(level))));
}
void LogPanel::setNodeFilter(const QString& node) {
  pendingNode_ = node;
  int at = node.isEmpty() ? 0 : node_->findData(node);
  if (at >= 0) node_->setCurrentIndex(at), pendingNode_.clear();
}
void LogPanel::setSearchText(const QString& text) { search_->setText(text); }
void LogPanel::setFollowPlayhead(bool follow) { follow_->setChecked(follow); }
QString LogPanel::status() const { return status_->text(); }

QJsonObject LogPanel::saveSettings() const {
  return {{QStringLiteral("topic"), topic_->topic()},
          {QStringLiteral("level"),
           QString::fromLatin1(sensors::levelName(static_cast<LogLevel>(level_->currentData().toInt())))},
          {QStringLiteral("node"), pendingNode_.isEmpty() ? node_->currentData().toString() : pendingNode_},
          {QStringLiteral("search"), search_->text()},
          {QStringLiteral("follow"), follow_->isChecked()}};
}

void LogPanel::restoreSettings(const QJsonObject& s) {
  QString level = s.value(QStringLiteral("level")).toString();
  for (LogLevel l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warn, LogLevel::Error, LogLevel::Fatal})
    if (level == QLatin1String(sensors::levelName(l))) setMinimumLevel(l);
  setNodeFilter(s.value(QStringLiteral("node")).toString());
  setSearchText(s.value(QStringLiteral("search")).toString());
  setFollowPlayhead(s.value(QStringLiteral("follow")).toBool());
  setTopic(s.value(QStringLiteral("topic")).toString());
}

}  // namespace bagscope::widgets
