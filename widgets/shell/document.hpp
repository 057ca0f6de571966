#pragma once
// Document: what the window has open — a session over one or many recordings — and the
// state every panel follows: the playhead, the selected time range and the selected topic.
// Opening, measuring topic sizes and reading messages run on other threads; results come
// back as queued signals, so the GUI thread never waits on disk or decompression.

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/session/session.hpp"
#include "core/session/timing.hpp"

namespace bagscope::widgets {

class Mailbox;

/// What the topic list shows of a session topic.
struct TopicInfo {
  session::TopicId id = 0;
  QString name;
  QString type;
  std::uint64_t count = 0;
  double rateHz = 0;               ///< storage::rateHz over the topic's own span (as bagscope-cli info)
  qint64 sizeBytes = -1;           ///< sum of message sizes; -1 while not measured yet
  QString decodeProblem;           ///< why its messages cannot be decoded; empty when they can
  bool definitionMissing = false;  ///< no definition of its type: message paths would help

  /// decodeProblem, and for a missing definition where the app takes one (translated).
  QString decodeAdvice() const;
  /// "name (type)": how topic boxes and layouts name it where several types share its name.
  QString nameWithType() const { return QStringLiteral("%1 (%2)").arg(name, type); }
};

/// What the open recording could not give in full, under one heading (a file, or
/// "Decoding", "Not opened", "Recording"): what was damaged and recovered, bytes lost,
/// definitions that did not fit, topics that cannot be decoded and why.
struct ProblemGroup {
  QString heading;
  QStringList items;
};

/// A time range in log-time nanoseconds (inclusive).
struct TimeRange {
  qint64 startNs = 0;
  qint64 endNs = 0;
  bool operator==(const TimeRange&) const = default;
};

class Document : public QObject {
  Q_OBJECT

public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  /// Opens files and folders in the background (replacing what is open when it succeeds).
  /// Files that fail are reported by openFinished; the others open.
  void open(const QStringList& paths);
  void cancelOpen();
  bool isOpening() const { return opening_ != nullptr; }
  void close();

  /// Empty when nothing is open.
  /// Shared: a job or read that uses the session holds it, so a recording opened meanwhile
  /// cannot free it under the job (issue #33).
  std::shared_ptr<const session::Session> session() const { return session_; }
  const QStringList& paths() const { return paths_; }
  const std::vector<TopicInfo>& topics() const { return topics_; }
  /// The first topic of `name`, or the one "name (type)" says where types share a name.
  const TopicInfo* topicByName(const QString& name) const;
  /// Empty when everything opened and reads and decodes as it should.
  const std::vector<ProblemGroup>& problems() const { return problems_; }
  int problemCount() const;
  qint64 startNs() const;
  qint64 endNs() const;
  qint64 totalBytes() const;

  qint64 playheadNs() const { return playheadNs_; }
  /// Clamped to the recording's span.
  void setPlayhead(qint64 ns);
  /// Whether the playhead is moving by itself (Playback sets it): panels may draw less detail
  /// while it does.
  bool isPlaying() const { return playing_; }
  void setPlaying(bool playing);
  const std::optional<TimeRange>& range() const { return range_; }
  void setRange(std::optional<TimeRange> range);
  /// -1: none.
  int currentTopic() const { return currentTopic_; }
  void setCurrentTopic(int topic);

  /// Chunk cache budget for this and later sessions.
  void setCacheBudget(std::size_t bytes);
  /// Every file's log times start together (SessionOptions::alignStarts); opens what is
  /// open again when that changes.
  void setAlignStarts(bool align);
  bool alignStarts() const { return alignStarts_; }
  /// Where definitions the files lack come from (SessionOptions::msgPaths: folders of .msg
  /// files, recordings); opens what is open again when they change.
  void setMessagePaths(const QStringList& paths);
  const QStringList& messagePaths() const { return messagePaths_; }

  /// Run B of a comparison (File ▸ Compare With…): another document over other recordings,
  /// whose log times plus comparisonShiftNs() are this one's, its playhead at this one's
  /// moment; null when not comparing.
  Document* comparison() const { return comparison_; }
  /// Opens `paths` as run B, set against this run by `alignment` (session::parseRunAlignment:
  /// "start", "offset:S", "event:TOPIC", "event:TOPIC:PATH>VALUE"); run B open already with
  /// these paths is only aligned anew.
  void compareWith(const QStringList& paths, const QString& alignment);
  void setComparisonAlignment(const QString& alignment);
  const QString& comparisonAlignment() const { return alignment_; }
  void stopComparing();
  qint64 comparisonShiftNs() const { return shiftNs_; }
  /// Both runs' topics set against each other (A's, then B's own); empty until worked out.
  const std::vector<session::TopicComparison>& topicComparison() const { return topicComparison_; }
  /// Why run B is not set against this one (it did not open, the alignment's event is
  /// missing); empty when it is.
  const QString& comparisonProblem() const { return comparisonProblem_; }

signals:
  void openProgress(double fraction);
  /// `error` is empty when something opened; `failures` lists files that did not (each
  /// "path: reason"), whether or not the others opened.
  void openFinished(const QString& error, const QStringList& failures);
  /// cancelOpen() ended an open: what was open stays open.
  void openCancelled();
  void sessionChanged();
  void topicSizesChanged();
  void sizeProgress(double fraction);
  void playheadChanged(qint64 ns);
  void playingChanged(bool playing);
  void rangeChanged();
  void currentTopicChanged(int topic);
  /// Comparing started or stopped, run B opened, or its alignment or topic figures changed.
  void comparisonChanged();

private:
  struct Opening;
  void adopt(std::shared_ptr<session::Session> session, const QStringList& paths, std::vector<TopicInfo> topics);
  void measureSizes();
  std::vector<ProblemGroup> collectProblems() const;
  void startSizeJob();
  /// The shift (and with `figures`, the topics' figures) of both runs, in the background.
  void compareRuns(bool figures = true);

  std::shared_ptr<Mailbox> mailbox_;  // for the size job's progress and result
  std::shared_ptr<session::Session> session_;
  QStringList paths_;
  std::vector<TopicInfo> topics_;
  std::vector<ProblemGroup> problems_;
  QStringList failures_;  // files of the last open that did not open
  qint64 playheadNs_ = 0;
  bool playing_ = false;
  std::optional<TimeRange> range_;
  int currentTopic_ = -1;
  std::size_t cacheBytes_ = std::size_t{1} << 30;
  bool alignStarts_ = false;
  QStringList messagePaths_;
  std::shared_ptr<Opening> opening_;
  std::shared_ptr<Job> sizeJob_;
  Document* comparison_ = nullptr;  // a child
  QString alignment_ = QStringLiteral("start");
  qint64 shiftNs_ = 0;
  std::vector<session::TopicComparison> topicComparison_;
  QString comparisonProblem_;
  int comparing_ = 0;  // which compareRuns() result is the newest
};

/// Message sizes summed per topic over `session`, on its workers (for TopicInfo::sizeBytes).
Result<std::vector<qint64>> topicSizes(const session::Session& session, StopToken stop,
                                       const session::ProgressFn& progress);

}  // namespace bagscope::widgets
