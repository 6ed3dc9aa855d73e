// Builds MapLibre SDF glyph ranges for Inter (the variable font shipped by
// @fontsource-variable/inter), instancing the weight axis for each fontstack.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import opentype from "opentype.js";
import { encodeGlyphRange } from "./glyph-pbf.mjs";
import { renderGlyph } from "./glyph-sdf.mjs";
import { woff2ToSfnt } from "./woff2-to-sfnt.mjs";

const require = createRequire(import.meta.url);

// MapLibre's glyph PBF conventions: glyphs drawn at 24 px with a 3 px border (GLYPH_PBF_BORDER),
// an SDF radius of 8 px and the outline at 0.25 of it (TinySDF's defaults).
const FONT_SIZE = 24;
const SDF = { buffer: 3, radius: 8, cutoff: 0.25 };
// MapLibre places a glyph's bitmap top at (-17 − top) px below the line origin, with the label
// anchor in the middle of a 24 px em. Server-made fonts give `top` relative to the ascender;
// choosing baseline = 17 + capHeight/2 centres capital letters on the anchor, which is where
// fonts from node-fontnik (ascender ≈ 25–26 px at 24 px) put them too.
const SHAPING_OFFSET = 17;

export const FONTSTACKS = [
  { name: "Inter Regular", weight: 400 },
  { name: "Inter Bold", weight: 700 },
];
export const RANGES = [0, 256];

function loadInterSubsets() {
  const base = join(dirname(require.resolve("@fontsource-variable/inter/package.json")), "files");
  // Latin first: where both subsets map a codepoint, it is the one browsers would use for it.
  return ["inter-latin-wght-normal.woff2", "inter-latin-ext-wght-normal.woff2"].map((file) => opentype.parse(woff2ToSfnt(readFileSync(join(base, file)))));
}

export function interLicencePath() {
  return join(dirname(require.resolve("@fontsource-variable/inter/package.json")), "LICENSE");
}

function glyphFor(fonts, codePoint) {
  for (const font of fonts) {
    const index = font.tables.cmap.glyphIndexMap[codePoint];
    if (index !== undefined) return { font, glyph: font.glyphs.get(index) };
  }
  return null;
}

/** Returns [{ fontstack, range: "0-255", bytes, codePoints }] for every fontstack and range. */
export function buildGlyphRanges() {
  const fonts = loadInterSubsets();
  const [latin] = fonts;
  const capHeightPx = (latin.tables.os2.sCapHeight * FONT_SIZE) / latin.unitsPerEm;
  const baseline = Math.round(SHAPING_OFFSET + capHeightPx / 2);
  const files = [];
  for (const { name, weight } of FONTSTACKS) {
    const variation = { wght: weight };
    for (const start of RANGES) {
      const glyphs = [];
      for (let codePoint = start; codePoint < start + 256; codePoint++) {
        const found = glyphFor(fonts, codePoint);
        if (!found) continue;
        const { font, glyph } = found;
        const instance = font.variation.getTransform(glyph, variation);
        const path = glyph.getPath(0, 0, FONT_SIZE, { variation, hinting: false }, font);
        const advance = (instance.advanceWidth * FONT_SIZE) / font.unitsPerEm;
        glyphs.push({ id: codePoint, ...renderGlyph(path.commands, advance, { ...SDF, baseline }) });
      }
      const range = `${start}-${start + 255}`;
      files.push({ fontstack: name, range, bytes: encodeGlyphRange(name, range, glyphs), codePoints: glyphs.map((glyph) => glyph.id) });
    }
  }
  return files;
}
