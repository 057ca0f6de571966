#pragma once
// The map: sensor_msgs/NavSatFix (and foxglove.LocationFix) tracks on a local east-north
// grid around the first fix — a scale bar, the track coloured by fix status, the position at
// the playhead with its covariance circle. It works offline; background tiles (map_tiles.hpp)
// are fetched only when the user turns them on with a tile URL.

#include <QWidget>

#include <array>
#include <memory>
#include <vector>

#include "core/sensors/sensors.hpp"
#include "widgets/panels/panel.hpp"

class QCheckBox;
class QComboBox;
class QLabel;

namespace bagscope {
class Job;
}

namespace bagscope::widgets {

class Document;
class Mailbox;
class MapTiles;

/// One fix placed on the local grid.
struct MapFix {
  qint64 logTimeNs = 0;
  double east = 0, north = 0;
  int status = 0;
  double sigma = 0;  ///< horizontal standard deviation (m) when the covariance is known, else 0
  double latitude = 0, longitude = 0;
};

class MapView : public QWidget {
  Q_OBJECT

public:
  explicit MapView(QWidget* parent = nullptr);
  /// The track, placed around `origin` (latitude, longitude in degrees, altitude in metres).
  void setTrack(std::vector<MapFix> track, const std::array<double, 3>& origin = {});
  /// Tiles drawn under the track (null: none).
  void setTiles(MapTiles* tiles);
  /// The screen position of a WGS-84 position (tests).
  QPointF toScreen(double latitude, double longitude) const;
  void setCurrent(int index);  ///< the fix at the playhead, -1 none
  void fit();
  const std::vector<MapFix>& track() const { return track_; }

protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;

private:
  QPointF enuToScreen(double east, double north) const;
  void paintTiles(QPainter& p);
  std::vector<MapFix> track_;
  std::array<double, 3> origin_{};
  MapTiles* tiles_ = nullptr;
  int current_ = -1;
  double centreEast_ = 0, centreNorth_ = 0, pixelsPerMetre_ = 1;
  QPoint dragFrom_;
};

class MapPanel : public Panel {
  Q_OBJECT

public:
  explicit MapPanel(Document* document, QWidget* parent = nullptr);
  ~MapPanel() override;

  static constexpr const char* kKind = "map";
  static bool shows(const QString& type);
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;
  void setTopic(const QString& name) override;

  MapView* view() const { return view_; }
  MapTiles* tiles() const { return tiles_; }
  /// Background tiles from `urlTemplate` (map_tiles.hpp), or none when empty; kept in layouts.
  void setTileUrl(const QString& urlTemplate);
  /// The fix at the playhead, or -1.
  int currentFix() const;
  QString status() const;

signals:
  void loaded();

private:
  void followPlayhead();

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  TopicChoice* topic_;
  QCheckBox* showTiles_;
  MapTiles* tiles_;
  MapView* view_;
  QLabel* status_;
  QString summary_;
  std::shared_ptr<Job> job_;
};

}  // namespace bagscope::widgets
