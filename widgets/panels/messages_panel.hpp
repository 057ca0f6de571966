#pragma once
// The messages list (rqt_bag's raw view): one topic's messages as rows — index, log time,
// header stamp, size and a one-line summary — for millions of rows: the log times come from
// the index, and only the rows in view are read and decoded, on the pool. A click moves the
// playhead to the message; the row at the playhead can be followed.

#include <QAbstractTableModel>

#include <map>
#include <memory>
#include <set>

#include "widgets/panels/panel.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QTableView;

namespace bagscope::widgets {

class Document;
class Mailbox;

class MessagesModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Index, LogTime, Stamp, Size, Summary, ColumnCount };
  MessagesModel(Document* document, std::shared_ptr<Mailbox> mailbox, QObject* parent = nullptr);
  /// Shows `topic` of the open recording (-1: none).
  void setTopic(int topic);
  int topic() const { return topic_; }
  qint64 logTimeAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  /// What was read of a row (tests).
  struct Row {
    QString stamp, size, summary;
  };

signals:
  void rowsRead();

private:
  void request(int row) const;  // reads the rows around `row` that are not read yet

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  int topic_ = -1;
  int generation_ = 0;  // a new topic or recording: reads for the old one are dropped
  mutable std::map<int, Row> rows_;
  mutable std::set<int> pending_;
};

class MessagesPanel : public Panel {
  Q_OBJECT

public:
  explicit MessagesPanel(Document* document, QWidget* parent = nullptr);
  ~MessagesPanel() override;

  static constexpr const char* kKind = "messages";
  static bool shows(const QString&) { return true; }
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;
  void setTopic(const QString& name) override;

  void setFollowPlayhead(bool follow);
  MessagesModel* model() const { return model_; }
  QTableView* table() const { return table_; }

private:
  void followPlayhead();

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  TopicChoice* topic_;
  QCheckBox* follow_;
  QTableView* table_;
  MessagesModel* model_;
};

}  // namespace bagscope::widgets
