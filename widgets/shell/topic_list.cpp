#include "widgets/shell/topic_list.hpp"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/base/text.hpp"
#include "widgets/panels/panel_registry.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

// ---------------------------------------------------------------------------------------
// TopicModel

TopicModel::TopicModel(Document* document, QObject* parent) : QAbstractTableModel(parent), document_(document) {
  connect(document_, &Document::sessionChanged, this, [this] {
    beginResetModel();
    endResetModel();
  });
  connect(document_, &Document::topicSizesChanged, this, [this] {
    if (rowCount() > 0) emit dataChanged(index(0, Size), index(rowCount() - 1, Size));
  });
  connect(document_, &Document::comparisonChanged, this, [this] {
    beginResetModel();
    endResetModel();
  });
}

const session::TopicComparison* TopicModel::compared(int row) const {
  const auto& all = document_->topicComparison();
  const auto& topics = document_->topics();
  // A's topics in its order, then B's own: only while it is worked out for this session.
  if (static_cast<std::size_t>(row) >= all.size() || all.size() < topics.size()) return nullptr;
  const auto& c = all[static_cast<std::size_t>(row)];
  const bool ofA = row < static_cast<int>(topics.size());
  if (ofA ? toQt(c.topic) != topics[static_cast<std::size_t>(row)].name : c.a.has_value() || !c.b) return nullptr;
  return &c;
}

int TopicModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  const auto& topics = document_->topics();
  const auto& all = document_->topicComparison();
  return static_cast<int>(all.size() >= topics.size() && compared(0) ? all.size() : topics.size());
}

// Figures of a topic in both runs, and the cells that differ highlighted.
QVariant TopicModel::comparedData(const session::TopicComparison& c, int column, int role) const {
  using C = session::TopicComparison;
  const auto* run = column == CountB || column == RateB || column == GapB ? &c.b : &c.a;
  auto rate = [](double hz) { return hz > 0 ? QLocale().toString(hz, 'f', hz < 10 ? 2 : 1) : QStringLiteral("–"); };
  switch (role) {
    case Qt::DisplayRole:
      if (!*run) return column == Topic || column == Type ? QVariant() : QVariant(QStringLiteral("–"));
      switch (column) {
        case Count:
        case CountB: return QLocale().toString(static_cast<qulonglong>((*run)->count));
        case Rate:
        case RateB: return rate((*run)->rateHz);
        case GapA:
        case GapB: return QLocale().toString((*run)->largestGapS, 'f', 3);
      }
      break;
    case SortRole:
      if (!*run) return -1.0;
      switch (column) {
        case Count:
        case CountB: return static_cast<double>((*run)->count);
        case Rate:
        case RateB: return (*run)->rateHz;
        case GapA:
        case GapB: return (*run)->largestGapS;
      }
      break;
    case Qt::BackgroundRole: {
      const std::uint8_t flag = column == Type                        ? C::Type | C::Definition
                                : column == Count || column == CountB ? C::Count
                                : column == Rate || column == RateB   ? C::Rate
                                : column == GapA || column == GapB    ? C::Gap
                                                                      : 0;
      if ((c.changes & flag) || !c.a || !c.b) return QColor(255, 214, 153);  // a soft orange on both themes' text
      break;
    }
    case Qt::ToolTipRole:
      if (!c.b) return tr("Only in run A");
      if (!c.a) return tr("Only in run B");
      if (column == Type && (c.changes & C::Type)) return tr("Run B's type: %1").arg(toQt(c.b->type));
      if (column == Type && (c.changes & C::Definition)) return tr("Run B defines this type differently");
      break;
  }
  return {};
}

int TopicModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TopicModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const int column = index.column();
  const auto* c = compared(index.row());
  if (index.row() >= static_cast<int>(document_->topics().size())) {  // only run B has it
    if (!c) return {};
    if (role == Qt::DisplayRole || role == SortRole) {
      if (column == Topic) return toQt(c->topic);
      if (column == Type) return toQt(c->b->type);
      if (column == Size) return role == SortRole ? QVariant(-1) : QVariant(QStringLiteral("–"));
    }
    if (role == Qt::TextAlignmentRole && column >= Count) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole) return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
    return comparedData(*c, column, role);
  }
  if (c && role != TopicIdRole && role != Qt::TextAlignmentRole && role != Qt::ForegroundRole &&
      (column >= FirstComparedColumn || role == Qt::BackgroundRole ||
       (role == Qt::ToolTipRole && (!c->b || (column == Type && c->changes)))))
    return comparedData(*c, column, role);
  if (column >= FirstComparedColumn && role != Qt::TextAlignmentRole) return {};
  const TopicInfo& t = document_->topics()[static_cast<std::size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Topic: return t.name;
        case Type: return t.type;
        case Count: return QLocale().toString(static_cast<qulonglong>(t.count));
        case Rate: return t.rateHz > 0 ? QLocale().toString(t.rateHz, 'f', t.rateHz < 10 ? 2 : 1) : QStringLiteral("–");
        case Size:
          return t.sizeBytes < 0 ? QStringLiteral("…")
                                 : QString::fromStdString(formatBytes(static_cast<std::uint64_t>(t.sizeBytes)));
      }
      break;
    case SortRole:
      switch (index.column()) {
        case Topic: return t.name;
        case Type: return t.type;
        case Count: return static_cast<qulonglong>(t.count);
        case Rate: return t.rateHz;
        case Size: return t.sizeBytes;
      }
      break;
    case TopicIdRole: return static_cast<uint>(t.id);
    case Qt::ForegroundRole:
      // Greyed but still selectable: its stats and timeline row still work.
      if (!t.decodeProblem.isEmpty()) return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
      break;
    case Qt::TextAlignmentRole:
      if (index.column() >= Count) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case Qt::ToolTipRole:
      if (!t.decodeProblem.isEmpty()) return tr("Messages of this topic cannot be decoded: %1").arg(t.decodeAdvice());
      if (index.column() == Size && t.sizeBytes < 0) return tr("Being measured in the background…");
      return index.column() <= Type ? index.data().toString() : QVariant();
  }
  return {};
}

Qt::ItemFlags TopicModel::flags(const QModelIndex& index) const {
  return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren : Qt::NoItemFlags;
}

QVariant TopicModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Topic: return tr("Topic");
    case Type: return tr("Type");
    case Count: return tr("Messages");
    case Rate: return tr("Rate (Hz)");
    case Size: return tr("Size");
    case CountB: return tr("Messages B");
    case RateB: return tr("Rate B (Hz)");
    case GapA: return tr("Largest Gap (s)");
    case GapB: return tr("Largest Gap B (s)");
  }
  return {};
}

// ---------------------------------------------------------------------------------------
// TopicFilter

TopicFilter::TopicFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(TopicModel::SortRole);
  setSortCaseSensitivity(Qt::CaseInsensitive);
}

void TopicFilter::setFilterText(const QString& text) {
  words_ = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
  invalidateFilter();
}

bool TopicFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
  QString name = sourceModel()->index(row, TopicModel::Topic, parent).data().toString();
  QString type = sourceModel()->index(row, TopicModel::Type, parent).data().toString();
  for (const auto& w : words_)
    if (!name.contains(w, Qt::CaseInsensitive) && !type.contains(w, Qt::CaseInsensitive)) return false;
  return true;
}

std::vector<session::TopicId> TopicFilter::shownTopics() const {
  std::vector<session::TopicId> out;
  for (int r = 0; r < rowCount(); ++r)
    if (QVariant id = index(r, 0).data(TopicModel::TopicIdRole); id.isValid()) out.push_back(id.toUInt());
  return out;
}

// ---------------------------------------------------------------------------------------
// TopicListPanel

TopicListPanel::TopicListPanel(Document* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      model_(new TopicModel(document, this)),
      filter_(new TopicFilter(this)),
      filterBox_(new QLineEdit(this)),
      view_(new QTreeView(this)) {
  filter_->setSourceModel(model_);
  filterBox_->setPlaceholderText(tr("Filter topics by name or type"));
  filterBox_->setClearButtonEnabled(true);
  view_->setModel(filter_);
  view_->setRootIsDecorated(false);
  view_->setAlternatingRowColors(true);
  view_->setUniformRowHeights(true);
  view_->setSortingEnabled(true);
  view_->sortByColumn(TopicModel::Topic, Qt::AscendingOrder);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  view_->header()->setStretchLastSection(false);
  view_->header()->setSectionResizeMode(TopicModel::Topic, QHeaderView::Interactive);
  view_->header()->setSectionResizeMode(TopicModel::Type, QHeaderView::Interactive);
  view_->header()->resizeSection(TopicModel::Topic, 180);
  view_->header()->resizeSection(TopicModel::Type, 150);
  for (int c = TopicModel::Count; c < TopicModel::ColumnCount; ++c)
    view_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  // While comparing, each of B's figures beside A's: count, count B, rate, rate B, gaps, size.
  int at = TopicModel::Count;
  for (int c :
       {TopicModel::Count, TopicModel::CountB, TopicModel::Rate, TopicModel::RateB, TopicModel::GapA, TopicModel::GapB})
    view_->header()->moveSection(view_->header()->visualIndex(c), at++);
  showComparedColumns();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(filterBox_);
  layout->addWidget(view_);

  connect(filterBox_, &QLineEdit::textChanged, filter_, &TopicFilter::setFilterText);
  connect(filter_, &QAbstractItemModel::layoutChanged, this, &TopicListPanel::shownTopicsChanged);
  connect(filter_, &QAbstractItemModel::modelReset, this, &TopicListPanel::shownTopicsChanged);
  connect(filter_, &QAbstractItemModel::rowsInserted, this, &TopicListPanel::shownTopicsChanged);
  connect(filter_, &QAbstractItemModel::rowsRemoved, this, &TopicListPanel::shownTopicsChanged);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    QVariant id = current.data(TopicModel::TopicIdRole);  // none for run B's own topics
    document_->setCurrentTopic(id.isValid() ? static_cast<int>(id.toUInt()) : -1);
  });
  connect(document_, &Document::comparisonChanged, this, &TopicListPanel::showComparedColumns);
  connect(document_, &Document::currentTopicChanged, this, &TopicListPanel::selectTopic);
  connect(view_, &QWidget::customContextMenuRequested, this, &TopicListPanel::showContextMenu);
}

void TopicListPanel::selectTopic(int topic) {
  for (int r = 0; r < filter_->rowCount(); ++r) {
    QModelIndex i = filter_->index(r, 0);
    if (static_cast<int>(i.data(TopicModel::TopicIdRole).toUInt()) == topic) {
      if (view_->currentIndex().row() != r)
        view_->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
      view_->scrollTo(i);
      return;
    }
  }
}

void TopicListPanel::showComparedColumns() {
  for (int c = TopicModel::FirstComparedColumn; c < TopicModel::ColumnCount; ++c)
    view_->setColumnHidden(c, !document_->comparison());
}

void TopicListPanel::showContextMenu(const QPoint& pos) {
  QModelIndex index = view_->indexAt(pos);
  if (!index.isValid() || !index.data(TopicModel::TopicIdRole).isValid()) return;
  int topic = static_cast<int>(index.data(TopicModel::TopicIdRole).toUInt());
  QString name = filter_->index(index.row(), TopicModel::Topic).data().toString();
  QMenu menu(this);
  const TopicInfo& info = document_->topics()[static_cast<std::size_t>(topic)];
  bool decodable = info.decodeProblem.isEmpty();
  menu.addAction(tr("Plot Field…"), this, [this, topic] { emit plotRequested(topic); })->setEnabled(decodable);
  // The panels that show this type.
  for (const PanelType& type : panelTypes())
    if (type.shows && type.showAction && type.shows(info.type))
      menu.addAction(translated(type.showAction), this,
                     [this, topic, kind = QString::fromLatin1(type.kind)] { emit showRequested(topic, kind); });
  menu.addAction(tr("Export This Topic…"), this, [this, topic] { emit exportRequested(topic); })->setEnabled(decodable);
  menu.addSeparator();
  menu.addAction(tr("Copy Topic Name"), this, [name] { QApplication::clipboard()->setText(name); });
  menu.addAction(tr("Stats…"), this, [this, topic] { emit statsRequested(topic); });
  menu.exec(view_->viewport()->mapToGlobal(pos));
}

}  // namespace bagscope::widgets
