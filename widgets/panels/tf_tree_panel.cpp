#include "widgets/panels/tf_tree_panel.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>
#include <map>
#include <numbers>
#include <set>

#include "core/analysis/derive.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/panels/transforms.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

QString transformText(const sensors::Transform& t) {
  auto rpy = analysis::rollPitchYaw(t.rotation[0], t.rotation[1], t.rotation[2], t.rotation[3]);
  auto n = [](double v) { return QString::number(std::abs(v) < 5e-10 ? 0.0 : v, 'f', 3); };
  const double deg = 180 / std::numbers::pi;
  return QStringLiteral("%1 %2 %3 m · %4 %5 %6 °")
      .arg(n(t.translation[0]), n(t.translation[1]), n(t.translation[2]), n(rpy[0] * deg), n(rpy[1] * deg),
           n(rpy[2] * deg));
}

TfTreePanel::TfTreePanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      tree_(new QTreeWidget(this)),
      from_(new QComboBox(this)),
      to_(new QComboBox(this)),
      relative_(new QLabel(this)) {
  tree_->setHeaderLabels(
      {tr("Frame"), tr("Kind"), tr("Rate (Hz)"), tr("Last update (s)"), tr("In its parent at the playhead")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  relative_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* form = new QFormLayout;
  form->addRow(tr("Frame:"), from_);
  form->addRow(tr("Relative to:"), to_);
  form->addRow(tr("At the playhead:"), relative_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(tree_, 1);
  layout->addLayout(form);
  for (QComboBox* box : {from_, to_})
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
      pendingFrom_.clear(), pendingTo_.clear();
      refresh();
    });
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (item) from_->setCurrentIndex(std::max(0, from_->findText(item->text(0))));
  });
  connect(document_, &Document::playheadChanged, this, &TfTreePanel::refresh);
  sessionChanged();
}

TfTreePanel::~TfTreePanel() { mailbox_->close(); }

void TfTreePanel::sessionChanged() {
  if (pendingFrom_.isEmpty()) pendingFrom_ = from_->currentText();
  if (pendingTo_.isEmpty()) pendingTo_ = to_->currentText();
  tf_.reset();
  rebuild();
  auto session = document_->session();
  if (!session) return;
  bool any = std::any_of(session->topics().begin(), session->topics().end(), [](const session::Topic& t) {
    return sensors::kindOf(t.type) == sensors::SensorKind::Transforms;
  });
  relative_->setText(any ? tr("Reading…") : tr("This recording has no transforms."));
  if (!any) return;
  auto mailbox = mailbox_;
  startInPool([session, mailbox, this] {
    auto buffer = readTransforms(*session);
    mailbox->post([this, buffer, session] {
      if (session != document_->session()) return;
      tf_ = buffer;
      rebuild();
      emit loaded();
    });
  });
}

void TfTreePanel::rebuild() {
  tree_->clear();
  QStringList frames;
  if (tf_)
    for (const auto& f : tf_->frames()) frames << toQt(f);
  for (QComboBox* box : {from_, to_}) {
    QSignalBlocker block(box);
    box->clear();
    box->addItems(frames);
  }
  from_->setCurrentIndex(std::max(0, from_->findText(pendingFrom_)));
  // By default a frame relative to the root of the tree (map, odom…), not to itself.
  int to = to_->findText(pendingTo_);
  if (to < 0 && tf_) {
    std::set<std::string> children;
    for (const auto& e : tf_->edges()) children.insert(e.child);
    for (int i = 0; i < to_->count() && to < 0; ++i)
      if (!children.count(to_->itemText(i).toStdString())) to = i;
  }
  to_->setCurrentIndex(std::max(0, to));
  if (from_->findText(pendingFrom_) >= 0) pendingFrom_.clear();
  if (to_->findText(pendingTo_) >= 0) pendingTo_.clear();
  if (!tf_) return;
  // Parents before children: every frame under its parent, roots at the top.
  std::map<QString, QTreeWidgetItem*> items;
  std::map<QString, sensors::TfBuffer::EdgeInfo> edgeOf;
  for (const auto& e : tf_->edges()) edgeOf[toQt(e.child)] = e;
  std::function<QTreeWidgetItem*(const QString&, int)> itemFor = [&](const QString& frame, int depth) {
    if (auto it = items.find(frame); it != items.end()) return it->second;
    auto edge = edgeOf.find(frame);
    QTreeWidgetItem* parent =
        edge != edgeOf.end() && depth < 64 ? itemFor(toQt(edge->second.parent), depth + 1) : nullptr;
    auto* item = parent ? new QTreeWidgetItem(parent, {frame}) : new QTreeWidgetItem(tree_, {frame});
    if (edge != edgeOf.end()) {
      const auto& e = edge->second;
      item->setText(1, e.isStatic ? tr("static") : tr("dynamic"));
      double span = static_cast<double>(e.lastNs - e.firstNs) / 1e9;
      item->setText(
          2, !e.isStatic && span > 0 ? QString::number(static_cast<double>(e.samples - 1) / span, 'f', 1) : QString());
      item->setText(3, e.isStatic
                           ? QString()
                           : QString::number(static_cast<double>(e.lastNs - document_->startNs()) / 1e9, 'f', 3));
    } else {
      item->setText(1, tr("root"));
    }
    items[frame] = item;
    return item;
  };
  for (const QString& f : frames) itemFor(f, 0);
  tree_->expandAll();
  refresh();
}

void TfTreePanel::refresh() {
  if (!tf_) return;
  const qint64 at = document_->playheadNs();
  for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
    QTreeWidgetItem* item = *it;
    if (!item->parent()) continue;
    auto t = tf_->lookup(item->parent()->text(0).toStdString(), item->text(0).toStdString(), at);
    item->setText(4, t ? transformText(*t) : toQt(t.error().message));
  }
  if (from_->currentIndex() < 0 || to_->currentIndex() < 0) return relative_->setText(tr("Choose two frames."));
  auto t = tf_->lookup(to_->currentText().toStdString(), from_->currentText().toStdString(), at);
  relative_->setText(t ? transformText(*t) : toQt(t.error().message));
}

void TfTreePanel::setFrames(const QString& frame, const QString& relativeTo) {
  pendingFrom_ = frame;
  pendingTo_ = relativeTo;
  if (from_->findText(frame) >= 0 && to_->findText(relativeTo) >= 0) {
    QSignalBlocker a(from_), b(to_);
    from_->setCurrentIndex(from_->findText(frame));
    to_->setCurrentIndex(to_->findText(relativeTo));
    pendingFrom_.clear(), pendingTo_.clear();
    refresh();
  } else if (tf_) {
    relative_->setText(tr("No frame %1 in the transforms.").arg(from_->findText(frame) < 0 ? frame : relativeTo));
  }
}

QString TfTreePanel::relativeText() const { return relative_->text(); }

QStringList TfTreePanel::frameRows() const {
  QStringList out;
  for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
    int depth = 0;
    for (auto* p = (*it)->parent(); p; p = p->parent()) ++depth;
    out << QStringLiteral("%1%2 %3").arg(QString(depth * 2, QLatin1Char(' ')), (*it)->text(0), (*it)->text(1));
  }
  return out;
}

QJsonObject TfTreePanel::saveSettings() const {
  return {{QStringLiteral("frame"), pendingFrom_.isEmpty() ? from_->currentText() : pendingFrom_},
          {QStringLiteral("relativeTo"), pendingTo_.isEmpty() ? to_->currentText() : pendingTo_}};
}

void TfTreePanel::restoreSettings(const QJsonObject& s) {
  setFrames(s.value(QStringLiteral("frame")).toString(), s.value(QStringLiteral("relativeTo")).toString());
}

}  // namespace bagscope::widgets
