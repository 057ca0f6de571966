#include "widgets/shell/document.hpp"

#include <QFile>
#include <QTimer>

#include <algorithm>
#include <atomic>

#include "core/decode/decoder.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/qt_text.hpp"

namespace bagscope::widgets {
namespace {

std::vector<TopicInfo> describeTopics(const session::Session& s) {
  std::vector<TopicInfo> out;
  auto topics = s.topics();
  out.reserve(topics.size());
  for (session::TopicId id = 0; id < topics.size(); ++id) {
    const auto& t = topics[id];
    TopicInfo info;
    info.id = id;
    info.name = toQt(t.name);
    info.type = toQt(t.type);
    info.count = t.messageCount;
    auto index = s.index(id);
    if (!index.empty()) info.rateHz = session::rateHz(index.size(), index.front().logTimeNs, index.back().logTimeNs);
    for (const auto& m : t.members) {
      if (auto d = s.decoder(*m.connection); !d) {
        // A missing definition can be added (Settings ▸ Message definitions): the topic list says how.
        info.definitionMissing = d.error().code == ErrorCode::MissingDefinition;
        info.decodeProblem = toQt(d.error().describe());
        break;
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace

QString TopicInfo::decodeAdvice() const {
  if (!definitionMissing) return decodeProblem;
  return decodeProblem + QStringLiteral(". ") +
         Document::tr(
             "Add the folder of its package's .msg files, or a recording that defines it, in "
             "Settings ▸ Message definitions.");
}

Result<std::vector<qint64>> topicSizes(const session::Session& session, StopToken stop,
                                       const session::ProgressFn& progress) {
  std::vector<std::atomic<qint64>> sums(session.topics().size());
  auto r = session.forEachParallel(
      {},
      [&](session::TopicId topic, std::size_t, const Result<session::Message>& m) {
        if (m) sums[topic].fetch_add(static_cast<qint64>(m->bytes.size()), std::memory_order_relaxed);
      },
      stop, progress);
  BAGSCOPE_TRY(r);
  std::vector<qint64> out;
  for (const auto& s : sums) out.push_back(s.load());
  return out;
}

// One open in flight. A reader scanning a damaged file cannot stop at once, and the
// window must not wait for it: a cancelled open's thread finishes on its own and its
// result is dropped (the mailbox is closed).
struct Document::Opening {
  StopSource stop;
  std::shared_ptr<Mailbox> mailbox;
  void release() {
    stop.request_stop();
    mailbox->close();
  }
};

Document::Document(QObject* parent) : QObject(parent), mailbox_(Mailbox::create(this)) {}

Document::~Document() {
  mailbox_->close();
  sizeJob_.reset();  // a job must not outlive its session
  if (opening_) opening_->release();
}

void Document::open(const QStringList& paths) {
  cancelOpen();
  auto opening = std::make_shared<Opening>();
  opening->mailbox = Mailbox::create(this);
  opening_ = opening;
  std::vector<std::filesystem::path> inputs;
  for (const auto& p : paths) inputs.push_back(toPath(p));
  session::SessionOptions options;
  options.skipFailedInputs = true;
  options.alignStarts = alignStarts_;
  for (const auto& p : messagePaths_) options.msgPaths.push_back(toPath(p));
  options.cacheBytes = cacheBytes_;
  options.stop = opening->stop.get_token();
  options.progress = [this, opening](double f) {
    opening->mailbox->post([this, opening, f] {
      if (opening_ == opening) emit openProgress(f);
    });
  };
  startDetached([this, opening, inputs, options, paths = QStringList(paths)]() mutable {
    auto result = runCatching([&] { return session::Session::open(inputs, options); });
    std::shared_ptr<session::Session> opened;
    std::vector<TopicInfo> topics;
    QString error;
    QStringList failures;
    if (result) {
      opened = std::move(result).value();
      topics = describeTopics(*opened);
      for (const auto& f : opened->failures()) {
        failures << toQt(f.reason);
        paths.removeAll(toQt(f.path));  // only what opened names the session
      }
    } else if (result.error().code != ErrorCode::Cancelled) {
      error = toQt(result.error().describe());
    }
    opening->mailbox->post([this, opening, opened, topics, error, failures, paths]() mutable {
      if (opening_ != opening) return;  // cancelled, or a newer open replaced this one
      opening_.reset();
      if (opened) {
        failures_ = failures;
        adopt(std::move(opened), paths, std::move(topics));
      }
      emit openFinished(error, failures);
    });
  });
}

void Document::cancelOpen() {
  if (!opening_) return;
  opening_->release();
  opening_.reset();
  emit openCancelled();
}

std::vector<ProblemGroup> Document::collectProblems() const {
  std::vector<ProblemGroup> out;
  const session::Session& s = *session_;
  for (std::uint32_t i = 0; i < s.sourceCount(); ++i) {
    const auto& info = s.sourceInfo(i);
    ProblemGroup g{toQt(info.path), {}};
    for (const auto& p : info.problems) g.items << toQt(p);
    if (!g.items.isEmpty()) out.push_back(std::move(g));
  }
  ProblemGroup decoding{tr("Decoding"), {}};
  for (const auto& note : s.decodeNotes()) decoding.items << toQt(note);
  for (const auto& t : topics_)
    if (!t.decodeProblem.isEmpty()) decoding.items << tr("%1 cannot be decoded: %2").arg(t.name, t.decodeAdvice());
  if (!decoding.items.isEmpty()) out.push_back(std::move(decoding));
  if (!failures_.isEmpty()) out.push_back({tr("Not opened"), failures_});
  // What the session says beyond the files' own problems (one topic name with two types).
  ProblemGroup rest{tr("Recording"), {}};
  for (const auto& p : s.ownProblems()) rest.items << toQt(p);
  if (!rest.items.isEmpty()) out.push_back(std::move(rest));
  return out;
}

int Document::problemCount() const {
  int n = 0;
  for (const auto& g : problems_) n += static_cast<int>(g.items.size());
  return n;
}

void Document::setAlignStarts(bool align) {
  if (align == alignStarts_) return;
  alignStarts_ = align;
  if (session_ && session_->sourceCount() > 1) open(paths_);
}

void Document::setMessagePaths(const QStringList& paths) {
  if (paths == messagePaths_) return;
  messagePaths_ = paths;
  if (session_) open(paths_);
  if (comparison_) comparison_->setMessagePaths(paths);
}

void Document::close() {
  stopComparing();
  sizeJob_.reset();
  session_.reset();
  paths_.clear();
  topics_.clear();
  problems_.clear();
  failures_.clear();
  range_.reset();
  currentTopic_ = -1;
  playheadNs_ = 0;
  emit sessionChanged();
}

void Document::adopt(std::shared_ptr<session::Session> session, const QStringList& paths,
                     std::vector<TopicInfo> topics) {
  sizeJob_.reset();
  session_ = std::move(session);
  paths_ = paths;
  topics_ = std::move(topics);
  topicComparison_.clear();  // of the recording before: worked out again below
  problems_ = collectProblems();
  range_.reset();
  currentTopic_ = -1;
  playheadNs_ = session_->startNs();
  emit sessionChanged();
  emit playheadChanged(playheadNs_);
  measureSizes();
  if (comparison_) compareRuns();
}

void Document::compareWith(const QStringList& paths, const QString& alignment) {
  if (comparison_ && !paths.isEmpty() && comparison_->paths() == paths) {  // open already: aligned anew
    setComparisonAlignment(alignment);
    return;
  }
  stopComparing();
  comparison_ = new Document(this);
  comparison_->setObjectName(QStringLiteral("runB"));
  comparison_->messagePaths_ = messagePaths_;
  comparison_->cacheBytes_ = cacheBytes_;
  alignment_ = alignment;
  connect(comparison_, &Document::openFinished, this, [this](const QString& error, const QStringList& failures) {
    if (error.isEmpty() && comparison_->session()) return;  // sessionChanged follows
    comparisonProblem_ = error.isEmpty() ? failures.join(QLatin1Char('\n')) : error;
    emit comparisonChanged();
  });
  connect(comparison_, &Document::sessionChanged, this, [this] { compareRuns(); });
  comparison_->open(paths);
  emit comparisonChanged();
}

void Document::setComparisonAlignment(const QString& alignment) {
  if (alignment == alignment_) return;
  alignment_ = alignment;
  if (comparison_) compareRuns(false);  // the topics' figures do not depend on it
}

void Document::stopComparing() {
  if (!comparison_) return;
  ++comparing_;  // a result on its way is dropped
  delete comparison_;
  comparison_ = nullptr;
  shiftNs_ = 0;
  topicComparison_.clear();
  comparisonProblem_.clear();
  emit comparisonChanged();
}

void Document::compareRuns(bool figures) {
  const int generation = ++comparing_;
  auto a = session_;
  auto b = comparison_ ? comparison_->session_ : nullptr;
  auto align = session::parseRunAlignment(alignment_.toStdString());
  if (!a || !b || !align) {
    shiftNs_ = 0;
    topicComparison_.clear();
    comparisonProblem_ = align ? QString() : tr("The alignment '%1' is not understood").arg(alignment_);
    emit comparisonChanged();
    return;
  }
  // Both sessions are held by the thread: either may be replaced meanwhile.
  startDetached([this, mailbox = mailbox_, generation, a, b, align = *align, figures] {
    auto shift = runCatching([&] { return session::runShiftNs(*a, *b, align); });
    std::optional<std::vector<session::TopicComparison>> topics;
    if (figures) topics = session::compareTopics(*a, *b, 0.05);  // as `diff` by default
    mailbox->post([this, generation, shift, topics = std::move(topics)]() mutable {
      if (generation != comparing_) return;
      shiftNs_ = shift ? *shift : 0;
      comparisonProblem_ = shift ? QString() : toQt(shift.error().describe());
      if (topics) topicComparison_ = std::move(*topics);
      if (comparison_) comparison_->setPlayhead(playheadNs_ - shiftNs_);
      emit comparisonChanged();
    });
  });
}

void Document::measureSizes() {
  // A second after opening, when the window has drawn the new recording: the pass keeps
  // every core busy for a while.
  std::weak_ptr<session::Session> s = session_;
  QTimer::singleShot(1000, this, [this, s] {
    if (!s.expired() && s.lock() == session_) startSizeJob();
  });
}

void Document::startSizeJob() {
  auto sizes = std::make_shared<std::vector<qint64>>();
  std::shared_ptr<const session::Session> s = session_;
  sizeJob_ = startSessionJob(
      s, mailbox_,
      [s, sizes](StopToken stop, const session::ProgressFn& progress) -> Result<void> {
        auto r = topicSizes(*s, stop, progress);
        BAGSCOPE_TRY(r);
        *sizes = std::move(r).value();
        return {};
      },
      [this](double f) { emit sizeProgress(f); },
      [this, s, sizes](const Result<void>& r) {
        // Cancelled (a new session) or unreadable: sizes stay unknown.
        if (!r || session_ != s || sizes->size() != topics_.size()) return;
        for (std::size_t i = 0; i < topics_.size(); ++i) topics_[i].sizeBytes = (*sizes)[i];
        emit topicSizesChanged();
      });
}

const TopicInfo* Document::topicByName(const QString& name) const {
  auto it = std::find_if(topics_.begin(), topics_.end(), [&](const TopicInfo& t) { return t.name == name; });
  if (it != topics_.end()) return &*it;
  // "name (type)": one of several types that share a name (as topic boxes show them).
  it = std::find_if(topics_.begin(), topics_.end(), [&](const TopicInfo& t) { return name == t.nameWithType(); });
  return it == topics_.end() ? nullptr : &*it;
}

qint64 Document::startNs() const { return session_ ? session_->startNs() : 0; }
qint64 Document::endNs() const { return session_ ? session_->endNs() : 0; }

qint64 Document::totalBytes() const {
  if (!session_) return 0;
  qint64 total = 0;
  for (std::uint32_t i = 0; i < session_->sourceCount(); ++i)
    total += static_cast<qint64>(session_->sourceInfo(i).sizeBytes);
  return total;
}

void Document::setPlayhead(qint64 ns) {
  if (!session_) return;
  ns = std::clamp(ns, startNs(), endNs());
  if (ns == playheadNs_) return;
  playheadNs_ = ns;
  if (comparison_) comparison_->setPlayhead(ns - shiftNs_);  // the same moment in run B
  emit playheadChanged(ns);
}

void Document::setPlaying(bool playing) {
  if (playing == playing_) return;
  playing_ = playing;
  emit playingChanged(playing);
}

void Document::setRange(std::optional<TimeRange> range) {
  if (range) {
    if (range->startNs > range->endNs) std::swap(range->startNs, range->endNs);
    range->startNs = std::max(range->startNs, startNs());
    range->endNs = std::min(range->endNs, endNs());
    if (range->startNs >= range->endNs) range.reset();
  }
  if (range == range_) return;
  range_ = range;
  emit rangeChanged();
}

void Document::setCurrentTopic(int topic) {
  if (topic == currentTopic_) return;
  currentTopic_ = topic;
  emit currentTopicChanged(topic);
}

void Document::setCacheBudget(std::size_t bytes) {
  cacheBytes_ = bytes;
  if (session_) session_->setCacheBudget(bytes);
  if (comparison_) comparison_->setCacheBudget(bytes);
}

}  // namespace bagscope::widgets
