import { describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { imageDetail } from "@/lib/testing/image-detail";
import { analyseImage } from "./analyse-image";
import { blurFaces, headRegions, type Box } from "./blur-faces";

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
    expect(await imageDetail(blurred.derivatives.preview, head ?? person)).toBeLessThan((await imageDetail(plain.derivatives.preview, head ?? person)) / 2);
    expect(await imageDetail(blurred.derivatives.thumbnail, head ?? person)).toBeLessThan((await imageDetail(plain.derivatives.thumbnail, head ?? person)) / 2);
    const elsewhere: Box = [0, 0.8, 0.25, 0.2];
    expect(await imageDetail(blurred.derivatives.preview, elsewhere)).toBeCloseTo(await imageDetail(plain.derivatives.preview, elsewhere), 0);
  });

  it("blurs the whole preview when the detector fails", async () => {
    const photo = await makePhoto({ sign: "Bar Centrale", seed: 4 });
    const out = await blurFaces(photo, async () => {
      throw new Error("no model");
    });
    expect(out.whole).toBe(true);
    expect(await imageDetail(out.preview, [0, 0, 1, 1])).toBeLessThan((await imageDetail(photo, [0, 0, 1, 1])) / 2);
  });
});
