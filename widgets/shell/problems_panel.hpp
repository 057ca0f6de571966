#pragma once
// The Problems panel: what the open recording could not give in full, per file — damage
// found and what was recovered, bytes lost, definitions that did not fit, topics that
// cannot be decoded — so that a recovered file never looks like a whole one.

#include <QWidget>

class QTextBrowser;

namespace bagscope::widgets {

class Document;

class ProblemsPanel : public QWidget {
  Q_OBJECT

public:
  explicit ProblemsPanel(Document* document, QWidget* parent = nullptr);
  /// What the panel shows, as plain text (headings, then their items one per line).
  QString text() const;

signals:
  /// The number of problems shown changed (0: nothing to say).
  void countChanged(int count);

private:
  void refresh();

  Document* document_;
  QTextBrowser* view_;  // wrapped, selectable sentences: they hold offsets and counts
};

}  // namespace bagscope::widgets
