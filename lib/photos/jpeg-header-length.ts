// Where a JPEG's header ends: the segments before the first SOS (start of scan) hold everything
// intake reads before decoding — the EXIF APP1 segment and the SOF with the dimensions. When the
// bytes kept from the start of an upload reach that far, dimensions and EXIF are read from them
// and the temp file is not opened again.

/** How many bytes of an upload intake keeps in memory while streaming it to disk. */
export const HEAD_BYTES = 128 * 1024;

const SOI = 0xd8;
const SOS = 0xda;
/** Huffman-coded frames libjpeg reads in its header pass: baseline, extended sequential, progressive. */
const PLAIN_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** Every start-of-frame marker (SOF0–SOF15 less DHT, JPG and DAC). */
const isFrameMarker = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

export interface JpegHeader {
  /** Bytes up to and including the SOS segment. */
  length: number;
  /**
   * The frame's size when it is a plain 8-bit Huffman frame (SOF0–2) with 1, 3 or 4 well-formed
   * components that the first scan refers to: what sharp (libjpeg's header pass) reports as
   * width × height. Null for anything rarer, left to sharp.
   */
  frame: { width: number; height: number } | null;
}

/**
 * `bytes`' JPEG header, or null when it is not a JPEG, a segment is malformed, or the header runs
 * past the end of `bytes`.
 */
export function readJpegHeader(bytes: Uint8Array): JpegHeader | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) return null;
  let offset = 2;
  let frame: { marker: number; start: number; end: number } | null = null;
  let frames = 0;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes (0xFF repeated) may precede a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    // Standalone markers (TEM, RST0–7) carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0);
    if (length < 2) return null;
    const end = offset + 2 + length;
    if (end > bytes.length) return null;
    if (isFrameMarker(marker)) {
      frames += 1;
      frame = { marker, start: offset + 4, end };
    }
    if (marker === SOS) return { length: end, frame: frames === 1 && frame ? plainFrameSize(bytes, frame, { start: offset + 4, end }) : null };
    offset = end;
  }
  return null;
}

/** The length of `bytes`' JPEG header (up to and including the SOS segment), or null (see readJpegHeader). */
export function jpegHeaderLength(bytes: Uint8Array): number | null {
  return readJpegHeader(bytes)?.length ?? null;
}

function plainFrameSize(bytes: Uint8Array, frame: { marker: number; start: number; end: number }, scan: { start: number; end: number }): JpegHeader["frame"] {
  if (!PLAIN_FRAMES.has(frame.marker)) return null;
  const at = (i: number) => bytes[i] ?? 0;
  const { start } = frame;
  const precision = at(start);
  const height = (at(start + 1) << 8) | at(start + 2);
  const width = (at(start + 3) << 8) | at(start + 4);
  const components = at(start + 5);
  if (precision !== 8 || width === 0 || height === 0 || ![1, 3, 4].includes(components)) return null;
  if (frame.end - start !== 6 + components * 3) return null;
  const ids = new Set<number>();
  for (let c = 0; c < components; c++) {
    const sampling = at(start + 6 + c * 3 + 1);
    const h = sampling >> 4;
    const v = sampling & 0x0f;
    if (h < 1 || h > 4 || v < 1 || v > 4 || at(start + 6 + c * 3 + 2) > 3) return null;
    ids.add(at(start + 6 + c * 3));
  }
  if (ids.size !== components) return null;
  // The scan's components must be the frame's.
  const scanComponents = at(scan.start);
  if (scanComponents < 1 || scanComponents > components || scan.end - scan.start !== 1 + scanComponents * 2 + 3) return null;
  for (let c = 0; c < scanComponents; c++) if (!ids.has(at(scan.start + 1 + c * 2))) return null;
  return { width, height };
}
