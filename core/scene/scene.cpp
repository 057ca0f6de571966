#include "scene.hpp"

#include "core/base/text.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

namespace bagscope::scene {

using decode::Value;
using sensors::field;
using sensors::Transform;

namespace {

double number(const Value* v, double fallback = 0) { return sensors::numberOf(v, fallback); }
std::string text(const Value* v) { return sensors::textOf(v); }
Vec3 vec3(const Value* v) {
  return v ? Vec3{number(field(*v, "x")), number(field(*v, "y")), number(field(*v, "z"))} : Vec3{};
}
Colour colourOf(const Value* v) {
  if (!v) return {};
  return {static_cast<float>(number(field(*v, "r"))), static_cast<float>(number(field(*v, "g"))),
          static_cast<float>(number(field(*v, "b"))), static_cast<float>(number(field(*v, "a"), 1))};
}
// geometry_msgs/Pose: position and orientation.
Transform poseOf(const Value* v) {
  Transform t;
  if (!v) return t;
  t.translation = vec3(field(*v, "position"));
  if (const Value* q = field(*v, "orientation"))
    t.rotation = {number(field(*q, "x")), number(field(*q, "y")), number(field(*q, "z")), number(field(*q, "w"), 1)};
  double n = std::sqrt(t.rotation[0] * t.rotation[0] + t.rotation[1] * t.rotation[1] + t.rotation[2] * t.rotation[2] +
                       t.rotation[3] * t.rotation[3]);
  if (n < 1e-9) t.rotation = {0, 0, 0, 1};  // an unset orientation: RViz draws it unrotated
  else
    for (auto& c : t.rotation) c /= n;
  return t;
}
const Value* list(const Value& m, std::string_view name) {
  const Value* v = field(m, name);
  return v && v->kind == Value::Kind::Array ? v : nullptr;
}
// ---- Tessellation -------------------------------------------------------------------------

struct Emitter {
  Geometry& g;
  const Transform& to;  // item frame -> fixed
  void vertex(std::vector<float>& xyz, std::vector<float>& rgba, const Vec3& p, const Colour& c) {
    auto w = to.apply(p);
    xyz.insert(xyz.end(), {static_cast<float>(w[0]), static_cast<float>(w[1]), static_cast<float>(w[2])});
    rgba.insert(rgba.end(), {c.r, c.g, c.b, c.a});
  }
  void triangle(const Vec3& a, const Vec3& b, const Vec3& c, const Colour& col) {
    for (const Vec3* p : {&a, &b, &c}) vertex(g.triangles, g.triangleColours, *p, col);
  }
  void line(const Vec3& a, const Vec3& b, const Colour& ca, const Colour& cb) {
    vertex(g.lines, g.lineColours, a, ca);
    vertex(g.lines, g.lineColours, b, cb);
  }
};

Vec3 add(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 mul(const Vec3& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }

// A unit shape (centred, size 1) scaled and placed by `local` (in the item's frame).
void box(Emitter& e, const Transform& local, const Vec3& s, const Colour& c) {
  Vec3 v[8];
  for (int i = 0; i < 8; ++i)
    v[i] = local.apply({(i & 1 ? 0.5 : -0.5) * s[0], (i & 2 ? 0.5 : -0.5) * s[1], (i & 4 ? 0.5 : -0.5) * s[2]});
  static constexpr int kFaces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                       {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : kFaces) {
    e.triangle(v[f[0]], v[f[1]], v[f[2]], c);
    e.triangle(v[f[0]], v[f[2]], v[f[3]], c);
  }
}
void sphere(Emitter& e, const Transform& local, const Vec3& s, const Colour& c) {
  constexpr int kSlices = 12, kStacks = 8;
  auto at = [&](int i, int j) {
    double th = std::numbers::pi * j / kStacks, ph = 2 * std::numbers::pi * i / kSlices;
    return local.apply({0.5 * s[0] * std::sin(th) * std::cos(ph), 0.5 * s[1] * std::sin(th) * std::sin(ph),
                        0.5 * s[2] * std::cos(th)});
  };
  for (int j = 0; j < kStacks; ++j)
    for (int i = 0; i < kSlices; ++i) {
      e.triangle(at(i, j), at(i, j + 1), at(i + 1, j + 1), c);
      e.triangle(at(i, j), at(i + 1, j + 1), at(i + 1, j), c);
    }
}
// A cone or cylinder along `axis` (unit) from `base`, radii r0 at the base and r1 at the top.
void frustumAlong(Emitter& e, const Vec3& base, const Vec3& axis, double length, double r0, double r1,
                  const Colour& c) {
  Vec3 u = std::abs(axis[2]) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
  Vec3 x{axis[1] * u[2] - axis[2] * u[1], axis[2] * u[0] - axis[0] * u[2], axis[0] * u[1] - axis[1] * u[0]};
  double n = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  x = mul(x, 1 / n);
  Vec3 y{axis[1] * x[2] - axis[2] * x[1], axis[2] * x[0] - axis[0] * x[2], axis[0] * x[1] - axis[1] * x[0]};
  constexpr int kSides = 12;
  Vec3 top = add(base, mul(axis, length));
  for (int i = 0; i < kSides; ++i) {
    double a0 = 2 * std::numbers::pi * i / kSides, a1 = 2 * std::numbers::pi * (i + 1) / kSides;
    Vec3 d0 = add(mul(x, std::cos(a0)), mul(y, std::sin(a0))), d1 = add(mul(x, std::cos(a1)), mul(y, std::sin(a1)));
    Vec3 b0 = add(base, mul(d0, r0)), b1 = add(base, mul(d1, r0)), t0 = add(top, mul(d0, r1)),
         t1 = add(top, mul(d1, r1));
    e.triangle(b0, b1, t1, c);
    if (r1 > 0) e.triangle(b0, t1, t0, c);
    e.triangle(base, b1, b0, c);  // the base's cap
    if (r1 > 0) e.triangle(top, t0, t1, c);
  }
}
void arrow(Emitter& e, const Vec3& from, const Vec3& to, double shaft, double head, double headLength,
           const Colour& c) {
  Vec3 d{to[0] - from[0], to[1] - from[1], to[2] - from[2]};
  double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (len < 1e-12) return;
  Vec3 axis = mul(d, 1 / len);
  headLength = std::min(headLength, len);
  frustumAlong(e, from, axis, len - headLength, shaft / 2, shaft / 2, c);
  frustumAlong(e, add(from, mul(axis, len - headLength)), axis, headLength, head / 2, 0, c);
}

// The one-sigma ellipse of a 6 × 6 pose covariance's x-y block around `pose`, as a closed
// line strip in the pose's frame (the block's eigenvectors and square-rooted eigenvalues).
std::optional<Item> covarianceEllipse(const Value* covariance, const Transform& pose, const Item& base) {
  if (!covariance || covariance->kind != Value::Kind::Array || covariance->items.size() != 36) return std::nullopt;
  const double a = number(&covariance->items[0]), b = number(&covariance->items[1]), d = number(&covariance->items[7]);
  const double mean = (a + d) / 2, spread = std::sqrt((a - d) * (a - d) / 4 + b * b);
  const double l1 = mean + spread, l2 = mean - spread;
  if (!(l1 > 0) || !(l2 > 0) || !std::isfinite(l1)) return std::nullopt;
  const double angle = 0.5 * std::atan2(2 * b, a - d), r1 = std::sqrt(l1), r2 = std::sqrt(l2);
  Item e = base;
  e.kind = Item::Kind::LineStrip;
  e.pose = {};
  for (int i = 0; i <= 32; ++i) {
    const double t = 2 * std::numbers::pi * i / 32, x = r1 * std::cos(t), y = r2 * std::sin(t);
    e.points.push_back({pose.translation[0] + x * std::cos(angle) - y * std::sin(angle),
                        pose.translation[1] + x * std::sin(angle) + y * std::cos(angle), pose.translation[2]});
  }
  return e;
}

// An occupancy grid cell's colour: free white to occupied black, unknown translucent grey.
Colour mapColour(double v) {
  if (v < 0) return {0.55f, 0.6f, 0.65f, 0.35f};
  const auto grey = static_cast<float>(1 - std::min(v, 100.0) / 100);
  return {grey, grey, grey, 0.85f};
}
// A costmap cell's colour, as RViz's costmap scheme draws it.
Colour costmapColour(double v) {
  if (v == 0) return {0, 0, 0, 0};  // free: clear
  if (v >= 1 && v <= 98) {          // cost: blue to red
    const auto t = static_cast<float>(v / 100);
    return {t, 0, 1 - t, 0.85f};
  }
  if (v == 99) return {0, 1, 1, 0.85f};                                   // inscribed: cyan
  if (v == 100) return {1, 0, 1, 0.85f};                                  // lethal: magenta
  if (v == -1) return {0x70 / 255.f, 0x89 / 255.f, 0x86 / 255.f, 0.85f};  // unknown
  return {0, 1, 0, 0.85f};                                                // outside the scale: green
}

// ---- foxglove.SceneUpdate ------------------------------------------------------------------

// A primitive's points (Point3), expanded through its indices when it has them; its colours
// likewise. An index past the points is an error, not a read past the list.
Result<void> indexedPoints(const Value& primitive, Item& it, const char* pointsName, const char* coloursName) {
  std::vector<Vec3> points;
  std::vector<Colour> colours;
  if (const Value* ps = list(primitive, pointsName))
    for (const auto& p : ps->items) points.push_back(vec3(&p));
  if (const Value* cs = list(primitive, coloursName))
    for (const auto& c : cs->items) colours.push_back(colourOf(&c));
  const Value* indices = list(primitive, "indices");
  if (!indices || indices->items.empty()) {
    it.points = std::move(points);
    it.colours = std::move(colours);
    return {};
  }
  for (const auto& i : indices->items) {
    const double k = number(&i, -1);
    if (!(k >= 0 && k < static_cast<double>(points.size())))
      return makeError(ErrorCode::Format, "entity " + it.ns + ": index " + std::to_string(static_cast<long long>(k)) +
                                              " is past its " + std::to_string(points.size()) + " points");
    const auto at = static_cast<std::size_t>(k);
    it.points.push_back(points[at]);
    if (at < colours.size()) it.colours.push_back(colours[at]);
  }
  if (it.colours.size() != it.points.size()) it.colours.clear();
  return {};
}

// One entity's primitives as items named by the entity's id and their index.
Result<void> readEntity(const Value& e, std::int64_t logTimeNs, std::vector<MarkerCommand>& out) {
  Item base;
  base.ns = text(field(e, "id"));
  base.frameId = text(field(e, "frame_id"));
  if (const Value* t = field(e, "timestamp")) base.stampNs = sensors::timeNs(*t).value_or(0);
  if (const Value* life = field(e, "lifetime"))
    if (std::int64_t ns = sensors::timeNs(*life).value_or(0); ns > 0)
      base.expiresNs = (base.stampNs != 0 ? base.stampNs : logTimeNs) + ns;
  base.frameLocked = number(field(e, "frame_locked")) != 0;
  MarkerCommand replace;  // an entity replaces all its id had
  replace.action = MarkerCommand::Action::DeleteNamespace;
  replace.item.ns = base.ns;
  out.push_back(std::move(replace));
  std::int32_t index = 0;
  auto each = [&](const char* name, const auto& fill) -> Result<void> {
    const Value* primitives = list(e, name);
    if (!primitives) return {};
    for (const auto& p : primitives->items) {
      MarkerCommand c;
      c.item = base;
      c.item.id = index++;
      c.item.pose = poseOf(field(p, "pose"));
      c.item.colour = colourOf(field(p, "color"));
      if (auto r = fill(p, c.item); !r) return r;
      out.push_back(std::move(c));
    }
    return {};
  };
  auto sized = [](Item::Kind kind) {
    return [kind](const Value& p, Item& it) -> Result<void> {
      it.kind = kind;
      it.scale = vec3(field(p, "size"));
      if (kind == Item::Kind::Cylinder)
        it.taper = {number(field(p, "bottom_scale"), 1), number(field(p, "top_scale"), 1)};
      return {};
    };
  };
  Result<void> r = each("arrows", [](const Value& p, Item& it) -> Result<void> {
    // Along the pose's x: a shaft, then a head (the points form of Item::Kind::Arrow).
    it.kind = Item::Kind::Arrow;
    const double shaft = number(field(p, "shaft_length")), head = number(field(p, "head_length"));
    it.points = {{0, 0, 0}, {shaft + head, 0, 0}};
    it.scale = {number(field(p, "shaft_diameter")), number(field(p, "head_diameter")), head};
    return {};
  });
  if (r) r = each("cubes", sized(Item::Kind::Cube));
  if (r) r = each("spheres", sized(Item::Kind::Sphere));
  if (r) r = each("cylinders", sized(Item::Kind::Cylinder));
  if (r)
    r = each("lines", [](const Value& p, Item& it) -> Result<void> {
      const int type = static_cast<int>(number(field(p, "type")));  // 0 strip, 1 loop, 2 list
      it.kind = type == 2 ? Item::Kind::LineList : Item::Kind::LineStrip;
      if (auto ok = indexedPoints(p, it, "points", "colors"); !ok) return ok;
      if (type == 1 && !it.points.empty()) {  // a loop closes on its first point
        it.points.push_back(it.points.front());
        if (!it.colours.empty()) it.colours.push_back(it.colours.front());
      }
      return {};
    });
  if (r)
    r = each("triangles", [](const Value& p, Item& it) -> Result<void> {
      it.kind = Item::Kind::Triangles;
      return indexedPoints(p, it, "points", "colors");
    });
  if (r)
    r = each("texts", [](const Value& p, Item& it) -> Result<void> {
      it.kind = Item::Kind::Text;
      it.text = text(field(p, "text"));
      it.scale = {0, 0, number(field(p, "font_size"), 0.2)};
      return {};
    });
  if (r)
    r = each("models", [](const Value& p, Item& it) -> Result<void> {
      it.kind = Item::Kind::Mesh;  // not loaded: a box named by its URL or media type
      it.scale = vec3(field(p, "scale"));
      it.text = text(field(p, "url"));
      if (it.text.empty()) it.text = "embedded " + text(field(p, "media_type"));
      if (number(field(p, "override_color")) == 0) it.colour = {0.7f, 0.7f, 0.7f, 1};
      return {};
    });
  return r;
}

Result<std::vector<MarkerCommand>> readSceneUpdate(const Value& message, std::int64_t logTimeNs) {
  std::vector<MarkerCommand> out;
  if (const Value* deletions = list(message, "deletions"))
    for (const auto& d : deletions->items) {
      MarkerCommand c;
      c.action =
          number(field(d, "type")) == 1 ? MarkerCommand::Action::DeleteAll : MarkerCommand::Action::DeleteNamespace;
      c.item.ns = text(field(d, "id"));
      // Only entities stamped before the deletion go; an unset stamp deletes whatever the stamp.
      if (const Value* t = field(d, "timestamp"))
        if (std::int64_t ns = sensors::timeNs(*t).value_or(0); ns > 0) c.beforeNs = ns;
      out.push_back(std::move(c));
    }
  if (const Value* entities = list(message, "entities"))
    for (const auto& e : entities->items) BAGSCOPE_TRY(readEntity(e, logTimeNs, out));
  return out;
}

}  // namespace

LayerKind layerKindOf(std::string_view type) {
  static const std::map<std::string, LayerKind, std::less<>> kKinds = {
      {"visualization_msgs/Marker", LayerKind::Markers},
      {"visualization_msgs/MarkerArray", LayerKind::Markers},
      {"foxglove.SceneUpdate", LayerKind::Markers},
      {"foxglove_msgs/SceneUpdate", LayerKind::Markers},
      {"nav_msgs/Path", LayerKind::Path},
      {"geometry_msgs/PoseStamped", LayerKind::Pose},
      {"geometry_msgs/PoseWithCovarianceStamped", LayerKind::Pose},
      {"geometry_msgs/PoseArray", LayerKind::PoseArray},
      {"nav_msgs/Odometry", LayerKind::Odometry},
      {"nav_msgs/OccupancyGrid", LayerKind::OccupancyGrid},
      {"geometry_msgs/PolygonStamped", LayerKind::Polygon},
      {"sensor_msgs/CameraInfo", LayerKind::CameraFrustum},
  };
  auto it = kKinds.find(normalTypeName(type));
  return it == kKinds.end() ? LayerKind::None : it->second;
}

Result<std::vector<MarkerCommand>> readMarkers(const Value& message, std::int64_t logTimeNs) {
  if (list(message, "entities") || list(message, "deletions")) return readSceneUpdate(message, logTimeNs);
  std::vector<const Value*> markers;
  if (const Value* array = list(message, "markers")) {
    for (const auto& m : array->items) markers.push_back(&m);
  } else if (field(message, "ns") && field(message, "action")) {
    markers.push_back(&message);
  } else {
    return makeError(ErrorCode::Format, "not a visualization_msgs Marker or MarkerArray, nor a foxglove SceneUpdate");
  }
  std::vector<MarkerCommand> out;
  for (const Value* m : markers) {
    MarkerCommand c;
    Item& it = c.item;
    it.ns = text(field(*m, "ns"));
    it.id = static_cast<std::int32_t>(number(field(*m, "id")));
    const int action = static_cast<int>(number(field(*m, "action")));
    c.action = action == 2   ? MarkerCommand::Action::Delete
               : action == 3 ? MarkerCommand::Action::DeleteAll
                             : MarkerCommand::Action::Add;  // 0 add/modify (1: deprecated modify)
    if (auto h = sensors::headerOf(*m)) it.frameId = h->frameId, it.stampNs = h->stampNs;
    static constexpr Item::Kind kKinds[] = {Item::Kind::Arrow,    Item::Kind::Cube,       Item::Kind::Sphere,
                                            Item::Kind::Cylinder, Item::Kind::LineStrip,  Item::Kind::LineList,
                                            Item::Kind::CubeList, Item::Kind::SphereList, Item::Kind::Points,
                                            Item::Kind::Text,     Item::Kind::Mesh,       Item::Kind::Triangles};
    const int type = static_cast<int>(number(field(*m, "type")));
    if (c.action == MarkerCommand::Action::Add && (type < 0 || type > 11))
      return makeError(ErrorCode::Format, "marker " + it.ns + "/" + std::to_string(it.id) + " has an unknown type " +
                                              std::to_string(type));
    it.kind = kKinds[std::clamp(type, 0, 11)];
    it.pose = poseOf(field(*m, "pose"));
    it.scale = vec3(field(*m, "scale"));
    it.colour = colourOf(field(*m, "color"));
    if (const Value* points = list(*m, "points"))
      for (const auto& p : points->items) it.points.push_back(vec3(&p));
    if (const Value* colours = list(*m, "colors"))
      for (const auto& col : colours->items) it.colours.push_back(colourOf(&col));
    it.text = it.kind == Item::Kind::Mesh ? text(field(*m, "mesh_resource")) : text(field(*m, "text"));
    if (const Value* life = field(*m, "lifetime")) {
      std::int64_t ns = sensors::timeNs(*life).value_or(0);
      if (ns > 0) it.expiresNs = logTimeNs + ns;
    }
    it.frameLocked = number(field(*m, "frame_locked")) != 0;
    out.push_back(std::move(c));
  }
  return out;
}

void MarkerState::apply(const std::vector<MarkerCommand>& commands) {
  for (const auto& c : commands) {
    switch (c.action) {
      case MarkerCommand::Action::Add: items_[{c.item.ns, c.item.id}] = c.item; break;
      case MarkerCommand::Action::Delete: items_.erase({c.item.ns, c.item.id}); break;
      case MarkerCommand::Action::DeleteNamespace:
      case MarkerCommand::Action::DeleteAll: {
        const bool all = c.action == MarkerCommand::Action::DeleteAll;
        auto it = all ? items_.begin() : items_.lower_bound({c.item.ns, std::numeric_limits<std::int32_t>::min()});
        while (it != items_.end() && (all || it->first.first == c.item.ns))
          it = it->second.stampNs < c.beforeNs ? items_.erase(it) : std::next(it);
        break;
      }
    }
  }
}

std::vector<const Item*> MarkerState::alive(std::int64_t nowNs) const {
  std::vector<const Item*> out;
  for (const auto& [key, item] : items_)
    if (nowNs < item.expiresNs) out.push_back(&item);
  return out;
}

std::set<std::string> MarkerState::namespaces() const {
  std::set<std::string> out;
  for (const auto& [key, item] : items_) out.insert(key.first);
  return out;
}

Result<std::vector<Item>> readItems(const Value& m, LayerKind kind, const ItemStyle& style) {
  std::vector<Item> out;
  Item base;
  if (auto h = sensors::headerOf(m)) base.frameId = h->frameId, base.stampNs = h->stampNs;
  base.colour = style.colour;
  auto poseArrow = [&](const Transform& pose) {
    Item a = base;
    a.kind = Item::Kind::Arrow;
    a.pose = pose;
    a.scale = {style.scale, style.scale * 0.1, style.scale * 0.1};
    return a;
  };
  switch (kind) {
    case LayerKind::Path: {
      const Value* poses = list(m, "poses");
      if (!poses) return makeError(ErrorCode::Format, "not a nav_msgs/Path (no poses)");
      Item line = base;
      line.kind = Item::Kind::LineStrip;
      for (const auto& p : poses->items) line.points.push_back(poseOf(field(p, "pose")).translation);
      out.push_back(std::move(line));
      return out;
    }
    case LayerKind::Pose:
    case LayerKind::Odometry: {  // an arrow, and the covariance's ellipse when there is one
      const Value* pose = field(m, "pose");
      const Value* covariance = pose ? field(*pose, "covariance") : nullptr;
      if (covariance || kind == LayerKind::Odometry) pose = pose ? field(*pose, "pose") : nullptr;
      if (!pose) return makeError(ErrorCode::Format, "not a pose or odometry message (no pose)");
      out.push_back(poseArrow(poseOf(pose)));
      if (auto e = covarianceEllipse(covariance, out.back().pose, base)) out.push_back(std::move(*e));
      return out;
    }
    case LayerKind::PoseArray: {
      const Value* poses = list(m, "poses");
      if (!poses) return makeError(ErrorCode::Format, "not a geometry_msgs/PoseArray (no poses)");
      for (const auto& p : poses->items) out.push_back(poseArrow(poseOf(&p)));
      return out;
    }
    case LayerKind::Polygon: {
      const Value* polygon = field(m, "polygon");
      const Value* points = polygon ? list(*polygon, "points") : nullptr;
      if (!points) return makeError(ErrorCode::Format, "not a geometry_msgs/PolygonStamped (no points)");
      Item line = base;
      line.kind = Item::Kind::LineStrip;
      for (const auto& p : points->items) line.points.push_back(vec3(&p));
      if (!line.points.empty()) line.points.push_back(line.points.front());  // closed
      out.push_back(std::move(line));
      return out;
    }
    case LayerKind::CameraFrustum: {
      auto info = sensors::readCameraInfo(m);
      BAGSCOPE_TRY(info);
      const auto& K = info->k;
      if (K[0] == 0 || K[4] == 0) return makeError(ErrorCode::Format, "a CameraInfo without focal lengths");
      Item lines = base;
      lines.kind = Item::Kind::LineList;
      const double d = style.scale;
      Vec3 corners[4];
      const double us[2] = {0, static_cast<double>(info->width)}, vs[2] = {0, static_cast<double>(info->height)};
      for (int i = 0; i < 4; ++i) {
        double u = us[i == 1 || i == 2], v = vs[i >= 2];
        corners[i] = {(u - K[2]) / K[0] * d, (v - K[5]) / K[4] * d, d};
      }
      for (int i = 0; i < 4; ++i) {
        lines.points.push_back({0, 0, 0});
        lines.points.push_back(corners[i]);
        lines.points.push_back(corners[i]);
        lines.points.push_back(corners[(i + 1) % 4]);
      }
      out.push_back(std::move(lines));
      return out;
    }
    case LayerKind::OccupancyGrid: {
      const Value* info = field(m, "info");
      const Value* data = list(m, "data");
      if (!info || !data) return makeError(ErrorCode::Format, "not a nav_msgs/OccupancyGrid (no info or data)");
      const double res = number(field(*info, "resolution"));
      const auto w = static_cast<std::size_t>(number(field(*info, "width"))),
                 h = static_cast<std::size_t>(number(field(*info, "height")));
      if (w * h != data->items.size() || res <= 0)
        return makeError(ErrorCode::Format, "an OccupancyGrid whose data does not fit its width and height");
      // Cells in blocks of `step`, so that a large map stays at most 512 × 512 quads.
      const std::size_t step = std::max<std::size_t>(1, (std::max(w, h) + 511) / 512);
      Item grid = base;
      grid.kind = Item::Kind::Triangles;
      grid.pose = poseOf(field(*info, "origin"));
      for (std::size_t y = 0; y < h; y += step)
        for (std::size_t x = 0; x < w; x += step) {
          const double v = number(&data->items[y * w + x]);
          const Colour c = style.costmap ? costmapColour(v) : mapColour(v);
          double x0 = static_cast<double>(x) * res, y0 = static_cast<double>(y) * res;
          double x1 = static_cast<double>(std::min(x + step, w)) * res,
                 y1 = static_cast<double>(std::min(y + step, h)) * res;
          for (const Vec3& p :
               {Vec3{x0, y0, 0}, Vec3{x1, y0, 0}, Vec3{x1, y1, 0}, Vec3{x0, y0, 0}, Vec3{x1, y1, 0}, Vec3{x0, y1, 0}}) {
            grid.points.push_back(p);
            grid.colours.push_back(c);
          }
        }
      out.push_back(std::move(grid));
      return out;
    }
    default: return makeError(ErrorCode::Unsupported, "not a type the scene draws");
  }
}

void Geometry::clear() {
  for (auto* v : {&triangles, &triangleColours, &lines, &lineColours, &points, &pointColours}) v->clear();
  labels.clear();
}

void tessellate(const Item& item, const Transform& toFixed, Geometry& out) {
  Emitter e{out, toFixed};
  const Transform& local = item.pose;
  auto colourAt = [&](std::size_t i) { return i < item.colours.size() ? item.colours[i] : item.colour; };
  auto inFrame = [&](const Vec3& p) { return local.apply(p); };
  switch (item.kind) {
    case Item::Kind::Cube: box(e, local, item.scale, item.colour); break;
    case Item::Kind::Sphere: sphere(e, local, item.scale, item.colour); break;
    case Item::Kind::Cylinder: {
      Vec3 axis = local.apply({0, 0, 1}), centre = local.apply({0, 0, 0});
      axis = {axis[0] - centre[0], axis[1] - centre[1], axis[2] - centre[2]};
      frustumAlong(e, add(centre, mul(axis, -item.scale[2] / 2)), axis, item.scale[2],
                   item.taper[0] * item.scale[0] / 2, item.taper[1] * item.scale[0] / 2, item.colour);
      break;
    }
    case Item::Kind::Arrow:
      if (item.points.size() >= 2) {  // from points[0] to points[1]: shaft and head diameters, head length
        double len = std::sqrt(std::pow(item.points[1][0] - item.points[0][0], 2) +
                               std::pow(item.points[1][1] - item.points[0][1], 2) +
                               std::pow(item.points[1][2] - item.points[0][2], 2));
        arrow(e, inFrame(item.points[0]), inFrame(item.points[1]), item.scale[0], item.scale[1],
              item.scale[2] > 0 ? item.scale[2] : 0.23 * len, item.colour);
      } else {  // along the pose's x: length, width, height
        arrow(e, inFrame({0, 0, 0}), inFrame({item.scale[0], 0, 0}), item.scale[1],
              2 * std::max(item.scale[1], item.scale[2]), 0.23 * item.scale[0], item.colour);
      }
      break;
    case Item::Kind::LineStrip:
      for (std::size_t i = 1; i < item.points.size(); ++i)
        e.line(inFrame(item.points[i - 1]), inFrame(item.points[i]), colourAt(i - 1), colourAt(i));
      break;
    case Item::Kind::LineList:
      for (std::size_t i = 1; i < item.points.size(); i += 2)
        e.line(inFrame(item.points[i - 1]), inFrame(item.points[i]), colourAt(i - 1), colourAt(i));
      break;
    case Item::Kind::CubeList:
    case Item::Kind::SphereList:
      for (std::size_t i = 0; i < item.points.size(); ++i) {
        Transform at = local;
        at.translation = inFrame(item.points[i]);
        if (item.kind == Item::Kind::CubeList) box(e, at, item.scale, colourAt(i));
        else sphere(e, at, item.scale, colourAt(i));
      }
      break;
    case Item::Kind::Points:
      for (std::size_t i = 0; i < item.points.size(); ++i)
        e.vertex(out.points, out.pointColours, inFrame(item.points[i]), colourAt(i));
      break;
    case Item::Kind::Text:
      out.labels.push_back({toFixed.apply(inFrame({0, 0, 0})), item.text, item.colour, item.scale[2]});
      break;
    case Item::Kind::Mesh:  // the resource is not loaded: its box, named
      box(e, local, item.scale, item.colour);
      out.labels.push_back(
          {toFixed.apply(inFrame({0, 0, 0})), "mesh: " + item.text, Colour{}, 0.15});  // white: legible on any box
      break;
    case Item::Kind::Triangles:
      for (std::size_t i = 2; i < item.points.size(); i += 3)
        for (std::size_t k = 0; k < 3; ++k)
          e.vertex(out.triangles, out.triangleColours, inFrame(item.points[i - 2 + k]), colourAt(i - 2 + k));
      break;
  }
}

Result<Transform> placement(const Item& item, const sensors::TfBuffer& tf, const std::string& fixedFrame,
                            std::int64_t nowNs) {
  std::string frame = item.frameId;
  if (!frame.empty() && frame[0] == '/') frame.erase(0, 1);
  if (frame.empty() || frame == fixedFrame || fixedFrame.empty()) return Transform{};
  // A stamp of 0 means "the latest", as tf does; a frame-locked marker moves with its frame.
  std::int64_t at = item.frameLocked || item.stampNs == 0 ? nowNs : item.stampNs;
  return tf.lookup(fixedFrame, frame, at);
}

}  // namespace bagscope::scene
