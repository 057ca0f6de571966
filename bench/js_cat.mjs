// The JavaScript peer of `bagscope-cli cat --topic TOPIC FILE.mcap`: Foxglove's MCAP reader
// (@mcap/core) and ROS 2 CDR decoder (@foxglove/rosmsg2-serialization), one JSON line per
// message on stdout. Run from a folder holding shared/bench-peers' node_modules:
//   node js_cat.mjs TOPIC FILE.mcap > /dev/null
import { createRequire } from 'module';
const require = createRequire(process.cwd() + '/');
const { McapIndexedReader } = require('@mcap/core');
const { FileHandleReadable } = require('@mcap/nodejs');
const { loadDecompressHandlers } = require('@mcap/support');
const { MessageReader } = require('@foxglove/rosmsg2-serialization');
const { parse } = require('@foxglove/rosmsg');
const fs = require('fs/promises');

const [, , topic, path] = process.argv;
const fh = await fs.open(path, 'r');
const reader = await McapIndexedReader.Initialize({
  readable: new FileHandleReadable(fh), decompressHandlers: await loadDecompressHandlers() });
const channel = [...reader.channelsById.values()].find(c => c.topic === topic);
const schema = reader.schemasById.get(channel.schemaId);
const decoder = new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true }));
// Typed arrays (float64[9] covariances, uint8[] data) as lists and BigInt (int64 fields) as
// numbers, in a walk before JSON.stringify: a replacer function would be called on every key,
// and made this peer three times slower.
const plain = v => {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'object' || v === null) return v;
  if (ArrayBuffer.isView(v)) return Array.from(v, plain);
  if (Array.isArray(v)) return v.map(plain);
  for (const k in v) v[k] = plain(v[k]);
  return v;
};
let text = '';
for await (const r of reader.readMessages({ topics: [topic] })) {
  text += JSON.stringify({ topic, type: schema.name, log_time_ns: Number(r.logTime), msg: plain(decoder.readMessage(r.data)) }) + '\n';
  if (text.length > 1 << 20) { process.stdout.write(text); text = ''; }
}
process.stdout.write(text);
await fh.close();
