#include "widgets/panels/scene3d/scene_layers.hpp"

#include <algorithm>

#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/topic_job.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/qt_text.hpp"

namespace bagscope::widgets {

namespace {
// Each layer's own colour (paths, poses, polygons, frustums), told apart on the dark view.
scene::Colour layerColour(std::size_t i) {
  static constexpr scene::Colour kColours[] = {{0.2f, 0.6f, 1.0f, 1.0f}, {1.0f, 0.55f, 0.1f, 1.0f},
                                               {0.3f, 0.9f, 0.4f, 1.0f}, {0.95f, 0.3f, 0.8f, 1.0f},
                                               {1.0f, 0.9f, 0.2f, 1.0f}, {0.4f, 0.95f, 0.95f, 1.0f}};
  return kColours[i % std::size(kColours)];
}
constexpr std::size_t kTrail = 200;  // odometry: the positions of its last messages, as a line
constexpr std::size_t kNoRow = static_cast<std::size_t>(-1);

scene::Colour colourOf(const QColor& c, float alpha) {
  return {static_cast<float>(c.redF()), static_cast<float>(c.greenF()), static_cast<float>(c.blueF()), alpha};
}
}  // namespace

SceneLayers::SceneLayers(QObject* parent) : QObject(parent), mailbox_(Mailbox::create(this)) {}
SceneLayers::~SceneLayers() {
  mailbox_->close();
  layers_.clear();
}

bool SceneLayers::drawable(const QString& type) {
  return scene::layerKindOf(type.toStdString()) != scene::LayerKind::None || CloudPanel::shows(type);
}

void SceneLayers::setTopics(const QStringList& topics, std::shared_ptr<const session::Session> session) {
  topics_ = topics;
  layers_.clear();
  session_ = session;
  if (!session) return;
  for (const QString& name : topics) {
    auto layer = std::make_shared<Layer>();
    layer->topic = name;
    layers_.push_back(layer);
    auto id = session->findTopic(name.toStdString());
    if (!id) {
      layer->problem = tr("%1 is not in this recording").arg(name);
      continue;
    }
    layer->kind = scene::layerKindOf(session->topics()[*id].type);
    layer->topicId = *id;
    layer->colour = layerColour(layers_.size() - 1);
    if (CloudPanel::shows(toQt(session->topics()[*id].type))) {  // read at the playhead
      layer->cloudTopic = static_cast<int>(*id);
      layer->cloud.kind = scene::Item::Kind::Points;
      layer->cloud.colour = layer->colour;
      continue;
    }
    if (layer->kind == scene::LayerKind::None) {
      layer->problem = tr("%1: the scene does not draw %2").arg(name, toQt(session->topics()[*id].type));
      continue;
    }
    read(layer);
  }
}

void SceneLayers::read(const std::shared_ptr<Layer>& layer) {
  // Read on the job's thread into a layer of its own, handed over when complete.
  auto read = std::make_shared<Layer>(*layer);
  read->markers.clear();
  read->items.clear();
  read->job.reset();
  auto problem = std::make_shared<QString>();
  scene::ItemStyle style;
  style.colour = layer->colour;
  style.costmap = look(layer->topic).costmap;
  layer->job = decodeTopic(
      session_, mailbox_, layer->topicId,
      [read, problem, style](qint64 logTimeNs, const decode::Value& v) {
        if (read->kind == scene::LayerKind::Markers) {
          auto commands = scene::readMarkers(v, logTimeNs);
          if (commands) read->markers.emplace_back(logTimeNs, std::move(*commands));
          else if (problem->isEmpty()) *problem = toQt(commands.error().describe());
        } else {
          auto items = scene::readItems(v, read->kind, style);
          if (items) read->items.emplace_back(logTimeNs, std::move(*items));
          else if (problem->isEmpty()) *problem = toQt(items.error().describe());
        }
      },
      [this, weak = std::weak_ptr<Layer>(layer), read, problem](Result<TopicJobResult> r) {
        auto held = weak.lock();
        if (!held) return;
        held->markers = std::move(read->markers);
        held->items = std::move(read->items);
        held->state = {};
        held->applied = 0;
        QString failed = problemText(r);
        if (failed.isEmpty()) failed = *problem;  // a message of a shape the scene cannot read
        held->problem = failed.isEmpty() ? QString() : QStringLiteral("%1: %2").arg(held->topic, failed);
        emit changed();
      });
}

std::set<std::string> SceneLayers::namespaces() const {
  std::set<std::string> out;
  for (const auto& layer : layers_)
    for (const auto& [t, commands] : layer->markers)
      for (const auto& c : commands)
        if (c.action == scene::MarkerCommand::Action::Add) out.insert(c.item.ns);
  return out;
}

const SceneLayers::Layer* SceneLayers::find(const QString& topic) const {
  for (const auto& layer : layers_)
    if (layer->topic == topic) return layer.get();
  return nullptr;
}

// What a layer's size means, and its size unless the user set one: by its kind (an unknown
// topic's, a line or point thickness).
SceneLayers::SizeUnit SceneLayers::unitOf(const Layer* layer) {
  if (!layer || layer->cloudTopic >= 0) return SizeUnit::Pixels;
  switch (layer->kind) {
    case scene::LayerKind::Pose:
    case scene::LayerKind::PoseArray:
    case scene::LayerKind::Odometry:
    case scene::LayerKind::CameraFrustum: return SizeUnit::Metres;
    case scene::LayerKind::OccupancyGrid: return SizeUnit::None;
    default: return SizeUnit::Pixels;
  }
}

double SceneLayers::sizeOf(const Layer* layer, const QString& topic) const {
  if (auto it = looks_.find(topic); it != looks_.end() && it->second.size > 0) return it->second.size;
  return unitOf(layer) == SizeUnit::Metres ? 1.0 : layer && layer->cloudTopic >= 0 ? 3.0 : 2.0;
}

SceneLayers::SizeUnit SceneLayers::sizeUnit(const QString& topic) const { return unitOf(find(topic)); }
double SceneLayers::size(const QString& topic) const { return sizeOf(find(topic), topic); }

LayerLook SceneLayers::look(const QString& topic) const {
  auto it = looks_.find(topic);
  return it == looks_.end() ? LayerLook{} : it->second;
}

void SceneLayers::setLook(const QString& topic, const LayerLook& look) {
  const bool recolour = look.costmap != this->look(topic).costmap;
  if (look == LayerLook{}) looks_.erase(topic);
  else looks_[topic] = look;
  if (!recolour || !session_) return;
  for (const auto& layer : layers_)  // a grid's colours are made as it is read: read it again
    if (layer->topic == topic && layer->kind == scene::LayerKind::OccupancyGrid) read(layer);
}

void SceneLayers::readCloud(const std::shared_ptr<Layer>& layer, std::size_t row) {
  layer->cloudReading = row;
  std::weak_ptr<Layer> weak = layer;
  auto session = session_;
  auto mailbox = mailbox_;
  auto topic = static_cast<std::uint32_t>(layer->cloudTopic);
  startInPool([weak, session, mailbox, topic, row, this] {
    auto frame =
        std::make_shared<CloudFrame>(widgets::readCloud(*session, topic, row, QStringLiteral("z"), nullptr, QString()));
    mailbox->post([weak, frame, row, this] {
      auto held = weak.lock();  // gone: the layers were chosen again meanwhile
      if (!held || held->cloudReading != row) return;
      held->cloudReading = kNoRow;
      held->cloudRow = row;
      held->cloud.points.clear();
      held->problem = frame->error.isEmpty() ? QString() : QStringLiteral("%1: %2").arg(held->topic, frame->error);
      held->cloud.frameId = frame->frameId.toStdString();
      held->cloud.stampNs = frame->stampNs;
      for (std::size_t i = 0; i + 2 < frame->xyz.size(); i += 3)
        held->cloud.points.push_back({frame->xyz[i], frame->xyz[i + 1], frame->xyz[i + 2]});
      emit changed();
    });
  });
}

std::vector<LayerGeometry> SceneLayers::geometryAt(std::int64_t nowNs, const sensors::TfBuffer* tf,
                                                   const std::string& fixedFrame, QStringList& notes) {
  std::vector<LayerGeometry> parts;
  itemsDrawn_ = 0;
  sensors::TfBuffer none;
  std::map<std::string, std::size_t> unplaced;  // frame -> items
  std::size_t meshes = 0;                       // drawn as boxes: their files are not read
  std::string aMesh;
  // The layer being drawn, and what its look changes in each item.
  scene::Geometry* g = nullptr;
  std::optional<QColor> colour;
  double metres = 1;
  auto draw = [&](const scene::Item& item) {
    if (hidden_.count(item.ns)) return;
    auto at = scene::placement(item, tf ? *tf : none, fixedFrame, nowNs);
    if (!at) return void(++unplaced[item.frameId]);
    ++itemsDrawn_;
    if (item.kind == scene::Item::Kind::Mesh && !meshes++) aMesh = item.text;
    if (!colour && metres == 1) return scene::tessellate(item, *at, *g);
    scene::Item styled = item;
    if (colour) {
      styled.colour = colourOf(*colour, item.colour.a);
      styled.colours.clear();
    }
    if (styled.kind == scene::Item::Kind::Arrow)
      styled.scale = {item.scale[0] * metres, item.scale[1] * metres, item.scale[2] * metres};
    else if (styled.kind == scene::Item::Kind::LineList)  // a camera frustum: its depth
      for (auto& p : styled.points) p = {p[0] * metres, p[1] * metres, p[2] * metres};
    scene::tessellate(styled, *at, *g);
  };
  for (const auto& layer : layers_) {
    if (!layer->problem.isEmpty()) notes << layer->problem;
    const LayerLook look = this->look(layer->topic);
    if (!look.visible) continue;
    LayerGeometry& part = parts.emplace_back();
    g = &part.geometry;
    const SizeUnit unit = unitOf(layer.get());
    colour = look.colour.isValid() && unit != SizeUnit::None ? std::optional(look.colour) : std::nullopt;
    const double sized = sizeOf(layer.get(), layer->topic);
    metres = unit == SizeUnit::Metres ? sized : 1;
    if (unit == SizeUnit::Pixels) {
      part.lineWidth = static_cast<float>(sized);
      part.pointSize = static_cast<float>(
          layer->cloudTopic >= 0 ? sized : sized + 2);  // markers' points: a bit larger than their lines
    }
    if (layer->cloudTopic >= 0 && session_) {  // the cloud at the playhead, read on the pool when it changes
      auto topic = static_cast<session::TopicId>(layer->cloudTopic);
      auto row = session_->atOrBefore(topic, nowNs);
      if (!row) continue;
      if (*row != layer->cloudRow && *row != layer->cloudReading) readCloud(layer, *row);
      if (!layer->cloud.points.empty()) draw(layer->cloud);  // the last read until the new one is in
      continue;
    }
    auto upTo = [nowNs](const auto& list) {
      return std::upper_bound(list.begin(), list.end(), nowNs,
                              [](std::int64_t t, const auto& e) { return t < e.first; });
    };
    if (layer->kind == scene::LayerKind::Markers) {
      const auto end = static_cast<std::size_t>(upTo(layer->markers) - layer->markers.begin());
      if (end < layer->applied) layer->state = {}, layer->applied = 0;  // back in time: from the start
      for (; layer->applied < end; ++layer->applied) layer->state.apply(layer->markers[layer->applied].second);
      for (const scene::Item* item : layer->state.alive(nowNs)) draw(*item);
    } else {
      auto last = upTo(layer->items);
      if (last != layer->items.begin()) {
        for (const auto& item : std::prev(last)->second) draw(item);
        if (layer->kind == scene::LayerKind::Odometry) {  // its trail
          scene::Item trail = std::prev(last)->second.front();
          trail.kind = scene::Item::Kind::LineStrip;
          trail.pose = {};
          auto from =
              last - layer->items.begin() > static_cast<std::ptrdiff_t>(kTrail) ? last - kTrail : layer->items.begin();
          for (auto it = from; it != last; ++it) trail.points.push_back(it->second.front().pose.translation);
          draw(trail);
        }
      }
    }
  }
  if (meshes)
    notes << tr("%n mesh(es) drawn as boxes: mesh files are not read (%1)", nullptr, static_cast<int>(meshes))
                 .arg(toQt(aMesh));
  for (const auto& [frame, count] : unplaced)
    notes << tr("%n item(s) in frame %1 not drawn: no transform to %2", nullptr, static_cast<int>(count))
                 .arg(toQt(frame), toQt(fixedFrame));
  return parts;
}

}  // namespace bagscope::widgets
