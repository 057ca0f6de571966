#include "widgets/dialogs/field_dialog.hpp"

#include <map>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "core/decode/decoder.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

namespace {

bool numeric(schema::Primitive p) { return p != schema::Primitive::String && p != schema::Primitive::Message; }

// A message type of float x, y, z and w: an orientation.
bool isQuaternion(const schema::MessageType& type) {
  if (type.fields.size() != 4) return false;
  for (std::size_t i = 0; i < 4; ++i)
    if (type.fields[i].name != std::string(1, "xyzw"[i]) || type.fields[i].array != schema::ArrayKind::None ||
        (type.fields[i].type != schema::Primitive::Float64 && type.fields[i].type != schema::Primitive::Float32))
      return false;
  return true;
}

void collectQuaternions(const schema::MessageType& type, const QString& prefix, int depth, QStringList& out) {
  if (depth > 8) return;
  for (const auto& f : type.fields) {
    if (!f.message) continue;
    QString path = prefix + QString::fromStdString(f.name);
    if (f.array != schema::ArrayKind::None) path += QStringLiteral("[0]");
    if (isQuaternion(*f.message)) out << path;
    else collectQuaternions(*f.message, path + QLatin1Char('.'), depth + 1, out);
  }
}

// Leaf paths of a type: numbers, and with `text` strings too (state lanes).
void collectPaths(const schema::MessageType& type, const QString& prefix, int depth, bool text, QStringList& out) {
  if (depth > 8) return;
  auto leaf = [text](schema::Primitive p) { return numeric(p) || (text && p == schema::Primitive::String); };
  for (const auto& f : type.fields) {
    if (f.hidden) continue;
    QString path = prefix + QString::fromStdString(f.name);
    if (f.array == schema::ArrayKind::None) {
      if (f.message) collectPaths(*f.message, path + QLatin1Char('.'), depth + 1, text, out);
      else if (leaf(f.type)) out << path;
      continue;
    }
    // Fixed arrays by index (covariances …); variable ones by their first element, and all of
    // them ([:], to filter further: markers[:]{id==3}.pose.position.x).
    QStringList items;
    if (f.array == schema::ArrayKind::Fixed)
      for (std::uint32_t i = 0; i < std::min<std::uint32_t>(f.arrayLength, 36); ++i) items << QString::number(i);
    else items << QStringLiteral("0") << QStringLiteral(":");
    for (const QString& i : items) {
      QString item = QStringLiteral("%1[%2]").arg(path, i);
      if (f.message) collectPaths(*f.message, item + QLatin1Char('.'), depth + 1, text, out);
      else if (leaf(f.type) && !(f.isByteArray() && f.array != schema::ArrayKind::Fixed)) out << item;
    }
  }
}

// The decoded message type of a topic (its first connection's), when there is one.
std::shared_ptr<const decode::Decoder> topicDecoder(const Document& document, int topic) {
  auto s = document.session();
  if (!s || topic < 0 || static_cast<std::size_t>(topic) >= s->topics().size()) return nullptr;
  const auto& members = s->topics()[static_cast<std::size_t>(topic)].members;
  if (members.empty()) return nullptr;
  auto decoder = s->decoder(*members.front().connection);
  return decoder ? *decoder : nullptr;
}

}  // namespace

QStringList quaternionPaths(const Document& document, int topic) {
  QStringList out;
  if (auto d = topicDecoder(document, topic)) collectQuaternions(*d->schema().root, {}, 0, out);
  return out;
}

QStringList stateFieldPaths(const Document& document, int topic) {
  QStringList out;
  if (auto d = topicDecoder(document, topic)) collectPaths(*d->schema().root, {}, 0, true, out);
  return out;
}

bool hasHeaderStamp(const Document& document, int topic) {
  auto d = topicDecoder(document, topic);
  return d && schema::startsWithHeader(*d->schema().root);
}

QStringList numericFieldPaths(const Document& document, int topic) {
  QStringList out;
  if (auto d = topicDecoder(document, topic)) collectPaths(*d->schema().root, {}, 0, false, out);
  return out;
}

FieldDialog::FieldDialog(const Document& document, Purpose purpose, QWidget* parent)
    : QDialog(parent), document_(document), xy_(purpose == Purpose::XY), states_(purpose == Purpose::States) {
  const bool xy = xy_;
  setWindowTitle(xy        ? PlotPanel::tr("Add XY Series")
                 : states_ ? PlotPanel::tr("Add State Lane")
                           : PlotPanel::tr("Add Series"));
  resize(460, 480);
  std::map<QString, int> named;  // a name several types share is offered once per type, with it
  for (const auto& t : document.topics()) ++named[t.name];
  for (const auto& t : document.topics())
    if (t.decodeProblem.isEmpty())
      topic_->addItem(named[t.name] > 1 ? t.nameWithType() : t.name, static_cast<uint>(t.id));
  filter_->setPlaceholderText(PlotPanel::tr("Filter fields"));
  filter_->setClearButtonEnabled(true);
  list_->setSelectionMode(xy ? QAbstractItemView::MultiSelection : QAbstractItemView::ExtendedSelection);
  path_->setPlaceholderText(PlotPanel::tr("or type a path: ranges[0:10], markers[:]{id==3}.pose.position.x"));
  path_->setToolTip(
      PlotPanel::tr("Message paths as in Foxglove: fields a.b.c; index [3], from the end [-1]; "
                    "slices [0:10] (one series per element) and [:]; filters {id==3}, "
                    "{key==\"temp\"}, {level>=2}"));
  auto* form = new QFormLayout;
  form->addRow(PlotPanel::tr("Topic:"), topic_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  auto* fieldsLabel =
      new QLabel(xy ? PlotPanel::tr("Choose two fields: x first, then y.") : PlotPanel::tr("Fields:"), this);
  layout->addWidget(fieldsLabel);
  layout->addWidget(filter_);
  layout->addWidget(list_, 1);
  layout->addWidget(path_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(topic_, &QComboBox::currentIndexChanged, this, &FieldDialog::fill);
  xTopic_->setVisible(xy);  // the XY dialog's only
  xField_->setVisible(xy);
  if (xy) {  // x from another topic, aligned by time
    xTopic_->addItem(PlotPanel::tr("(the same topic)"));
    for (const auto& t : document.topics())
      if (t.decodeProblem.isEmpty()) xTopic_->addItem(t.name, static_cast<uint>(t.id));
    form->addRow(PlotPanel::tr("X from topic:"), xTopic_);
    form->addRow(PlotPanel::tr("X field:"), xField_);
    xField_->setEnabled(false);
    connect(xTopic_, &QComboBox::currentIndexChanged, this, [this, fieldsLabel](int i) {
      fieldsLabel->setText(i > 0 ? PlotPanel::tr("Choose the y field.")
                                 : PlotPanel::tr("Choose two fields: x first, then y."));
      xField_->clear();
      xField_->setEnabled(i > 0);
      if (i > 0) xField_->addItems(numericFieldPaths(document_, static_cast<int>(xTopic_->currentData().toUInt())));
    });
  }
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    for (int i = 0; i < list_->count(); ++i)
      list_->item(i)->setHidden(!list_->item(i)->text().contains(text, Qt::CaseInsensitive));
  });
  fill();
}

QStringList FieldDialog::paths() const {
  QStringList out;
  for (auto* item : list_->selectedItems()) out << item->text();
  if (!path_->text().trimmed().isEmpty()) out << path_->text().trimmed();
  return out;
}

void FieldDialog::fill() {
  list_->clear();
  if (topic_->currentIndex() < 0) return;
  int topic = static_cast<int>(topic_->currentData().toUInt());
  if (states_) return list_->addItems(stateFieldPaths(document_, topic));
  if (!xy_)  // orientations as roll, pitch and yaw, then the fields
    for (const QString& q : quaternionPaths(document_, topic)) list_->addItem(q + kRpySuffix);
  list_->addItems(numericFieldPaths(document_, topic));
}

}  // namespace bagscope::widgets
