#pragma once
// The main window: opens a recording in the background and shows its summary — time
// range, size, compression, and a sortable table of topics.

#include <QMainWindow>
#include <QString>

#include <memory>

class QLabel;
class QTreeWidget;
class QFormLayout;

namespace bagscope::storage {
struct RecordingSummary;
}

namespace bagscope::widgets {

class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Starts opening `path` on a worker thread; the window updates when it is done.
  void openFile(const QString& path);

  /// The path whose summary is shown (empty before the first successful open).
  QString currentPath() const { return currentPath_; }
  QTreeWidget* topicTable() const { return topics_; }

signals:
  /// Emitted on the GUI thread when an open finishes: `error` is empty on success.
  void openFinished(const QString& path, const QString& error);

protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

private:
  void showOpenDialog();
  void showSummary(const QString& path, const storage::RecordingSummary& summary);
  void showError(const QString& path, const QString& error);

  QString currentPath_;
  QFormLayout* facts_ = nullptr;
  QLabel* problems_ = nullptr;
  QTreeWidget* topics_ = nullptr;
  int openGeneration_ = 0;  // a newer open makes results of older ones stale
};

}  // namespace bagscope::widgets
