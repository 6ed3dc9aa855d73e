import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { analyseImage } from "./analyse-image";
import { blurFaces, headRegions, type Box } from "./blur-faces";

/** Detail (mean absolute difference between neighbours) in a region of a JPEG, on a 320 px grey copy. */
async function detail(jpeg: Buffer, [x, y, w, h]: Box): Promise<number> {
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

describe("blurFaces", () => {
  it("puts the head at the top of a person's box", () => {
    expect(headRegions([[0.5, 0.2, 0.1, 0.6]])).toEqual([[0.51, 0.2, 0.08000000000000002, 0.11000000000000001]]);
  });

  it("blurs the faces found in the preview and thumbnail, and leaves the rest and the measurements alone", async () => {
    const photo = await makePhoto({ sign: "Bar Centrale", seed: 3 });
    const person: Box = [0.3, 0.2, 0.4, 0.7];
    const [head] = headRegions([person]);
    const plain = await analyseImage(photo, { maxPixels: 50_000_000 });
    const blurred = await analyseImage(photo, { maxPixels: 50_000_000, findPeople: async () => [person] });
    expect(blurred.measurements).toEqual(plain.measurements);
    expect(await detail(blurred.derivatives.preview, head ?? person)).toBeLessThan((await detail(plain.derivatives.preview, head ?? person)) / 2);
    expect(await detail(blurred.derivatives.thumbnail, head ?? person)).toBeLessThan((await detail(plain.derivatives.thumbnail, head ?? person)) / 2);
    const elsewhere: Box = [0, 0.8, 0.25, 0.2];
    expect(await detail(blurred.derivatives.preview, elsewhere)).toBeCloseTo(await detail(plain.derivatives.preview, elsewhere), 0);
  });

  it("blurs the whole preview when the detector fails", async () => {
    const photo = await makePhoto({ sign: "Bar Centrale", seed: 4 });
    const out = await blurFaces(photo, async () => {
      throw new Error("no model");
    });
    expect(out.whole).toBe(true);
    expect(await detail(out.preview, [0, 0, 1, 1])).toBeLessThan((await detail(photo, [0, 0, 1, 1])) / 2);
  });
});
