import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readPhoto } from "@/lib/field/read-photo";
import { decodeWithSharp } from "@/lib/testing/decode-with-sharp";
import { analyseImage } from "@/lib/photos/analyse-image";
import { corpusFile, HAS_CORPUS } from "@/lib/testing/corpus";
import { analysisSize, exposure, greyFromRgba, laplacianVariance } from "@/lib/photos/pixel-measures";
import { DEFAULT_QA_THRESHOLDS } from "@/lib/schemas/qa";
import { judgeExposure, judgeSharpness } from "./image-quality";

const CORPUS_PHOTOS = [
  "jpg/gps/DSCN0010.jpg",
  "jpg/gps/DSCN0012.jpg",
  "jpg/gps/DSCN0021.jpg",
  "jpg/mobile/jolla.jpg",
  "jpg/Canon_40D.jpg",
  "jpg/orientation/landscape_6.jpg",
  "jpg/orientation/portrait_3.jpg",
];

describe("image measures", () => {
  it("measure a flat picture as not sharp and a checkerboard as sharp", () => {
    const flat = new Uint8Array(64 * 64).fill(120);
    expect(laplacianVariance(flat, 64, 64)).toBe(0);
    const board = Uint8Array.from({ length: 64 * 64 }, (_, i) => (((i % 64) + Math.floor(i / 64)) % 2 ? 255 : 0));
    expect(laplacianVariance(board, 64, 64)).toBeGreaterThan(DEFAULT_QA_THRESHOLDS.min_sharpness);
    expect(exposure(flat).brightness).toBe(120);
  });

  it("scale to at most 512 px a side, never up", () => {
    expect(analysisSize(3264, 2448)).toEqual({ width: 512, height: 384 });
    expect(analysisSize(100, 68)).toEqual({ width: 100, height: 68 });
  });

  it("judge at the thresholds as the service's QA does", () => {
    expect(judgeSharpness(40, DEFAULT_QA_THRESHOLDS).passed).toBe(true);
    expect(judgeSharpness(39.9, DEFAULT_QA_THRESHOLDS).message).toBe("Sharpness 39.9 is below 40: the photo is blurry.");
    expect(judgeExposure(34.9, DEFAULT_QA_THRESHOLDS).message).toBe("Mean brightness 34.9 is below 35: the photo is too dark.");
    expect(judgeExposure(225.1, DEFAULT_QA_THRESHOLDS).passed).toBe(false);
    expect(judgeExposure(35, DEFAULT_QA_THRESHOLDS).passed).toBe(true);
  });
});

describe.skipIf(!HAS_CORPUS)("the phone and the service measure real photos alike", () => {
  it("greyFromRgba is sharp's greyscale (within one level)", async () => {
    const input = await readFile(corpusFile("jpg/gps/DSCN0010.jpg"));
    const rgb = await sharp(input).resize(256).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const grey = await sharp(rgb.data, { raw: { width: rgb.info.width, height: rgb.info.height, channels: 4 } })
      .greyscale()
      .raw()
      .toBuffer();
    const ours = greyFromRgba(rgb.data);
    const worst = ours.reduce((max, v, i) => Math.max(max, Math.abs(v - (grey[i * (grey.length / ours.length)] ?? 0))), 0);
    expect(worst).toBeLessThanOrEqual(1);
  });

  async function bothPaths(photo: Buffer) {
    const server = (await analyseImage(photo, { maxPixels: 100_000_000 })).measurements;
    const phone = (await readPhoto(new Blob([new Uint8Array(photo)]), { decode: decodeWithSharp })).quality;
    return { server, phone };
  }

  it.each(CORPUS_PHOTOS)("%s: the same sharpness and exposure verdicts, figures close", async (file) => {
    const { server, phone } = await bothPaths(await readFile(corpusFile(file)));
    expect(phone).not.toBeNull();
    if (!phone) return;
    expect([phone.width, phone.height]).toEqual([server.width, server.height]);
    expect(judgeSharpness(phone.sharpness, DEFAULT_QA_THRESHOLDS).passed).toBe(judgeSharpness(server.sharpness, DEFAULT_QA_THRESHOLDS).passed);
    expect(judgeExposure(phone.brightness, DEFAULT_QA_THRESHOLDS).passed).toBe(judgeExposure(server.brightness, DEFAULT_QA_THRESHOLDS).passed);
    expect(Math.abs(phone.brightness - server.brightness)).toBeLessThan(3);
    // The service measures after its 1280 px JPEG preview; the phone scales the original directly.
    expect(Math.abs(phone.sharpness - server.sharpness) / Math.max(1, server.sharpness)).toBeLessThan(0.2);
  });

  it("a darkened and a blurred copy fail on both paths", async () => {
    const input = await readFile(corpusFile("jpg/gps/DSCN0010.jpg"));
    const dark = await bothPaths(await sharp(input).linear(0.08, 0).jpeg().toBuffer());
    expect(judgeExposure(dark.server.brightness, DEFAULT_QA_THRESHOLDS).passed).toBe(false);
    expect(judgeExposure(dark.phone?.brightness ?? 255, DEFAULT_QA_THRESHOLDS).passed).toBe(false);
    const blurred = await bothPaths(await sharp(input).blur(12).jpeg().toBuffer());
    expect(judgeSharpness(blurred.server.sharpness, DEFAULT_QA_THRESHOLDS).passed).toBe(false);
    expect(judgeSharpness(blurred.phone?.sharpness ?? Infinity, DEFAULT_QA_THRESHOLDS).passed).toBe(false);
  });
});
