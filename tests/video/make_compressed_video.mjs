// Writes an MCAP of foxglove.CompressedVideo messages with Foxglove's @mcap/core, each encoded by
// protobufjs from Foxglove's message definition (the schema: the FileDescriptorSet protoc made),
// or as JSON with Foxglove's JSON Schema shape (timestamp {sec, nsec}, data base64).
// Usage: node make_compressed_video.mjs NODE_MODULES OUT.mcap SCHEMA.proto SCHEMA.fds PACKETS.json [json]
//   PACKETS.json: {"topic", "format", "frame_id", "packets": [{"log_time_ns", "data" (base64)}]}
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [modules, out, proto, fds, packetsFile, encoding = "protobuf"] = process.argv.slice(2);
const json = encoding === "json";
const require = createRequire(path.join(path.resolve(modules), "node_modules", "x.js"));
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

const root = new protobuf.Root().loadSync(proto, { keepCase: true });  // google/protobuf/* from protobufjs itself
root.resolveAll();
const Video = root.lookupType("foxglove.CompressedVideo");
const input = JSON.parse(fs.readFileSync(packetsFile, "utf8"));
const writable = new FileWritable(out);
const writer = new McapWriter({ writable, chunkSize: 65536, useChunks: true, useMessageIndex: true,
  useStatistics: true, useSummaryOffsets: true, useChunkIndex: true });
await writer.start({ profile: "", library: "@mcap/core make_compressed_video.mjs" });
const jsonSchema = { type: "object", properties: {
  timestamp: { type: "object", properties: { sec: { type: "integer" }, nsec: { type: "integer" } } },
  frame_id: { type: "string" }, data: { type: "string", contentEncoding: "base64" }, format: { type: "string" } } };
const schema = await writer.registerSchema({ name: "foxglove.CompressedVideo", encoding: json ? "jsonschema" : "protobuf",
  data: json ? new TextEncoder().encode(JSON.stringify(jsonSchema)) : fs.readFileSync(fds) });
const channel = await writer.registerChannel({ topic: input.topic, messageEncoding: encoding, schemaId: schema,
  metadata: new Map() });
let sequence = 0;
for (const p of input.packets) {
  const t = BigInt(p.log_time_ns);
  const msg = Video.create({ timestamp: { seconds: Number(t / 1000000000n), nanos: Number(t % 1000000000n) },
    frame_id: input.frame_id, data: Buffer.from(p.data, "base64"), format: input.format });
  const data = json
    ? new TextEncoder().encode(JSON.stringify({ timestamp: { sec: Number(t / 1000000000n), nsec: Number(t % 1000000000n) },
      frame_id: input.frame_id, data: p.data, format: input.format }))
    : Video.encode(msg).finish();
  await writer.addMessage({ channelId: channel, sequence: sequence++, logTime: t, publishTime: t, data });
}
await writer.end();
writable.close();
