// Reads what the intake needs from a HEIC/HEIF file's `meta` box without decoding anything: the
// primary image's size (its `ispe` property, turned by `irot`) for the decompression-bomb check, and
// where its Exif item lies in the file. exifr reads HEIC too, but it ignores iloc's base_offset,
// which libheif-written files use (their Exif then reads as "Malformed EXIF data"); no maintained
// package on the registry parses just the item boxes, so this does, in the ISO/IEC 23008-12 layout.

export interface HeifHeader {
  /** The primary image as shown (rotation by `irot` applied): what a decoder will produce. */
  width: number;
  height: number;
  /** The Exif item's bytes in the file (absolute offsets), when there is one. */
  exif: { offset: number; length: number } | null;
}

interface Box {
  type: string;
  /** Start of the box's payload (after size, type and largesize). */
  start: number;
  end: number;
}

class Reader {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u8 = (at: number) => this.view.getUint8(at);
  u16 = (at: number) => this.view.getUint16(at);
  u32 = (at: number) => this.view.getUint32(at);
  /** An unsigned integer of 0, 4 or 8 bytes (iloc's sizes); 8-byte values beyond 2^53 are refused. */
  uint(at: number, size: number): number {
    if (size === 0) return 0;
    if (size === 4) return this.u32(at);
    if (size === 8) {
      const value = this.view.getBigUint64(at);
      if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("offset too large");
      return Number(value);
    }
    if (size === 2) return this.u16(at);
    throw new RangeError(`unsupported field size ${size}`);
  }
  type = (at: number) => String.fromCharCode(...this.bytes.subarray(at, at + 4));

  /** The boxes between `from` and `to`; a box running past the bytes read ends the list there. */
  boxes(from: number, to: number): Box[] {
    const out: Box[] = [];
    let at = from;
    while (at + 8 <= to) {
      let size = this.u32(at);
      const type = this.type(at + 4);
      let start = at + 8;
      if (size === 1) {
        if (at + 16 > to) break;
        size = this.uint(at + 8, 8);
        start += 8;
      } else if (size === 0) size = to - at;
      if (size < start - at) throw new RangeError(`box ${type} is shorter than its header`);
      out.push({ type, start, end: at + size });
      at += size;
    }
    return out;
  }
}

/** Bytes that hold the `ftyp` and `meta` boxes of any phone's HEIC (iPhones write about 4 KiB; grids of many tiles a little more). */
export const HEIF_HEADER_BYTES = 256 * 1024;

/**
 * The primary image's size and Exif location from the file's first bytes (at least up to the
 * end of its `meta` box). Null when the bytes are not a HEIF with a primary image and an `ispe`
 * property, or when `meta` does not end within them.
 */
export function readHeifHeader(head: Uint8Array): HeifHeader | null {
  try {
    return parse(new Reader(head));
  } catch {
    return null; // a malformed box is an unreadable image, never a throw
  }
}

function parse(r: Reader): HeifHeader | null {
  const top = r.boxes(0, r.bytes.length);
  if (top[0]?.type !== "ftyp") return null;
  const meta = top.find((b) => b.type === "meta");
  if (!meta || meta.end > r.bytes.length) return null;
  const children = r.boxes(meta.start + 4, meta.end); // meta is a FullBox: version and flags first
  const child = (type: string) => children.find((b) => b.type === type);

  const pitm = child("pitm");
  if (!pitm) return null;
  const primary = r.u8(pitm.start) === 0 ? r.u16(pitm.start + 4) : r.u32(pitm.start + 4);

  const size = primarySize(r, child("iprp"), primary);
  if (!size) return null;

  const iinf = child("iinf");
  const iloc = child("iloc");
  const exifId = iinf ? exifItemId(r, iinf) : null;
  const exif = exifId !== null && iloc ? itemExtent(r, iloc, exifId, child("idat")) : null;
  return { ...size, exif };
}

/** The primary item's `ispe`, swapped when its `irot` turns it a quarter. */
function primarySize(r: Reader, iprp: Box | undefined, primary: number): { width: number; height: number } | null {
  if (!iprp) return null;
  const parts = r.boxes(iprp.start, iprp.end);
  const ipco = parts.find((b) => b.type === "ipco");
  if (!ipco) return null;
  const properties = r.boxes(ipco.start, ipco.end);
  let width = 0;
  let height = 0;
  let quarterTurns = 0;
  for (const ipma of parts.filter((b) => b.type === "ipma")) {
    const version = r.u8(ipma.start);
    const wideIndex = (r.u8(ipma.start + 3) & 1) === 1;
    let at = ipma.start + 4;
    const entries = r.u32(at);
    at += 4;
    for (let e = 0; e < entries; e++) {
      const item = version < 1 ? r.u16(at) : r.u32(at);
      at += version < 1 ? 2 : 4;
      const count = r.u8(at);
      at += 1;
      for (let a = 0; a < count; a++) {
        const index = wideIndex ? r.u16(at) & 0x7fff : r.u8(at) & 0x7f;
        at += wideIndex ? 2 : 1;
        if (item !== primary || index === 0) continue;
        const property = properties[index - 1];
        if (property?.type === "ispe") {
          width = r.u32(property.start + 4);
          height = r.u32(property.start + 8);
        } else if (property?.type === "irot") quarterTurns = r.u8(property.start) & 3;
      }
    }
  }
  if (width === 0 || height === 0) return null;
  return quarterTurns % 2 === 1 ? { width: height, height: width } : { width, height };
}

/** The id of the item whose type is `Exif` (infe version 2 or 3). */
function exifItemId(r: Reader, iinf: Box): number | null {
  const version = r.u8(iinf.start);
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of r.boxes(first, iinf.end)) {
    if (infe.type !== "infe") continue;
    const v = r.u8(infe.start);
    if (v < 2) continue;
    const idSize = v === 2 ? 2 : 4;
    const id = idSize === 2 ? r.u16(infe.start + 4) : r.u32(infe.start + 4);
    if (r.type(infe.start + 4 + idSize + 2) === "Exif") return id;
  }
  return null;
}

/** Where an item's data lies in the file: its single extent, base_offset included (file or idat). */
function itemExtent(r: Reader, iloc: Box, wanted: number, idat: Box | undefined): { offset: number; length: number } | null {
  const version = r.u8(iloc.start);
  let at = iloc.start + 4;
  const sizes = r.u8(at);
  const more = r.u8(at + 1);
  at += 2;
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 0xf;
  const baseOffsetSize = more >> 4;
  const indexSize = version === 1 || version === 2 ? more & 0xf : 0;
  const count = version < 2 ? r.u16(at) : r.u32(at);
  at += version < 2 ? 2 : 4;
  for (let i = 0; i < count; i++) {
    const id = version < 2 ? r.u16(at) : r.u32(at);
    at += version < 2 ? 2 : 4;
    const method = version === 1 || version === 2 ? r.u16(at) & 0xf : 0;
    if (version === 1 || version === 2) at += 2;
    at += 2; // data_reference_index
    const base = r.uint(at, baseOffsetSize);
    at += baseOffsetSize;
    const extents = r.u16(at);
    at += 2;
    const extentSize = indexSize + offsetSize + lengthSize;
    if (id === wanted) {
      // Exif is one extent in every writer seen (Apple, Samsung, libheif); anything else is left unread.
      if (extents !== 1) return null;
      const offset = base + r.uint(at + indexSize, offsetSize);
      const length = r.uint(at + indexSize + offsetSize, lengthSize);
      if (method === 0) return { offset, length };
      if (method === 1 && idat) return { offset: idat.start + offset, length };
      return null;
    }
    at += extents * extentSize;
  }
  return null;
}

/** The TIFF block (what exifr parses) inside a HEIF Exif item: after its 4-byte header offset. */
export function tiffFromExifItem(item: Uint8Array): Uint8Array | null {
  if (item.length < 8) return null;
  const skip = new DataView(item.buffer, item.byteOffset, item.byteLength).getUint32(0);
  const tiff = item.subarray(4 + skip);
  const order = String.fromCharCode(tiff[0] ?? 0, tiff[1] ?? 0);
  return order === "II" || order === "MM" ? tiff : null;
}
