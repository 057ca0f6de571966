#pragma once
// The plot's field chooser: a topic and its fields — numbers (and strings, for state lanes),
// nested fields, array elements and whole arrays ([:]), orientations offered as roll, pitch
// and yaw — or a message path typed in.

#include <QComboBox>
#include <QDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace bagscope::widgets {

class Document;

/// Numeric field paths of a topic's message type that can be plotted (nested fields, fixed
/// arrays of up to 36 elements by index, the first element of variable arrays and all of
/// them, [:]).
QStringList numericFieldPaths(const Document& document, int topic);
/// Whether the topic's type starts with a std_msgs/Header (ROS 1 or ROS 2): its samples can
/// be placed at their header stamp.
bool hasHeaderStamp(const Document& document, int topic);
/// The same with string fields too: what a state lane can show.
QStringList stateFieldPaths(const Document& document, int topic);
/// Paths of a topic's message type that hold an orientation (a message of float x, y, z, w:
/// geometry_msgs Quaternion in Imu, Odometry, Pose, TF), for roll/pitch/yaw.
QStringList quaternionPaths(const Document& document, int topic);

/// Chooses a topic and fields: one or more (series, state lanes), or x then y (XY).
class FieldDialog : public QDialog {
public:
  enum class Purpose { Series, XY, States };
  /// An orientation's entry ends with this: plot its roll, pitch and yaw.
  static inline const QString kRpySuffix = QStringLiteral("  → roll, pitch, yaw");

  FieldDialog(const Document& document, Purpose purpose, QWidget* parent);
  void selectTopic(const QString& name) { topic_->setCurrentIndex(std::max(0, topic_->findText(name))); }
  QString topic() const { return topic_->currentText(); }
  /// XY: the x field's topic and field when they come from another topic, else empty.
  QString xTopic() const { return xTopic_->currentIndex() > 0 ? xTopic_->currentText() : QString(); }
  QString xField() const { return xField_->currentText(); }
  /// The fields chosen, then the path typed.
  QStringList paths() const;

private:
  void fill();
  const Document& document_;
  bool xy_, states_;
  QComboBox* topic_ = new QComboBox(this);
  QLineEdit* filter_ = new QLineEdit(this);
  QListWidget* list_ = new QListWidget(this);
  QLineEdit* path_ = new QLineEdit(this);
  QComboBox* xTopic_ = new QComboBox(this);
  QComboBox* xField_ = new QComboBox(this);
};

}  // namespace bagscope::widgets
