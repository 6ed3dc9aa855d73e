import exifr from "exifr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { imageDetail } from "@/lib/testing/image-detail";
import { blurredCopy } from "./blur-faces";
import { copyExif, uprightToStored } from "./exif-segment";
import { readExif } from "./read-exif";

const grey = (shade: string) => sharp({ create: { width: 64, height: 48, channels: 3, background: shade } }).jpeg();

describe("copyExif", () => {
  it("moves the EXIF (GPS included) onto the other picture and cuts the embedded thumbnail", async () => {
    const from = await grey("#888")
      .withExif({ IFD0: { Make: "Google" }, IFD1: { Compression: "6", XResolution: "72/1" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "45/1 27/1 5112/100" } })
      .toBuffer();
    const out = copyExif(from, await grey("#222").toBuffer());
    const tags = await exifr.parse(out, { ifd1: true, mergeOutput: false });
    expect(tags).toMatchObject({ ifd0: { Make: "Google" }, gps: { GPSLatitudeRef: "N", GPSLatitude: [45, 27, 51.12] } });
    expect(tags.ifd1).toBeUndefined();
    expect((await sharp(out).stats()).channels[0]?.mean).toBeCloseTo(34, -1);
  });

  it("leaves a picture alone when the source has no EXIF", async () => {
    const to = await grey("#222").toBuffer();
    expect(copyExif(await grey("#888").toBuffer(), to)).toBe(to);
  });
});

describe("uprightToStored", () => {
  it("maps a box of the upright picture back to the stored pixels", () => {
    const box: [number, number, number, number] = [0.1, 0.2, 0.3, 0.4];
    expect(uprightToStored(box, 1)).toEqual(box);
    expect(uprightToStored(box, 3).map((v) => +v.toFixed(3))).toEqual([0.6, 0.4, 0.3, 0.4]);
    // Stored sideways (camera turned), shown turned 90° clockwise.
    expect(uprightToStored(box, 6).map((v) => +v.toFixed(3))).toEqual([0.2, 0.6, 0.4, 0.3]);
    expect(uprightToStored(box, 8).map((v) => +v.toFixed(3))).toEqual([0.4, 0.1, 0.4, 0.3]);
  });
});

describe("blurredCopy", () => {
  it("blurs the heads found, keeps the EXIF position, time and direction, and leaves the original alone", async () => {
    const original = await makePhoto({ lat: 45.4642, lng: 9.19, accuracyM: 5, directionDeg: 12, capturedAt: new Date("2026-06-01T10:00:00Z"), seed: 5 });
    const before = Buffer.from(original);
    const copy = await blurredCopy(original, async () => [[0.2, 0.1, 0.5, 0.8]]);
    expect(original).toEqual(before);
    const [was, is] = await Promise.all([readExif(original), readExif(copy)]);
    expect(is.gps).toEqual(was.gps);
    expect(is.captured_at).toBe(was.captured_at);
    const head: [number, number, number, number] = [0.3, 0.12, 0.3, 0.2];
    expect(await imageDetail(copy, head)).toBeLessThan((await imageDetail(original, head)) / 2);
    const elsewhere: [number, number, number, number] = [0, 0.8, 0.2, 0.2];
    expect(await imageDetail(copy, elsewhere)).toBeCloseTo(await imageDetail(original, elsewhere), 0);
  });
});
