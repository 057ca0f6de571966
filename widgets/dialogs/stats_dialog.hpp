#pragma once
// Timing diagnostics of one topic (rate, jitter, gaps, out-of-order writes, header-stamp
// latency), computed on the session's workers while the dialog shows progress.

#include <QDialog>

#include <memory>

#include "core/session/timing.hpp"

class QFormLayout;
class QLabel;
class QProgressBar;
class QTreeWidget;

namespace bagscope::widgets {

class Document;
class Mailbox;

class StatsDialog : public QDialog {
  Q_OBJECT

public:
  StatsDialog(Document* document, session::TopicId topic, QWidget* parent = nullptr);
  ~StatsDialog() override;

  /// The figures shown (empty until computed).
  const std::optional<session::TopicTiming>& timing() const { return timing_; }

signals:
  void computed();

private:
  void showTiming(const session::TopicTiming& t);

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  std::shared_ptr<Job> job_;
  std::optional<session::TopicTiming> timing_;
  QProgressBar* progress_;
  QFormLayout* facts_;
  QTreeWidget* gaps_;
};

}  // namespace bagscope::widgets
