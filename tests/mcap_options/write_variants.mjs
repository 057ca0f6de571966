// Writes the same messages into MCAP files with every combination of @mcap/core's McapWriter
// options that decide what a reader has to go on (chunks, chunk index, message index,
// statistics, summary offsets, repeated schemas and channels), for test_mcap_options.py:
//   node write_variants.mjs MODULES_DIR OUT_DIR
// Prints the messages written, as JSON, once: [[topic, log_time_ns, publish_time_ns, data]].
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';

const [,, modules, outDir] = process.argv;
const require = createRequire(modules + '/');
const { McapWriter } = require('@mcap/core');

// A writable that keeps everything in memory (McapWriter's IWritable).
class Buffered {
  constructor() { this.chunks = []; this.size = 0n; }
  async write(data) { this.chunks.push(Buffer.from(data)); this.size += BigInt(data.byteLength); }
  position() { return this.size; }
  bytes() { return Buffer.concat(this.chunks); }
}

// Three channels, two sharing a schema; times out of order across channels, so that the
// reader's time order is not the file's.
const written = [];
for (let i = 0; i < 40; ++i) {
  const topic = ['/a', '/b', '/c'][i % 3];
  const logTime = 1_700_000_000_000_000_000n + BigInt(((i * 7) % 40) * 1_000_000);
  written.push([topic, logTime, logTime + 5n, JSON.stringify({ i, topic, text: 'x'.repeat(i * 3) })]);
}

const flags = ['useChunks', 'useChunkIndex', 'useMessageIndex', 'useStatistics', 'useSummaryOffsets',
               'repeatSchemas', 'repeatChannels'];
const encoder = new TextEncoder();
for (let bits = 0; bits < 1 << flags.length; ++bits) {
  const options = Object.fromEntries(flags.map((f, k) => [f, (bits & (1 << k)) !== 0]));
  if (!options.useChunks && (options.useChunkIndex || options.useMessageIndex)) continue;  // only chunks have them
  const out = new Buffered();
  const writer = new McapWriter({ writable: out, chunkSize: 700, ...options });
  await writer.start({ profile: '', library: 'write_variants.mjs' });
  const properties = { i: { type: 'integer' }, topic: { type: 'string' }, text: { type: 'string' } };
  const schema = await writer.registerSchema({ name: 'Item', encoding: 'jsonschema',
                                               data: encoder.encode(JSON.stringify({ type: 'object', properties })) });
  const other = await writer.registerSchema({ name: 'Other', encoding: 'jsonschema', data: encoder.encode(
    JSON.stringify({ type: 'object', title: 'other', properties })) });
  const ids = {};
  for (const [topic, s] of [['/a', schema], ['/b', schema], ['/c', other]])
    ids[topic] = await writer.registerChannel({ topic, schemaId: s, messageEncoding: 'json', metadata: new Map() });
  let sequence = 0;
  for (const [topic, logTime, publishTime, data] of written)
    await writer.addMessage({ channelId: ids[topic], sequence: sequence++, logTime, publishTime,
                              data: encoder.encode(data) });
  await writer.end();
  const name = flags.filter((f) => options[f]).map((f) => f.replace(/^(use|repeat)/, '')).join('-') || 'bare';
  fs.writeFileSync(path.join(outDir, `${name}.mcap`), out.bytes());
}
console.log(JSON.stringify(written.map(([t, l, p, d]) => [t, l.toString(), p.toString(), d])));
