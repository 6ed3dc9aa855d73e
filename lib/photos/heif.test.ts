// HEIC/HEIF photos: the header read without decoding (size from ispe, the Exif item found), EXIF
// read from the HEIC, decoding off the event loop into upright JPEG derivatives and QA measures,
// and a decompression bomb refused from its header. The HEIC is made at test time from a real
// camera JPEG of the corpus (Nikon COOLPIX P6000, DSCN0010.jpg) with an iPhone's tags
// (lib/testing/heic-fixture.ts: exiftool + heif-enc); samplefilehub.heif is the corpus's own HEIF.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusFile, HAS_CORPUS } from "@/lib/testing/corpus";
import { heicFromJpeg, withClaimedSize } from "@/lib/testing/heic-fixture";
import { analyseImage } from "./analyse-image";
import { blurredCopy } from "./blur-faces";
import { decodeHeif, HeifTooLargeError } from "./decode-heif";
import { readEditTraces } from "./edit-traces";
import { readHeifHeader, tiffFromExifItem } from "./heif-header";
import { jpegOf, openImage } from "./open-image";
import { readExif, readHeifExif } from "./read-exif";
import { sniffImageType } from "./sniff-image-type";

const CAPTURED = new Date("2026-11-28T09:15:30Z");
const MAX_PIXELS = 40_000_000;

// The first decode starts the decoder's worker (WebAssembly compiled once): seconds on a busy machine.
describe.skipIf(!HAS_CORPUS)("HEIC from a phone", { timeout: 30_000 }, () => {
  let heic: Buffer;
  beforeAll(async () => {
    heic = await heicFromJpeg(await readFile(corpusFile("jpg/gps/DSCN0010.jpg")), { lat: 43.7705, lng: 11.2575, directionDeg: 123.5, capturedAt: CAPTURED });
  }, 30_000);

  it("is sniffed as image/heic and its header gives the size and the Exif item, nothing decoded", () => {
    expect(sniffImageType(heic)).toEqual({ kind: "heif", mime: "image/heic" });
    const header = readHeifHeader(heic);
    expect(header).toMatchObject({ width: 640, height: 480 });
    const extent = header?.exif;
    if (!extent) throw new Error("no Exif item found");
    const tiff = tiffFromExifItem(heic.subarray(extent.offset, extent.offset + extent.length));
    expect(["II", "MM"]).toContain(Buffer.from(tiff ?? []).toString("latin1", 0, 2));
    // A head cut inside the meta box is not guessed at.
    expect(readHeifHeader(heic.subarray(0, 100))).toBeNull();
    expect(readHeifHeader(Buffer.from("not a heif at all, just some text"))).toBeNull();
  });

  it("reads place, time, direction and device from the HEIC (path and bytes alike)", async () => {
    for (const exif of [await readExif(heic), await readExif(Uint8Array.from(heic))]) {
      expect(exif.present).toBe(true);
      expect(exif.make).toBe("Apple");
      expect(exif.model).toBe("iPhone 15 Pro");
      expect(exif.gps?.lat).toBeCloseTo(43.7705, 4);
      expect(exif.gps?.lng).toBeCloseTo(11.2575, 4);
      expect(exif.gps?.direction_deg).toBeCloseTo(123.5, 1);
      expect(exif.gps?.accuracy_m).toBe(5);
      expect(exif.captured_at).toBe(CAPTURED.toISOString().replace(/\.\d+Z$/, ".000Z"));
    }
  });

  it("reads the same EXIF from a header already read: the item from the head kept while uploading, else only its bytes from the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heif-exif-"));
    try {
      const path = join(dir, "upload");
      await writeFile(path, heic);
      const expected = await readExif(path);
      expect(expected.present).toBe(true);
      const extent = readHeifHeader(heic)?.exif ?? null;
      if (!extent) throw new Error("no Exif item found");
      // The whole file in the head: no file is opened (the path does not exist).
      expect(await readHeifExif(extent, heic, join(dir, "missing"))).toEqual(expected);
      // A head that ends before the item: the item is read from the file.
      expect(await readHeifExif(extent, heic.subarray(0, extent.offset), path)).toEqual(expected);
      // No Exif item, or a file that is gone: no EXIF, no throw.
      expect((await readHeifExif(null, heic, path)).present).toBe(false);
      expect((await readHeifExif(extent, heic.subarray(0, extent.offset), join(dir, "missing"))).present).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("decodes in a worker into upright JPEG derivatives without metadata, and measures it like a JPEG", async () => {
    const { measurements, derivatives } = await analyseImage(heic, { maxPixels: MAX_PIXELS });
    expect(measurements).toMatchObject({ width: 640, height: 480 });
    // The same scene as the camera's JPEG: sharpness and brightness close to the JPEG's own.
    const jpeg = await analyseImage(corpusFile("jpg/gps/DSCN0010.jpg"), { maxPixels: MAX_PIXELS });
    expect(Math.abs(measurements.brightness - jpeg.measurements.brightness)).toBeLessThan(8);
    expect(measurements.sharpness).toBeGreaterThan(jpeg.measurements.sharpness * 0.3);
    for (const derivative of [derivatives.preview, derivatives.thumbnail]) {
      expect(sniffImageType(derivative).kind).toBe("jpeg");
      const meta = await sharp(derivative).metadata();
      expect(meta.exif).toBeUndefined(); // no GPS in what people are shown
      expect((meta.width ?? 0) > (meta.height ?? 0)).toBe(true);
    }
    const full = await jpegOf(heic, { maxPixels: MAX_PIXELS });
    expect(sniffImageType(full).kind).toBe("jpeg");
    expect(await sharp(full).metadata()).toMatchObject({ width: 640, height: 480 });
  });

  it("makes a privacy-blurred delivery copy as a JPEG: the detector sees a JPEG, EXIF (place, time, direction) copied, upright", async () => {
    const seen: string[] = [];
    const copy = await blurredCopy(
      heic,
      async (jpeg) => {
        seen.push(sniffImageType(jpeg).kind);
        return [[0.4, 0.3, 0.2, 0.5]];
      },
      { maxPixels: MAX_PIXELS },
    );
    expect(seen).toEqual(["jpeg"]);
    expect(sniffImageType(copy).kind).toBe("jpeg");
    const exif = await readExif(copy);
    expect(exif).toMatchObject({ make: "Apple", model: "iPhone 15 Pro", orientation: 1 });
    expect(exif.gps?.lat).toBeCloseTo(43.7705, 4);
    expect(exif.gps?.direction_deg).toBeCloseTo(123.5, 1);
    expect(await sharp(copy).metadata()).toMatchObject({ width: 640, height: 480 });
    // The head region is blurred: it differs from the plain decode there, the rest barely.
    const plain = await sharp(await jpegOf(heic, { maxPixels: MAX_PIXELS }))
      .extract({ left: 270, top: 150, width: 90, height: 60 })
      .greyscale()
      .raw()
      .toBuffer();
    const blurred = await sharp(copy).extract({ left: 270, top: 150, width: 90, height: 60 }).greyscale().raw().toBuffer();
    const difference = plain.reduce((sum, v, i) => sum + Math.abs(v - (blurred[i] ?? 0)), 0) / plain.length;
    expect(difference).toBeGreaterThan(2);
  });

  it("reads the edit traces (authenticity) of a HEIC as of the JPEG it was made from", async () => {
    const jpeg = await readFile(corpusFile("jpg/gps/DSCN0010.jpg"));
    const [fromJpeg, fromHeic] = [await readEditTraces(jpeg), await readEditTraces(await heicFromJpeg(jpeg, null))];
    // The Nikon's GPS clock is a day off its camera clock: the same figure from the HEIC's Exif item.
    expect(fromJpeg.gps_clock_offset_h).not.toBeNull();
    expect(fromHeic.gps_clock_offset_h).toBe(fromJpeg.gps_clock_offset_h);
    expect(fromHeic.maker_notes_missing).toBe(fromJpeg.maker_notes_missing);
  });

  it("refuses a bomb (a header claiming 100000×100000) before decoding, in the header check and in the decoder", async () => {
    const bomb = withClaimedSize(heic, 100_000, 100_000);
    expect(readHeifHeader(bomb)).toMatchObject({ width: 100_000, height: 100_000 });
    await expect(openImage(bomb, { maxPixels: MAX_PIXELS })).rejects.toBeInstanceOf(HeifTooLargeError);
    await expect(analyseImage(bomb, { maxPixels: MAX_PIXELS })).rejects.toBeInstanceOf(HeifTooLargeError);
    // The decoder's own check, for a file whose size only libheif knows (grids, transformations).
    await expect(decodeHeif(bomb, { maxPixels: MAX_PIXELS })).rejects.toBeInstanceOf(HeifTooLargeError);
  });

  it("reads the corpus's HEIF (no EXIF) and fails cleanly on garbage behind a HEIC header", async () => {
    const sample = await readFile(corpusFile("heic/samplefilehub.heif"));
    expect(sniffImageType(sample).kind).toBe("heif");
    expect(readHeifHeader(sample)).toMatchObject({ width: 640, height: 426 });
    expect((await readExif(sample)).gps).toBeNull();
    const { measurements } = await analyseImage(sample, { maxPixels: MAX_PIXELS });
    expect(measurements).toMatchObject({ width: 640, height: 426 });
    // Header and Exif intact, the coded picture gone: decoding fails with an error, nothing hangs.
    const cut = readHeifHeader(heic);
    await expect(analyseImage(heic.subarray(0, 700), { maxPixels: MAX_PIXELS })).rejects.toThrow();
    expect(cut).not.toBeNull();
  });
});
