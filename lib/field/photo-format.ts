// Whether the phone can send a chosen file, decided as the service decides (its first bytes,
// lib/photos/sniff-image-type.ts), before anything is uploaded: JPEG and HEIC/HEIF are photos;
// a PNG screenshot, a GIF or a video is refused on the phone, never after the upload.
import { PHOTO_CONTENT_TYPES, type PhotoContentType } from "@/lib/photos/photo-types";
import { SNIFF_BYTES, sniffImageType } from "@/lib/photos/sniff-image-type";

export type PhotoFormat =
  | { sendable: true; mime: PhotoContentType }
  /** `mime`: what it is, by its bytes (else as the phone named it), for the message; null when unknown. */
  | { sendable: false; mime: string | null };

const isPhotoType = (mime: string): mime is PhotoContentType => (PHOTO_CONTENT_TYPES as readonly string[]).includes(mime);

/** The format of a file from its first bytes; `declaredType` (the phone's guess by name) only names an unknown file. */
export function photoFormatOf(head: Uint8Array, declaredType = ""): PhotoFormat {
  const sniffed = sniffImageType(head);
  if (sniffed.kind === "jpeg" || sniffed.kind === "heif") return { sendable: true, mime: sniffed.mime };
  if (sniffed.kind === "other") return { sendable: false, mime: sniffed.mime };
  return { sendable: false, mime: declaredType && !isPhotoType(declaredType) ? declaredType : null };
}

/** Reads only the first bytes of the file (a video may be large). */
export async function readPhotoFormat(photo: Blob): Promise<PhotoFormat> {
  return photoFormatOf(new Uint8Array(await photo.slice(0, SNIFF_BYTES).arrayBuffer()), photo.type);
}

/** HEIC/HEIF: sendable, though many browsers cannot show or measure it (the server decodes it). */
export const isHeifFormat = (format: PhotoFormat | undefined): boolean => format?.sendable === true && format.mime !== "image/jpeg";
