#pragma once
// The 3D view's layers beside its cloud: topics of markers, scene entities, paths, poses,
// odometry, grids, polygons and camera frustums (core/scene), each decoded once on a worker,
// and more clouds (PointCloud2, LaserScan: the message at the playhead, read on the pool when
// it changes), then at any playhead the items they show, placed in the fixed frame, a
// geometry per layer drawn as the user set that layer to look.

#include <QColor>
#include <QObject>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/scene/scene.hpp"

namespace bagscope {
class Job;
}
namespace bagscope::session {
class Session;
}  // namespace bagscope::session

namespace bagscope::widgets {

class Mailbox;

/// How the user set a layer to look; what its size means depends on its kind (sizeUnit).
struct LayerLook {
  bool visible = true;
  QColor colour;         ///< invalid: the layer's automatic colour (markers: their own)
  double size = 0;       ///< 0: the kind's default
  bool costmap = false;  ///< grids: RViz's costmap colours instead of the map's greys
  bool operator==(const LayerLook&) const = default;
};

/// One layer's geometry, and its lines' and points' thickness in pixels.
struct LayerGeometry {
  scene::Geometry geometry;
  float lineWidth = 2, pointSize = 3;
};

class SceneLayers : public QObject {
  Q_OBJECT

public:
  explicit SceneLayers(QObject* parent = nullptr);
  ~SceneLayers() override;

  /// Whether a topic of `type` can be a layer.
  static bool drawable(const QString& type);
  /// The topics shown (by name), read from `session` (null: none open).
  void setTopics(const QStringList& topics, std::shared_ptr<const session::Session> session);
  const QStringList& topics() const { return topics_; }
  /// Marker namespaces not drawn.
  void setHiddenNamespaces(const std::set<std::string>& hidden) { hidden_ = hidden; }
  const std::set<std::string>& hiddenNamespaces() const { return hidden_; }
  /// Every marker namespace (and scene entity id) seen in the layers read.
  std::set<std::string> namespaces() const;

  /// What a layer's size is: a line or point thickness (clouds, markers, paths, polygons), a
  /// length (pose arrows, a camera frustum's depth), or nothing (grids).
  enum class SizeUnit : std::uint8_t { None, Pixels, Metres };
  SizeUnit sizeUnit(const QString& topic) const;
  /// The size a layer is drawn at: the user's, else its kind's default.
  double size(const QString& topic) const;
  /// Whether a colour of the user's applies (not to grids, which keep costmap colours).
  bool colourable(const QString& topic) const { return sizeUnit(topic) != SizeUnit::None; }
  LayerLook look(const QString& topic) const;
  void setLook(const QString& topic, const LayerLook& look);
  /// Every topic's look that differs from the default (kept in layouts).
  const std::map<QString, LayerLook>& looks() const { return looks_; }

  /// The geometry at `nowNs` in `fixedFrame` (empty: every item in its own frame), a part per
  /// visible layer; `notes` gets what could not be drawn and why (a frame without transforms,
  /// a message not read).
  std::vector<LayerGeometry> geometryAt(std::int64_t nowNs, const sensors::TfBuffer* tf, const std::string& fixedFrame,
                                        QStringList& notes);
  std::size_t itemsDrawn() const { return itemsDrawn_; }

signals:
  /// A layer was read: draw again.
  void changed();

private:
  struct Layer {
    QString topic;
    scene::LayerKind kind = scene::LayerKind::None;
    std::uint32_t topicId = 0;
    scene::Colour colour;      // its automatic colour
    std::shared_ptr<Job> job;  // reading it (markers, paths, poses, grids …)
    std::vector<std::pair<std::int64_t, std::vector<scene::MarkerCommand>>> markers;  // by log time
    std::vector<std::pair<std::int64_t, std::vector<scene::Item>>> items;             // by log time
    QString problem;
    // Clouds: the topic, the message whose points are held, the one being read.
    int cloudTopic = -1;
    std::size_t cloudRow = static_cast<std::size_t>(-1), cloudReading = static_cast<std::size_t>(-1);
    scene::Item cloud;
    // The markers' state as of `appliedUpTo` commands: stepping forwards applies only the new
    // ones (a seek back starts again).
    scene::MarkerState state;
    std::size_t applied = 0;
  };
  std::vector<std::shared_ptr<Layer>> layers_;
  std::shared_ptr<const session::Session> session_;
  std::shared_ptr<Mailbox> mailbox_;
  QStringList topics_;
  std::set<std::string> hidden_;
  std::map<QString, LayerLook> looks_;
  std::size_t itemsDrawn_ = 0;

  const Layer* find(const QString& topic) const;
  static SizeUnit unitOf(const Layer* layer);
  double sizeOf(const Layer* layer, const QString& topic) const;
  void read(const std::shared_ptr<Layer>& layer);
  void readCloud(const std::shared_ptr<Layer>& layer, std::size_t row);
};

}  // namespace bagscope::widgets
