// Writes protobuf.mcap and json.mcap with @mcap/core (Foxglove's MCAP library) and their
// expectations. Protobuf messages are encoded by protobufjs from telemetry.proto; the schema
// is the FileDescriptorSet protoc made (telemetry.fds). JSON messages are JSON text typed by
// a JSON Schema. Usage (README.md): node make_foreign.mjs, with @mcap/core 2.2.2 and
// protobufjs 7 on NODE_PATH.
import fs from "node:fs";
import crypto from "node:crypto";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { McapWriter } = require("@mcap/core");
const protobuf = require("protobufjs");

class FileWritable {
  constructor(file) { this.fd = fs.openSync(file, "w"); this.pos = 0n; }
  async write(buffer) {
    let off = 0;
    while (off < buffer.byteLength) off += fs.writeSync(this.fd, buffer, off, buffer.byteLength - off);
    this.pos += BigInt(buffer.byteLength);
  }
  position() { return this.pos; }
  close() { fs.closeSync(this.fd); }
}

const T0 = 1700000000n * 1000000000n;

// Expectation values in the shape bagscope-cli cat prints: bytes up to 64 as a list, longer
// as {len, sha256}; 64-bit integers written exactly (as text spliced into the JSON).
function bytesJson(u8) {
  if (u8.length <= 64) return Array.from(u8);
  return { len: u8.length, sha256: crypto.createHash("sha256").update(u8).digest("hex") };
}
function line(topic, type, t, msg) {
  const text = JSON.stringify({ topic, type, log_time_ns: "@@T@@", msg }, (k, v) =>
    typeof v === "bigint" ? `@@${v}@@` : v);
  return text.replace(/"@@T@@"/, t.toString()).replace(/"@@(-?\d+)@@"/g, "$1");
}

async function open(file) {
  const writable = new FileWritable(file);
  const writer = new McapWriter({ writable, chunkSize: 4096, useChunks: true, useMessageIndex: true,
    useStatistics: true, useSummaryOffsets: true, useChunkIndex: true });
  await writer.start({ profile: "", library: "@mcap/core make_foreign.mjs" });
  return { writer, writable };
}

async function protobufMcap() {
  // keepCase: field names as the .proto writes them (as the descriptor set has them)
  const root = new protobuf.Root().loadSync(new URL("telemetry.proto", import.meta.url).pathname, { keepCase: true });
  const Telemetry = root.lookupType("bagscope_test.Telemetry");
  const Image = root.lookupType("bagscope_test.CompressedImage");
  const fds = fs.readFileSync(new URL("telemetry.fds", import.meta.url));
  const { writer, writable } = await open(new URL("protobuf.mcap", import.meta.url).pathname);
  const telemetrySchema = await writer.registerSchema({ name: "bagscope_test.Telemetry", encoding: "protobuf", data: fds });
  const imageSchema = await writer.registerSchema({ name: "bagscope_test.CompressedImage", encoding: "protobuf", data: fds });
  const tel = await writer.registerChannel({ topic: "/telemetry", messageEncoding: "protobuf", schemaId: telemetrySchema, metadata: new Map() });
  const img = await writer.registerChannel({ topic: "/camera/compressed", messageEncoding: "protobuf", schemaId: imageSchema, metadata: new Map() });
  const lines = [];
  for (let i = 0; i < 4; ++i) {
    const t = T0 + BigInt(i) * 50000000n;
    const fields = {
      timestamp: { seconds: 1700000000 + i, nanos: i * 1000 },
      frame_id: `base_${i}`,
      mode: i % 3,
      position: { x: i * 0.5, y: -1.25, z: 3 },
      path: Array.from({ length: i }, (_, k) => ({ x: k, y: k * 0.5, z: -k })),
      samples: Array.from({ length: i + 1 }, (_, k) => k * 0.25),
      counts: [-1 - i, 2 ** 40 + i, 0],
      zigzag: -12345 + i, zigzag64: -(2 ** 45) - i, f32: 4000000000 + i, sf64: -7 - i,
      big: protobuf.util.Long.fromString(`${18446744073709551000n + BigInt(i)}`, true),
      flag: i % 2 === 0, blob: new Uint8Array(i === 3 ? 100 : 5).map((_, k) => (k * 7 + i) & 255),
      tags: { a: i, bb: -i },
    };
    if (i % 2 === 0) fields.note = `n${i}`; else fields.reading = i * 1.5;
    const data = Telemetry.encode(Telemetry.fromObject(fields)).finish();
    await writer.addMessage({ channelId: tel, sequence: i, logTime: t, publishTime: t, data });
    const back = Telemetry.toObject(Telemetry.decode(data), { longs: String, enums: Number, bytes: Array, defaults: true });
    lines.push(line("/telemetry", "bagscope_test.Telemetry", t, {
      timestamp: { seconds: BigInt(back.timestamp.seconds), nanos: back.timestamp.nanos },
      frame_id: back.frame_id, mode: back.mode, position: back.position, path: back.path, samples: back.samples,
      counts: back.counts.map(BigInt), zigzag: back.zigzag, zigzag64: BigInt(back.zigzag64), f32: back.f32,
      sf64: BigInt(back.sf64), big: BigInt(back.big), flag: back.flag, blob: bytesJson(Uint8Array.from(back.blob)),
      // a map is its entries, in the order they are on the wire
      tags: Object.entries(back.tags).map(([key, value]) => ({ key, value })),
      note: back.note ?? "", reading: back.reading ?? 0, absent: back.absent,
    }));
    const jpeg = new Uint8Array(200).map((_, k) => (k * 31 + i) & 255);
    const imageData = Image.encode(Image.fromObject({ timestamp: { seconds: 1700000000, nanos: i }, frame_id: "cam", data: jpeg, format: "jpeg" })).finish();
    await writer.addMessage({ channelId: img, sequence: i, logTime: t + 1n, publishTime: t + 1n, data: imageData });
    const im = Image.toObject(Image.decode(imageData), { longs: String, bytes: Array, defaults: true });
    lines.push(line("/camera/compressed", "bagscope_test.CompressedImage", t + 1n, {
      timestamp: { seconds: BigInt(im.timestamp.seconds), nanos: im.timestamp.nanos }, frame_id: im.frame_id,
      data: bytesJson(Uint8Array.from(im.data)), format: im.format }));
  }
  await writer.end();
  writable.close();
  fs.writeFileSync(new URL("protobuf.expected.jsonl", import.meta.url), lines.join("\n") + "\n");
}

async function jsonMcap() {
  const schema = {
    title: "bagscope_test.Pose", type: "object",
    properties: {
      timestamp: { type: "object", properties: { sec: { type: "integer" }, nsec: { type: "integer" } } },
      frame_id: { type: "string" },
      position: { $ref: "#/$defs/Vector3" },
      speed: { type: "number" },
      gear: { type: "integer" },
      ok: { type: "boolean" },
      samples: { type: "array", items: { type: "number" } },
      corners: { type: "array", items: { $ref: "#/$defs/Vector3" } },
      raw: { type: "string", contentEncoding: "base64" },
      extra: {},
    },
    $defs: { Vector3: { type: "object", properties: { x: { type: "number" }, y: { type: "number" }, z: { type: "number" } } } },
  };
  const { writer, writable } = await open(new URL("json.mcap", import.meta.url).pathname);
  const sid = await writer.registerSchema({ name: "bagscope_test.Pose", encoding: "jsonschema", data: new TextEncoder().encode(JSON.stringify(schema)) });
  const cid = await writer.registerChannel({ topic: "/pose_json", messageEncoding: "json", schemaId: sid, metadata: new Map() });
  const lines = [];
  for (let i = 0; i < 5; ++i) {
    const t = T0 + BigInt(i) * 10000000n;
    const raw = Buffer.from([i, 1, 2, 255]);
    const msg = { timestamp: { sec: 1700000000, nsec: i * 10 }, frame_id: "odom", position: { x: i, y: i * 0.1, z: -0.5 },
      speed: 1.5 * i, gear: i - 2, ok: i !== 3, samples: [0.5, i], corners: [{ x: 1, y: 2, z: 3 }],
      raw: raw.toString("base64"), extra: { any: [i] } };
    if (i === 4) delete msg.speed;  // absent: NaN, as bagscope-cli writes "nan"
    await writer.addMessage({ channelId: cid, sequence: i, logTime: t, publishTime: t, data: new TextEncoder().encode(JSON.stringify(msg)) });
    lines.push(line("/pose_json", "bagscope_test.Pose", t, {
      timestamp: msg.timestamp, frame_id: msg.frame_id, position: msg.position, speed: i === 4 ? "nan" : msg.speed,
      gear: msg.gear, ok: msg.ok, samples: msg.samples, corners: msg.corners, raw: Array.from(raw),
      extra: JSON.stringify(msg.extra) }));
  }
  await writer.end();
  writable.close();
  fs.writeFileSync(new URL("json.expected.jsonl", import.meta.url), lines.join("\n") + "\n");
}

// Foxglove's schemas (foxglove_subset.proto): a JPEG (frame.jpg, made by OpenCV), a raw rgb8
// image, a point cloud of float32 x, y, z and a uint8 intensity, and transforms on /tf.
async function foxgloveMcap() {
  const root = new protobuf.Root().loadSync(new URL("foxglove_subset.proto", import.meta.url).pathname, { keepCase: true });
  const fds = fs.readFileSync(new URL("foxglove_subset.fds", import.meta.url));
  const { writer, writable } = await open(new URL("foxglove.mcap", import.meta.url).pathname);
  const channel = async (topic, name) => {
    const sid = await writer.registerSchema({ name, encoding: "protobuf", data: fds });
    return { id: await writer.registerChannel({ topic, messageEncoding: "protobuf", schemaId: sid, metadata: new Map() }),
             type: root.lookupType(name) };
  };
  const jpeg = await channel("/camera/jpeg", "foxglove.CompressedImage");
  const raw = await channel("/camera/raw", "foxglove.RawImage");
  const cloud = await channel("/lidar", "foxglove.PointCloud");
  const tf = await channel("/tf", "foxglove.FrameTransform");
  const put = async (c, t, obj) => writer.addMessage({ channelId: c.id, sequence: 0, logTime: t, publishTime: t,
                                                        data: c.type.encode(c.type.fromObject(obj)).finish() });
  const jpg = fs.readFileSync(new URL("frame.jpg", import.meta.url));
  const points = [];  // [x, y, z, intensity]
  for (let i = 0; i < 3; ++i) {
    const t = T0 + BigInt(i) * 100000000n;
    const stamp = { seconds: 1700000000, nanos: i * 100000000 };
    await put(tf, t, { timestamp: stamp, parent_frame_id: "map", child_frame_id: "lidar",
                       translation: { x: i, y: 0, z: 1 }, rotation: { x: 0, y: 0, z: 0, w: 1 } });
    await put(jpeg, t + 1n, { timestamp: stamp, frame_id: "cam", data: jpg, format: "jpeg" });
    const pixels = new Uint8Array(4 * 2 * 3).map((_, k) => (k * 10 + i) & 255);
    await put(raw, t + 2n, { timestamp: stamp, frame_id: "cam", width: 4, height: 2, encoding: "rgb8", step: 12, data: pixels });
    const n = 3 + i, stride = 13, buf = Buffer.alloc(n * stride);
    const cloudPoints = [];
    for (let k = 0; k < n; ++k) {
      const p = [k * 0.5, -k, i + 0.25, (k * 40 + i) & 255];
      buf.writeFloatLE(p[0], k * stride); buf.writeFloatLE(p[1], k * stride + 4); buf.writeFloatLE(p[2], k * stride + 8);
      buf.writeUInt8(p[3], k * stride + 12);
      cloudPoints.push(p);
    }
    points.push(cloudPoints);
    await put(cloud, t + 3n, { timestamp: stamp, frame_id: "lidar", point_stride: stride, data: buf,
      pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
      fields: [{ name: "x", offset: 0, type: 7 }, { name: "y", offset: 4, type: 7 }, { name: "z", offset: 8, type: 7 },
               { name: "intensity", offset: 12, type: 1 }] });
  }
  await writer.end();
  writable.close();
  fs.writeFileSync(new URL("foxglove.points.json", import.meta.url), JSON.stringify(points) + "\n");
}

await protobufMcap();
await foxgloveMcap();
await jsonMcap();
console.log("wrote protobuf.mcap, foxglove.mcap, json.mcap");
