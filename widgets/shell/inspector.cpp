#include "widgets/shell/inspector.hpp"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QScrollBar>
#include <QSet>
#include <QTreeView>
#include <QVBoxLayout>

#include <charconv>
#include <cmath>

#include "core/base/json_text.hpp"
#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

using decode::Value;
using Kind = decode::Value::Kind;

namespace {

std::string shortest(double v, bool single) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto r =
      single ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v)) : std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string timeText(const Value::TimeValue& t) {
  std::string nsec = std::to_string(t.nsec < 0 ? -t.nsec : t.nsec);
  return std::to_string(t.sec) + "." + std::string(9 - std::min<std::size_t>(9, nsec.size()), '0') + nsec;
}

// The field's element type ("float64[3]" -> "float64").
QString elementType(const schema::Field& f) {
  QString t = toQt(f.typeText);
  auto bracket = t.indexOf(QLatin1Char('['));
  return bracket < 0 ? t : t.left(bracket);
}

// YAML (block style; primitive arrays in flow style; long byte arrays summarised).
void appendYaml(const Value& v, const schema::Field* field, int indent, std::string& out);

void appendScalarYaml(const Value& v, const schema::Field* field, std::string& out) {
  bool single = field && field->type == schema::Primitive::Float32;
  switch (v.kind) {
    case Kind::Bool: out += v.b ? "true" : "false"; break;
    case Kind::Int: out += std::to_string(v.i); break;
    case Kind::UInt: out += std::to_string(v.u); break;
    case Kind::Float:
      if (std::isnan(v.f)) out += ".nan";
      else if (std::isinf(v.f)) out += v.f > 0 ? ".inf" : "-.inf";
      else out += shortest(v.f, single);
      break;
    case Kind::String: appendJsonString(v.text, out); break;  // a JSON string is a YAML string
    case Kind::Time:
    case Kind::Duration:  // ROS 1 (ROS 2 times are messages): the names Copy as JSON uses
      out += "{sec: " + std::to_string(v.t.sec) + ", nsec: " + std::to_string(v.t.nsec) + "}";
      break;
    case Kind::Bytes:
      if (v.bytes.size() > 4096) {
        out += "\"<" + std::to_string(v.bytes.size()) + " bytes, not shown>\"";
      } else {
        out += "[";
        for (std::size_t i = 0; i < v.bytes.size(); ++i)
          out += (i ? ", " : "") + std::to_string(static_cast<unsigned>(v.bytes[i]));
        out += "]";
      }
      break;
    default: break;
  }
}

void appendYaml(const Value& v, const schema::Field* field, int indent, std::string& out) {
  std::string pad(static_cast<std::size_t>(indent), ' ');
  if (v.kind == Kind::Struct) {
    bool shown = v.type && std::any_of(v.type->fields.begin(), v.type->fields.end(),
                                       [](const schema::Field& f) { return !f.hidden; });
    if (!shown || v.items.empty()) return void(out += " {}\n");
    out += "\n";
    for (std::size_t i = 0; i < v.items.size() && i < v.type->fields.size(); ++i) {
      if (v.type->fields[i].hidden) continue;
      out += pad + v.type->fields[i].name + ":";
      appendYaml(v.items[i], &v.type->fields[i], indent + 2, out);
    }
  } else if (v.kind == Kind::Array) {
    bool structs = !v.items.empty() && v.items.front().kind == Kind::Struct;
    if (!structs) {
      out += " [";
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ", ";
        appendScalarYaml(v.items[i], field, out);
      }
      out += "]\n";
      return;
    }
    out += "\n";
    for (const auto& item : v.items) {
      out += pad + "-";
      std::string inner;
      appendYaml(item, field, indent + 2, inner);
      // "- " then the struct's first line at the item's indentation.
      out += inner.front() == '\n' ? " " + inner.substr(1 + pad.size() + 2) : inner;
    }
  } else {
    out += " ";
    appendScalarYaml(v, field, out);
    out += "\n";
  }
}

}  // namespace

QString messageYaml(const Value& value) {
  std::string out;
  appendYaml(value, nullptr, 0, out);
  if (!out.empty() && out.front() == '\n') out.erase(0, 1);
  return toQt(out);
}

QString messageJson(const Value& value) {
  std::string out;
  decode::appendJson(value, out, decode::BytesMode::Base64);
  return toQt(out);
}

// ---------------------------------------------------------------------------------------
// MessageTreeModel

struct MessageTreeModel::Node {
  const decode::Value* value = nullptr;  // nullptr: the "N more" row of a long array
  const schema::Field* field = nullptr;
  QString name, path, type;
  Node* parent = nullptr;
  int row = 0;
  std::size_t hidden = 0;  // array elements not shown
  bool built = false;
  std::vector<std::unique_ptr<Node>> children;

  bool expandable() const {
    if (!value || value->items.empty()) return false;
    if (value->kind == Kind::Array) return true;
    // A struct with fields to show (not only rosidl's hidden placeholder).
    return value->kind == Kind::Struct && value->type &&
           std::any_of(value->type->fields.begin(), value->type->fields.end(),
                       [](const schema::Field& f) { return !f.hidden; });
  }
  void build() {
    if (built) return;
    built = true;
    if (!value) return;
    auto add = [this](const decode::Value* v, const schema::Field* f, QString childName, QString childPath,
                      QString childType) {
      auto n = std::make_unique<Node>();
      n->value = v;
      n->field = f;
      n->name = std::move(childName);
      n->path = std::move(childPath);
      n->type = std::move(childType);
      n->parent = this;
      n->row = static_cast<int>(children.size());
      children.push_back(std::move(n));
    };
    if (value->kind == Kind::Struct && value->type) {
      for (std::size_t i = 0; i < value->items.size() && i < value->type->fields.size(); ++i) {
        const auto& f = value->type->fields[i];
        if (f.hidden) continue;
        QString fieldName = toQt(f.name);
        add(&value->items[i], &f, fieldName, path.isEmpty() ? fieldName : path + QLatin1Char('.') + fieldName,
            toQt(f.typeText));
      }
    } else if (value->kind == Kind::Array) {
      std::size_t shown = std::min<std::size_t>(value->items.size(), kMaxShownItems);
      QString itemType = field ? elementType(*field) : QString();
      for (std::size_t i = 0; i < shown; ++i) {
        QString itemName = QStringLiteral("[%1]").arg(i);
        add(&value->items[i], field, itemName, path + itemName, itemType);
      }
      hidden = value->items.size() - shown;
      if (hidden) add(nullptr, nullptr, QStringLiteral("…"), path, QString());
    }
  }
};

MessageTreeModel::MessageTreeModel(QObject* parent) : QAbstractItemModel(parent), root_(std::make_unique<Node>()) {}
MessageTreeModel::~MessageTreeModel() = default;

void MessageTreeModel::setMessage(std::shared_ptr<const DecodedMessage> message) {
  beginResetModel();
  message_ = std::move(message);
  root_ = std::make_unique<Node>();
  if (message_ && message_->error.isEmpty()) root_->value = &message_->value;
  endResetModel();
}

MessageTreeModel::Node* MessageTreeModel::nodeOf(const QModelIndex& index) const {
  return index.isValid() ? static_cast<Node*>(index.internalPointer()) : root_.get();
}

QModelIndex MessageTreeModel::index(int row, int column, const QModelIndex& parent) const {
  Node* p = nodeOf(parent);
  p->build();
  if (row < 0 || row >= static_cast<int>(p->children.size()) || column < 0 || column >= ColumnCount) return {};
  return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex MessageTreeModel::parent(const QModelIndex& child) const {
  Node* n = nodeOf(child);
  if (!child.isValid() || !n->parent || n->parent == root_.get()) return {};
  return createIndex(n->parent->row, 0, n->parent);
}

int MessageTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.column() > 0) return 0;
  Node* n = nodeOf(parent);
  n->build();
  return static_cast<int>(n->children.size());
}

int MessageTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

bool MessageTreeModel::hasChildren(const QModelIndex& parent) const {
  if (parent.column() > 0) return false;
  Node* n = nodeOf(parent);
  return n == root_.get() ? n->value != nullptr : n->expandable();
}

const decode::Value* MessageTreeModel::valueAt(const QModelIndex& index) const {
  return index.isValid() ? nodeOf(index)->value : nullptr;
}

QVariant MessageTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  Node* n = nodeOf(index);
  if (role == PathRole) return n->path;
  if (role == Qt::ToolTipRole && index.column() == FieldColumn) return n->path;
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  if (!n->value) {
    return index.column() == FieldColumn ? QVariant(n->name)
           : index.column() == ValueColumn
               ? QVariant(tr("%n more item(s) not shown", nullptr, static_cast<int>(n->parent->hidden)))
               : QVariant();
  }
  switch (index.column()) {
    case FieldColumn: return n->name;
    case TypeColumn: return n->type;
    case ValueColumn: break;
    default: return {};
  }
  const decode::Value& v = *n->value;
  bool single = n->field && n->field->type == schema::Primitive::Float32;
  switch (v.kind) {
    case Kind::Bool: return v.b ? QStringLiteral("true") : QStringLiteral("false");
    case Kind::Int: return QString::number(v.i);
    case Kind::UInt: return QString::number(v.u);
    case Kind::Float: return QString::fromStdString(shortest(v.f, single));
    case Kind::String: return role == Qt::ToolTipRole ? toQt(v.text) : QStringLiteral("\"%1\"").arg(toQt(v.text));
    case Kind::Time:
    case Kind::Duration: return QString::fromStdString(timeText(v.t));
    case Kind::Bytes: {
      // Never expanded: the length and the first bytes.
      QString head;
      for (std::size_t i = 0; i < std::min<std::size_t>(v.bytes.size(), 16); ++i)
        head += QStringLiteral("%1 ").arg(static_cast<unsigned>(v.bytes[i]), 2, 16, QLatin1Char('0'));
      if (v.bytes.size() > 16) head += QStringLiteral("…");
      return tr("%n byte(s)", nullptr, static_cast<int>(v.bytes.size())) +
             (head.isEmpty() ? QString() : QStringLiteral(": ") + head.trimmed());
    }
    case Kind::Array: return tr("%n item(s)", nullptr, static_cast<int>(v.items.size()));
    case Kind::Struct: return {};
  }
  return {};
}

Qt::ItemFlags MessageTreeModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractItemModel::flags(index);
  const decode::Value* v = valueAt(index);
  if (v && v->kind != Kind::Struct && v->kind != Kind::Array && v->kind != Kind::Bytes && v->kind != Kind::String)
    f |= Qt::ItemIsDragEnabled;
  return f;
}

QStringList MessageTreeModel::mimeTypes() const { return {QString::fromLatin1(kFieldMimeType)}; }

QMimeData* MessageTreeModel::mimeData(const QModelIndexList& indexes) const {
  if (indexes.isEmpty() || !message_) return nullptr;
  auto* mime = new QMimeData;
  QString path = indexes.front().data(PathRole).toString();
  mime->setData(QString::fromLatin1(kFieldMimeType), (message_->topic + QLatin1Char('\n') + path).toUtf8());
  mime->setText(path);
  return mime;
}

QVariant MessageTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case FieldColumn: return tr("Field");
    case TypeColumn: return tr("Type");
    case ValueColumn: return tr("Value");
  }
  return {};
}

// ---------------------------------------------------------------------------------------
// FieldFilter

void FieldFilter::setText(const QString& text) {
  text_ = text.trimmed();
  invalidateFilter();
}

bool FieldFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
  if (text_.isEmpty()) return true;
  // Accepted when this path, a parent's or a child's matches.
  for (QModelIndex i = sourceModel()->index(row, 0, parent); i.isValid(); i = i.parent())
    if (i.data(MessageTreeModel::PathRole).toString().contains(text_, Qt::CaseInsensitive)) return true;
  QModelIndex self = sourceModel()->index(row, 0, parent);
  for (int r = 0; r < sourceModel()->rowCount(self); ++r)
    if (filterAcceptsRow(r, self)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------
// InspectorPanel

InspectorPanel::InspectorPanel(Document* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      model_(new MessageTreeModel(this)),
      filter_(new FieldFilter(this)),
      header_(new QLabel(this)),
      search_(new QLineEdit(this)),
      view_(new QTreeView(this)),
      reader_(std::make_unique<NewestRead<std::shared_ptr<const DecodedMessage>>>(this)) {
  filter_->setSourceModel(model_);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setMargin(2);
  search_->setPlaceholderText(tr("Search fields"));
  search_->setClearButtonEnabled(true);
  view_->setModel(filter_);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  view_->setDragEnabled(true);
  view_->setDragDropMode(QAbstractItemView::DragOnly);
  view_->header()->resizeSection(MessageTreeModel::FieldColumn, 200);
  view_->header()->resizeSection(MessageTreeModel::TypeColumn, 130);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(header_);
  layout->addWidget(search_);
  layout->addWidget(view_);
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
    filter_->setText(text);
    if (!text.trimmed().isEmpty()) view_->expandAll();
  });
  connect(view_, &QWidget::customContextMenuRequested, this, &InspectorPanel::showContextMenu);
  connect(document_, &Document::playheadChanged, this, [this] {
    refresh();
    updateHeader();  // the same message may now lie before the playhead (issue #33)
  });
  connect(document_, &Document::currentTopicChanged, this, &InspectorPanel::refresh);
  connect(document_, &Document::sessionChanged, this, &InspectorPanel::refresh);
  refresh();
}

InspectorPanel::~InspectorPanel() = default;

void InspectorPanel::setTimeDisplay(TimeDisplay display) {
  display_ = display;
  updateHeader();
}

void InspectorPanel::refresh() {
  auto s = document_->session();
  int topic = document_->currentTopic();
  std::optional<std::size_t> row;
  if (s && topic >= 0) {
    auto id = static_cast<session::TopicId>(topic);
    // Before the topic's first message: show that first message (the header says so).
    row = s->atOrBefore(id, document_->playheadNs());
    if (!row && s->index(id).size() > 0) row = 0;
  }
  if (!row) {
    reader_->reset();
    model_->setMessage(nullptr);
    updateHeader();
    return;
  }
  auto session = document_->session();
  auto id = static_cast<session::TopicId>(topic);
  reader_->want(
      {s.get(), topic, *row, 0}, [session, id, n = *row] { return readDecoded(*session, id, n); },
      [this](const ReadKey&, std::shared_ptr<const DecodedMessage> message) {
        if (reader_->shown().session == document_->session().get()) show(std::move(message));
      });
}

void InspectorPanel::show(std::shared_ptr<const DecodedMessage> message) {
  // Keep what the user opened and where they were.
  QSet<QString> expanded;
  std::function<void(const QModelIndex&)> collect = [&](const QModelIndex& parent) {
    for (int r = 0; r < filter_->rowCount(parent); ++r) {
      QModelIndex i = filter_->index(r, 0, parent);
      if (view_->isExpanded(i)) {
        expanded.insert(i.data(MessageTreeModel::PathRole).toString());
        collect(i);
      }
    }
  };
  collect({});
  int scroll = view_->verticalScrollBar()->value();
  model_->setMessage(std::move(message));
  std::function<void(const QModelIndex&)> reopen = [&](const QModelIndex& parent) {
    for (int r = 0; r < filter_->rowCount(parent); ++r) {
      QModelIndex i = filter_->index(r, 0, parent);
      if (expanded.contains(i.data(MessageTreeModel::PathRole).toString())) {
        view_->expand(i);
        reopen(i);
      }
    }
  };
  if (expanded.isEmpty() && model_->message() && model_->rowCount() < 30) {
    // First message of a topic: open the top level's small structs (header, pose …).
    for (int r = 0; r < filter_->rowCount(); ++r) {
      QModelIndex i = filter_->index(r, 0);
      const decode::Value* v = model_->valueAt(filter_->mapToSource(i));
      if (v && v->kind == Kind::Struct) view_->expand(i);
    }
  } else {
    reopen({});
  }
  if (!search_->text().trimmed().isEmpty()) view_->expandAll();
  view_->verticalScrollBar()->setValue(scroll);
  updateHeader();
  emit messageShown();
}

QString InspectorPanel::headerText() const { return header_->text(); }

void InspectorPanel::updateHeader() {
  const DecodedMessage* m = model_->message();
  if (!document_->session()) return header_->setText(QString());
  if (document_->currentTopic() < 0) return header_->setText(tr("Select a topic to see its message at the playhead."));
  if (!m) return header_->setText(tr("This topic has no messages."));
  qint64 origin = document_->startNs();
  QString text = tr("<b>%1</b> (%2) — message %3 of %4")
                     .arg(m->topic.toHtmlEscaped(), m->type.toHtmlEscaped())
                     .arg(m->row + 1)
                     .arg(m->count);
  if (m->message.connection) {
    text += QStringLiteral("<br>") + tr("log time %1").arg(formatTime(m->message.logTimeNs, display_, origin, 6));
    if (m->message.logTimeNs > document_->playheadNs())
      text += QStringLiteral(" ") + tr("(after the playhead: the topic's first message)");
  }
  if (m->stampNs) {
    QString stamp = formatStamp(*m->stampNs, display_, origin, document_->endNs(), 6);
    if (stampIsForeign(*m->stampNs, origin, document_->endNs())) {
      text += QStringLiteral("<br>") + tr("header.stamp %1").arg(stamp);
    } else {
      double diffMs = static_cast<double>(*m->stampNs - m->message.logTimeNs) / 1e6;
      text +=
          QStringLiteral("<br>") + tr("header.stamp %1 (stamp − log time: %2 ms)").arg(stamp).arg(diffMs, 0, 'f', 3);
    }
  }
  if (!m->error.isEmpty())
    text += QStringLiteral("<br><span style='color:#b00020'>%1</span>").arg(m->error.toHtmlEscaped());
  header_->setText(text);
}

void InspectorPanel::showContextMenu(const QPoint& pos) {
  const DecodedMessage* m = model_->message();
  if (!m || !m->error.isEmpty()) return;
  QModelIndex index = filter_->mapToSource(view_->indexAt(pos));
  QMenu menu(this);
  auto* clipboard = QApplication::clipboard();
  if (index.isValid() && model_->valueAt(index)) {
    QString value =
        model_->index(index.row(), MessageTreeModel::ValueColumn, index.parent()).data(Qt::ToolTipRole).toString();
    QString path = index.data(MessageTreeModel::PathRole).toString();
    menu.addAction(tr("Copy Value"), this, [clipboard, value] { clipboard->setText(value); });
    menu.addAction(tr("Copy Path"), this, [clipboard, path] { clipboard->setText(path); });
    menu.addSeparator();
  }
  menu.addAction(tr("Copy Message as JSON"), this, [clipboard, m] { clipboard->setText(messageJson(m->value)); });
  menu.addAction(tr("Copy Message as YAML"), this, [clipboard, m] { clipboard->setText(messageYaml(m->value)); });
  menu.addSeparator();
  menu.addAction(tr("Expand All"), view_, &QTreeView::expandAll);
  menu.addAction(tr("Collapse All"), view_, &QTreeView::collapseAll);
  menu.exec(view_->viewport()->mapToGlobal(pos));
}

}  // namespace bagscope::widgets
