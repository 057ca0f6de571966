#include "widgets/panels/map_tiles.hpp"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>

#include <cmath>
#include <numbers>

#include "bagscope/build_info.hpp"

namespace bagscope::widgets {

namespace {
constexpr int kMaxPending = 64;  // a view's worth; more are asked for as these arrive
constexpr int kCachedTiles = 512;
constexpr qint64 kMaxTileBytes = 4 << 20;  // a tile is tens of kB; a server sending more is cut off
}  // namespace

MapTiles::MapTiles(QObject* parent) : QObject(parent), network_(new QNetworkAccessManager(this)) {
  cache_.setMaxCost(kCachedTiles);
}

bool MapTiles::validTemplate(const QString& url) {
  const QUrl u(url);
  const QString scheme = u.scheme();
  return (scheme == QLatin1String("http") || scheme == QLatin1String("https") || scheme == QLatin1String("file")) &&
         url.contains(QLatin1String("{z}")) && url.contains(QLatin1String("{x}")) && url.contains(QLatin1String("{y}"));
}

void MapTiles::setUrlTemplate(const QString& url) {
  if (url == url_) return;
  url_ = url;
  cache_.clear();
  pending_.clear();
  failed_.clear();
  fetched_ = 0;
  lastError_.clear();
}

QString MapTiles::attribution() const {
  const QString host = QUrl(url_).host();
  if (host.endsWith(QLatin1String("openstreetmap.org"))) return tr("© OpenStreetMap contributors");
  return host.isEmpty() ? tr("Tiles: local files") : tr("Tiles: %1").arg(host);
}

const QImage* MapTiles::tile(int z, int x, int y) {
  if (url_.isEmpty() || z < 0 || z > 22 || y < 0 || y >= (1 << z) || x < 0 || x >= (1 << z)) return nullptr;
  const QString key = QStringLiteral("%1/%2/%3").arg(z).arg(x).arg(y);
  if (const QImage* image = cache_.object(key)) return image;
  if (pending_.contains(key) || failed_.contains(key) || pending_.size() >= kMaxPending) return nullptr;
  QString address = url_;
  address.replace(QLatin1String("{z}"), QString::number(z))
      .replace(QLatin1String("{x}"), QString::number(x))
      .replace(QLatin1String("{y}"), QString::number(y));
  QNetworkRequest request{QUrl(address)};
  // Tile servers ask who is fetching (OpenStreetMap's usage policy requires it).
  request.setHeader(QNetworkRequest::UserAgentHeader,
                    QStringLiteral("Bagscope/%1 (+%2)").arg(build::version, build::homepage));
  request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::PreferCache);
  pending_.insert(key);
  QNetworkReply* reply = network_->get(request);
  const QString url = url_;
  connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
    if (received > kMaxTileBytes) reply->abort();
  });
  connect(reply, &QNetworkReply::finished, this, [this, reply, key, url, address] {
    reply->deleteLater();
    if (url != url_) return;  // the template changed meanwhile
    pending_.remove(key);
    QImage image;
    if (reply->bytesAvailable() > kMaxTileBytes || reply->error() == QNetworkReply::OperationCanceledError) {
      lastError_ = tr("%1: more than %2 MB, not a tile").arg(address).arg(kMaxTileBytes >> 20);
    } else if (reply->error() != QNetworkReply::NoError) {
      lastError_ = tr("%1: %2").arg(address, reply->errorString());
    } else if (!image.loadFromData(reply->readAll())) {
      lastError_ = tr("%1: not an image").arg(address);
    }
    if (image.isNull()) failed_.insert(key);
    else {
      cache_.insert(key, new QImage(std::move(image)), 1);
      ++fetched_;
    }
    emit arrived();
  });
  return nullptr;
}

QPointF MapTiles::tileOf(double latitude, double longitude, int z) {
  const double n = std::ldexp(1.0, z), lat = latitude * std::numbers::pi / 180;
  return {(longitude + 180) / 360 * n, (1 - std::asinh(std::tan(lat)) / std::numbers::pi) / 2 * n};
}

QPointF MapTiles::positionOf(double x, double y, int z) {
  const double n = std::ldexp(1.0, z);
  const double lat = std::atan(std::sinh(std::numbers::pi * (1 - 2 * y / n))) * 180 / std::numbers::pi;
  return {lat, x / n * 360 - 180};
}

}  // namespace bagscope::widgets
