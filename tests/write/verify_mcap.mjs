// Reads MCAP files with Foxglove's reference reader (@mcap/core), not Bagscope's, and prints
// what it found as one JSON object per file, for test_write.py to compare:
//   node verify_mcap.mjs MODULES_DIR FILE...
// Both of its readers are used: the indexed reader (footer, summary, statistics, chunk
// indexes, message indexes) and the streaming reader over every record with CRC validation.
// The data section's CRC (which neither reader checks) is computed here with @foxglove/crc.
// Any disagreement between them, or any error, ends the process with status 1.
import { createRequire } from 'module';
import { createHash } from 'crypto';
import fs from 'fs';

const [,, modules, ...files] = process.argv;
const require = createRequire(modules + '/');
const { McapIndexedReader, McapStreamReader } = require('@mcap/core');
const { loadDecompressHandlers } = require('@mcap/support');
const { crc32 } = require('@foxglove/crc');

const decompressHandlers = await loadDecompressHandlers();
const sha = (data) => createHash('sha256').update(data).digest('hex');
const fail = (file, why) => { console.error(`${file}: ${why}`); process.exit(1); };

// A random-access reader over a file held in memory.
const readableOf = (bytes) => ({
  size: async () => BigInt(bytes.length),
  read: async (offset, length) => bytes.subarray(Number(offset), Number(offset + length)),
});

for (const file of files) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const indexed = await McapIndexedReader.Initialize({ readable: readableOf(bytes), decompressHandlers });
  const viaIndex = [];
  for await (const m of indexed.readMessages({ validateCrcs: true }))
    viaIndex.push([indexed.channelsById.get(m.channelId).topic, m.logTime.toString(), sha(m.data)]);

  const stream = new McapStreamReader({ decompressHandlers, validateCrcs: true });
  stream.append(bytes);
  const viaStream = [];
  const channels = new Map();
  const counts = { messageIndex: 0, chunk: 0 };
  let dataEnd, footer, header;
  for (let r; (r = stream.nextRecord());) {
    if (r.type === 'Channel') channels.set(r.id, r);
    else if (r.type === 'Message') viaStream.push([channels.get(r.channelId).topic, r.logTime.toString(), sha(r.data)]);
    else if (r.type === 'MessageIndex') counts.messageIndex++;
    else if (r.type === 'DataEnd') dataEnd = r;
    else if (r.type === 'Footer') footer = r;
    else if (r.type === 'Header') header = r;
  }
  if (!stream.done()) fail(file, 'the streaming reader did not reach the end');
  // Messages in chunks come in file order from the stream; the index sorts by log time.
  const sorted = [...viaStream].sort((a, b) => (BigInt(a[1]) < BigInt(b[1]) ? -1 : BigInt(a[1]) > BigInt(b[1]) ? 1 : 0));
  if (JSON.stringify(sorted) !== JSON.stringify(viaIndex)) fail(file, 'the indexed and streaming readers disagree');
  const dataEndAt = Number(footer.summaryStart) - 13;
  const crc = crc32(bytes.subarray(0, dataEndAt));
  if (crc !== dataEnd.dataSectionCrc) fail(file, `data section CRC ${crc}, the file says ${dataEnd.dataSectionCrc}`);
  const stats = indexed.statistics;
  const perChannel = {};
  for (const [id, n] of stats.channelMessageCounts) perChannel[indexed.channelsById.get(id).topic] = (perChannel[indexed.channelsById.get(id).topic] ?? 0) + Number(n);
  const metadata = [];
  for await (const m of indexed.readMetadata()) metadata.push({ name: m.name, entries: Object.fromEntries(m.metadata) });
  const attachments = [];
  for await (const a of indexed.readAttachments({ validateCrcs: true }))
    attachments.push({ name: a.name, mediaType: a.mediaType, logTime: a.logTime.toString(),
                       createTime: a.createTime.toString(), sha256: sha(a.data) });
  console.log(JSON.stringify({
    metadata,
    attachments,
    file,
    profile: header.profile,
    library: header.library,
    statistics: { messageCount: Number(stats.messageCount), chunkCount: stats.chunkCount, channelCount: stats.channelCount,
                  schemaCount: stats.schemaCount, perTopic: perChannel,
                  start: stats.messageStartTime.toString(), end: stats.messageEndTime.toString() },
    chunkIndexes: indexed.chunkIndexes.length,
    compressions: [...new Set(indexed.chunkIndexes.map((c) => c.compression))],
    messageIndexRecords: counts.messageIndex,
    channels: [...indexed.channelsById.values()].map((c) => {
      const s = indexed.schemasById.get(c.schemaId);
      return { topic: c.topic, messageEncoding: c.messageEncoding, metadata: Object.fromEntries(c.metadata),
               schema: s ? { name: s.name, encoding: s.encoding, data: new TextDecoder().decode(s.data) } : null };
    }),
    messages: viaIndex,
  }));
}
