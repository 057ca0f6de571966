// Reads LAS files with loaders.gl's LAS loader (@loaders.gl/las), not Bagscope's code, and
// prints what it found as one JSON object per file, for test_export.py to compare:
//   node read_las.mjs MODULES_DIR FILE...
// Positions in double precision (scale and offset applied by the loader); colours as the
// loader gives them, 8 bits per channel.
import { createRequire } from 'module';
import fs from 'fs';

const [,, modules, ...files] = process.argv;
const require = createRequire(modules + '/');
const { parse } = require('@loaders.gl/core');
const { LASLoader } = require('@loaders.gl/las');

for (const file of files) {
  const bytes = fs.readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const las = await parse(buffer, LASLoader, { las: { fp64: true }, worker: false });
  const a = las.attributes;
  console.log(JSON.stringify({
    file,
    mins: Array.from(las.loaderData.mins),
    maxs: Array.from(las.loaderData.maxs),
    pointFormat: las.loaderData.pointsFormatId,
    count: las.header.vertexCount,
    positions: Array.from(a.POSITION.value),
    intensity: Array.from(a.intensity.value),
    colours: a.COLOR_0 ? Array.from(a.COLOR_0.value) : null,
  }));
}
