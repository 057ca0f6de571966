#pragma once
// The topic list: a table model over the document's topics (topic, type, count, rate,
// size; while comparing, run B's count and rate and both runs' largest gaps, differences
// highlighted, and B's own topics after A's), a filter/sort proxy, and the panel with its
// filter box and context menu.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QWidget>

#include <vector>

#include "core/session/timing.hpp"

class QLineEdit;
class QTreeView;

namespace bagscope::widgets {

class Document;

class TopicModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Topic, Type, Count, Rate, Size, CountB, RateB, GapA, GapB, ColumnCount };
  /// The columns shown only while comparing runs.
  static constexpr int FirstComparedColumn = CountB;
  /// Numbers as numbers, for sorting.
  static constexpr int SortRole = Qt::UserRole + 1;
  /// The session's TopicId; none for a topic only run B has.
  static constexpr int TopicIdRole = Qt::UserRole + 2;

  explicit TopicModel(Document* document, QObject* parent = nullptr);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
  /// Row `row` set against run B (null when not comparing, or not worked out yet).
  const session::TopicComparison* compared(int row) const;
  QVariant comparedData(const session::TopicComparison& c, int column, int role) const;

  Document* document_;
};

/// Filters on topic name or type (case-insensitive, words in any order) and sorts numbers
/// by value.
class TopicFilter : public QSortFilterProxyModel {
  Q_OBJECT

public:
  explicit TopicFilter(QObject* parent = nullptr);
  void setFilterText(const QString& text);
  /// Topic ids in the order shown.
  std::vector<session::TopicId> shownTopics() const;

protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
  QStringList words_;
};

class TopicListPanel : public QWidget {
  Q_OBJECT

public:
  explicit TopicListPanel(Document* document, QWidget* parent = nullptr);
  TopicFilter* filter() const { return filter_; }
  QTreeView* view() const { return view_; }
  QLineEdit* filterBox() const { return filterBox_; }
  /// Selects the row of `topic` (when shown).
  void selectTopic(int topic);

signals:
  /// The rows shown changed (filter, order, new session): the timeline follows.
  void shownTopicsChanged();
  void statsRequested(int topic);
  void plotRequested(int topic);
  /// "Show in …": a new panel of `kind` (panel_registry) on `topic`.
  void showRequested(int topic, const QString& kind);
  void exportRequested(int topic);

private:
  void showContextMenu(const QPoint& pos);
  void showComparedColumns();

  Document* document_;
  TopicModel* model_;
  TopicFilter* filter_;
  QLineEdit* filterBox_;
  QTreeView* view_;
};

}  // namespace bagscope::widgets
