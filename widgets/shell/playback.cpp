#include "widgets/shell/playback.hpp"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStyle>

#include <algorithm>
#include <cmath>
#include <optional>

#include "widgets/shell/document.hpp"

namespace bagscope::widgets {
namespace {

// Seconds from the start, written and typed as Settings ▸ time display says.
class TimeSpinBox : public QDoubleSpinBox {
public:
  using QDoubleSpinBox::QDoubleSpinBox;
  void setDisplay(TimeDisplay display, qint64 originNs) {
    display_ = display;
    originNs_ = originNs;
    setSuffix(display == TimeDisplay::Clock ? QString() : PlaybackBar::tr(" s"));
    lineEdit()->setText(textFromValue(value()) + suffix());
  }
  QString textFromValue(double v) const override {
    if (display_ == TimeDisplay::Relative) return QDoubleSpinBox::textFromValue(v);
    return formatTime(originNs_ + static_cast<qint64>(std::llround(v * 1e9)), display_, originNs_, decimals());
  }
  double valueFromText(const QString& text) const override { return parse(text).value_or(value()); }
  QValidator::State validate(QString& text, int&) const override {
    return parse(text) ? QValidator::Acceptable : QValidator::Intermediate;
  }

private:
  std::optional<double> parse(QString text) const {
    QString unit = suffix().trimmed();
    text = text.trimmed();
    if (!unit.isEmpty() && text.endsWith(unit)) text = text.chopped(unit.size()).trimmed();
    bool ok = false;
    if (display_ == TimeDisplay::Clock) {
      // HH:mm:ss(.zzz) on the day of the start, or the next day when that is earlier.
      QTime t =
          QTime::fromString(text, text.contains('.') ? QStringLiteral("HH:mm:ss.zzz") : QStringLiteral("HH:mm:ss"));
      if (!t.isValid()) return std::nullopt;
      QDateTime start = QDateTime::fromMSecsSinceEpoch(originNs_ / 1'000'000);
      QDateTime at(start.date(), t);
      if (at < start.addMSecs(-1)) at = at.addDays(1);
      return static_cast<double>(at.toMSecsSinceEpoch() - originNs_ / 1'000'000) / 1e3;
    }
    double v = locale().toDouble(text, &ok);
    if (!ok) v = text.toDouble(&ok);
    if (!ok) return std::nullopt;
    return display_ == TimeDisplay::Unix ? v - static_cast<double>(originNs_) / 1e9 : v;
  }
  TimeDisplay display_ = TimeDisplay::Relative;
  qint64 originNs_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------
// Playback

Playback::Playback(Document* document, QObject* parent) : QObject(parent), document_(document) {
  timer_.setInterval(16);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &Playback::tick);
  connect(document_, &Document::sessionChanged, this, &Playback::pause);
}

TimeRange Playback::bounds() const {
  if (loop_ && document_->range()) return *document_->range();
  return {document_->startNs(), document_->endNs()};
}

void Playback::play() {
  if (!document_->session() || isPlaying()) return;
  TimeRange b = bounds();
  // From the end (or outside a looped range) playing starts again from the beginning.
  if (document_->playheadNs() >= b.endNs || document_->playheadNs() < b.startNs) document_->setPlayhead(b.startNs);
  anchorNs_ = lastSetNs_ = document_->playheadNs();
  clock_.start();
  timer_.start();
  document_->setPlaying(true);
  emit stateChanged();
}

void Playback::pause() {
  if (!isPlaying()) return;
  timer_.stop();
  document_->setPlaying(false);
  emit stateChanged();
}

void Playback::setSpeed(double speed) {
  speed = std::clamp(speed, 0.1, 10.0);
  if (isPlaying()) {  // keep going from where the playhead is
    anchorNs_ = document_->playheadNs();
    clock_.restart();
  }
  speed_ = speed;
  emit stateChanged();
}

void Playback::setLoop(bool loop) {
  loop_ = loop;
  emit stateChanged();
}

void Playback::tick() {
  if (!document_->session()) return pause();
  if (document_->playheadNs() != lastSetNs_) {  // the user moved it: continue from there
    anchorNs_ = document_->playheadNs();
    clock_.restart();
  }
  TimeRange b = bounds();
  auto t = anchorNs_ + static_cast<qint64>(std::llround(static_cast<double>(clock_.nsecsElapsed()) * speed_));
  if (t > b.endNs) {
    if (!loop_) {
      document_->setPlayhead(b.endNs);
      lastSetNs_ = document_->playheadNs();
      return pause();
    }
    t = b.startNs;
    anchorNs_ = t;
    clock_.restart();
  }
  document_->setPlayhead(t);
  lastSetNs_ = document_->playheadNs();
  // Panels read around the playhead: have the next second of the selected topic cached.
  if (int topic = document_->currentTopic(); topic >= 0 && std::abs(t - lastPrefetch_) > 250'000'000) {
    session::TopicId id = static_cast<session::TopicId>(topic);
    document_->session()->prefetch({&id, 1}, t, static_cast<qint64>(1e9 * speed_));
    lastPrefetch_ = t;
  }
}

bool Playback::step(int direction, int topic) {
  auto s = document_->session();
  if (!s) return false;
  pause();
  qint64 now = document_->playheadNs();
  std::optional<qint64> best;
  auto consider = [&](session::TopicId id) {
    auto index = s->index(id);
    auto n = direction < 0 ? s->atOrBefore(id, now - 1) : s->atOrAfter(id, now + 1);
    if (!n) return;
    qint64 t = index[*n].logTimeNs;
    if (!best || (direction < 0 ? t > *best : t < *best)) best = t;
  };
  if (topic >= 0) consider(static_cast<session::TopicId>(topic));
  else
    for (session::TopicId id = 0; id < s->topics().size(); ++id) consider(id);
  if (!best) return false;
  document_->setPlayhead(*best);
  return true;
}

void Playback::toStart() { document_->setPlayhead(bounds().startNs); }
void Playback::toEnd() { document_->setPlayhead(bounds().endNs); }

// ---------------------------------------------------------------------------------------
// PlaybackBar

PlaybackBar::PlaybackBar(Document* document, Playback* playback, QWidget* parent)
    : QToolBar(tr("Playback"), parent), document_(document), playback_(playback) {
  setObjectName(QStringLiteral("playbackBar"));
  auto add = [this](QStyle::StandardPixmap icon, const QString& text, const QKeySequence& key, auto fn) {
    auto* a = new QAction(style()->standardIcon(icon), text, this);
    a->setShortcut(key);
    a->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    connect(a, &QAction::triggered, this, fn);
    actions_ << a;
    return a;
  };
  QAction* start = add(QStyle::SP_MediaSkipBackward, tr("Jump to Start"), QKeySequence(Qt::Key_Home),
                       [this] { playback_->toStart(); });
  QAction* back = add(QStyle::SP_MediaSeekBackward, tr("Previous Message of Selected Topic"),
                      QKeySequence(Qt::Key_Left), [this] { playback_->step(-1, document_->currentTopic()); });
  play_ = add(QStyle::SP_MediaPlay, tr("Play"), QKeySequence(Qt::Key_Space), [this] { playback_->toggle(); });
  QAction* next = add(QStyle::SP_MediaSeekForward, tr("Next Message of Selected Topic"), QKeySequence(Qt::Key_Right),
                      [this] { playback_->step(+1, document_->currentTopic()); });
  QAction* end =
      add(QStyle::SP_MediaSkipForward, tr("Jump to End"), QKeySequence(Qt::Key_End), [this] { playback_->toEnd(); });
  add(QStyle::SP_ArrowLeft, tr("Previous Message of Any Topic"), QKeySequence(Qt::SHIFT | Qt::Key_Left),
      [this] { playback_->step(-1, -1); });
  add(QStyle::SP_ArrowRight, tr("Next Message of Any Topic"), QKeySequence(Qt::SHIFT | Qt::Key_Right),
      [this] { playback_->step(+1, -1); });
  loop_ =
      add(QStyle::SP_BrowserReload, tr("Loop"), QKeySequence(Qt::Key_L), [this](bool on) { playback_->setLoop(on); });
  loop_->setCheckable(true);
  loop_->setToolTip(tr("Loop within the selected range (or the whole recording) (L)"));
  for (QAction* a : {start, back, play_, next, end}) addAction(a);

  speed_ = new QComboBox(this);
  for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0}) speed_->addItem(QStringLiteral("%1×").arg(s), s);
  speed_->setCurrentIndex(3);
  speed_->setToolTip(tr("Playback speed"));
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int i) { playback_->setSpeed(speed_->itemData(i).toDouble()); });
  addWidget(speed_);
  addAction(loop_);
  addSeparator();
  time_ = new QLabel(this);
  time_->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("00:00:00.000 / 00:00:00.000")) + 12);
  time_->setAlignment(Qt::AlignCenter);
  time_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  addWidget(time_);
  addSeparator();
  addWidget(new QLabel(tr("Range:"), this));
  auto spin = [this] {
    auto* box = new TimeSpinBox(this);
    box->setDecimals(3);
    box->setSuffix(tr(" s"));
    box->setKeyboardTracking(false);
    box->setToolTip(tr("Seconds from the start of the recording. Shift-drag on the timeline to select a range."));
    addWidget(box);
    connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
      qint64 origin = document_->startNs();
      document_->setRange(TimeRange{origin + static_cast<qint64>(std::llround(rangeStart_->value() * 1e9)),
                                    origin + static_cast<qint64>(std::llround(rangeEnd_->value() * 1e9))});
    });
    return box;
  };
  rangeStart_ = spin();
  addWidget(new QLabel(QStringLiteral("–"), this));
  rangeEnd_ = spin();
  clearRange_ = addAction(style()->standardIcon(QStyle::SP_DialogCloseButton), tr("Clear Range"),
                          [this] { document_->setRange(std::nullopt); });

  connect(document_, &Document::playheadChanged, this, &PlaybackBar::updateTime);
  connect(document_, &Document::sessionChanged, this, [this] {
    updateTime();
    updateRange();
  });
  connect(document_, &Document::rangeChanged, this, &PlaybackBar::updateRange);
  connect(playback_, &Playback::stateChanged, this, &PlaybackBar::updateState);
  updateTime();
  updateRange();
  updateState();
}

void PlaybackBar::setTimeDisplay(TimeDisplay display) {
  display_ = display;
  updateTime();
  updateRange();
}

QString PlaybackBar::timeText() const { return time_->text(); }

void PlaybackBar::updateTime() {
  if (!document_->session()) return time_->setText(QStringLiteral("–"));
  qint64 origin = document_->startNs();
  const qint64 at = document_->playheadNs();
  // Milliseconds, unless the playhead stands between them (messages closer than 1 ms).
  const qint64 inSecond =
      ((at - (display_ == TimeDisplay::Relative ? origin : 0)) % 1'000'000'000 + 1'000'000'000) % 1'000'000'000;
  const int decimals = inSecond % 1'000'000 == 0 ? 3 : inSecond % 1'000 == 0 ? 6 : 9;
  QString now = formatTime(at, display_, origin, decimals);
  // The clock with its date when the recordings span days.
  if (display_ == TimeDisplay::Clock && QDateTime::fromMSecsSinceEpoch(origin / 1'000'000).date() !=
                                            QDateTime::fromMSecsSinceEpoch(document_->endNs() / 1'000'000).date())
    now = QDateTime::fromMSecsSinceEpoch(at / 1'000'000).toString(QStringLiteral("yyyy-MM-dd ")) + now;
  QString end = display_ == TimeDisplay::Relative ? formatTime(document_->endNs(), display_, origin, 3) : QString();
  time_->setText(end.isEmpty() ? now : QStringLiteral("%1 / %2").arg(now, end));
}

void PlaybackBar::updateRange() {
  bool open = document_->session() != nullptr;
  double duration = open ? static_cast<double>(document_->endNs() - document_->startNs()) / 1e9 : 0.0;
  const auto& r = document_->range();
  for (auto* box : {rangeStart_, rangeEnd_}) {
    QSignalBlocker block(box);
    box->setRange(0, duration);
    box->setEnabled(open);
  }
  QSignalBlocker a(rangeStart_), b(rangeEnd_);
  for (auto* box : {rangeStart_, rangeEnd_})
    static_cast<TimeSpinBox*>(box)->setDisplay(display_, open ? document_->startNs() : 0);
  rangeStart_->setValue(r ? static_cast<double>(r->startNs - document_->startNs()) / 1e9 : 0.0);
  rangeEnd_->setValue(r ? static_cast<double>(r->endNs - document_->startNs()) / 1e9 : duration);
  clearRange_->setEnabled(r.has_value());
}

void PlaybackBar::updateState() {
  bool playing = playback_->isPlaying();
  play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  play_->setText(playing ? tr("Pause") : tr("Play"));
  play_->setToolTip(QStringLiteral("%1 (%2)").arg(play_->text(), play_->shortcut().toString(QKeySequence::NativeText)));
  QSignalBlocker block(loop_);
  loop_->setChecked(playback_->loops());
  int i = speed_->findData(playback_->speed());
  if (i >= 0 && i != speed_->currentIndex()) {
    QSignalBlocker s(speed_);
    speed_->setCurrentIndex(i);
  }
}

}  // namespace bagscope::widgets
