// Writes extras.mcap with @mcap/core (Foxglove's MCAP library): a json channel of three
// messages, two metadata records and two attachments (one text, one binary), in the data
// section with their indexes in the summary, as a recorder that stores calibration and
// notes beside the messages does. Usage (README.md): node make_extras.mjs, with @mcap/core
// 2.2.2 on NODE_PATH.
import fs from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { McapWriter } = require("@mcap/core");

const fd = fs.openSync(new URL("extras.mcap", import.meta.url).pathname, "w");
let pos = 0n;
const writable = {
  async write(buffer) {
    let off = 0;
    while (off < buffer.byteLength) off += fs.writeSync(fd, buffer, off, buffer.byteLength - off);
    pos += BigInt(buffer.byteLength);
  },
  position: () => pos,
};
const T0 = 1700000000n * 1000000000n;
const writer = new McapWriter({ writable, chunkSize: 1024, useChunks: true, useMessageIndex: true,
  useStatistics: true, useSummaryOffsets: true, useChunkIndex: true, useMetadataIndex: true, useAttachmentIndex: true });
await writer.start({ profile: "", library: "@mcap/core make_extras.mjs" });
const schema = await writer.registerSchema({ name: "Note", encoding: "jsonschema",
  data: new TextEncoder().encode('{"type":"object","properties":{"text":{"type":"string"}}}') });
const channel = await writer.registerChannel({ topic: "/notes", messageEncoding: "json", schemaId: schema, metadata: new Map() });
await writer.addMetadata({ name: "calibration", metadata: new Map([["camera", "fx=500 fy=500"], ["lidar", "z-up"]]) });
for (let i = 0; i < 3; ++i) {
  const t = T0 + BigInt(i) * 100000000n;
  await writer.addMessage({ channelId: channel, sequence: i, logTime: t, publishTime: t,
    data: new TextEncoder().encode(JSON.stringify({ text: `note ${i}` })) });
}
await writer.addAttachment({ logTime: T0 + 50000000n, createTime: T0 - 1000000000n, name: "readme.txt",
  mediaType: "text/plain", data: new TextEncoder().encode("recorded on the test track\n") });
await writer.addAttachment({ logTime: T0 + 150000000n, createTime: T0, name: "blob.bin",
  mediaType: "application/octet-stream", data: Uint8Array.from({ length: 300 }, (_, k) => (k * 7) & 255) });
await writer.addMetadata({ name: "run", metadata: new Map([["driver", "A. N. Other"], ["weather", "dry"]]) });
await writer.end();
fs.closeSync(fd);
