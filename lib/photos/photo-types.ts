// The photo formats the service takes, decided by magic bytes (./sniff-image-type.ts): a phone
// camera's two — JPEG, and HEIC/HEIF (the iPhone's default). Plain vocabulary, no imports: the
// service, the exports and the field page share it.

export const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/heic", "image/heif"] as const;
export type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

const EXTENSIONS: Record<PhotoContentType, string> = { "image/jpeg": "jpg", "image/heic": "heic", "image/heif": "heif" };

/** The file extension an original of this type is stored and exported under; "jpg" for anything unknown (older rows). */
export function photoFileExtension(contentType: string): string {
  return (EXTENSIONS as Record<string, string | undefined>)[contentType] ?? "jpg";
}
