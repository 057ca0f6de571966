// The 3D scene's things against the fixtures' values: the demo's markers as python3-rosbag
// decoded them, a marker life (add, expire, delete, deleteall) worked out by hand from
// robot_state.bag's generator, geometry measured on the triangles and lines made, and poses,
// paths, grids and frustums placed in the fixed frame by the fixture's transforms, computed
// here from them, and foxglove.SceneUpdate (protobuf and JSON, written by Foxglove's
// @mcap/core with make_scene.mjs) against the values its generator wrote.

#include <QtTest>

#include <cmath>
#include <functional>
#include <numbers>

#include "common/test_support.hpp"
#include "core/scene/scene.hpp"
#include "core/session/session.hpp"

using namespace bagscope;
using scene::Item;

namespace {

std::unique_ptr<session::Session> openOrFail(const char* relative) {
  auto s = session::Session::open({test::dataPath(relative).toStdString()});
  if (!s) qFatal("open: %s", s.error().describe().c_str());
  return std::move(s).value();
}

// Every message of `topic`, decoded, with its log time.
void eachMessage(const session::Session& s, const std::string& topic,
                 const std::function<void(std::int64_t, const decode::Value&)>& each) {
  auto t = s.findTopic(topic);
  if (!t) qFatal("no %s", topic.c_str());
  for (std::size_t n = 0; n < s.index(*t).size(); ++n) {
    auto m = s.read(*t, n);
    auto d = s.decoder(*m->connection);
    auto v = (*d)->decode(m->bytes);
    if (!v) qFatal("decode %s", topic.c_str());
    each(m->logTimeNs, *v);
  }
}

sensors::TfBuffer transformsOf(const session::Session& s) {
  sensors::TfBuffer tf;
  eachMessage(s, "/tf_static", [&](std::int64_t, const decode::Value& v) { tf.add(v, true); });
  eachMessage(s, "/tf", [&](std::int64_t, const decode::Value& v) { tf.add(v, false); });
  return tf;
}

// The bounds of a vertex list (3 floats a vertex).
std::array<double, 6> bounds(const std::vector<float>& xyz) {
  std::array<double, 6> b{1e9, -1e9, 1e9, -1e9, 1e9, -1e9};
  for (std::size_t i = 0; i + 2 < xyz.size(); i += 3)
    for (int k = 0; k < 3; ++k) {
      b[2 * k] = std::min<double>(b[2 * k], xyz[i + k]);
      b[2 * k + 1] = std::max<double>(b[2 * k + 1], xyz[i + k]);
    }
  return b;
}
bool near(double a, double b, double eps = 1e-5) { return std::abs(a - b) <= eps; }

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000;
std::int64_t at(double seconds) { return kT0 + static_cast<std::int64_t>(std::llround(seconds * 1e9)); }

// Every marker or scene-update message of `topic` as commands, by log time.
using MarkerLog = std::vector<std::pair<std::int64_t, std::vector<scene::MarkerCommand>>>;
MarkerLog markerLog(const session::Session& s, const std::string& topic) {
  MarkerLog log;
  eachMessage(s, topic, [&](std::int64_t t, const decode::Value& v) {
    auto commands = scene::readMarkers(v, t);
    if (!commands) qFatal("%s: %s", topic.c_str(), commands.error().message.c_str());
    log.emplace_back(t, *commands);
  });
  return log;
}
// The markers alive at `seconds`, as "ns/id", after the log's commands up to then.
QStringList aliveAt(const MarkerLog& log, double seconds) {
  scene::MarkerState state;
  for (const auto& [t, commands] : log)
    if (t <= at(seconds)) state.apply(commands);
  QStringList out;
  for (const Item* it : state.alive(at(seconds)))
    out << QString("%1/%2").arg(QString::fromStdString(it->ns)).arg(it->id);
  return out;
}

}  // namespace

class TestScene : public QObject {
  Q_OBJECT

private slots:
  void markersReadAsTheReferenceDecodedThem() {
    auto s = openOrFail("ros1/demo_lz4.bag");
    QString err;
    std::vector<QJsonObject> expected;
    for (const auto& l : test::readJsonLines(test::dataPath("ros1/demo.expected.jsonl"), &err))
      if (l["topic"] == "/markers") expected.push_back(l["msg"].toObject());
    std::size_t k = 0;
    const Item::Kind kinds[] = {Item::Kind::Arrow,    Item::Kind::Cube,       Item::Kind::Sphere,
                                Item::Kind::Cylinder, Item::Kind::LineStrip,  Item::Kind::LineList,
                                Item::Kind::CubeList, Item::Kind::SphereList, Item::Kind::Points,
                                Item::Kind::Text,     Item::Kind::Mesh,       Item::Kind::Triangles};
    eachMessage(*s, "/markers", [&](std::int64_t logTime, const decode::Value& v) {
      auto commands = scene::readMarkers(v, logTime);
      QVERIFY(commands.has_value());
      QJsonArray markers = expected[k++]["markers"].toArray();
      QCOMPARE(static_cast<qsizetype>(commands->size()), markers.size());
      for (qsizetype i = 0; i < markers.size(); ++i) {
        QJsonObject m = markers[i].toObject();
        const Item& it = (*commands)[static_cast<std::size_t>(i)].item;
        QCOMPARE(it.kind, kinds[m["type"].toInt()]);
        QCOMPARE(QString::fromStdString(it.ns), m["ns"].toString());
        QCOMPARE(it.id, m["id"].toInt());
        QCOMPARE(QString::fromStdString(it.frameId), m["header"].toObject()["frame_id"].toString());
        QJsonObject p = m["pose"].toObject()["position"].toObject(), sc = m["scale"].toObject(),
                    c = m["color"].toObject();
        QCOMPARE(it.pose.translation[0], p["x"].toDouble());
        QCOMPARE(it.pose.translation[2], p["z"].toDouble());
        QCOMPARE(it.scale[1], sc["y"].toDouble());
        QCOMPARE(it.colour.a, static_cast<float>(c["a"].toDouble()));
        QCOMPARE(it.colour.g, static_cast<float>(c["g"].toDouble()));
        QCOMPARE(it.points.size(), static_cast<std::size_t>(m["points"].toArray().size()));
        QJsonObject life = m["lifetime"].toObject();
        std::int64_t lifetime =
            static_cast<std::int64_t>(life["sec"].toInteger()) * 1'000'000'000 + life["nsec"].toInteger();
        QCOMPARE(it.expiresNs, lifetime > 0 ? logTime + lifetime : std::numeric_limits<std::int64_t>::max());
      }
    });
    QCOMPARE(k, expected.size());
  }

  void markersAreAddedExpireAreDeletedAndAllDeleted() {
    // robot_state.bag's /markers (gen_robot_state.py): at 0.1 s a/1 cube, a/2 sphere (0.5 s
    // lifetime), b/1 text; 0.5 s delete a/1; 1.0 s a/3 mesh, b/2 strip; 1.5 s deleteall;
    // 1.6 s c/7 arrow.
    auto s = openOrFail("ros1/robot_state.bag");
    const MarkerLog log = markerLog(*s, "/markers");
    QCOMPARE(aliveAt(log, 0.05), QStringList{});
    QCOMPARE(aliveAt(log, 0.2), (QStringList{"a/1", "a/2", "b/1"}));
    QCOMPARE(aliveAt(log, 0.55), (QStringList{"a/2", "b/1"}));  // a/1 deleted at 0.5 s; a/2 lives to 0.1 + 0.5 s
    QCOMPARE(aliveAt(log, 0.65), (QStringList{"b/1"}));
    QCOMPARE(aliveAt(log, 1.2), (QStringList{"a/3", "b/1", "b/2"}));
    QCOMPARE(aliveAt(log, 1.55), QStringList{});
    QCOMPARE(aliveAt(log, 1.7), QStringList{"c/7"});
  }

  void shapesHaveTheirSizeColourAndPlace() {
    // A 1 × 0.5 × 0.25 cube at (2, 0, 0.5): twelve triangles within its box, its colour each.
    Item cube;
    cube.kind = Item::Kind::Cube;
    cube.pose.translation = {2, 0, 0.5};
    cube.scale = {1, 0.5, 0.25};
    cube.colour = {1, 0, 0, 0.8f};
    scene::Geometry g;
    scene::tessellate(cube, {}, g);
    QCOMPARE(g.triangleCount(), std::size_t{12});
    auto b = bounds(g.triangles);
    QVERIFY(near(b[0], 1.5) && near(b[1], 2.5) && near(b[2], -0.25) && near(b[3], 0.25) && near(b[4], 0.375) &&
            near(b[5], 0.625));
    for (std::size_t i = 0; i < g.triangleColours.size(); i += 4)
      QVERIFY(g.triangleColours[i] == 1 && g.triangleColours[i + 1] == 0 && near(g.triangleColours[i + 3], 0.8));
    // A sphere of 0.3 at (0, 2, 0.5), turned 90° about z: still within 0.15 of its centre.
    Item ball = cube;
    ball.kind = Item::Kind::Sphere;
    ball.pose.translation = {0, 2, 0.5};
    ball.pose.rotation = {0, 0, std::sin(std::numbers::pi / 4), std::cos(std::numbers::pi / 4)};
    ball.scale = {0.3, 0.3, 0.3};
    g.clear();
    scene::tessellate(ball, {}, g);
    b = bounds(g.triangles);
    QVERIFY(near(b[0], -0.15, 1e-3) && near(b[1], 0.15, 1e-3) && near(b[2], 1.85, 1e-3) && near(b[5], 0.65, 1e-3));
    // An arrow from (0, 0, 0) to (0, 0, 2): head 0.3 long, 0.2 wide; shaft 0.1 wide.
    Item arrow = cube;
    arrow.kind = Item::Kind::Arrow;
    arrow.pose = {};
    arrow.points = {{0, 0, 0}, {0, 0, 2}};
    arrow.scale = {0.1, 0.2, 0.3};
    g.clear();
    scene::tessellate(arrow, {}, g);
    b = bounds(g.triangles);
    QVERIFY2(near(b[4], 0) && near(b[5], 2) && near(b[1], 0.1, 1e-6) && near(b[0], -0.1, 1e-6),
             qPrintable(QString("%1 %2 %3 %4 %5 %6").arg(b[0]).arg(b[1]).arg(b[2]).arg(b[3]).arg(b[4]).arg(b[5])));
    // A line strip of three points: two segments; a mesh: its box and a label naming it.
    Item strip = cube;
    strip.kind = Item::Kind::LineStrip;
    strip.pose = {};
    strip.points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
    g.clear();
    scene::tessellate(strip, {}, g);
    QCOMPARE(g.lines.size(), std::size_t{12});
    QCOMPARE(g.lines[9], 1.0f);  // second segment ends at (1, 1, 0)
    QCOMPARE(g.lines[10], 1.0f);
    Item mesh = cube;
    mesh.kind = Item::Kind::Mesh;
    mesh.text = "package://robot/meshes/base.dae";
    g.clear();
    scene::tessellate(mesh, {}, g);
    QCOMPARE(g.triangleCount(), std::size_t{12});
    QCOMPARE(g.labels.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(g.labels[0].text), QString("mesh: package://robot/meshes/base.dae"));
  }

  void sceneUpdatesReplaceExpireAndDeleteEntities() {
    // mcap_foreign/scene.mcap (make_scene.mjs): at 0 s entities car (cube, text), lane, blink
    // (0.15 s lifetime), tri, arrow, cone, model; 0.1 s car again, a cube alone; 0.2 s delete
    // lane, and car with a stamp before car's update (nothing); 0.3 s delete all, then after.
    auto s = openOrFail("mcap_foreign/scene.mcap");
    QCOMPARE(scene::layerKindOf(s->topics()[*s->findTopic("/scene")].type), scene::LayerKind::Markers);
    QCOMPARE(scene::layerKindOf("foxglove_msgs/msg/SceneUpdate"), scene::LayerKind::Markers);
    const MarkerLog log = markerLog(*s, "/scene");
    QCOMPARE(log.size(), std::size_t{4});
    QCOMPARE(aliveAt(log, 0.05),
             (QStringList{"arrow/0", "blink/0", "car/0", "car/1", "cone/0", "lane/0", "model/0", "tri/0"}));
    QCOMPARE(aliveAt(log, 0.12), (QStringList{"arrow/0", "blink/0", "car/0", "cone/0", "lane/0", "model/0", "tri/0"}));
    QCOMPARE(aliveAt(log, 0.16), (QStringList{"arrow/0", "car/0", "cone/0", "lane/0", "model/0", "tri/0"}));
    QCOMPARE(aliveAt(log, 0.25), (QStringList{"arrow/0", "car/0", "cone/0", "model/0", "tri/0"}));
    QCOMPARE(aliveAt(log, 0.3), QStringList{"after/0"});

    // The primitives' geometry, from the values make_scene.mjs wrote.
    auto first = [&](const std::string& ns) {
      for (const auto& c : log[0].second)
        if (c.action == scene::MarkerCommand::Action::Add && c.item.ns == ns) return c.item;
      qFatal("no %s", ns.c_str());
    };
    scene::Geometry g;
    // The lane, a loop through (0,0) (4,0) (4,3): three segments, the last back to the start.
    Item lane = first("lane");
    QCOMPARE(lane.kind, Item::Kind::LineStrip);
    scene::tessellate(lane, {}, g);
    QCOMPARE(g.lines.size(), std::size_t{3 * 2 * 3});
    QVERIFY(near(g.lines[12], 4) && near(g.lines[13], 3) && near(g.lines[15], 0) && near(g.lines[16], 0));
    QCOMPARE(g.lineColours[1], 1.0f);  // green
    // The triangles through indices 0 1 2, 1 3 2 at (5, 0, 0): the fifth vertex is point 3,
    // (1, 1) yellow.
    g.clear();
    scene::tessellate(first("tri"), {}, g);
    QCOMPARE(g.triangleCount(), std::size_t{2});
    QVERIFY(near(g.triangles[12], 6) && near(g.triangles[13], 1));
    QVERIFY(g.triangleColours[16] == 1 && g.triangleColours[17] == 1 && g.triangleColours[18] == 0);
    // The arrow, turned 90° about z: 1 + 0.3 m along y, 0.2 m wide at its head.
    g.clear();
    scene::tessellate(first("arrow"), {}, g);
    auto b = bounds(g.triangles);
    QVERIFY2(near(b[2], 0) && near(b[3], 1.3) && near(b[0], -0.1, 1e-6) && near(b[1], 0.1, 1e-6),
             qPrintable(QString("%1 %2 %3 %4").arg(b[0]).arg(b[1]).arg(b[2]).arg(b[3])));
    // The cone: 1 m wide at z = 0, a point at z = 2, around (-2, 0).
    g.clear();
    scene::tessellate(first("cone"), {}, g);
    b = bounds(g.triangles);
    QVERIFY(near(b[0], -2.5) && near(b[1], -1.5) && near(b[4], 0) && near(b[5], 2));
    for (std::size_t i = 0; i + 2 < g.triangles.size(); i += 3)
      if (g.triangles[i + 2] > 1.99f) QVERIFY(near(g.triangles[i], -2) && near(g.triangles[i + 1], 0));
    // The text: its height the font size; the model: a box named by its URL.
    Item label = log[0].second[2].item;  // after car's replacement command and its cube
    QCOMPARE(label.kind, Item::Kind::Text);
    QCOMPARE(QString::fromStdString(label.text), QString("car"));
    QCOMPARE(label.scale[2], 0.5);
    g.clear();
    scene::tessellate(first("model"), {}, g);
    QCOMPARE(QString::fromStdString(g.labels.at(0).text), QString("mesh: package://robot/mesh.dae"));
    // The car at 0.2 s: (2, 2, 0.5) in base_link, which /tf puts 10 m along map's x, turned
    // 90° about z: (10 - 2, 2, 0.5) in map.
    sensors::TfBuffer tf;
    eachMessage(*s, "/tf", [&](std::int64_t, const decode::Value& v) { tf.add(v, false); });
    const Item* car = nullptr;
    scene::MarkerState before;  // the updates up to 0.2 s
    for (std::size_t i = 0; i < 3; ++i) before.apply(log[i].second);
    for (const Item* it : before.alive(at(0.25)))
      if (it->ns == "car") car = it;
    QVERIFY(car != nullptr);
    auto place = scene::placement(*car, tf, "map", at(0.25));
    QVERIFY(place.has_value());
    auto centre = place->apply(car->pose.translation);
    QVERIFY(near(centre[0], 8) && near(centre[1], 2) && near(centre[2], 0.5));
  }

  void sceneUpdatesInJson() {
    // /scene_json: at 0 s a box, 1 × 2 × 3 at (3, 4, 0), colour (0.5, 0.25, 1, 0.5); deleted at 0.2 s.
    auto s = openOrFail("mcap_foreign/scene.mcap");
    scene::MarkerState state;
    std::vector<std::size_t> alive;
    eachMessage(*s, "/scene_json", [&](std::int64_t t, const decode::Value& v) {
      auto commands = scene::readMarkers(v, t);
      QVERIFY2(commands.has_value(), commands ? "" : commands.error().message.c_str());
      state.apply(*commands);
      auto now = state.alive(t);
      alive.push_back(now.size());
      if (now.empty()) return;
      QCOMPARE(now[0]->kind, Item::Kind::Cube);
      QCOMPARE(now[0]->scale, (scene::Vec3{1, 2, 3}));
      QCOMPARE(now[0]->pose.translation, (scene::Vec3{3, 4, 0}));
      QCOMPARE(now[0]->colour, (scene::Colour{0.5f, 0.25f, 1, 0.5f}));
      QCOMPARE(now[0]->stampNs, kT0);
    });
    QCOMPARE(alive, (std::vector<std::size_t>{1, 0}));
  }

  void sceneUpdatesFromRos2() {
    // ros2/cases/foxglove_scene (make_cases.py, rosbags): foxglove_msgs/msg/SceneUpdate in CDR.
    // At 0 s box (cube at (1, 2, 3), red; a green line loop; 0.5 s lifetime), at 0.2 s ring
    // (a sphere), at 0.4 s the deletion of ring.
    auto s = openOrFail("ros2/cases/foxglove_scene");
    QCOMPARE(scene::layerKindOf(s->topics()[*s->findTopic("/scene")].type), scene::LayerKind::Markers);
    const MarkerLog log = markerLog(*s, "/scene");
    QCOMPARE(aliveAt(log, 0.1), (QStringList{"box/0", "box/1"}));
    QCOMPARE(aliveAt(log, 0.3), (QStringList{"box/0", "box/1", "ring/0"}));
    QCOMPARE(aliveAt(log, 0.45), (QStringList{"box/0", "box/1"}));
    QCOMPARE(aliveAt(log, 0.55), QStringList{});
    const Item& cube = log[0].second[1].item;
    QCOMPARE(cube.kind, Item::Kind::Cube);
    QCOMPARE(cube.pose.translation, (scene::Vec3{1, 2, 3}));
    QCOMPARE(cube.colour, (scene::Colour{1, 0, 0, 1}));
    QCOMPARE(cube.stampNs, kT0);
    QCOMPARE(cube.expiresNs, kT0 + 500'000'000);
    const Item& loop = log[0].second[2].item;
    QCOMPARE(loop.kind, Item::Kind::LineStrip);
    QCOMPARE(loop.points.size(), std::size_t{4});  // closed on its first point
    QCOMPARE(loop.points.back(), (scene::Vec3{0, 0, 0}));
  }

  void aBadIndexIsAnErrorNotARead() {
    // SceneUpdate{entities: [{id: "bad", lines: [{points: [{x: 1}], indices: [5]}]}]}, the
    // protobuf bytes written out by hand: an error naming the entity, no read past the points.
    auto s = openOrFail("mcap_foreign/scene.mcap");
    auto m = s->read(*s->findTopic("/scene"), 0);
    auto decoder = s->decoder(*m->connection);
    QVERIFY(decoder.has_value());
    const std::vector<unsigned char> bytes = {0x12, 24,                                          // entities, 24 bytes
                                              0x1A, 3,  'b',  'a', 'd',                          // id "bad"
                                              0x5A, 17,                                          // lines, 17 bytes
                                              0x2A, 9,  0x09, 0,   0,   0, 0, 0, 0, 0xF0, 0x3F,  // points: {x: 1.0}
                                              0x42, 4,  5,    0,   0,   0};                      // indices: [5]
    auto v = (*decoder)->decode({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});
    QVERIFY2(v.has_value(), v ? "" : v.error().message.c_str());
    auto commands = scene::readMarkers(*v, kT0);
    QVERIFY(!commands.has_value());
    QCOMPARE(QString::fromStdString(commands.error().message), QString("entity bad: index 5 is past its 1 points"));
  }

  void odometryHasItsArrowAndCovarianceEllipse() {
    // The demo's /odom: at (5, 0, 0) with x and y variances 0.01: a circle of radius 0.1.
    auto s = openOrFail("ros1/demo_lz4.bag");
    std::vector<Item> items;
    eachMessage(*s, "/odom", [&](std::int64_t, const decode::Value& v) {
      if (items.empty()) items = *scene::readItems(v, scene::LayerKind::Odometry, {});
    });
    QCOMPARE(items.size(), std::size_t{2});
    QCOMPARE(items[0].kind, Item::Kind::Arrow);
    QCOMPARE(items[0].pose.translation[0], 5.0);
    QCOMPARE(items[1].kind, Item::Kind::LineStrip);
    scene::Geometry g;
    scene::tessellate(items[1], {}, g);
    auto b = bounds(g.lines);
    QVERIFY(near(b[0], 4.9) && near(b[1], 5.1) && near(b[2], -0.1) && near(b[3], 0.1));
  }

  void aCovarianceEllipseFollowsItsEigenvectors() {
    // /initialpose: x-y covariance [[4, 1], [1, 1]] at (1, -1). By hand: eigenvalues
    // 2.5 ± √(1.5² + 1) = 4.3028, 0.6972; the long axis at ½ atan2(2, 3) = 0.2940 rad.
    auto s = openOrFail("ros1/robot_state.bag");
    std::vector<Item> items;
    eachMessage(*s, "/initialpose", [&](std::int64_t, const decode::Value& v) {
      items = *scene::readItems(v, scene::LayerKind::Pose, {});
    });
    QCOMPARE(items.size(), std::size_t{2});
    double longest = 0, shortest = 1e9, angle = 0;
    for (const auto& p : items[1].points) {
      double dx = p[0] - 1, dy = p[1] + 1, r = std::hypot(dx, dy);
      if (r > longest) longest = r, angle = std::atan2(dy, dx);
      shortest = std::min(shortest, r);
    }
    const double l1 = 2.5 + std::sqrt(2.25 + 1), l2 = 2.5 - std::sqrt(2.25 + 1);
    QVERIFY(near(longest, std::sqrt(l1), 1e-9));
    QVERIFY2(near(shortest, std::sqrt(l2), 0.01), qPrintable(QString::number(shortest)));  // 32 segments
    QVERIFY(near(std::remainder(angle - 0.5 * std::atan2(2.0, 3.0), std::numbers::pi), 0, 1e-9));
  }

  void posesPathsGridsAndFrustumsInTheFixedFrame() {
    auto s = openOrFail("ros1/robot_state.bag");
    auto tf = transformsOf(*s);
    // map -> odom: (1, 2, 0), yaw 90°: a point (x, y, z) of odom is (1 - y, 2 + x, z) in map.
    auto inMap = [](double x, double y, double z) { return std::array<double, 3>{1 - y, 2 + x, z}; };
    std::vector<Item> goal, plan, grid, footprint, frustum;
    scene::ItemStyle style;
    style.scale = 1.0;
    eachMessage(*s, "/goal", [&](std::int64_t, const decode::Value& v) {
      goal = *scene::readItems(v, scene::LayerKind::Pose, style);
    });
    eachMessage(*s, "/plan", [&](std::int64_t, const decode::Value& v) {
      plan = *scene::readItems(v, scene::LayerKind::Path, style);
    });
    eachMessage(*s, "/map", [&](std::int64_t, const decode::Value& v) {
      grid = *scene::readItems(v, scene::LayerKind::OccupancyGrid, style);
    });
    eachMessage(*s, "/footprint", [&](std::int64_t, const decode::Value& v) {
      footprint = *scene::readItems(v, scene::LayerKind::Polygon, style);
    });
    eachMessage(*s, "/camera_info", [&](std::int64_t, const decode::Value& v) {
      frustum = *scene::readItems(v, scene::LayerKind::CameraFrustum, style);
    });
    QCOMPARE(scene::layerKindOf("nav_msgs/msg/Path"), scene::LayerKind::Path);
    QCOMPARE(scene::layerKindOf("geometry_msgs/PoseWithCovarianceStamped"), scene::LayerKind::Pose);
    // The goal (3, 1, 0) in odom, yaw 45°: its arrow starts at (0, 5, 0) in map and points
    // along yaw 135°, 1 m long.
    QCOMPARE(goal.size(), std::size_t{1});
    auto place = scene::placement(goal[0], tf, "map", at(0.3));
    QVERIFY2(place.has_value(), place ? "" : place.error().message.c_str());
    scene::Geometry g;
    scene::tessellate(goal[0], *place, g);
    auto b = bounds(g.triangles);
    auto start = inMap(3, 1, 0);
    double tipX = start[0] + std::cos(3 * std::numbers::pi / 4), tipY = start[1] + std::sin(3 * std::numbers::pi / 4);
    QVERIFY2(near(b[0], std::min(start[0], tipX), 0.06) && near(b[1], std::max(start[0], tipX), 0.06) &&
                 near(b[2], std::min(start[1], tipY), 0.06) && near(b[3], std::max(start[1], tipY), 0.06),
             qPrintable(QString("%1 %2 %3 %4").arg(b[0]).arg(b[1]).arg(b[2]).arg(b[3])));
    // The plan: a strip through its six poses (0.5 i, 0.1 i², 0), in map.
    g.clear();
    scene::tessellate(plan[0], *scene::placement(plan[0], tf, "map", at(0.05)), g);
    QCOMPARE(g.lines.size(), std::size_t{5 * 2 * 3});
    for (int i = 0; i < 6; ++i) {
      auto want = inMap(0.5 * i, 0.1 * i * i, 0);
      std::size_t v = i == 0 ? 0 : static_cast<std::size_t>(2 * i - 1) * 3;  // each segment's end
      QVERIFY(near(g.lines[v], want[0]) && near(g.lines[v + 1], want[1]));
    }
    // The map: 20 × 10 cells of 0.5 m from (-5, -2.5) in map; the row y = 5 occupied (black).
    g.clear();
    scene::tessellate(grid[0], *scene::placement(grid[0], tf, "map", at(0.05)), g);
    QCOMPARE(g.triangleCount(), std::size_t{400});
    b = bounds(g.triangles);
    QVERIFY(near(b[0], -5) && near(b[1], 5) && near(b[2], -2.5) && near(b[3], 2.5));
    std::size_t cell = (5 * 20 + 10) * 6;  // row 5, column 10: its first vertex
    QCOMPARE(g.triangleColours[cell * 4], 0.0f);
    QVERIFY(near(g.triangles[cell * 3 + 1], -2.5 + 5 * 0.5));
    // The same map in costmap colours (gen_robot_state.py: x < 2 unknown, row 5 lethal, else
    // (5x) % 101): cell (10, 3) costs 50, half way from blue to red; (10, 5) is lethal
    // magenta; (0, 0) unknown grey-green; no cost is clear.
    style.costmap = true;
    std::vector<Item> costmap;
    eachMessage(*s, "/map", [&](std::int64_t, const decode::Value& v) {
      costmap = *scene::readItems(v, scene::LayerKind::OccupancyGrid, style);
    });
    auto cellColour = [&](int x, int y) { return costmap[0].colours[static_cast<std::size_t>((y * 20 + x) * 6)]; };
    QCOMPARE(cellColour(10, 3), (scene::Colour{0.5f, 0, 0.5f, 0.85f}));
    QCOMPARE(cellColour(10, 5), (scene::Colour{1, 0, 1, 0.85f}));
    QCOMPARE(cellColour(0, 0), (scene::Colour{0x70 / 255.f, 0x89 / 255.f, 0x86 / 255.f, 0.85f}));
    style.costmap = false;
    // The footprint in base_link, at 0.05 s: closed, four sides.
    g.clear();
    scene::tessellate(footprint[0], {}, g);
    QCOMPARE(g.lines.size(), std::size_t{4 * 2 * 3});
    // The camera's frustum at 1 m: corners ((0 - 320) / 500, (0 - 240) / 500, 1) …
    g.clear();
    scene::tessellate(frustum[0], {}, g);
    QCOMPARE(g.lines.size(), std::size_t{8 * 2 * 3});
    QVERIFY(near(g.lines[3], -0.64) && near(g.lines[4], -0.48) && near(g.lines[5], 1));
    // A frame the transforms do not have: an error naming it.
    Item lost = goal[0];
    lost.frameId = "nowhere";
    QVERIFY(!scene::placement(lost, tf, "map", at(0.3)).has_value());
  }
};

QTEST_GUILESS_MAIN(TestScene)
#include "tst_scene.moc"
