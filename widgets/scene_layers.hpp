#pragma once
// The 3D view's layers beside its cloud: topics of markers, paths, poses, odometry, grids,
// polygons and camera frustums (core/scene), each decoded once on a worker, and more clouds
// (PointCloud2, LaserScan: the message at the playhead, read when it changes), then at any
// playhead the items they show, placed in the fixed frame as one geometry.

#include <QObject>
#include <QStringList>

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/scene/scene.hpp"

namespace bagscope::session {
class Job;
class Session;
}  // namespace bagscope::session

namespace bagscope::widgets {

class Mailbox;

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
  /// Every marker namespace seen in the layers read.
  std::set<std::string> namespaces() const;

  /// The geometry at `nowNs` in `fixedFrame` (empty: every item in its own frame); `notes`
  /// gets what could not be drawn and why (a frame without transforms, a message not read).
  scene::Geometry geometryAt(std::int64_t nowNs, const sensors::TfBuffer* tf, const std::string& fixedFrame,
                             QStringList& notes) const;
  std::size_t itemsDrawn() const { return itemsDrawn_; }

signals:
  /// A layer was read: draw again.
  void changed();

private:
  struct Layer {
    QString topic;
    scene::LayerKind kind = scene::LayerKind::None;
    std::vector<std::pair<std::int64_t, std::vector<scene::MarkerCommand>>> markers;  // by log time
    std::vector<std::pair<std::int64_t, std::vector<scene::Item>>> items;             // by log time
    QString problem;
    // Clouds: the topic, and the message read last and its points.
    int cloudTopic = -1;
    mutable std::size_t cloudRow = static_cast<std::size_t>(-1);
    mutable scene::Item cloud;
    // The markers' state as of `appliedUpTo` commands: stepping forwards applies only the new
    // ones (a seek back starts again).
    mutable scene::MarkerState state;
    mutable std::size_t applied = 0;
  };
  std::vector<std::shared_ptr<Layer>> layers_;
  std::vector<std::shared_ptr<session::Job>> jobs_;
  std::shared_ptr<const session::Session> session_;
  std::shared_ptr<Mailbox> mailbox_;
  QStringList topics_;
  std::set<std::string> hidden_;
  mutable std::size_t itemsDrawn_ = 0;
};

}  // namespace bagscope::widgets
