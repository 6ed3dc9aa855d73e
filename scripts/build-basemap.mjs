// Generates the offline basemap served from public/basemap/ (committed; re-run after changing
// anything in scripts/basemap/): `npm run basemap:build`.
//
//   countries.geojson        country polygons (land fill), Natural Earth 1:110m via world-atlas
//   borders.geojson          land boundaries between countries (no coastlines)
//   country-labels.geojson   one point per country with its name and area
//   fonts/{fontstack}/{range}.pbf   MapLibre SDF glyphs for "Inter Regular" and "Inter Bold",
//                            codepoints 0–511, generated from @fontsource-variable/inter
//
// Output is deterministic, so an unchanged input gives byte-identical files.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildCountryLayers } from "./basemap/country-layers.mjs";
import { buildGlyphRanges, interLicencePath } from "./basemap/glyph-fonts.mjs";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "public", "basemap");

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "fonts"), { recursive: true });

const { countries, borders, labels } = buildCountryLayers();
writeFileSync(join(out, "countries.geojson"), JSON.stringify(countries));
writeFileSync(join(out, "borders.geojson"), JSON.stringify(borders));
writeFileSync(join(out, "country-labels.geojson"), JSON.stringify(labels));
copyFileSync(join(dirname(require.resolve("world-atlas/package.json")), "LICENSE"), join(out, "LICENSE-world-atlas.txt"));

for (const { fontstack, range, bytes } of buildGlyphRanges()) {
  mkdirSync(join(out, "fonts", fontstack), { recursive: true });
  writeFileSync(join(out, "fonts", fontstack, `${range}.pbf`), bytes);
}
copyFileSync(interLicencePath(), join(out, "fonts", "LICENSE-Inter.txt"));

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

let total = 0;
let totalGzip = 0;
for (const path of listFiles(out).sort()) {
  const bytes = statSync(path).size;
  const gzip = gzipSync(readFileSync(path)).length;
  total += bytes;
  totalGzip += gzip;
  console.log(`${relative(root, path).padEnd(52)} ${String(bytes).padStart(8)} B  (gzip ${gzip} B)`);
}
console.log(`${"total".padEnd(52)} ${String(total).padStart(8)} B  (gzip ${totalGzip} B)`);
