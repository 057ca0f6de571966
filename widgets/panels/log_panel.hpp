#pragma once
// The log panel: rosgraph_msgs/Log, rcl_interfaces/msg/Log and foxglove.Log lines as a table
// — log time, level (coloured), node, message, file:line — filtered by level, node and text,
// a double-click moving the playhead there, and optionally following the playhead. The whole
// topic is decoded once on a worker; filtering is a pass over the lines (1 M in well under
// 100 ms) and the table shows only the rows in view.

#include <QAbstractTableModel>

#include <memory>
#include <vector>

#include "core/sensors/sensors.hpp"
#include "widgets/panels/panel.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace bagscope {
class Job;
}

namespace bagscope::widgets {

class Document;
class Mailbox;

struct LogLine {
  qint64 logTimeNs = 0;
  sensors::LogEntry entry;
};

/// The lines that pass the filter, as rows.
class LogModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Time, Level, Node, Message, Source, ColumnCount };
  explicit LogModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
  void setLines(std::vector<LogLine> lines, qint64 originNs);
  /// Keeps lines of `minLevel` or above, of `node` (empty: any) whose message, node or file
  /// holds `text` (case-insensitive; empty: any).
  void setFilter(sensors::LogLevel minLevel, const QString& node, const QString& text);
  const std::vector<LogLine>& lines() const { return lines_; }
  const LogLine& lineAt(int row) const { return lines_[shown_[static_cast<std::size_t>(row)]]; }
  /// The last shown row logged at or before `ns`, or -1.
  int rowAtOrBefore(qint64 ns) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  std::vector<LogLine> lines_;
  std::vector<std::string> searchable_;  // per line: message, node and file in lower case
  std::vector<std::uint32_t> shown_;     // indexes into lines_
  qint64 originNs_ = 0;
};

class LogPanel : public Panel {
  Q_OBJECT

public:
  explicit LogPanel(Document* document, QWidget* parent = nullptr);
  ~LogPanel() override;

  static constexpr const char* kKind = "log";
  static bool shows(const QString& type);
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;
  void setTopic(const QString& name) override;

  void setMinimumLevel(sensors::LogLevel level);
  void setNodeFilter(const QString& node);  ///< empty: every node
  void setSearchText(const QString& text);
  void setFollowPlayhead(bool follow);
  /// Lines as if decoded from a topic (tests and the benchmark).
  void setLines(std::vector<LogLine> lines);
  LogModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString status() const;

signals:
  void loaded();

private:
  void applyFilter();
  void followPlayhead();
  void fillNodes();

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  TopicChoice* topic_;
  QComboBox* level_;
  QComboBox* node_;
  QLineEdit* search_;
  QCheckBox* follow_;
  QTableView* table_;
  QLabel* status_;
  LogModel* model_;
  QString pendingNode_;
  std::shared_ptr<Job> job_;
};

}  // namespace bagscope::widgets
