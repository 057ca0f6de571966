#include "widgets/panels/messages_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

#include "core/decode/decoder.hpp"
#include "core/sensors/sensors.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

namespace {
constexpr int kReadAround = 64;           // rows read together around one asked for
constexpr int kSummaryChars = 200;        // of a message's JSON
constexpr std::size_t kKeptRows = 20000;  // rows kept read; the oldest go beyond that
}  // namespace

MessagesModel::MessagesModel(Document* document, std::shared_ptr<Mailbox> mailbox, QObject* parent)
    : QAbstractTableModel(parent), document_(document), mailbox_(std::move(mailbox)) {}

void MessagesModel::setTopic(int topic) {
  beginResetModel();
  topic_ = topic;
  ++generation_;
  rows_.clear();
  pending_.clear();
  endResetModel();
}

qint64 MessagesModel::logTimeAt(int row) const {
  auto s = document_->session();
  if (!s || topic_ < 0) return 0;
  return s->index(static_cast<session::TopicId>(topic_))[static_cast<std::size_t>(row)].logTimeNs;
}

int MessagesModel::rowCount(const QModelIndex& parent) const {
  auto s = document_->session();
  if (parent.isValid() || !s || topic_ < 0 || static_cast<std::size_t>(topic_) >= s->topics().size()) return 0;
  return static_cast<int>(s->index(static_cast<session::TopicId>(topic_)).size());
}

int MessagesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MessagesModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
  const int row = index.row();
  if (index.column() == Index) return row;
  if (index.column() == LogTime)
    return QString::number(static_cast<double>(logTimeAt(row) - document_->startNs()) / 1e9, 'f', 6);
  auto it = rows_.find(row);
  if (it == rows_.end()) {
    request(row);
    return QStringLiteral("…");
  }
  switch (index.column()) {
    case Stamp: return it->second.stamp;
    case Size: return it->second.size;
    default: return it->second.summary;
  }
}

QVariant MessagesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Index: return MessagesPanel::tr("#");
    case LogTime: return MessagesPanel::tr("Log time (s)");
    case Stamp: return MessagesPanel::tr("Stamp (s)");
    case Size: return MessagesPanel::tr("Bytes");
    case Summary: return MessagesPanel::tr("Message");
    default: return {};
  }
}

void MessagesModel::request(int row) const {
  if (pending_.count(row)) return;
  auto session = document_->session();
  if (!session || topic_ < 0) return;
  const int total = rowCount();
  const int first = std::max(0, row - kReadAround / 4), last = std::min(total - 1, first + kReadAround - 1);
  for (int r = first; r <= last; ++r) pending_.insert(r);
  const auto topic = static_cast<session::TopicId>(topic_);
  const qint64 origin = document_->startNs();
  const int generation = generation_;
  auto* self = const_cast<MessagesModel*>(this);
  auto mailbox = mailbox_;
  startInPool([session, topic, first, last, origin, generation, self, mailbox] {
    auto read = std::make_shared<std::map<int, Row>>();
    for (int r = first; r <= last; ++r) {
      Row out;
      auto m = session->read(topic, static_cast<std::size_t>(r));
      if (!m) {
        out.summary = MessagesPanel::tr("cannot be read: %1").arg(toQt(m.error().describe()));
      } else {
        out.size = QString::number(m->bytes.size());
        auto d = session->decoder(*m->connection);
        auto v = d ? (*d)->decode(m->bytes) : Result<decode::Value>(d.error());
        if (!v) {
          out.summary = MessagesPanel::tr("cannot be decoded: %1").arg(toQt(v.error().describe()));
        } else {
          if (auto h = sensors::headerOf(*v); h && h->stampNs)
            out.stamp = QString::number(static_cast<double>(h->stampNs - origin) / 1e9, 'f', 6);
          std::string json;
          decode::appendJson(*v, json);
          if (json.size() > kSummaryChars) json = json.substr(0, kSummaryChars) + "…";
          out.summary = toQt(json);
        }
      }
      (*read)[r] = std::move(out);
    }
    mailbox->post([self, read, generation, first, last] {
      if (generation != self->generation_) return;
      for (auto& [r, item] : *read) {
        self->rows_[r] = std::move(item);
        self->pending_.erase(r);
      }
      while (self->rows_.size() > kKeptRows) self->rows_.erase(self->rows_.begin());
      emit self->dataChanged(self->index(first, Stamp), self->index(last, Summary));
      emit self->rowsRead();
    });
  });
}

MessagesPanel::MessagesPanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      topic_(new TopicChoice(this)),
      follow_(new QCheckBox(tr("Follow playhead"), this)),
      table_(new QTableView(this)),
      model_(new MessagesModel(document, mailbox_, this)) {
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->setToolTip(tr("Click a message to move the playhead to it"));
  follow_->setToolTip(tr("Select the message at or before the playhead as it moves"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(topic_, 1);
  bar->addWidget(follow_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addWidget(table_, 1);
  connect(topic_, &TopicChoice::chosen, this, &MessagesPanel::sessionChanged);
  connect(table_, &QTableView::clicked, this,
          [this](const QModelIndex& i) { document_->setPlayhead(model_->logTimeAt(i.row())); });
  connect(follow_, &QCheckBox::toggled, this, &MessagesPanel::followPlayhead);
  connect(document_, &Document::playheadChanged, this, &MessagesPanel::followPlayhead);
  sessionChanged();
}

MessagesPanel::~MessagesPanel() { mailbox_->close(); }

void MessagesPanel::sessionChanged() {
  topic_->refill(document_->topics(), [](const TopicInfo&) { return true; });
  model_->setTopic(topic_->currentIndex() < 0 ? -1 : static_cast<int>(topic_->currentData().toUInt()));
  emit titleChanged(topic_->currentText());
  followPlayhead();
}

void MessagesPanel::setTopic(const QString& name) {
  topic_->ask(name);
  sessionChanged();
}

void MessagesPanel::setFollowPlayhead(bool follow) { follow_->setChecked(follow); }

void MessagesPanel::followPlayhead() {
  auto s = document_->session();
  if (!follow_->isChecked() || !s || model_->topic() < 0) return;
  auto row = s->atOrBefore(static_cast<session::TopicId>(model_->topic()), document_->playheadNs());
  if (!row) return;
  QSignalBlocker block(table_->selectionModel());
  table_->selectRow(static_cast<int>(*row));
  table_->scrollTo(model_->index(static_cast<int>(*row), 0), QAbstractItemView::PositionAtCenter);
}

QJsonObject MessagesPanel::saveSettings() const {
  return {{QStringLiteral("topic"), topic_->topic()}, {QStringLiteral("follow"), follow_->isChecked()}};
}

void MessagesPanel::restoreSettings(const QJsonObject& s) {
  setFollowPlayhead(s.value(QStringLiteral("follow")).toBool());
  setTopic(s.value(QStringLiteral("topic")).toString());
}

}  // namespace bagscope::widgets
