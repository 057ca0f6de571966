#include "widgets/panels/map_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "widgets/async/mailbox.hpp"
#include "widgets/async/topic_job.hpp"
#include "widgets/panels/map_tiles.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/settings.hpp"

namespace bagscope::widgets {

namespace {

QColor statusColour(int status) {
  if (status < 0) return {210, 40, 40};   // no fix
  if (status >= 1) return {30, 160, 60};  // augmented (SBAS, GBAS)
  return {30, 100, 220};                  // fix
}

// 1, 2 or 5 times a power of ten: the scale bar's and the grid's step for about `metres`.
double niceStep(double metres) {
  double p = std::pow(10, std::floor(std::log10(std::max(metres, 1e-6))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= metres) return m * p;
  return 10 * p;
}

}  // namespace

MapView::MapView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(200, 150);
  setMouseTracking(false);
}

void MapView::setTrack(std::vector<MapFix> track, const std::array<double, 3>& origin) {
  track_ = std::move(track);
  origin_ = origin;
  current_ = -1;
  fit();
}

void MapView::setCurrent(int index) {
  current_ = index;
  update();
}

void MapView::fit() {
  if (track_.empty()) return update();
  double e0 = track_[0].east, e1 = e0, n0 = track_[0].north, n1 = n0;
  for (const auto& f : track_)
    e0 = std::min(e0, f.east), e1 = std::max(e1, f.east), n0 = std::min(n0, f.north), n1 = std::max(n1, f.north);
  centreEast_ = (e0 + e1) / 2, centreNorth_ = (n0 + n1) / 2;
  double span = std::max({e1 - e0, n1 - n0, 10.0});  // at least 10 m across
  pixelsPerMetre_ = 0.85 * std::min(width(), height()) / span;
  update();
}

void MapView::setTiles(MapTiles* tiles) {
  tiles_ = tiles;
  update();
}

QPointF MapView::toScreen(double latitude, double longitude) const {
  auto enu = sensors::enuFrom(origin_, {latitude, longitude, origin_[2]});
  return enuToScreen(enu[0], enu[1]);
}

// The tiles covering the view at about one tile pixel a screen pixel, each drawn onto the
// quadrilateral its corners make on the east-north grid (Web Mercator is not that grid).
void MapView::paintTiles(QPainter& p) {
  if (!tiles_ || tiles_->urlTemplate().isEmpty() || track_.empty()) return;
  const double lat0 = origin_[0], lon0 = origin_[1];
  // Metres a degree about the origin: enough to choose the tiles in view.
  const double perLat = sensors::enuFrom(origin_, {lat0 + 1e-3, lon0, origin_[2]})[1] / 1e-3;
  const double perLon = std::max(sensors::enuFrom(origin_, {lat0, lon0 + 1e-3, origin_[2]})[0] / 1e-3, 1e-6);
  const double halfWide = width() / 2.0 / pixelsPerMetre_, halfHigh = height() / 2.0 / pixelsPerMetre_;
  const double north = std::min(lat0 + (centreNorth_ + halfHigh) / perLat, 85.05),
               south = std::max(lat0 + (centreNorth_ - halfHigh) / perLat, -85.05),
               west = std::max(lon0 + (centreEast_ - halfWide) / perLon, -180.0),
               east = std::min(lon0 + (centreEast_ + halfWide) / perLon, 180.0);
  if (!(north > south && east > west)) return;
  // Zoom 0 has 156,543 m a pixel at the equator, halved at each zoom; at most 64 tiles.
  const double zoom = std::log2(156543.034 * std::cos(lat0 * std::numbers::pi / 180) * pixelsPerMetre_);
  int z = std::isfinite(zoom) ? static_cast<int>(std::lround(std::clamp(zoom, 0.0, 19.0))) : 0;  // at a pole: 0
  QPointF nw, se;
  for (;; --z) {
    nw = MapTiles::tileOf(north, west, z);
    se = MapTiles::tileOf(south, east, z);
    if ((std::floor(se.x()) - std::floor(nw.x()) + 1) * (std::floor(se.y()) - std::floor(nw.y()) + 1) <= 64 || z == 0)
      break;
  }
  p.save();
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  for (int x = static_cast<int>(nw.x()); x <= static_cast<int>(se.x()); ++x)
    for (int y = static_cast<int>(nw.y()); y <= static_cast<int>(se.y()); ++y) {
      const QImage* image = tiles_->tile(z, x, y);
      if (!image) continue;
      QPolygonF quad;
      for (auto [cx, cy] : {std::pair{x, y}, {x + 1, y}, {x + 1, y + 1}, {x, y + 1}}) {
        QPointF at = MapTiles::positionOf(cx, cy, z);
        quad << toScreen(at.x(), at.y());
      }
      const double w = image->width(), h = image->height();
      QTransform place;
      if (!QTransform::quadToQuad(QPolygonF({{0, 0}, {w, 0}, {w, h}, {0, h}}), quad, place)) continue;
      p.setTransform(place);
      p.drawImage(QPointF(0, 0), *image);
    }
  p.restore();
  const QString credit = tiles_->attribution();
  QRectF box = p.fontMetrics().boundingRect(credit).adjusted(-4, -2, 4, 2);
  box.moveBottomRight(QPointF(width() - 2, height() - 2));
  p.fillRect(box, QColor(255, 255, 255, 200));
  p.setPen(QColor(60, 60, 60));
  p.drawText(box, Qt::AlignCenter, credit);
}

QPointF MapView::enuToScreen(double east, double north) const {
  return {width() / 2.0 + (east - centreEast_) * pixelsPerMetre_,
          height() / 2.0 - (north - centreNorth_) * pixelsPerMetre_};
}

void MapView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), QColor(246, 246, 242));
  paintTiles(p);
  p.setRenderHint(QPainter::Antialiasing);
  // The east-north grid, a line every step.
  const double step = niceStep(80 / pixelsPerMetre_);
  p.setPen(QColor(222, 222, 214));
  double westEdge = centreEast_ - width() / 2.0 / pixelsPerMetre_,
         southEdge = centreNorth_ - height() / 2.0 / pixelsPerMetre_;
  for (double e = std::floor(westEdge / step) * step; enuToScreen(e, 0).x() < width(); e += step)
    p.drawLine(QPointF(enuToScreen(e, 0).x(), 0), QPointF(enuToScreen(e, 0).x(), height()));
  for (double n = std::floor(southEdge / step) * step; enuToScreen(0, n).y() > 0; n += step)
    p.drawLine(QPointF(0, enuToScreen(0, n).y()), QPointF(width(), enuToScreen(0, n).y()));
  // The track, each segment in its fix's status colour.
  for (std::size_t i = 1; i < track_.size(); ++i) {
    p.setPen(QPen(statusColour(track_[i].status), 2));
    p.drawLine(enuToScreen(track_[i - 1].east, track_[i - 1].north), enuToScreen(track_[i].east, track_[i].north));
  }
  for (const auto& f : track_) {
    p.setPen(Qt::NoPen);
    p.setBrush(statusColour(f.status));
    p.drawEllipse(enuToScreen(f.east, f.north), 2.5, 2.5);
  }
  if (current_ >= 0 && static_cast<std::size_t>(current_) < track_.size()) {
    const auto& f = track_[static_cast<std::size_t>(current_)];
    QPointF at = enuToScreen(f.east, f.north);
    if (f.sigma > 0) {  // one standard deviation around it
      p.setPen(QPen(QColor(220, 30, 30, 160), 1));
      p.setBrush(QColor(220, 30, 30, 40));
      p.drawEllipse(at, f.sigma * pixelsPerMetre_, f.sigma * pixelsPerMetre_);
    }
    p.setPen(QPen(Qt::white, 2));
    p.setBrush(QColor(220, 30, 30));
    p.drawEllipse(at, 6, 6);
  }
  // The scale bar, bottom left, and north.
  const double bar = niceStep(100 / pixelsPerMetre_);
  QPointF from(14, height() - 16), to(14 + bar * pixelsPerMetre_, height() - 16);
  p.setPen(QPen(Qt::black, 2));
  p.drawLine(from, to);
  p.drawLine(from, from - QPointF(0, 5));
  p.drawLine(to, to - QPointF(0, 5));
  p.drawText(QPointF(from.x(), from.y() - 8), bar >= 1000 ? tr("%1 km").arg(bar / 1000) : tr("%1 m").arg(bar));
  p.drawText(QPointF(width() - 22, 20), tr("N"));
  p.drawLine(QPointF(width() - 18, 26), QPointF(width() - 18, 44));
}

void MapView::wheelEvent(QWheelEvent* e) {
  double factor = std::pow(1.0015, e->angleDelta().y());
  QPointF at = e->position();
  // Zoom about the pointer: the ground under it stays under it.
  double east = centreEast_ + (at.x() - width() / 2.0) / pixelsPerMetre_;
  double north = centreNorth_ - (at.y() - height() / 2.0) / pixelsPerMetre_;
  pixelsPerMetre_ = std::clamp(pixelsPerMetre_ * factor, 1e-4, 1e4);
  centreEast_ = east - (at.x() - width() / 2.0) / pixelsPerMetre_;
  centreNorth_ = north + (at.y() - height() / 2.0) / pixelsPerMetre_;
  update();
}

void MapView::mousePressEvent(QMouseEvent* e) { dragFrom_ = e->pos(); }

void MapView::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton)) return;
  QPoint d = e->pos() - dragFrom_;
  dragFrom_ = e->pos();
  centreEast_ -= d.x() / pixelsPerMetre_;
  centreNorth_ += d.y() / pixelsPerMetre_;
  update();
}

bool MapPanel::shows(const QString& type) {
  return sensors::kindOf(type.toStdString()) == sensors::SensorKind::NavSatFix;
}

MapPanel::MapPanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      topic_(new TopicChoice(this)),
      showTiles_(new QCheckBox(tr("Tiles"), this)),
      tiles_(new MapTiles(this)),
      view_(new MapView(this)),
      status_(new QLabel(this)) {
  view_->setToolTip(tr("Drag to pan, wheel to zoom; east is right, north is up"));
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* top = new QHBoxLayout;
  top->addWidget(topic_, 1);
  top->addWidget(showTiles_);
  layout->addLayout(top);
  layout->addWidget(view_, 1);
  showTiles_->setToolTip(tr("Background tiles from a tile server you choose (off: nothing is fetched)"));
  connect(showTiles_, &QCheckBox::toggled, this, [this](bool on) {
    if (!on) return setTileUrl({});
    AppSettings settings = AppSettings::load();
    QString url = settings.tileUrl;
    if (!MapTiles::validTemplate(url)) {
      bool ok = false;
      url = QInputDialog::getText(
          this, tr("Map Tiles"), tr("Tile URL, with {z}, {x} and {y} (the tile server's terms apply):"),
          QLineEdit::Normal, QStringLiteral("https://tile.openstreetmap.org/{z}/{x}/{y}.png"), &ok);
      if (!ok || !MapTiles::validTemplate(url)) return setTileUrl({});
      settings.tileUrl = url;
      settings.save();
    }
    setTileUrl(url);
  });
  view_->setTiles(tiles_);
  connect(tiles_, &MapTiles::arrived, this, [this] {
    view_->update();
    followPlayhead();
  });
  layout->addWidget(status_);
  connect(topic_, &TopicChoice::chosen, this, &MapPanel::sessionChanged);
  connect(document_, &Document::playheadChanged, this, &MapPanel::followPlayhead);
  sessionChanged();
}

MapPanel::~MapPanel() {
  mailbox_->close();
  job_.reset();
}

void MapPanel::sessionChanged() {
  topic_->refill(document_->topics(), [](const TopicInfo& t) { return shows(t.type); });
  job_.reset();
  view_->setTrack({});
  summary_.clear();
  emit titleChanged(topic_->currentText());
  auto session = document_->session();
  if (!session || topic_->currentIndex() < 0) {
    status_->setText(topic_->noTopicText(session != nullptr, tr("This recording has no satellite fixes.")));
    return;
  }
  status_->setText(tr("Reading…"));
  struct Read {
    std::vector<sensors::NavSatFix> fixes;
    std::vector<qint64> times;
  };
  auto read = std::make_shared<Read>();
  job_ = decodeTopic(
      session, mailbox_, static_cast<session::TopicId>(topic_->currentData().toUInt()),
      [read](qint64 logTimeNs, const decode::Value& v) {
        if (auto f = sensors::readNavSatFix(v)) read->fixes.push_back(*f), read->times.push_back(logTimeNs);
      },
      [this, read](Result<TopicJobResult> r) {
        // Placed around the first fix with a position; those without one are counted.
        std::vector<MapFix> track;
        std::size_t noPosition = 0;
        std::array<double, 3> origin{};
        for (std::size_t i = 0; i < read->fixes.size(); ++i) {
          const auto& f = read->fixes[i];
          if (!std::isfinite(f.latitude) || !std::isfinite(f.longitude)) {
            ++noPosition;
            continue;
          }
          double alt = std::isfinite(f.altitude) ? f.altitude : 0;
          if (track.empty()) origin = {f.latitude, f.longitude, alt};
          auto enu = sensors::enuFrom(origin, {f.latitude, f.longitude, alt});
          double sigma = f.covarianceType > 0 ? std::sqrt(std::max(f.covariance[0], f.covariance[4])) : 0;
          track.push_back({read->times[i], enu[0], enu[1], f.status, sigma, f.latitude, f.longitude});
        }
        summary_ = tr("%n fix(es)", nullptr, static_cast<int>(track.size()));
        if (noPosition)
          summary_ += QStringLiteral(" · ") + tr("%n without a position", nullptr, static_cast<int>(noPosition));
        if (QString problem = problemText(r); !problem.isEmpty()) summary_ += QStringLiteral(" · ") + problem;
        view_->setTrack(std::move(track), origin);
        followPlayhead();
        emit loaded();
      });
}

int MapPanel::currentFix() const {
  const auto& track = view_->track();
  auto after = std::upper_bound(track.begin(), track.end(), document_->playheadNs(),
                                [](qint64 t, const MapFix& f) { return t < f.logTimeNs; });
  return after == track.begin() ? -1 : static_cast<int>(after - track.begin()) - 1;
}

void MapPanel::setTileUrl(const QString& urlTemplate) {
  tiles_->setUrlTemplate(urlTemplate);
  QSignalBlocker block(showTiles_);
  showTiles_->setChecked(!urlTemplate.isEmpty());
  view_->update();
  followPlayhead();
}

void MapPanel::followPlayhead() {
  int i = currentFix();
  view_->setCurrent(i);
  QString tiles;
  if (tiles_->failed())
    tiles =
        QStringLiteral(" · ") + tr("%n tile(s) not fetched: %1", nullptr, tiles_->failed()).arg(tiles_->lastError());
  if (i < 0) return status_->setText(summary_ + tiles);
  const MapFix& f = view_->track()[static_cast<std::size_t>(i)];
  status_->setText(tr("%1° %2° · %3 m east, %4 m north of the first fix")
                       .arg(f.latitude, 0, 'f', 7)
                       .arg(f.longitude, 0, 'f', 7)
                       .arg(f.east, 0, 'f', 2)
                       .arg(f.north, 0, 'f', 2) +
                   (f.sigma > 0 ? QStringLiteral(" · ±%1 m").arg(f.sigma, 0, 'f', 2) : QString()) +
                   QStringLiteral(" · ") + summary_ + tiles);
}

QString MapPanel::status() const { return status_->text(); }

void MapPanel::setTopic(const QString& name) {
  topic_->ask(name);
  sessionChanged();
}

QJsonObject MapPanel::saveSettings() const {
  return {{QStringLiteral("topic"), topic_->topic()}, {QStringLiteral("tileUrl"), tiles_->urlTemplate()}};
}

void MapPanel::restoreSettings(const QJsonObject& s) {
  const QString url = s.value(QStringLiteral("tileUrl")).toString();
  setTileUrl(MapTiles::validTemplate(url) ? url : QString());
  setTopic(s.value(QStringLiteral("topic")).toString());
}

}  // namespace bagscope::widgets
