// Moves a JPEG's EXIF onto another JPEG of the same picture (the blurred copy a delivery carries):
// the APP1 Exif segment is copied as it is — GPS, capture time, direction, maker notes — except
// the embedded thumbnail (IFD1), which would show the picture unblurred: its bytes are zeroed and
// the link to it cut.

const SOI = 0xffd8;

interface Segment {
  marker: number;
  start: number;
  end: number;
}

function segments(jpeg: Buffer): Segment[] {
  const out: Segment[] = [];
  if (jpeg.length < 4 || jpeg.readUInt16BE(0) !== SOI) return out;
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg.readUInt16BE(at);
    // Start of scan: the image data follows, no more headers.
    if (marker === 0xffda) break;
    const length = jpeg.readUInt16BE(at + 2);
    out.push({ marker, start: at, end: at + 2 + length });
    at += 2 + length;
  }
  return out;
}

function exifSegment(jpeg: Buffer): Buffer | null {
  const app1 = segments(jpeg).find((s) => s.marker === 0xffe1 && jpeg.toString("latin1", s.start + 4, s.start + 10) === "Exif\0\0");
  return app1 ? Buffer.from(jpeg.subarray(app1.start, app1.end)) : null;
}

/** Cuts IFD1 (the embedded thumbnail) out of an APP1 Exif segment, in place. */
function dropThumbnail(segment: Buffer): void {
  const tiff = 10;
  if (segment.length < tiff + 8) return;
  const little = segment.toString("latin1", tiff, tiff + 2) === "II";
  const u16 = (o: number) => (little ? segment.readUInt16LE(o) : segment.readUInt16BE(o));
  const u32 = (o: number) => (little ? segment.readUInt32LE(o) : segment.readUInt32BE(o));
  const ifd0 = tiff + u32(tiff + 4);
  if (ifd0 + 2 > segment.length) return;
  const nextAt = ifd0 + 2 + u16(ifd0) * 12;
  if (nextAt + 4 > segment.length) return;
  const ifd1 = u32(nextAt);
  if (ifd1 !== 0 && tiff + ifd1 + 2 <= segment.length) {
    const entries = u16(tiff + ifd1);
    let offset = 0;
    let length = 0;
    for (let i = 0; i < entries; i++) {
      const entry = tiff + ifd1 + 2 + i * 12;
      if (entry + 12 > segment.length) break;
      const tag = u16(entry);
      if (tag === 0x0201) offset = u32(entry + 8);
      if (tag === 0x0202) length = u32(entry + 8);
    }
    if (offset > 0 && length > 0) segment.fill(0, Math.min(segment.length, tiff + offset), Math.min(segment.length, tiff + offset + length));
  }
  if (little) segment.writeUInt32LE(0, nextAt);
  else segment.writeUInt32BE(0, nextAt);
}

/** `to` with `from`'s EXIF (less its thumbnail) in place of its own; `to` unchanged when `from` has none. */
export function copyExif(from: Buffer, to: Buffer): Buffer {
  return withExifSegment(exifSegment(from), to);
}

/**
 * An APP1 Exif segment made from a HEIC's Exif TIFF block, its Orientation set to 1: the decoded
 * pixels it will sit beside are already upright (libheif applies the HEIF's own rotation). Null
 * when the block does not fit in one JPEG segment.
 */
export function exifSegmentFromTiff(tiff: Uint8Array): Buffer | null {
  const length = 2 + 6 + tiff.length;
  if (length > 0xffff) return null;
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, length >> 8, length & 0xff]), Buffer.from("Exif\0\0", "latin1"), tiff]);
  setOrientationUpright(segment);
  return segment;
}

/** Sets IFD0's Orientation (0x0112) to 1 in an APP1 Exif segment, in place, when it has one. */
function setOrientationUpright(segment: Buffer): void {
  const tiff = 10;
  if (segment.length < tiff + 8) return;
  const little = segment.toString("latin1", tiff, tiff + 2) === "II";
  const u16 = (o: number) => (little ? segment.readUInt16LE(o) : segment.readUInt16BE(o));
  const ifd0 = tiff + (little ? segment.readUInt32LE(tiff + 4) : segment.readUInt32BE(tiff + 4));
  if (ifd0 + 2 > segment.length) return;
  for (let i = 0; i < u16(ifd0); i++) {
    const entry = ifd0 + 2 + i * 12;
    if (entry + 12 > segment.length) return;
    if (u16(entry) !== 0x0112) continue;
    if (little) segment.writeUInt16LE(1, entry + 8);
    else segment.writeUInt16BE(1, entry + 8);
    return;
  }
}

/** `to` with the given APP1 Exif segment (less its thumbnail) in place of its own; `to` unchanged when there is none. */
export function withExifSegment(exif: Buffer | null, to: Buffer): Buffer {
  if (!exif) return to;
  dropThumbnail(exif);
  const own = segments(to);
  const kept = own.filter((s) => !(s.marker === 0xffe1 && to.toString("latin1", s.start + 4, s.start + 10) === "Exif\0\0"));
  // After SOI and a JFIF APP0 if there is one, as cameras write it.
  const app0 = kept.find((s) => s.marker === 0xffe0);
  const headerEnd = own.at(-1)?.end ?? 2;
  const parts = [
    to.subarray(0, 2),
    ...(app0 ? [to.subarray(app0.start, app0.end)] : []),
    exif,
    ...kept.filter((s) => s !== app0).map((s) => to.subarray(s.start, s.end)),
    to.subarray(headerEnd),
  ];
  return Buffer.concat(parts);
}

/** A box in the upright picture (EXIF orientation applied) as the same box in the stored pixels. */
export function uprightToStored([x, y, w, h]: [number, number, number, number], orientation: number): [number, number, number, number] {
  switch (orientation) {
    case 2:
      return [1 - x - w, y, w, h];
    case 3:
      return [1 - x - w, 1 - y - h, w, h];
    case 4:
      return [x, 1 - y - h, w, h];
    case 5:
      return [y, x, h, w];
    case 6:
      return [y, 1 - x - w, h, w];
    case 7:
      return [1 - y - h, 1 - x - w, h, w];
    case 8:
      return [1 - y - h, x, h, w];
    default:
      return [x, y, w, h];
  }
}
