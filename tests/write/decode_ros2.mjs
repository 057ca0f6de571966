// Decodes every message of ROS 2 MCAP files with Foxglove's own stack, not Bagscope's: @mcap/core
// reads the file, @foxglove/rosmsg parses each channel's ros2msg schema and
// @foxglove/rosmsg2-serialization decodes the CDR. Prints one JSON line per message,
// [topic, log time, message], typed arrays as arrays and 64-bit integers as numbers:
//   node decode_ros2.mjs MODULES_DIR FILE...
import { createRequire } from 'module';
import fs from 'fs';

const [,, modules, ...files] = process.argv;
const require = createRequire(modules + '/');
const { McapIndexedReader } = require('@mcap/core');
const { loadDecompressHandlers } = require('@mcap/support');
const { parse } = require('@foxglove/rosmsg');
const { MessageReader } = require('@foxglove/rosmsg2-serialization');

const decompressHandlers = await loadDecompressHandlers();
const plain = (v) => {
  if (typeof v === 'bigint') return Number(v);
  if (ArrayBuffer.isView(v)) return Array.from(v, plain);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);  // JSON has no NaN or infinity
  return v;
};

for (const file of files) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const readable = { size: async () => BigInt(bytes.length),
                     read: async (offset, length) => bytes.subarray(Number(offset), Number(offset + length)) };
  const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers });
  const readers = new Map();
  for await (const m of reader.readMessages()) {
    const channel = reader.channelsById.get(m.channelId);
    if (!readers.has(channel.id)) {
      const schema = reader.schemasById.get(channel.schemaId);
      if (channel.messageEncoding !== 'cdr' || schema.encoding !== 'ros2msg') {
        console.error(`${file}: ${channel.topic} is ${channel.messageEncoding}/${schema.encoding}, not ROS 2`);
        process.exit(1);
      }
      readers.set(channel.id, new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true })));
    }
    console.log(JSON.stringify([channel.topic, m.logTime.toString(), plain(readers.get(channel.id).readMessage(m.data))]));
  }
}
