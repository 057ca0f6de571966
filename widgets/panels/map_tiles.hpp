#pragma once
// The map's background tiles: slippy-map images (XYZ tiles in Web Mercator, as OpenStreetMap
// and most tile servers serve them) fetched from a URL template the user gives, such as
// "https://tile.openstreetmap.org/{z}/{x}/{y}.png", and kept in memory. Nothing is fetched
// until the user sets a template: the map works offline without it.

#include <QCache>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QString>

class QNetworkAccessManager;

namespace bagscope::widgets {

class MapTiles : public QObject {
  Q_OBJECT

public:
  explicit MapTiles(QObject* parent = nullptr);

  /// The template, with {z}, {x} and {y}; empty turns tiles off. A new one forgets the tiles.
  void setUrlTemplate(const QString& url);
  const QString& urlTemplate() const { return url_; }
  /// Whether `url` is a template tiles can be fetched from (http, https or file; {z} {x} {y}).
  static bool validTemplate(const QString& url);

  /// Tile (z, x, y)'s image once fetched; else asks for it (once) and returns null.
  const QImage* tile(int z, int x, int y);
  int fetched() const { return fetched_; }
  int failed() const { return static_cast<int>(failed_.size()); }
  /// Why the last tile that failed did ("… 404 …"), for the status line.
  const QString& lastError() const { return lastError_; }
  /// The credit to show under tiles: OpenStreetMap's when its servers give them, else the host.
  QString attribution() const;

  /// Web Mercator: the tile coordinates (fractional) of a position at zoom `z`, and the
  /// position (latitude, longitude in degrees) of tile coordinates.
  static QPointF tileOf(double latitude, double longitude, int z);
  static QPointF positionOf(double x, double y, int z);

signals:
  /// A tile arrived (or failed): draw again.
  void arrived();

private:
  QNetworkAccessManager* network_;
  QString url_;
  QCache<QString, QImage> cache_;
  QSet<QString> pending_, failed_;
  int fetched_ = 0;
  QString lastError_;
};

}  // namespace bagscope::widgets
