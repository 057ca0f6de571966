#pragma once
// The 3D scene's things, from messages: visualization_msgs Marker and MarkerArray (with their
// add / delete / deleteall, namespaces, lifetimes and frame locking), foxglove.SceneUpdate
// (entities of primitives, replaced and deleted by id), nav_msgs Path, Odometry
// and OccupancyGrid, geometry_msgs PoseStamped, PoseArray, PoseWithCovarianceStamped and
// PolygonStamped, and a CameraInfo's frustum — each an Item in its frame — and their geometry
// in the fixed frame (triangles, lines, points and labels with colours) for any renderer.
// No Qt, no VTK.

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/decode/decoder.hpp"
#include "core/sensors/sensors.hpp"

namespace bagscope::scene {

using Vec3 = std::array<double, 3>;
struct Colour {
  float r = 1, g = 1, b = 1, a = 1;
  bool operator==(const Colour&) const = default;
};

/// One thing to draw, in its frame: a shape at `pose` scaled by `scale`, or a list of points
/// in the frame of `pose`.
struct Item {
  enum class Kind : std::uint8_t {
    Arrow,
    Cube,
    Sphere,
    Cylinder,
    LineStrip,
    LineList,
    CubeList,
    SphereList,
    Points,
    Text,
    Mesh,  ///< a mesh resource: drawn as a labelled box (its file is not read)
    Triangles,
  };
  Kind kind = Kind::Cube;
  std::string frameId;
  std::int64_t stampNs = 0;
  sensors::Transform pose;
  Vec3 scale{1, 1, 1};
  Colour colour;
  std::vector<Vec3> points;
  std::vector<Colour> colours;        ///< per point, when given
  std::string text;                   ///< Text; Mesh: the resource
  std::array<double, 2> taper{1, 1};  ///< Cylinder: its bottom and top faces' share of its diameter
  // Markers only: a scene entity's primitives have its id as their namespace, and their index.
  std::string ns;
  std::int32_t id = 0;
  std::int64_t expiresNs = std::numeric_limits<std::int64_t>::max();
  bool frameLocked = false;
};

/// What a topic's type shows in the scene.
enum class LayerKind : std::uint8_t {
  None,
  Markers,  ///< Marker, MarkerArray, foxglove.SceneUpdate
  Path,
  Pose,  ///< PoseStamped, PoseWithCovarianceStamped
  PoseArray,
  Odometry,
  OccupancyGrid,
  Polygon,
  CameraFrustum,  ///< CameraInfo
};
LayerKind layerKindOf(std::string_view type);

/// One marker's command: add (or modify) an item, delete one, delete a namespace (a scene
/// entity) or delete all.
struct MarkerCommand {
  enum class Action : std::uint8_t { Add, Delete, DeleteNamespace, DeleteAll };
  Action action = Action::Add;
  Item item;  ///< ns and id name the marker for every action
  /// DeleteNamespace and DeleteAll remove only items stamped before this (a foxglove
  /// SceneEntityDeletion's timestamp).
  std::int64_t beforeNs = std::numeric_limits<std::int64_t>::max();
};
/// The commands of a Marker or MarkerArray message logged at `logTimeNs` (lifetimes count
/// from it, as RViz counts them from when it received the marker), or of a foxglove
/// SceneUpdate (protobuf, JSON or foxglove_msgs): its deletions, then each entity replacing
/// the one of its id, one item per primitive (lifetimes count from the entity's timestamp).
Result<std::vector<MarkerCommand>> readMarkers(const decode::Value& message, std::int64_t logTimeNs);

/// The markers alive: commands applied in log-time order — add and modify replace by
/// namespace and id, delete removes one, a namespace's or every one.
class MarkerState {
public:
  void apply(const std::vector<MarkerCommand>& commands);
  /// The markers alive at `nowNs` (lifetime not over), in namespace and id order.
  std::vector<const Item*> alive(std::int64_t nowNs) const;
  std::set<std::string> namespaces() const;

private:
  std::map<std::pair<std::string, std::int32_t>, Item> items_;
};

/// How a layer of one colour draws its items (paths, poses, polygons, frustums).
struct ItemStyle {
  Colour colour{0.2f, 0.6f, 1.0f, 1.0f};
  double scale = 1;  ///< arrow length (m) for poses
  /// Grids: RViz's costmap colours (0 clear, 1–98 blue to red, 99 inscribed cyan, 100
  /// lethal magenta, unknown grey-green) instead of its map's greys.
  bool costmap = false;
};
/// The items of one message of a layer that is not Markers. Poses with a covariance and
/// odometry also give the one-sigma ellipse of its x-y block.
Result<std::vector<Item>> readItems(const decode::Value& message, LayerKind kind, const ItemStyle& style);

/// Triangles, lines and points with a colour per vertex, and labels, in the fixed frame.
struct Geometry {
  std::vector<float> triangles, triangleColours;  ///< 3 floats per vertex, 3 vertices a triangle; RGBA per vertex
  std::vector<float> lines, lineColours;          ///< 2 vertices a segment
  std::vector<float> points, pointColours;
  struct Label {
    Vec3 position;
    std::string text;
    Colour colour;
    double height = 0.2;
  };
  std::vector<Label> labels;
  void clear();
  std::size_t triangleCount() const { return triangles.size() / 9; }
};

/// Adds the geometry of `item` placed by `toFixed` (its frame in the fixed frame).
void tessellate(const Item& item, const sensors::Transform& toFixed, Geometry& out);

/// The transform of an item's frame into `fixedFrame`: at its stamp, or for a frame-locked
/// marker at `nowNs`; an item in the fixed frame (or without a frame) needs none.
Result<sensors::Transform> placement(const Item& item, const sensors::TfBuffer& tf, const std::string& fixedFrame,
                                     std::int64_t nowNs);

}  // namespace bagscope::scene
