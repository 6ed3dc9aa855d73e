// Turns a WOFF2 font into a plain TrueType (sfnt) buffer that opentype.js can parse.
//
// The only fonts installed with the app (@fontsource-variable/inter) ship as WOFF2, which
// opentype.js refuses. WOFF2 is a Brotli stream (node:zlib decodes it) plus a compact
// re-encoding of the glyf/loca and hmtx tables, which is undone here following the W3C WOFF2
// specification §5 (https://www.w3.org/TR/WOFF2/). Collections (ttcf) are not supported.
import { brotliDecompressSync } from "node:zlib";

// §4.2: table tags by their 6-bit index in the table directory flags.
const KNOWN_TAGS = [
  "cmap",
  "head",
  "hhea",
  "hmtx",
  "maxp",
  "name",
  "OS/2",
  "post",
  "cvt ",
  "fpgm",
  "glyf",
  "loca",
  "prep",
  "CFF ",
  "VORG",
  "EBDT",
  "EBLC",
  "gasp",
  "hdmx",
  "kern",
  "LTSH",
  "PCLT",
  "VDMX",
  "vhea",
  "vmtx",
  "BASE",
  "GDEF",
  "GPOS",
  "GSUB",
  "EBSC",
  "JSTF",
  "MATH",
  "CBDT",
  "CBLC",
  "COLR",
  "CPAL",
  "SVG ",
  "sbix",
  "acnt",
  "avar",
  "bdat",
  "bloc",
  "bsln",
  "cvar",
  "fdsc",
  "feat",
  "fmtx",
  "fvar",
  "gvar",
  "hsty",
  "just",
  "lcar",
  "mort",
  "morx",
  "opbd",
  "prop",
  "trak",
  "Zapf",
  "Silf",
  "Glat",
  "Gloc",
  "Feat",
  "Sill",
];

// Simple-glyph flags of the TrueType glyf table.
const ON_CURVE = 0x01;
const OVERLAP_SIMPLE = 0x40;
// Composite-glyph flags.
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
const WE_HAVE_INSTRUCTIONS = 0x0100;

/** A forward-only reader over a DataView. */
class Reader {
  constructor(bytes, offset = 0, length = bytes.byteLength - offset) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset + offset, length);
    this.bytes = new Uint8Array(bytes.buffer, bytes.byteOffset + offset, length);
    this.pos = 0;
  }
  u8() {
    return this.view.getUint8(this.pos++);
  }
  u16() {
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }
  i16() {
    const v = this.view.getInt16(this.pos);
    this.pos += 2;
    return v;
  }
  u32() {
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }
  take(length) {
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }
  tag() {
    return String.fromCharCode(...this.take(4));
  }

  /** §6.1.1 UIntBase128: 1–5 bytes, 7 bits each, most significant first. */
  base128() {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      if (i === 0 && byte === 0x80) throw new Error("WOFF2: UIntBase128 with a leading zero");
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error("WOFF2: UIntBase128 longer than 5 bytes");
  }

  /** §6.1.1 255UInt16. */
  u255() {
    const code = this.u8();
    if (code === 253) return this.u16();
    if (code === 255) return this.u8() + 253;
    if (code === 254) return this.u8() + 253 * 2;
    return code;
  }
}

/** A growable big-endian byte buffer. */
class Writer {
  constructor() {
    this.bytes = new Uint8Array(1024);
    this.length = 0;
  }
  ensure(extra) {
    if (this.length + extra <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
  u8(v) {
    this.ensure(1);
    this.bytes[this.length++] = v & 0xff;
  }
  u16(v) {
    this.u8(v >> 8);
    this.u8(v);
  }
  i16(v) {
    this.u16(v & 0xffff);
  }
  u32(v) {
    this.u16((v >>> 16) & 0xffff);
    this.u16(v & 0xffff);
  }
  append(bytes) {
    this.ensure(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }
  pad(multiple) {
    while (this.length % multiple !== 0) this.u8(0);
  }
  result() {
    return this.bytes.slice(0, this.length);
  }
}

function readDirectory(reader, numTables) {
  const tables = [];
  for (let i = 0; i < numTables; i++) {
    const flags = reader.u8();
    const tagIndex = flags & 0x3f;
    const tag = tagIndex === 63 ? reader.tag() : KNOWN_TAGS[tagIndex];
    if (tag === undefined) throw new Error(`WOFF2: unknown table tag index ${tagIndex}`);
    const version = flags >> 6;
    const origLength = reader.base128();
    // glyf/loca use version 3 for "not transformed"; every other table uses version 0.
    const transformed = tag === "glyf" || tag === "loca" ? version !== 3 : version !== 0;
    const transformLength = transformed ? reader.base128() : origLength;
    tables.push({ tag, transformed, version, origLength, length: transformLength });
  }
  return tables;
}

/** §5.2 triplet decoding of one point delta; returns the bytes consumed. */
function withSign(flag, value) {
  return flag & 1 ? value : -value;
}

function decodeTriplet(flag, glyphStream) {
  if (flag < 10) return [0, withSign(flag, ((flag & 14) << 7) + glyphStream.u8())];
  if (flag < 20) return [withSign(flag, (((flag - 10) & 14) << 7) + glyphStream.u8()), 0];
  if (flag < 84) {
    const b0 = flag - 20;
    const b1 = glyphStream.u8();
    return [withSign(flag, 1 + (b0 & 0x30) + (b1 >> 4)), withSign(flag >> 1, 1 + ((b0 & 0x0c) << 2) + (b1 & 0x0f))];
  }
  if (flag < 120) {
    const b0 = flag - 84;
    const dx = withSign(flag, 1 + (Math.floor(b0 / 12) << 8) + glyphStream.u8());
    const dy = withSign(flag >> 1, 1 + (((b0 % 12) >> 2) << 8) + glyphStream.u8());
    return [dx, dy];
  }
  if (flag < 124) {
    const b0 = glyphStream.u8();
    const b1 = glyphStream.u8();
    const b2 = glyphStream.u8();
    return [withSign(flag, (b0 << 4) + (b1 >> 4)), withSign(flag >> 1, ((b1 & 0x0f) << 8) + b2)];
  }
  const dx = withSign(flag, glyphStream.u16());
  const dy = withSign(flag >> 1, glyphStream.u16());
  return [dx, dy];
}

function writeSimpleGlyph(out, { endPoints, points, instructions, bbox, overlap }) {
  out.i16(endPoints.length);
  for (const value of bbox) out.i16(value);
  for (const end of endPoints) out.u16(end);
  out.u16(instructions.length);
  out.append(instructions);
  // Plain encoding (every flag and coordinate written out as int16) keeps this simple; the
  // result only lives in memory for opentype.js, so its size does not matter.
  points.forEach((point, index) => out.u8((point.onCurve ? ON_CURVE : 0) | (index === 0 && overlap ? OVERLAP_SIMPLE : 0)));
  let previous = 0;
  for (const point of points) {
    out.i16(point.x - previous);
    previous = point.x;
  }
  previous = 0;
  for (const point of points) {
    out.i16(point.y - previous);
    previous = point.y;
  }
}

function readCompositeData(compositeStream) {
  const start = compositeStream.pos;
  let hasInstructions = false;
  let flags;
  do {
    flags = compositeStream.u16();
    compositeStream.u16(); // glyph index
    compositeStream.take(flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & WE_HAVE_A_SCALE) compositeStream.take(2);
    else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) compositeStream.take(4);
    else if (flags & WE_HAVE_A_TWO_BY_TWO) compositeStream.take(8);
    if (flags & WE_HAVE_INSTRUCTIONS) hasInstructions = true;
  } while (flags & MORE_COMPONENTS);
  return { data: compositeStream.bytes.subarray(start, compositeStream.pos), hasInstructions };
}

/** §5.1–5.3: rebuilds glyf and loca from the transformed glyf table. */
function reconstructGlyf(bytes) {
  const header = new Reader(bytes);
  header.u16(); // reserved
  const optionFlags = header.u16();
  const numGlyphs = header.u16();
  const indexFormat = header.u16();
  const sizes = Array.from({ length: 7 }, () => header.u32());
  let offset = header.pos;
  const [nContourStream, nPointsStream, flagStream, glyphStream, compositeStream, bboxStream, instructionStream] = sizes.map((size) => {
    const stream = new Reader(bytes, offset, size);
    offset += size;
    return stream;
  });
  const overlapBitmap = optionFlags & 1 ? bytes.subarray(offset, offset + ((numGlyphs + 7) >> 3)) : null;
  const bboxBitmap = bboxStream.take(((numGlyphs + 31) >> 5) * 4);
  const hasBit = (bitmap, index) => (bitmap[index >> 3] & (0x80 >> (index & 7))) !== 0;

  const glyf = new Writer();
  const offsets = [];
  const xMins = [];
  for (let index = 0; index < numGlyphs; index++) {
    offsets.push(glyf.length);
    const nContours = nContourStream.i16();
    const explicitBbox = hasBit(bboxBitmap, index) ? [bboxStream.i16(), bboxStream.i16(), bboxStream.i16(), bboxStream.i16()] : null;
    if (nContours === 0) {
      xMins.push(0);
      continue;
    }
    if (nContours > 0) {
      const endPoints = [];
      let total = 0;
      for (let c = 0; c < nContours; c++) {
        total += nPointsStream.u255();
        endPoints.push(total - 1);
      }
      const points = [];
      let x = 0;
      let y = 0;
      for (let p = 0; p < total; p++) {
        const flag = flagStream.u8();
        const [dx, dy] = decodeTriplet(flag & 0x7f, glyphStream);
        x += dx;
        y += dy;
        points.push({ x, y, onCurve: flag >> 7 === 0 });
      }
      const instructions = instructionStream.take(glyphStream.u255());
      const bbox = explicitBbox ?? [
        Math.min(...points.map((p) => p.x)),
        Math.min(...points.map((p) => p.y)),
        Math.max(...points.map((p) => p.x)),
        Math.max(...points.map((p) => p.y)),
      ];
      writeSimpleGlyph(glyf, { endPoints, points, instructions, bbox, overlap: overlapBitmap !== null && hasBit(overlapBitmap, index) });
      xMins.push(bbox[0]);
    } else {
      if (explicitBbox === null) throw new Error(`WOFF2: composite glyph ${index} without a bounding box`);
      const { data, hasInstructions } = readCompositeData(compositeStream);
      glyf.i16(-1);
      for (const value of explicitBbox) glyf.i16(value);
      glyf.append(data);
      if (hasInstructions) {
        const length = glyphStream.u255();
        glyf.u16(length);
        glyf.append(instructionStream.take(length));
      }
      xMins.push(explicitBbox[0]);
    }
    glyf.pad(4);
  }
  offsets.push(glyf.length);

  const loca = new Writer();
  for (const value of offsets) {
    if (indexFormat === 0) loca.u16(value / 2);
    else loca.u32(value);
  }
  return { glyf: glyf.result(), loca: loca.result(), xMins, numGlyphs, indexFormat };
}

/** §5.4: rebuilds hmtx when the left side bearings were dropped (they equal the glyphs' xMin). */
function reconstructHmtx(bytes, { numGlyphs, numberOfHMetrics, xMins }) {
  const reader = new Reader(bytes);
  const flags = reader.u8();
  const advances = Array.from({ length: numberOfHMetrics }, () => reader.u16());
  const proportionalLsbs = flags & 1 ? xMins.slice(0, numberOfHMetrics) : Array.from({ length: numberOfHMetrics }, () => reader.i16());
  const monospacedLsbs = flags & 2 ? xMins.slice(numberOfHMetrics, numGlyphs) : Array.from({ length: numGlyphs - numberOfHMetrics }, () => reader.i16());
  const out = new Writer();
  advances.forEach((advance, i) => {
    out.u16(advance);
    out.i16(proportionalLsbs[i] ?? 0);
  });
  for (const lsb of monospacedLsbs) out.i16(lsb);
  return out.result();
}

function checksum(bytes) {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  return sum;
}

function assembleSfnt(flavor, tables) {
  const sorted = [...tables].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const numTables = sorted.length;
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const out = new Writer();
  out.u32(flavor);
  out.u16(numTables);
  out.u16(searchRange);
  out.u16(entrySelector);
  out.u16(numTables * 16 - searchRange);
  let offset = 12 + numTables * 16;
  for (const { tag, data } of sorted) {
    for (const char of tag) out.u8(char.charCodeAt(0));
    out.u32(checksum(data));
    out.u32(offset);
    out.u32(data.length);
    offset += Math.ceil(data.length / 4) * 4;
  }
  for (const { data } of sorted) {
    out.append(data);
    out.pad(4);
  }
  return out.result();
}

/** Decodes a WOFF2 file (Buffer or Uint8Array) into an sfnt ArrayBuffer. */
export function woff2ToSfnt(input) {
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const reader = new Reader(bytes);
  if (reader.tag() !== "wOF2") throw new Error("not a WOFF2 file");
  const flavor = reader.u32();
  if (flavor === 0x74746366) throw new Error("WOFF2 font collections are not supported");
  reader.u32(); // length
  const numTables = reader.u16();
  reader.u16(); // reserved
  reader.u32(); // totalSfntSize
  const totalCompressedSize = reader.u32();
  reader.take(4 + 4 * 5); // version, metadata and private block locations
  const directory = readDirectory(reader, numTables);
  const stream = brotliDecompressSync(reader.take(totalCompressedSize));

  const raw = new Map();
  let offset = 0;
  for (const table of directory) {
    raw.set(table.tag, { ...table, data: stream.subarray(offset, offset + table.length) });
    offset += table.length;
  }

  const tables = new Map([...raw].map(([tag, table]) => [tag, table.data]));
  const glyfTable = raw.get("glyf");
  let xMins = [];
  if (glyfTable?.transformed) {
    const rebuilt = reconstructGlyf(glyfTable.data);
    tables.set("glyf", rebuilt.glyf);
    tables.set("loca", rebuilt.loca);
    xMins = rebuilt.xMins;
  }
  const hmtxTable = raw.get("hmtx");
  if (hmtxTable?.transformed) {
    const hhea = tables.get("hhea");
    const maxp = tables.get("maxp");
    if (!hhea || !maxp) throw new Error("WOFF2: transformed hmtx needs hhea and maxp");
    const numberOfHMetrics = new DataView(hhea.buffer, hhea.byteOffset, hhea.byteLength).getUint16(34);
    const numGlyphs = new DataView(maxp.buffer, maxp.byteOffset, maxp.byteLength).getUint16(4);
    tables.set("hmtx", reconstructHmtx(hmtxTable.data, { numGlyphs, numberOfHMetrics, xMins }));
  }
  const sfnt = assembleSfnt(
    flavor,
    [...tables].map(([tag, data]) => ({ tag, data })),
  );
  return sfnt.buffer.slice(sfnt.byteOffset, sfnt.byteOffset + sfnt.byteLength);
}
