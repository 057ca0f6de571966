// Writes scene.mcap with @mcap/core (Foxglove's MCAP library): foxglove.SceneUpdate on
// /scene (protobuf, encoded by protobufjs from foxglove_scene.proto; schema: protoc's
// foxglove_scene.fds), the same type as JSON on /scene_json (typed by a JSON Schema written
// here with Foxglove's field names), /tf (foxglove.FrameTransform map -> base_link) and
// /fix (foxglove.LocationFix: 48.137 N 11.575 E, 520 m, moving 1e-5° north and 2e-5° east
// each 0.1 s, covariance diag(0.25, 0.25, 1) of type DIAGONAL_KNOWN).
// What each update holds is listed in README.md; tests/core/tst_scene.cpp checks the scene
// against these values. Usage: node make_scene.mjs, with @mcap/core 2.2.2 and protobufjs 7
// on NODE_PATH.
import fs from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { McapWriter } = require("@mcap/core");
const protobuf = require("protobufjs");

const fd = fs.openSync(new URL("scene.mcap", import.meta.url).pathname, "w");
let pos = 0n;
const writable = {
  async write(buffer) {
    let off = 0;
    while (off < buffer.byteLength) off += fs.writeSync(fd, buffer, off, buffer.byteLength - off);
    pos += BigInt(buffer.byteLength);
  },
  position: () => pos,
};
const T0 = 1700000000;  // seconds
const ms = (k) => BigInt(T0) * 1000000000n + BigInt(k) * 1000000n;
const stamp = (k) => ({ seconds: T0 + Math.floor(k / 1000), nanos: (k % 1000) * 1000000 });
const pose = (x, y, z, q = [0, 0, 0, 1]) => ({ position: { x, y, z }, orientation: { x: q[0], y: q[1], z: q[2], w: q[3] } });
const colour = (r, g, b, a = 1) => ({ r, g, b, a });

// The updates, by log time in ms after T0.
const updates = [
  [0, { entities: [
    { timestamp: stamp(0), frame_id: "base_link", id: "car",
      cubes: [{ pose: pose(1, 2, 0.5), size: { x: 2, y: 1, z: 1 }, color: colour(1, 0, 0) }],
      texts: [{ pose: pose(1, 2, 1.5), billboard: true, font_size: 0.5, color: colour(1, 1, 1), text: "car" }] },
    { timestamp: stamp(0), frame_id: "map", id: "lane",
      lines: [{ type: 1, pose: pose(0, 0, 0), thickness: 0.1,
                points: [{ x: 0, y: 0, z: 0 }, { x: 4, y: 0, z: 0 }, { x: 4, y: 3, z: 0 }], color: colour(0, 1, 0) }] },
    { timestamp: stamp(0), frame_id: "map", id: "blink", lifetime: { seconds: 0, nanos: 150000000 },
      spheres: [{ pose: pose(0, 0, 1), size: { x: 0.5, y: 0.5, z: 0.5 }, color: colour(0, 0, 1) }] },
    { timestamp: stamp(0), frame_id: "map", id: "tri",
      triangles: [{ pose: pose(5, 0, 0),
                    points: [{ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, { x: 1, y: 1, z: 0 }],
                    colors: [colour(1, 0, 0), colour(0, 1, 0), colour(0, 0, 1), colour(1, 1, 0)],
                    indices: [0, 1, 2, 1, 3, 2] }] },
    { timestamp: stamp(0), frame_id: "map", id: "arrow",
      arrows: [{ pose: pose(0, 0, 0, [0, 0, Math.SQRT1_2, Math.SQRT1_2]), shaft_length: 1, shaft_diameter: 0.1,
                 head_length: 0.3, head_diameter: 0.2, color: colour(1, 1, 0) }] },
    { timestamp: stamp(0), frame_id: "map", id: "cone",
      cylinders: [{ pose: pose(-2, 0, 1), size: { x: 1, y: 1, z: 2 }, bottom_scale: 1, top_scale: 0, color: colour(1, 0, 1) }] },
    { timestamp: stamp(0), frame_id: "map", id: "model",
      models: [{ pose: pose(-4, 0, 0), scale: { x: 1, y: 1, z: 1 }, color: colour(1, 1, 1), url: "package://robot/mesh.dae" }] },
  ] }],
  // The car again: a cube elsewhere and no text (an entity replaces all it had).
  [100, { entities: [
    { timestamp: stamp(100), frame_id: "base_link", id: "car",
      cubes: [{ pose: pose(2, 2, 0.5), size: { x: 2, y: 1, z: 1 }, color: colour(1, 0, 0) }] },
  ] }],
  // Delete the lane; a deletion of the car stamped before the car's last update deletes nothing.
  [200, { deletions: [
    { timestamp: stamp(200), type: 0, id: "lane" },
    { timestamp: stamp(50), type: 0, id: "car" },
  ] }],
  // Delete all, then one new entity.
  [300, { deletions: [{ timestamp: stamp(300), type: 1, id: "" }], entities: [
    { timestamp: stamp(300), frame_id: "map", id: "after",
      cubes: [{ pose: pose(0, 0, 0), size: { x: 1, y: 1, z: 1 }, color: colour(0, 1, 1) }] },
  ] }],
];

// JSON Schema (draft 2020-12) for the part of foxglove.SceneUpdate the JSON channel uses.
const num = { type: "number" };
const obj = (properties) => ({ type: "object", properties });
const jsonSchema = {
  type: "object",
  properties: {
    deletions: { type: "array", items: obj({ timestamp: { $ref: "#/$defs/Time" }, type: { type: "integer" }, id: { type: "string" } }) },
    entities: { type: "array", items: obj({
      timestamp: { $ref: "#/$defs/Time" }, frame_id: { type: "string" }, id: { type: "string" },
      lifetime: { $ref: "#/$defs/Time" }, frame_locked: { type: "boolean" },
      cubes: { type: "array", items: obj({ pose: { $ref: "#/$defs/Pose" }, size: { $ref: "#/$defs/Vector3" }, color: { $ref: "#/$defs/Color" } }) },
    }) },
  },
  $defs: {
    Time: obj({ sec: { type: "integer" }, nsec: { type: "integer" } }),
    Vector3: obj({ x: num, y: num, z: num }),
    Quaternion: obj({ x: num, y: num, z: num, w: num }),
    Pose: obj({ position: { $ref: "#/$defs/Vector3" }, orientation: { $ref: "#/$defs/Quaternion" } }),
    Color: obj({ r: num, g: num, b: num, a: num }),
  },
};
const jsonUpdates = [
  [0, { entities: [{ timestamp: { sec: T0, nsec: 0 }, frame_id: "map", id: "box", lifetime: { sec: 0, nsec: 0 }, frame_locked: false,
                     cubes: [{ pose: pose(3, 4, 0), size: { x: 1, y: 2, z: 3 }, color: colour(0.5, 0.25, 1, 0.5) }] }] }],
  [200, { deletions: [{ timestamp: { sec: T0, nsec: 200000000 }, type: 0, id: "box" }] }],
];

const root = new protobuf.Root().loadSync(new URL("foxglove_scene.proto", import.meta.url).pathname, { keepCase: true });
const SceneUpdate = root.lookupType("foxglove.SceneUpdate");
const FrameTransform = root.lookupType("foxglove.FrameTransform");
const LocationFix = root.lookupType("foxglove.LocationFix");
const fds = fs.readFileSync(new URL("foxglove_scene.fds", import.meta.url));

const writer = new McapWriter({ writable, chunkSize: 4096, useChunks: true, useMessageIndex: true,
  useStatistics: true, useSummaryOffsets: true, useChunkIndex: true });
await writer.start({ profile: "", library: "@mcap/core make_scene.mjs" });
const sceneSchema = await writer.registerSchema({ name: "foxglove.SceneUpdate", encoding: "protobuf", data: fds });
const tfSchema = await writer.registerSchema({ name: "foxglove.FrameTransform", encoding: "protobuf", data: fds });
const fixSchema = await writer.registerSchema({ name: "foxglove.LocationFix", encoding: "protobuf", data: fds });
const jsonSchemaId = await writer.registerSchema({ name: "foxglove.SceneUpdate", encoding: "jsonschema",
  data: new TextEncoder().encode(JSON.stringify(jsonSchema)) });
const scene = await writer.registerChannel({ topic: "/scene", messageEncoding: "protobuf", schemaId: sceneSchema, metadata: new Map() });
const sceneJson = await writer.registerChannel({ topic: "/scene_json", messageEncoding: "json", schemaId: jsonSchemaId, metadata: new Map() });
const tf = await writer.registerChannel({ topic: "/tf", messageEncoding: "protobuf", schemaId: tfSchema, metadata: new Map() });
const fix = await writer.registerChannel({ topic: "/fix", messageEncoding: "protobuf", schemaId: fixSchema, metadata: new Map() });

let seq = 0;
const add = (channelId, k, data) => writer.addMessage({ channelId, sequence: seq++, logTime: ms(k), publishTime: ms(k), data });
for (let k = 0; k <= 300; k += 100) {
  // base_link 10 m along map's x, turned 90° about z
  await add(tf, k, FrameTransform.encode(FrameTransform.fromObject({ timestamp: stamp(k), parent_frame_id: "map",
    child_frame_id: "base_link", translation: { x: 10, y: 0, z: 0 },
    rotation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 } })).finish());
  const i = k / 100;
  await add(fix, k, LocationFix.encode(LocationFix.fromObject({ frame_id: "gps", timestamp: stamp(k),
    latitude: 48.137 + i * 1e-5, longitude: 11.575 + i * 2e-5, altitude: 520,
    position_covariance: [0.25, 0, 0, 0, 0.25, 0, 0, 0, 1], position_covariance_type: 2 })).finish());
  for (const [t, u] of updates)
    if (t === k) await add(scene, k, SceneUpdate.encode(SceneUpdate.fromObject(u)).finish());
  for (const [t, u] of jsonUpdates)
    if (t === k) await add(sceneJson, k, new TextEncoder().encode(JSON.stringify(u)));
}
await writer.end();
fs.closeSync(fd);
