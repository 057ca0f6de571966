#pragma once
// File ▸ Export…: what `bagscope-cli export` does, as a wizard — (1) topics and a format for
// each, (2) the time range and every n-th message, (3) the formats' options, (4) the folder,
// file names (with a preview) and what to do with existing files, (5) the run: progress per
// topic with the time left, Cancel, and a summary. Runs on the session's workers through
// the export core (temporary names renamed when complete; nothing existing is replaced
// unless asked). The choices of each format are remembered.

#include <QWizard>

#include <memory>
#include <vector>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QRadioButton;
class QSpinBox;
class QTreeWidget;
class QPushButton;

namespace bagscope::exporters {
struct ExportOptions;
struct FormatOption;
struct ExportReport;
}  // namespace bagscope::exporters
namespace bagscope {
class Job;
}

namespace bagscope::widgets {

class Document;
class Mailbox;

/// The export formats a topic of `type` can go to ("pcd", "jpeg", "csv" …), best first.
QStringList exportFormatsFor(const QString& type);

class ExportWizard : public QWizard {
  Q_OBJECT

public:
  enum Page { What, When, How, Where, Run };

  /// `topics`: names to pre-select (the topic list's selection); none: the topics ticked
  /// last time that this recording has. Formats are those last chosen per topic (else per type).
  ExportWizard(Document* document, const QStringList& topics, QWidget* parent = nullptr);
  ~ExportWizard() override;

  // For tests and scripted use: the choices the pages hold.
  void chooseTopic(const QString& topic, const QString& format);
  void setEvery(int n);
  void setRange(qint64 startNs, qint64 endNs);
  void setFolder(const QString& folder);
  void setReplaceExisting(bool replace);
  /// Sets the control of format option `id` (exporters::formatOptions()) as text ("true" ticks a box).
  void setFormatOption(const char* id, const QString& text);
  /// What the target frame box offers: "" (as recorded) and the frames of /tf.
  QStringList targetFrames() const;
  QStringList previewNames() const;
  /// The ticked topics, each as "topic=format".
  QStringList ticked() const;
  bool running() const { return job_ != nullptr; }
  /// The run's summary text (empty until it ends).
  QString summary() const;
  /// What the export applies beyond the plain copy (every n-th, cloud options, video rate).
  QString changingChoices() const;
  const exporters::ExportReport& report() const;

signals:
  /// The run ended (finished, failed or cancelled).
  void exportFinished(bool ok);
  /// The target frame box lists the frames of /tf and /tf_static.
  void targetFramesLoaded();

public:
  /// Cancel: stops a running export (the wizard stays to show what was done), else closes.
  void reject() override;
  /// The {bag} placeholder: the first recording's name, as bagscope-cli names it.
  QString bagName() const;

protected:
  void initializePage(int id) override;
  bool validateCurrentPage() override;

private:
  struct Task;
  QWidget* makeWhatPage();
  QWidget* makeWhenPage();
  QWidget* makeHowPage();
  QWidget* makeWherePage();
  QWidget* makeRunPage();
  std::vector<Task> tasks() const;
  exporters::ExportOptions optionsFor(const QString& format) const;
  /// Per chosen topic: its format's options, the topic and its file-name template.
  std::vector<exporters::ExportOptions> taskOptions() const;
  /// Several topics with a template that has no {topic}: their names would collide.
  bool namesCollide() const;
  void updateHowPage();
  void updatePreview();
  void remember() const;
  void recall();
  void start();
  void onProgress(int task, double fraction);
  void onFinished(bool ok, QString error);

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  std::shared_ptr<Job> job_;
  std::shared_ptr<Job> framesJob_;  // the frames /tf names, for the target frame box
  std::shared_ptr<exporters::ExportReport> report_;
  // What
  QTreeWidget* topics_ = nullptr;
  // When
  QRadioButton* whole_ = nullptr;
  QRadioButton* selected_ = nullptr;
  QRadioButton* typed_ = nullptr;
  QDoubleSpinBox* from_ = nullptr;
  QDoubleSpinBox* to_ = nullptr;
  QSpinBox* every_ = nullptr;
  // How: a control per option of the formats, in a box per group.
  struct OptionControl {
    const exporters::FormatOption* option;
    QWidget* widget;
    QWidget* label;        ///< its label in the form, or null (a check box)
    QString text() const;  ///< the value as the option's text
    void setText(const QString& text) const;
  };
  const OptionControl* optionControl(const char* id) const;
  std::vector<QWidget*> groupBoxes_;
  std::vector<OptionControl> optionControls_;
  // Where
  QLineEdit* folder_ = nullptr;
  QLineEdit* template_ = nullptr;
  QRadioButton* keep_ = nullptr;
  QRadioButton* replace_ = nullptr;
  QListWidget* preview_ = nullptr;
  QLabel* whereProblem_ = nullptr;
  QLabel* choices_ = nullptr;  // remembered choices that change what is written
  int previewGeneration_ = 0;
  // Run
  QTreeWidget* progress_ = nullptr;
  QLabel* summary_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* openFolder_ = nullptr;
  std::vector<qint64> taskStartedMs_;
  qint64 runStartedMs_ = 0;
};

}  // namespace bagscope::widgets
