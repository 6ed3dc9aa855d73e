// Where a JPEG's header ends: the segments before the first SOS (start of scan) hold everything
// intake reads before decoding — the EXIF APP1 segment and the SOF with the dimensions. When the
// bytes kept from the start of an upload reach that far, dimensions and EXIF are read from them
// and the temp file is not opened again.

/** How many bytes of an upload intake keeps in memory while streaming it to disk. */
export const HEAD_BYTES = 128 * 1024;

const SOI = 0xd8;
const SOS = 0xda;

/**
 * The length of `bytes`' JPEG header (up to and including the SOS segment), or null when it is not
 * a JPEG, a segment is malformed, or the header runs past the end of `bytes`.
 */
export function jpegHeaderLength(bytes: Uint8Array): number | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) return null;
  let offset = 2;
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
    if (marker === SOS) return end;
    offset = end;
  }
  return null;
}
