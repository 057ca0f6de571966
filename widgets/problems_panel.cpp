#include "problems_panel.hpp"

#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "document.hpp"

namespace bagscope::widgets {

ProblemsPanel::ProblemsPanel(Document* document, QWidget* parent)
    : QWidget(parent), document_(document), tree_(new QTreeWidget(this)) {
  tree_->setHeaderHidden(true);
  tree_->setWordWrap(true);
  tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  tree_->header()->setStretchLastSection(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(tree_);
  connect(document_, &Document::sessionChanged, this, &ProblemsPanel::refresh);
  refresh();
}

void ProblemsPanel::refresh() {
  tree_->clear();
  for (const auto& group : document_->problems()) {
    auto* heading = new QTreeWidgetItem(tree_, {QStringLiteral("%1 (%2)").arg(group.heading).arg(group.items.size())});
    heading->setToolTip(0, group.heading);
    QFont bold = heading->font(0);
    bold.setBold(true);
    heading->setFont(0, bold);
    for (const QString& item : group.items) {
      auto* line = new QTreeWidgetItem(heading, {item});
      line->setToolTip(0, item);
    }
  }
  tree_->expandAll();
  if (document_->session() && document_->problems().empty())
    new QTreeWidgetItem(tree_, {tr("No problems: every file opened whole and every topic decodes.")});
  emit countChanged(document_->problemCount());
}

}  // namespace bagscope::widgets
