// Decides a file's type from its first bytes, never from its name or the declared Content-Type.

export type SniffedType =
  { kind: "jpeg"; mime: "image/jpeg" } | { kind: "heif"; mime: "image/heic" | "image/heif" } | { kind: "other"; mime: string } | { kind: "unknown" };

/** Bytes needed to recognise every type this knows. */
export const SNIFF_BYTES = 32;

const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis"]);
const HEIF_BRANDS = new Set(["mif1", "msf1", "mif2"]);
// A phone's videos share the ISO file layout: named, so the refusal can say a video was sent.
const MP4_BRANDS = new Set(["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "3gp4", "3gp5", "3gp6", "3g2a", "dash"]);

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

export function sniffImageType(head: Uint8Array): SniffedType {
  // JPEG: SOI marker followed by another marker.
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: "jpeg", mime: "image/jpeg" };
  // ISO base media file: [size]["ftyp"][major brand]
  if (head.length >= 12 && ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12);
    if (HEIC_BRANDS.has(brand)) return { kind: "heif", mime: "image/heic" };
    if (HEIF_BRANDS.has(brand)) return { kind: "heif", mime: "image/heif" };
    if (brand === "avif" || brand === "avis") return { kind: "other", mime: "image/avif" };
    if (brand === "qt  ") return { kind: "other", mime: "video/quicktime" };
    if (MP4_BRANDS.has(brand)) return { kind: "other", mime: "video/mp4" };
  }
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: "other", mime: "image/png" };
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return { kind: "other", mime: "image/gif" };
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return { kind: "other", mime: "image/webp" };
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return { kind: "other", mime: "image/tiff" };
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46])) return { kind: "other", mime: "application/pdf" };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { kind: "other", mime: "application/zip" };
  return { kind: "unknown" };
}
