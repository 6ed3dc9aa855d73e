// After `next build`: writes a brotli (.br) and a gzip (.gz) copy beside every compressible file
// under .next/static, so that `npm start` (scripts/server.ts, lib/http/next-static.ts) sends
// the browser's scripts and styles compressed once, at build time, at the highest levels,
// instead of Next gzipping each of them again on every request inside the web process (the
// 1 MB MapLibre chunk took 460 ms to arrive while the mission page was starting its map).
// Files are content-hashed, so a copy never goes stale; copies of files that are gone are removed.
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const DIR = join(process.cwd(), ".next/static");
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|map)$/;
/** Smaller files gain less than the bytes of an extra header. */
const MIN_BYTES = 1024;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

const started = Date.now();
const all = [];
for await (const path of files(DIR)) all.push(path);
const present = new Set(all);
let compressed = 0;
let raw = 0;
let br = 0;
const queue = all.filter((path) => COMPRESSIBLE.test(path));
// Two at a time: zlib runs in libuv's pool, one file per core.
async function work() {
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    const { size } = await stat(path);
    if (size < MIN_BYTES) continue;
    const body = await readFile(path);
    const [brBody, gzBody] = await Promise.all([
      brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: size } }),
      gz(body, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${path}.br`, brBody), writeFile(`${path}.gz`, gzBody)]);
    compressed += 1;
    raw += size;
    br += brBody.length;
  }
}
await Promise.all([work(), work()]);
// A copy whose original is gone (an earlier build's) would be served for nothing: remove it.
for (const path of all) {
  const original = path.replace(/\.(?:br|gz)$/, "");
  if (original !== path && !present.has(original)) await rm(path);
}
console.log(
  `precompress: ${compressed} files, ${(raw / 1e6).toFixed(1)} MB → ${(br / 1e6).toFixed(1)} MB brotli, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
