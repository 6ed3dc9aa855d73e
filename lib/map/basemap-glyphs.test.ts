// Checks the committed glyph PBFs (scripts/build-basemap.mjs) the way MapLibre reads them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PbfReader } from "pbf";
import { describe, expect, it } from "vitest";

import { MAP_FONT_BOLD, MAP_FONT_REGULAR } from "./basemap-style";

interface Glyph {
  id: number;
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

interface Fontstack {
  name: string;
  range: string;
  glyphs: Glyph[];
}

function readGlyph(tag: number, glyph: Glyph, pbf: PbfReader): void {
  if (tag === 1) glyph.id = pbf.readVarint();
  else if (tag === 2) glyph.bitmap = pbf.readBytes();
  else if (tag === 3) glyph.width = pbf.readVarint();
  else if (tag === 4) glyph.height = pbf.readVarint();
  else if (tag === 5) glyph.left = pbf.readSVarint();
  else if (tag === 6) glyph.top = pbf.readSVarint();
  else if (tag === 7) glyph.advance = pbf.readVarint();
}

function readFontstack(tag: number, stack: Fontstack, pbf: PbfReader): void {
  if (tag === 1) stack.name = pbf.readString();
  else if (tag === 2) stack.range = pbf.readString();
  else if (tag === 3) stack.glyphs.push(pbf.readMessage(readGlyph, { id: 0, width: 0, height: 0, left: 0, top: 0, advance: 0 }));
}

function readRange(fontstack: string, range: string): Fontstack[] {
  const bytes = readFileSync(join(process.cwd(), "public", "basemap", "fonts", fontstack, `${range}.pbf`));
  return new PbfReader(bytes).readFields((tag, stacks: Fontstack[], pbf) => {
    if (tag === 1) stacks.push(pbf.readMessage(readFontstack, { name: "", range: "", glyphs: [] }));
  }, []);
}

function glyph(stack: Fontstack, char: string): Glyph {
  const found = stack.glyphs.find((candidate) => candidate.id === char.codePointAt(0));
  if (!found) throw new Error(`no glyph for ${char} in ${stack.name}`);
  return found;
}

const BORDER = 3;
const [regularName = ""] = MAP_FONT_REGULAR;
const [boldName = ""] = MAP_FONT_BOLD;

describe("glyph PBFs", () => {
  it("hold one fontstack named like the file, with its range", () => {
    for (const [name, range] of [
      [regularName, "0-255"],
      [boldName, "256-511"],
    ] as const) {
      const stacks = readRange(name, range);
      expect(stacks).toHaveLength(1);
      expect(stacks[0]?.name).toBe(name);
      expect(stacks[0]?.range).toBe(range);
    }
  });

  it("cover printable ASCII, Latin-1 and Latin Extended-A", () => {
    const [low] = readRange(regularName, "0-255");
    const [high] = readRange(regularName, "256-511");
    const ids = new Set([...(low?.glyphs ?? []), ...(high?.glyphs ?? [])].map((g) => g.id));
    for (let code = 32; code <= 126; code++) expect(ids.has(code), String.fromCodePoint(code)).toBe(true);
    for (const char of "ÀÉÎÕÜçñøßĀČĞŁŐŚŠŽž") expect(ids.has(char.codePointAt(0) ?? 0), char).toBe(true);
  });

  it("have bitmaps of (width + 6) × (height + 6) with the outline at 191", () => {
    const [stack] = readRange(regularName, "0-255");
    if (!stack) throw new Error("empty range");
    const h = glyph(stack, "H");
    expect(h.bitmap?.length).toBe((h.width + 2 * BORDER) * (h.height + 2 * BORDER));
    // A 24 px capital H: about 17 px tall, sitting on the baseline.
    expect(h.height).toBeGreaterThanOrEqual(17);
    expect(h.height).toBeLessThanOrEqual(18);
    expect(h.width).toBeGreaterThan(10);
    expect(h.advance).toBeGreaterThan(h.width);
    const stride = h.width + 2 * BORDER;
    const pixel = (x: number, y: number) => h.bitmap?.[(y + BORDER) * stride + x + BORDER] ?? -1;
    // Inside the left stem, mid-height: well inside the outline. The far corner of the border: outside.
    expect(pixel(1, Math.floor(h.height / 2))).toBeGreaterThan(191);
    expect(pixel(Math.floor(h.width / 2), 1)).toBeLessThan(191);
    expect(h.bitmap?.[0]).toBeLessThan(100);
  });

  it("leave blank glyphs without a bitmap but with an advance", () => {
    const [stack] = readRange(regularName, "0-255");
    if (!stack) throw new Error("empty range");
    const space = glyph(stack, " ");
    expect(space.bitmap).toBeUndefined();
    expect(space.width).toBe(0);
    expect(space.advance).toBeGreaterThan(3);
  });

  it("make the bold stack bolder than the regular one", () => {
    const [regular] = readRange(regularName, "0-255");
    const [bold] = readRange(boldName, "0-255");
    if (!regular || !bold) throw new Error("empty range");
    const ink = (g: Glyph) => (g.bitmap ?? new Uint8Array()).filter((value) => value >= 191).length;
    expect(ink(glyph(bold, "H"))).toBeGreaterThan(ink(glyph(regular, "H")) * 1.2);
    expect(glyph(bold, "0").advance).toBeGreaterThanOrEqual(glyph(regular, "0").advance);
  });
});
