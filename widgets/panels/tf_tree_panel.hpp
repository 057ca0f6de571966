#pragma once
// The TF tree: every frame of /tf and /tf_static under its parent, static or dynamic, its
// rate and last update, and its transform to its parent at the playhead; choose two frames
// to read the transform between them at the playhead.

#include <QString>
#include <QStringList>

#include <memory>

#include "core/sensors/sensors.hpp"
#include "widgets/panels/panel.hpp"

class QComboBox;
class QLabel;
class QTreeWidget;

namespace bagscope::widgets {

class Document;
class Mailbox;

class TfTreePanel : public Panel {
  Q_OBJECT

public:
  explicit TfTreePanel(Document* document, QWidget* parent = nullptr);
  ~TfTreePanel() override;

  static constexpr const char* kKind = "tf";
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;

  /// The pose of `frame` in `relativeTo` shown at the playhead.
  void setFrames(const QString& frame, const QString& relativeTo);
  /// "x y z m · roll pitch yaw °" of the chosen frames, or why there is none.
  QString relativeText() const;
  /// Each frame as "indent frame (parent) kind": the tree as shown (tests).
  QStringList frameRows() const;
  QTreeWidget* tree() const { return tree_; }

signals:
  void loaded();

private:
  void rebuild();  // the tree, after loading
  void refresh();  // the transforms at the playhead

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  QTreeWidget* tree_;
  QComboBox* from_;
  QComboBox* to_;
  QLabel* relative_;
  QString pendingFrom_, pendingTo_;
  std::shared_ptr<const sensors::TfBuffer> tf_;
};

/// A transform as "x y z m · roll pitch yaw °" (three decimals; angles as tf2's getRPY).
QString transformText(const sensors::Transform& t);

}  // namespace bagscope::widgets
