// For tests of blurring: how much fine detail a region of a picture holds.
import sharp from "sharp";

/** Mean absolute difference between horizontal neighbours in a region (shares 0–1 of the picture), on a 320 px grey copy. */
export async function imageDetail(jpeg: Buffer, [x, y, w, h]: [number, number, number, number]): Promise<number> {
  const { data, info } = await sharp(jpeg).greyscale().resize(320, 320, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  let n = 0;
  for (let row = Math.floor(y * info.height); row < Math.floor((y + h) * info.height); row++) {
    for (let col = Math.floor(x * info.width); col < Math.floor((x + w) * info.width) - 1; col++) {
      sum += Math.abs((data[row * info.width + col] ?? 0) - (data[row * info.width + col + 1] ?? 0));
      n++;
    }
  }
  return sum / Math.max(1, n);
}
