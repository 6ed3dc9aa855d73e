// Faces blurred in the derivatives people see (preview, thumbnail): the regions come from a
// detector passed in (the service's vision model finds people; a person's head is the top of its
// box), so this module stays free of the model and runs anywhere sharp does.
import sharp from "sharp";
import { copyExif, exifSegmentFromTiff, uprightToStored, withExifSegment } from "./exif-segment";
import { isHeif, jpegOf } from "./open-image";
import { readHeifExifTiff } from "./read-exif";

/** [x, y, width, height] as shares (0–1) of the image, top-left origin. */
export type Box = [number, number, number, number];
/** Finds people in a JPEG; their boxes, as shares of the image. */
export type FindPeople = (jpeg: Buffer) => Promise<Box[]>;

/** Where a standing or sitting person's face is: the top of the box, a little wider than the head. */
export function headRegions(people: Box[]): Box[] {
  return people.map(([x, y, w, h]) => {
    const headH = Math.min(h * 0.3, w * 1.1);
    return [x + w * 0.1, y, w * 0.8, headH];
  });
}

/** The JPEG with each region strongly blurred (a face in it cannot be recognised); the same bytes when there is none. */
export async function blurRegions(jpeg: Buffer, regions: Box[], quality = 82): Promise<Buffer> {
  if (regions.length === 0) return jpeg;
  const { width = 0, height = 0 } = await sharp(jpeg).metadata();
  const overlays = [];
  for (const [x, y, w, h] of regions) {
    const left = Math.max(0, Math.floor(x * width));
    const top = Math.max(0, Math.floor(y * height));
    const right = Math.min(width, Math.ceil((x + w) * width));
    const bottom = Math.min(height, Math.ceil((y + h) * height));
    if (right - left < 2 || bottom - top < 2) continue;
    const region = { left, top, width: right - left, height: bottom - top };
    const sigma = Math.max(3, Math.min(region.width, region.height) / 4);
    overlays.push({ input: await sharp(jpeg).extract(region).blur(sigma).toBuffer(), left, top });
  }
  if (overlays.length === 0) return jpeg;
  return sharp(jpeg).composite(overlays).jpeg({ quality, mozjpeg: true }).toBuffer();
}

/**
 * The preview with faces blurred. When the detector fails the whole picture is blurred: a
 * derivative shown to people must never show a face it could not look for.
 */
export async function blurFaces(preview: Buffer, findPeople: FindPeople): Promise<{ preview: Buffer; faces: number; whole: boolean }> {
  let people: Box[];
  try {
    people = await findPeople(preview);
  } catch {
    return { preview: await sharp(preview).blur(12).jpeg({ quality: 82, mozjpeg: true }).toBuffer(), faces: 0, whole: true };
  }
  const heads = headRegions(people);
  return { preview: await blurRegions(preview, heads), faces: heads.length, whole: false };
}

/**
 * A full-size copy of the original with faces blurred and its EXIF (GPS, time, direction, less
 * the embedded thumbnail) copied, for deliveries of organisations with privacy_blur. The pixels
 * keep the stored orientation so the copied Orientation tag still holds. When the detector fails
 * the whole copy is blurred.
 */
export async function blurredCopy(original: Buffer, findPeople: FindPeople, { maxPixels = 100_000_000 }: { maxPixels?: number } = {}): Promise<Buffer> {
  if (await isHeif(original)) return blurredHeifCopy(original, findPeople, maxPixels);
  const { orientation = 1 } = await sharp(original).metadata();
  let regions: Box[];
  try {
    regions = headRegions(await findPeople(original)).map((box) => uprightToStored(box, orientation));
  } catch {
    return copyExif(original, await sharp(original).blur(25).jpeg({ quality: 92 }).toBuffer());
  }
  // Re-encoded even with no face found: the copy is always the same kind of file.
  const plain = await sharp(original).jpeg({ quality: 92 }).toBuffer();
  return copyExif(original, await blurRegions(plain, regions, 92));
}

/**
 * A HEIC's blurred copy is a JPEG (what deliveries carry): decoded upright, faces blurred, the
 * HEIC's EXIF copied (less any thumbnail) with Orientation 1, as the pixels are already turned.
 */
async function blurredHeifCopy(original: Buffer, findPeople: FindPeople, maxPixels: number): Promise<Buffer> {
  const [upright, tiff] = await Promise.all([jpegOf(original, { maxPixels }), readHeifExifTiff(original)]);
  const exif = tiff ? exifSegmentFromTiff(tiff) : null;
  let regions: Box[];
  try {
    regions = headRegions(await findPeople(upright));
  } catch {
    return withExifSegment(exif, await sharp(upright).blur(25).jpeg({ quality: 92 }).toBuffer());
  }
  return withExifSegment(exif, await blurRegions(upright, regions, 92));
}
