#include "widgets/shell/problems_panel.hpp"

#include <QFileInfo>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

ProblemsPanel::ProblemsPanel(Document* document, QWidget* parent)
    : QWidget(parent), document_(document), view_(new QTextBrowser(this)) {
  view_->setOpenLinks(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(view_);
  connect(document_, &Document::sessionChanged, this, &ProblemsPanel::refresh);
  refresh();
}

QString ProblemsPanel::text() const { return view_->toPlainText(); }

void ProblemsPanel::refresh() {
  QString html;
  for (const auto& group : document_->problems()) {
    // A file by its name, its folder below; other headings as they are.
    QFileInfo file(group.heading);
    bool isFile = file.fileName() != group.heading;
    html += QStringLiteral("<p><b>%1</b> (%2)")
                .arg(isFile ? file.fileName().toHtmlEscaped() : group.heading.toHtmlEscaped())
                .arg(group.items.size());
    if (isFile) html += QStringLiteral("<br><span style='color:gray'>%1</span>").arg(file.path().toHtmlEscaped());
    html += QStringLiteral("</p><ul>");
    for (const QString& item : group.items) html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
    html += QStringLiteral("</ul>");
  }
  if (document_->session() && document_->problems().empty())
    html = QStringLiteral("<p>%1</p>")
               .arg(tr("No problems: every file opened whole and every topic decodes.").toHtmlEscaped());
  view_->setHtml(html);
  emit countChanged(document_->problemCount());
}

}  // namespace bagscope::widgets
