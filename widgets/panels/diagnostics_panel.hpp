#pragma once
// The diagnostics panel: diagnostic_msgs/DiagnosticArray as the latest status of every
// hardware id and name at the playhead — level (coloured), message, key/value pairs — and
// each entry's history of level changes. The topic is decoded once on a worker.

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/sensors/sensors.hpp"
#include "widgets/panels/panel.hpp"

class QComboBox;
class QLabel;
class QTreeWidget;

namespace bagscope {
class Job;
}

namespace bagscope::widgets {

class Document;
class Mailbox;

class DiagnosticsPanel : public Panel {
  Q_OBJECT

public:
  explicit DiagnosticsPanel(Document* document, QWidget* parent = nullptr);
  ~DiagnosticsPanel() override;

  static constexpr const char* kKind = "diagnostics";
  static bool shows(const QString& type);
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;
  void setTopic(const QString& name) override;

  /// What is shown, an entry a line: "hardware id / name: LEVEL message" (tests).
  QStringList shownStatus() const;
  QTreeWidget* tree() const { return tree_; }

signals:
  void loaded();

private:
  void refresh();  // the statuses at the playhead

  // One entry's statuses over time, by (hardware id, name).
  struct History {
    std::vector<std::pair<qint64, sensors::DiagnosticStatus>> samples;  // by log time
  };
  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  TopicChoice* topic_;
  QTreeWidget* tree_;
  QLabel* status_;
  std::map<std::pair<std::string, std::string>, History> entries_;
  std::shared_ptr<Job> job_;
};

/// "OK", "WARN", "ERROR", "STALE" for a diagnostic level.
QString diagnosticLevelName(int level);

}  // namespace bagscope::widgets
