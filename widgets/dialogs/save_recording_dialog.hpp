#pragma once
// File ▸ Save Selection As… and File ▸ Recover…: the ticked topics over the whole recording or
// the timeline's selected range, written to a new recording (MCAP, ROS 1 bag, rosbag2) through
// the same copy job as bagscope-cli filter and recover — as recorded, or translated to ROS 2
// or back to ROS 1 (convert --to-ros2/--to-ros1) — in the background with progress and Cancel,
// then what was written, what was translated how, and what could not be read.

#include <QDialog>

#include <memory>
#include <optional>

#include "core/write/write.hpp"

class QButtonGroup;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QRadioButton;

namespace bagscope::widgets {

class Document;
class Mailbox;

class SaveRecordingDialog : public QDialog {
  Q_OBJECT

public:
  /// Recover: every topic, the whole recording, in the input's own kind of container.
  enum class Purpose { SaveSelection, Recover };
  SaveRecordingDialog(Document* document, Purpose purpose, QWidget* parent = nullptr);
  ~SaveRecordingDialog() override;

  /// For tests: the output path typed, the container and whether the job is running.
  void setOutput(const QString& path);
  void setContainer(write::Container container);
  void setTopicTicked(const QString& topic, bool ticked);
  /// Messages as recorded (nullopt) or translated to a dialect; false when not offered.
  bool setTranslation(std::optional<schema::Dialect> to);
  bool running() const { return job_ != nullptr; }
  /// The outcome text shown after the job (empty before).
  QString outcome() const;

  /// True when a recording of `document` was damaged (scanned, cut, or with lost data).
  static bool hasDamage(const Document& document);

signals:
  /// The job ended (written, failed or cancelled).
  void finished(bool written);

private:
  void layOut();
  void fillTopics();
  void containerChanged();
  void browse();
  void start();
  void ended(const Result<void>& result);
  write::Container container() const;
  std::optional<schema::Dialect> translation() const;
  void translationChanged();

  Document* document_;
  Purpose purpose_;
  std::shared_ptr<Mailbox> mailbox_;
  std::shared_ptr<Job> job_;
  std::shared_ptr<write::CopyReport> report_;
  QListWidget* topics_;
  QRadioButton* whole_;
  QRadioButton* range_;
  QComboBox* translate_;
  QComboBox* format_;
  QComboBox* compression_;
  QLineEdit* path_;
  QProgressBar* progress_;
  QLabel* outcome_;
  QDialogButtonBox* buttons_;
};

}  // namespace bagscope::widgets
