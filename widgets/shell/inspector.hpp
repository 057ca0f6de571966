#pragma once
// The message inspector: the selected topic's message at the playhead as a tree of field,
// type and value. Arrays show their length and open on demand (at most kMaxShownItems
// elements; byte arrays never), a search box filters fields by path, and the context menu
// copies a value, a path, or the whole message as JSON or YAML.

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>
#include <QWidget>

#include <memory>
#include <optional>

#include "core/decode/decoder.hpp"
#include "core/session/session.hpp"
#include "widgets/async/decoded_message.hpp"
#include "widgets/async/newest_read.hpp"
#include "widgets/shell/timeline.hpp"

class QLabel;
class QLineEdit;
class QTreeView;

namespace bagscope::widgets {

class Document;

/// The whole message as YAML (block style, as `ros2 topic echo` writes it).
QString messageYaml(const decode::Value& value);
QString messageJson(const decode::Value& value);

class MessageTreeModel : public QAbstractItemModel {
  Q_OBJECT

public:
  enum Column { FieldColumn, TypeColumn, ValueColumn, ColumnCount };
  static constexpr int PathRole = Qt::UserRole + 1;
  static constexpr int kMaxShownItems = 1000;

  explicit MessageTreeModel(QObject* parent = nullptr);
  ~MessageTreeModel() override;
  void setMessage(std::shared_ptr<const DecodedMessage> message);
  const DecodedMessage* message() const { return message_.get(); }

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  bool hasChildren(const QModelIndex& parent = {}) const override;
  /// Numeric leaves can be dragged onto a plot (as "topic\npath").
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QModelIndexList& indexes) const override;

  /// The value at `index` (nullptr for the "more items" row).
  const decode::Value* valueAt(const QModelIndex& index) const;

  struct Node;

private:
  Node* nodeOf(const QModelIndex& index) const;
  std::shared_ptr<const DecodedMessage> message_;
  std::unique_ptr<Node> root_;
};

/// Keeps a row when its path contains the search text, with its parents and children.
class FieldFilter : public QSortFilterProxyModel {
  Q_OBJECT

public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void setText(const QString& text);

protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
  QString text_;
};

class InspectorPanel : public QWidget {
  Q_OBJECT

public:
  explicit InspectorPanel(Document* document, QWidget* parent = nullptr);
  ~InspectorPanel() override;
  MessageTreeModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QLineEdit* searchBox() const { return search_; }
  void setTimeDisplay(TimeDisplay display);
  /// The line above the tree: the topic, the message's number, times and notes.
  QString headerText() const;

signals:
  /// A decoded message is shown (tests wait for this).
  void messageShown();

private:
  void refresh();
  void show(std::shared_ptr<const DecodedMessage> message);
  void showContextMenu(const QPoint& pos);
  void updateHeader();

  Document* document_;
  MessageTreeModel* model_;
  FieldFilter* filter_;
  QLabel* header_;
  QLineEdit* search_;
  QTreeView* view_;
  std::unique_ptr<NewestRead<std::shared_ptr<const DecodedMessage>>> reader_;
  TimeDisplay display_ = TimeDisplay::Relative;
};

}  // namespace bagscope::widgets
