// The field page's photo decoder (lib/field/read-photo.ts DecodeScaled) played by sharp in tests,
// where there is no createImageBitmap: upright, scaled to the size asked, RGBA as a canvas gives.
import sharp from "sharp";
import type { DecodeScaled } from "@/lib/field/read-photo";

export const decodeWithSharp: DecodeScaled = async (photo, size) => {
  const input = Buffer.from(await photo.arrayBuffer());
  const meta = await sharp(input).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const naturalWidth = (swap ? meta.height : meta.width) ?? 0;
  const naturalHeight = (swap ? meta.width : meta.height) ?? 0;
  const { width, height } = size(naturalWidth, naturalHeight);
  const { data } = await sharp(input).rotate().resize(width, height, { fit: "fill" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgba: data, width, height, naturalWidth, naturalHeight };
};
