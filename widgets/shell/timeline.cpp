#include "widgets/shell/timeline.hpp"

#include <QContextMenuEvent>
#include <QDateTime>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/panels/image_panel.hpp"
#include "widgets/panels/video_cursor.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/thumbnails.hpp"

namespace bagscope::widgets {
namespace {

constexpr int kRulerHeight = 26;
constexpr int kRowHeight = 20;
constexpr qint64 kMinViewNs = 1000;  // 1 µs across the whole view

QColor rowColor(std::size_t row) {
  static const QColor palette[] = {
      QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),   QColor(214, 39, 40),  QColor(148, 103, 189),
      QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34), QColor(23, 190, 207)};
  return palette[row % std::size(palette)];
}

}  // namespace

QString formatTime(qint64 ns, TimeDisplay display, qint64 originNs, int decimals) {
  switch (display) {
    case TimeDisplay::Relative: return QString::number(static_cast<double>(ns - originNs) / 1e9, 'f', decimals);
    case TimeDisplay::Unix: return QString::number(static_cast<double>(ns) / 1e9, 'f', decimals);
    case TimeDisplay::Clock: {
      QDateTime t = QDateTime::fromMSecsSinceEpoch(ns / 1'000'000);
      QString text = t.toString(QStringLiteral("HH:mm:ss"));
      if (decimals > 0) {
        qint64 frac = ((ns % 1'000'000'000) + 1'000'000'000) % 1'000'000'000;
        text +=
            QLatin1Char('.') + QString::number(frac).rightJustified(9, QLatin1Char('0')).left(std::min(decimals, 9));
      }
      return text;
    }
  }
  return {};
}

QString tickLabel(qint64 ns, TimeDisplay display, qint64 originNs, qint64 stepNs, qint64 spanNs) {
  int decimals = 0;
  for (qint64 unit = 1'000'000'000; unit > 1 && stepNs % unit != 0 && decimals < 9; unit /= 10) ++decimals;
  if (display == TimeDisplay::Clock) {
    QDateTime t = QDateTime::fromMSecsSinceEpoch(ns >= 0 ? ns / 1'000'000 : (ns - 999'999) / 1'000'000);
    constexpr qint64 kDay = 86'400'000'000'000, kMinute = 60'000'000'000;
    if (spanNs >= kDay)
      return t.toString(stepNs >= kDay      ? QStringLiteral("yyyy-MM-dd")
                        : stepNs >= kMinute ? QStringLiteral("yyyy-MM-dd HH:mm")
                                            : QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    return formatTime(ns, display, originNs, decimals);
  }
  // Exact digits: a double holds only ~16 of them, and Unix nanoseconds need 19.
  qint64 v = display == TimeDisplay::Relative ? ns - originNs : ns;
  bool negative = v < 0;
  quint64 a = negative ? 0 - static_cast<quint64>(v) : static_cast<quint64>(v);
  QString text = (negative ? QStringLiteral("-") : QString()) + QString::number(a / 1'000'000'000);
  if (decimals > 0)
    text += QLatin1Char('.') + QString::number(a % 1'000'000'000).rightJustified(9, QLatin1Char('0')).left(decimals);
  return text;
}

bool stampIsForeign(qint64 stampNs, qint64 startNs, qint64 endNs) {
  constexpr qint64 kDay = 86'400'000'000'000;
  return stampNs == 0 || stampNs < startNs - kDay || stampNs > endNs + kDay;
}

QString formatStamp(qint64 stampNs, TimeDisplay display, qint64 startNs, qint64 endNs, int decimals) {
  if (stampNs == 0) return QObject::tr("0 (unset)");
  if (stampIsForeign(stampNs, startNs, endNs))
    return QObject::tr("%1 s (not the recording's clock)").arg(formatTime(stampNs, TimeDisplay::Unix, 0, 9));
  QString text = formatTime(stampNs, display, startNs, decimals);
  return display == TimeDisplay::Clock ? text : QObject::tr("%1 s").arg(text);
}

// ---------------------------------------------------------------------------------------
// TimeAxis

void TimeAxis::setSpan(qint64 startNs, qint64 endNs) {
  spanStart_ = startNs;
  spanEnd_ = std::max(endNs, startNs + kMinViewNs);
  clampView();
}

void TimeAxis::setWidth(double pixels) { width_ = std::max(1.0, pixels); }

void TimeAxis::setView(qint64 fromNs, qint64 toNs) {
  from_ = fromNs;
  to_ = toNs;
  clampView();
}

void TimeAxis::clampView() {
  qint64 span = spanEnd_ - spanStart_;
  qint64 view = std::clamp(to_ - from_, std::min(kMinViewNs, span), span);
  from_ = std::clamp(from_, spanStart_, spanEnd_ - view);
  to_ = from_ + view;
}

double TimeAxis::nsPerPixel() const { return static_cast<double>(to_ - from_) / width_; }

double TimeAxis::toPixel(qint64 ns) const { return static_cast<double>(ns - from_) / nsPerPixel(); }

qint64 TimeAxis::toTime(double x) const { return from_ + static_cast<qint64>(std::llround(x * nsPerPixel())); }

void TimeAxis::zoom(double factor, double x) {
  if (factor <= 0) return;
  qint64 anchor = toTime(x);
  double view = static_cast<double>(to_ - from_) / factor;
  view = std::clamp(view, static_cast<double>(kMinViewNs), static_cast<double>(spanEnd_ - spanStart_));
  auto from = anchor - static_cast<qint64>(std::llround(x / width_ * view));
  setView(from, from + static_cast<qint64>(std::llround(view)));
}

void TimeAxis::pan(double pixels) {
  auto shift = static_cast<qint64>(std::llround(pixels * nsPerPixel()));
  setView(from_ + shift, to_ + shift);
}

qint64 TimeAxis::tickStep(double minSpacing) const {
  double wanted = minSpacing * nsPerPixel();
  // 1, 2, 5 × 10^k up to 5e18 (the largest int64 span is 9.2e18 ns).
  for (qint64 decade = 1;; decade *= 10) {
    for (qint64 m : {1, 2, 5})
      if (static_cast<double>(decade) * static_cast<double>(m) >= wanted) return decade * m;
    if (decade > std::numeric_limits<qint64>::max() / 100) return 5 * decade;
  }
}

std::vector<TimeAxis::Tick> TimeAxis::ticks(double minSpacing) const {
  qint64 step = tickStep(minSpacing);
  std::vector<Tick> out;
  // Ticks at round offsets from the span's start (relative times read 0, 0.5, 1 …).
  qint64 first = spanStart_ + ((from_ - spanStart_ + step - 1) / step) * step;
  for (qint64 t = first; t <= to_ && out.size() < 10000; t += step) out.push_back({t, toPixel(t)});
  return out;
}

std::vector<TimeAxis::Label> TimeAxis::labels(const std::function<double(const QString&)>& width, double gap,
                                              TimeDisplay display, qint64 originNs) const {
  // Space for the widest label at the step that spacing gives; more digits may need more
  // space, so try again with what was measured (it settles in two or three rounds).
  double spacing = width(QStringLiteral("00.0")) + gap;
  std::vector<Label> out;
  for (int round = 0; round < 6; ++round) {
    qint64 step = tickStep(spacing);
    out.clear();
    double widest = 0;
    for (const auto& t : ticks(spacing)) {
      out.push_back({t.ns, t.x, tickLabel(t.ns, display, originNs, step, to_ - from_)});
      widest = std::max(widest, width(out.back().text));
    }
    if (widest + gap <= static_cast<double>(step) / nsPerPixel()) break;
    spacing = widest + gap;
  }
  return out;
}

std::vector<std::uint32_t> messageDensity(std::span<const session::MessageRef> index, const TimeAxis& axis,
                                          int columns) {
  std::vector<std::uint32_t> counts(static_cast<std::size_t>(std::max(columns, 0)), 0);
  auto before = [](const session::MessageRef& r, qint64 t) { return r.logTimeNs < t; };
  auto it = std::lower_bound(index.begin(), index.end(), axis.toTime(0), before);
  for (int c = 0; c < columns && it != index.end(); ++c) {
    auto next = std::lower_bound(it, index.end(), axis.toTime(c + 1), before);
    counts[static_cast<std::size_t>(c)] = static_cast<std::uint32_t>(next - it);
    it = next;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------
// TimelineWidget

TimelineWidget::TimelineWidget(Document* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      scroll_(new QScrollBar(Qt::Vertical, this)),
      thumbnails_(new Thumbnails(document, this)),
      mailbox_(Mailbox::create(this)) {
  connect(thumbnails_, &Thumbnails::ready, this, &TimelineWidget::invalidate);
  setMouseTracking(false);
  setFocusPolicy(Qt::ClickFocus);
  setAttribute(Qt::WA_OpaquePaintEvent);
  scroll_->setSingleStep(kRowHeight);
  connect(scroll_, &QScrollBar::valueChanged, this, &TimelineWidget::invalidate);
  connect(document_, &Document::sessionChanged, this, &TimelineWidget::onSession);
  connect(document_, &Document::playheadChanged, this, qOverload<>(&QWidget::update));
  connect(document_, &Document::rangeChanged, this, qOverload<>(&QWidget::update));
  connect(document_, &Document::currentTopicChanged, this, &TimelineWidget::invalidate);
  if (document_->session()) onSession();  // made for a recording open already
}

QSize TimelineWidget::sizeHint() const { return {800, kRulerHeight + 8 * kRowHeight}; }
QSize TimelineWidget::minimumSizeHint() const { return {300, kRulerHeight + 2 * kRowHeight}; }

void TimelineWidget::onSession() {
  thumbnails_->clear();
  // Video topics' keyframes, found in the background and marked in their rows.
  keyframes_.clear();
  keyframeJobs_.clear();
  if (auto session = document_->session())
    for (session::TopicId t = 0; t < session->topics().size(); ++t) {
      const auto kind = sensors::kindOf(session->topics()[t].type);
      if (kind != sensors::SensorKind::Video && kind != sensors::SensorKind::CompressedImage) continue;
      auto found = std::make_shared<std::vector<std::int64_t>>();
      keyframeJobs_.push_back(startSessionJob(
          session, mailbox_,
          [session, t, found](StopToken stop, const session::ProgressFn&) -> Result<void> {
            auto k = videoKeyframes(*session, t, std::move(stop));
            BAGSCOPE_TRY(k);
            *found = std::move(k).value();
            return {};
          },
          {},
          [this, session, t, found](const Result<void>& r) {
            if (!r || found->empty() || session != document_->session()) return;
            keyframes_[t].assign(found->begin(), found->end());
            invalidate();
          }));
    }
  axis_.setSpan(document_->startNs(), document_->endNs());
  axis_.fit();
  invalidate();
}

const std::vector<qint64>& TimelineWidget::keyframes(session::TopicId topic) const {
  static const std::vector<qint64> none;
  auto k = keyframes_.find(topic);
  return k == keyframes_.end() ? none : k->second;
}

void TimelineWidget::setRows(std::vector<session::TopicId> rows) {
  rows_ = std::move(rows);
  layoutAxis();
  invalidate();
}

void TimelineWidget::setTimeDisplay(TimeDisplay display) {
  display_ = display;
  invalidate();
}

void TimelineWidget::zoomToFit() {
  axis_.fit();
  invalidate();
}

void TimelineWidget::zoomToRange() {
  if (const auto& r = document_->range()) {
    axis_.setView(r->startNs, r->endNs);
    invalidate();
  }
}

void TimelineWidget::invalidate() {
  cacheValid_ = false;
  update();
}

int TimelineWidget::trackLeft() const {
  int names = fontMetrics().horizontalAdvance(QStringLiteral("/camera/image_raw/compressed")) + 12;
  return std::clamp(names, 120, std::max(120, width() / 3));
}

QRect TimelineWidget::trackRect() const {
  int right = width() - (scroll_->isVisible() ? scroll_->width() : 0);
  return QRect(QPoint(trackLeft(), kRulerHeight), QPoint(right - 1, height() - 1));
}

void TimelineWidget::layoutAxis() {
  int rowsHeight = static_cast<int>(rows_.size()) * kRowHeight;
  int visible = height() - kRulerHeight;
  scroll_->setVisible(rowsHeight > visible);
  scroll_->setGeometry(width() - scroll_->sizeHint().width(), kRulerHeight, scroll_->sizeHint().width(),
                       std::max(0, visible));
  scroll_->setRange(0, std::max(0, rowsHeight - visible));
  scroll_->setPageStep(std::max(kRowHeight, visible));
  axis_.setWidth(trackRect().width());
}

void TimelineWidget::resizeEvent(QResizeEvent*) {
  layoutAxis();
  invalidate();
}

void TimelineWidget::changeEvent(QEvent* e) {
  if (e->type() == QEvent::FontChange || e->type() == QEvent::PaletteChange) invalidate();
  QWidget::changeEvent(e);
}

int TimelineWidget::rowAt(int y) const {
  if (y < kRulerHeight) return -1;
  int row = (y - kRulerHeight + scroll_->value()) / kRowHeight;
  return row < static_cast<int>(rows_.size()) ? row : -1;
}

void TimelineWidget::paintRows(QPainter& p) {
  const QPalette& pal = palette();
  p.fillRect(rect(), pal.base());
  auto s = document_->session();
  QRect track = trackRect();
  int columns = std::max(0, track.width());
  // Ticks are written straight into an image, a pixel column at a time: thousands of
  // columns per row cost no more than one blit.
  QImage ticks(std::max(1, columns), std::max(1, height() - kRulerHeight), QImage::Format_ARGB32_Premultiplied);
  ticks.fill(Qt::transparent);
  auto bar = [&ticks](int x, int y0, int y1, QColor c) {
    QRgb px = qPremultiply(c.rgba());
    for (int y = std::max(0, y0); y <= std::min(y1, ticks.height() - 1); ++y)
      reinterpret_cast<QRgb*>(ticks.scanLine(y))[x] = px;
  };
  p.save();
  p.setClipRect(QRect(0, kRulerHeight, width(), height() - kRulerHeight));
  thumbnailsDrawn_ = 0;
  struct Thumb {
    QPointF at;
    const QImage* image;
  };
  std::vector<Thumb> thumbs;  // drawn over the ticks
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    int top = kRulerHeight + static_cast<int>(r) * kRowHeight - scroll_->value();
    if (top + kRowHeight < kRulerHeight || top > height()) continue;
    session::TopicId topic = rows_[r];
    QRect rowRect(0, top, width(), kRowHeight);
    bool current = document_->currentTopic() == static_cast<int>(topic);
    if (current) p.fillRect(rowRect, pal.highlight().color().lighter(170));
    else if (r % 2) p.fillRect(rowRect, pal.alternateBase());
    if (!s || topic >= document_->topics().size()) continue;
    const TopicInfo& info = document_->topics()[topic];
    p.setPen(info.decodeProblem.isEmpty() ? pal.text().color() : pal.color(QPalette::Disabled, QPalette::Text));
    QRect nameRect(6, top, track.left() - 10, kRowHeight);
    p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
               fontMetrics().elidedText(info.name, Qt::ElideMiddle, nameRect.width()));
    // An image topic zoomed in so far that its messages are a thumbnail apart: their pictures.
    if (ImagePanel::shows(info.type)) {
      auto first = s->atOrAfter(topic, axis_.toTime(0)), last = s->atOrBefore(topic, axis_.toTime(columns));
      const auto& index = s->index(topic);
      const std::size_t shown = first && last && *last >= *first ? *last - *first + 1 : 0;
      constexpr int kThumbWidth = Thumbnails::kHeight * 4 / 3 + 4;
      bool apart = shown > 0 && shown <= 400;
      for (std::size_t i = 1; apart && i < shown; ++i)
        apart =
            axis_.toPixel(index[*first + i].logTimeNs) - axis_.toPixel(index[*first + i - 1].logTimeNs) >= kThumbWidth;
      if (apart) {
        for (std::size_t i = 0; i < shown; ++i) {
          double x = track.left() + axis_.toPixel(index[*first + i].logTimeNs);
          if (const QImage* image = thumbnails_->get(topic, *first + i); image && !image->isNull()) {
            thumbs.push_back({QPointF(x, top + (kRowHeight - image->height()) / 2.0), image});
            ++thumbnailsDrawn_;
          } else {
            p.fillRect(QRectF(x, top + 3, 1, kRowHeight - 6), rowColor(r));  // until it is read
          }
        }
        continue;
      }
    }
    auto counts = messageDensity(s->index(topic), axis_, columns);
    std::uint32_t most = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
    if (most == 0) continue;
    QColor color = rowColor(r);
    int inner = kRowHeight - 6;
    int base = top - kRulerHeight + 3 + inner;  // in the image
    // A video topic's keyframes (where a seek starts): a dark tick the row's full height.
    if (auto k = keyframes_.find(topic); k != keyframes_.end())
      for (qint64 t : k->second)
        if (int c = static_cast<int>(std::floor(axis_.toPixel(t))); c >= 0 && c < columns)
          bar(c, base - inner - 2, base + 2, pal.text().color());
    // Sparse rows: every message a full tick. Dense rows: a bar that grows with log(count),
    // so a single message still shows beside a burst.
    double scale = std::log1p(static_cast<double>(most));
    for (int c = 0; c < columns; ++c) {
      std::uint32_t n = counts[static_cast<std::size_t>(c)];
      if (!n) continue;
      if (most == 1) {
        bar(c, base - inner, base, color);
        continue;
      }
      double level = std::log1p(static_cast<double>(n)) / scale;
      QColor shade = color;
      shade.setAlphaF(static_cast<float>(0.35 + 0.65 * level));
      bar(c, base - std::max(2, static_cast<int>(std::lround(level * inner))), base, shade);
    }
  }
  p.drawImage(track.left(), kRulerHeight, ticks);
  for (const auto& t : thumbs) {
    p.drawImage(t.at, *t.image);
    p.setPen(palette().mid().color());
    p.drawRect(QRectF(t.at, QSizeF(t.image->width(), t.image->height())));
  }
  p.restore();
  p.setPen(pal.mid().color());
  p.drawLine(track.left() - 1, kRulerHeight, track.left() - 1, height());
}

void TimelineWidget::paintRuler(QPainter& p) {
  const QPalette& pal = palette();
  QRect ruler(0, 0, width(), kRulerHeight);
  p.fillRect(ruler, pal.window());
  p.setPen(pal.mid().color());
  p.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
  if (!document_->session()) return;
  int left = trackRect().left();
  QFontMetrics metrics = fontMetrics();
  auto labels = axis_.labels([&](const QString& t) { return static_cast<double>(metrics.horizontalAdvance(t)); }, 16.0,
                             display_, document_->startNs());
  p.setPen(pal.text().color());
  for (const auto& label : labels) {
    int x = left + static_cast<int>(std::lround(label.x));
    p.drawLine(x, kRulerHeight - 6, x, kRulerHeight - 1);
    if (x + 3 + metrics.horizontalAdvance(label.text) > width()) continue;  // a tick, not half a number
    p.drawText(QRect(x + 3, 0, metrics.horizontalAdvance(label.text) + 4, kRulerHeight - 4),
               Qt::AlignLeft | Qt::AlignVCenter, label.text);
  }
  QString unit = display_ == TimeDisplay::Clock ? tr("time") : tr("seconds");
  p.setPen(pal.color(QPalette::Disabled, QPalette::Text));
  p.drawText(QRect(6, 0, left - 10, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft, unit);
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  if (!cacheValid_ || rowsCache_.size() != size() * devicePixelRatioF()) {
    rowsCache_ = QPixmap(size() * devicePixelRatioF());
    rowsCache_.setDevicePixelRatio(devicePixelRatioF());
    QPainter cache(&rowsCache_);
    paintRows(cache);
    paintRuler(cache);
    cacheValid_ = true;
  }
  QPainter p(this);
  p.drawPixmap(0, 0, rowsCache_);
  if (!document_->session()) {
    p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
    p.drawText(rect(), Qt::AlignCenter, tr("Open a recording to see its messages over time."));
    return;
  }
  QRect track = trackRect();
  if (const auto& r = document_->range()) {
    double x0 = std::max(0.0, axis_.toPixel(r->startNs)), x1 = std::min<double>(track.width(), axis_.toPixel(r->endNs));
    if (x1 >= x0) {
      QColor shade = palette().highlight().color();
      shade.setAlpha(50);
      QRectF band(track.left() + x0, 0, std::max(1.0, x1 - x0), height());
      p.fillRect(band, shade);
      p.setPen(palette().highlight().color());
      p.drawLine(band.topLeft(), band.bottomLeft());
      p.drawLine(band.topRight(), band.bottomRight());
    }
  }
  double x = axis_.toPixel(document_->playheadNs());
  if (x >= 0 && x <= track.width()) {
    int px = track.left() + static_cast<int>(std::lround(x));
    p.setPen(QPen(QColor(220, 30, 30), 2));
    p.drawLine(px, 0, px, height());
    QPolygon head;
    head << QPoint(px - 5, 0) << QPoint(px + 5, 0) << QPoint(px, 7);
    p.setBrush(QColor(220, 30, 30));
    p.drawPolygon(head);
  }
}

void TimelineWidget::wheelEvent(QWheelEvent* e) {
  double x = e->position().x() - trackLeft();
  if (x < 0) {  // over the names: scroll the rows
    scroll_->setValue(scroll_->value() - e->angleDelta().y() / 120 * 3 * kRowHeight);
    return;
  }
  double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) steps = e->angleDelta().x() / 120.0;
  axis_.zoom(std::pow(1.25, steps), x);
  invalidate();
  e->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || !document_->session()) return QWidget::mousePressEvent(e);
  pressPos_ = e->position().toPoint();
  lastX_ = e->position().x();
  double x = e->position().x() - trackLeft();
  if (x < 0) {
    int row = rowAt(pressPos_.y());
    if (row >= 0) emit topicClicked(static_cast<int>(rows_[static_cast<std::size_t>(row)]));
    drag_ = Drag::None;
    return;
  }
  pressNs_ = axis_.toTime(x);
  double playheadX = axis_.toPixel(document_->playheadNs());
  if (e->modifiers() & Qt::ShiftModifier) {
    drag_ = Drag::Range;
  } else if (pressPos_.y() < kRulerHeight || std::abs(playheadX - x) <= 5) {
    drag_ = Drag::Playhead;
    document_->setPlayhead(pressNs_);
  } else {
    drag_ = Drag::Pending;  // a click sets the playhead, a drag pans
  }
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e) {
  double x = e->position().x() - trackLeft();
  switch (drag_) {
    case Drag::Pending:
      if ((e->position().toPoint() - pressPos_).manhattanLength() < 4) return;
      drag_ = Drag::Pan;
      setCursor(Qt::ClosedHandCursor);
      [[fallthrough]];
    case Drag::Pan:
      axis_.pan(lastX_ - e->position().x());
      lastX_ = e->position().x();
      invalidate();
      break;
    case Drag::Playhead: document_->setPlayhead(axis_.toTime(std::clamp(x, 0.0, axis_.width()))); break;
    case Drag::Range: document_->setRange(TimeRange{pressNs_, axis_.toTime(std::clamp(x, 0.0, axis_.width()))}); break;
    case Drag::None: break;
  }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* e) {
  if (drag_ == Drag::Pending) {
    document_->setPlayhead(pressNs_);
    int row = rowAt(e->position().toPoint().y());
    if (row >= 0) emit topicClicked(static_cast<int>(rows_[static_cast<std::size_t>(row)]));
  }
  drag_ = Drag::None;
  unsetCursor();
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

void TimelineWidget::contextMenuEvent(QContextMenuEvent* e) {
  if (!document_->session()) return;
  QMenu menu(this);
  menu.addAction(tr("Zoom to Fit"), this, &TimelineWidget::zoomToFit);
  QAction* toRange = menu.addAction(tr("Zoom to Selected Range"), this, &TimelineWidget::zoomToRange);
  QAction* clear = menu.addAction(tr("Clear Selected Range"), this, [this] { document_->setRange(std::nullopt); });
  toRange->setEnabled(document_->range().has_value());
  clear->setEnabled(document_->range().has_value());
  menu.exec(e->globalPos());
}

}  // namespace bagscope::widgets
