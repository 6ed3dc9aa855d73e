import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { corpusFile, HAS_CORPUS } from "@/lib/testing/corpus";
import { readExif, summariseExif } from "./read-exif";

describe.skipIf(!HAS_CORPUS)("readExif on real camera files", () => {
  it("reads GPS, device and capture time of the Nikon COOLPIX P6000 files", async () => {
    const exif = await readExif(corpusFile("jpg/gps/DSCN0010.jpg"));
    expect(exif.present).toBe(true);
    expect(exif.make).toBe("NIKON");
    expect(exif.model).toBe("COOLPIX P6000");
    expect(exif.gps?.lat).toBeCloseTo(43.467, 3);
    expect(exif.gps?.lng).toBeCloseTo(11.885, 3);
    expect(exif.captured_at_local?.startsWith("2008-10-22")).toBe(true);
    expect(exif.width).toBe(640);
    expect(exif.height).toBe(480);
  });

  it("reads the Jolla phone: device and date, no GPS", async () => {
    const exif = await readExif(corpusFile("jpg/mobile/jolla.jpg"));
    expect(exif.model).toBe("Jolla");
    expect(exif.gps).toBeNull();
    expect(exif.captured_at_local?.startsWith("2014-09-21")).toBe(true);
  });

  it("reads the Canon EOS 40D with rich maker notes", async () => {
    const exif = await readExif(corpusFile("jpg/Canon_40D.jpg"));
    expect(exif.model).toBe("Canon EOS 40D");
    expect(exif.gps).toBeNull();
  });

  it("reads every orientation value, even behind an ICC profile", async () => {
    for (const value of [1, 2, 3, 4, 5, 6, 7, 8]) {
      expect((await readExif(corpusFile(`jpg/orientation/portrait_${value}.jpg`))).orientation).toBe(value);
      expect((await readExif(corpusFile(`jpg/orientation/landscape_${value}.jpg`))).orientation).toBe(value);
    }
  });

  it("does not throw on broken or hostile files", async () => {
    for (const file of [
      "jpg/corrupted.jpg",
      "jpg/tests/35-empty.jpg",
      "jpg/tests/36-memory_error.jpg",
      "jpg/invalid/image00971.jpg",
      "jpg/invalid/image01088.jpg",
    ]) {
      const exif = await readExif(corpusFile(file));
      expect(typeof exif.present).toBe("boolean");
    }
  });
});

describe("readExif on generated files", () => {
  it("reads GPS accuracy, direction, altitude and the capture time with its offset", async () => {
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#446688" } })
      .jpeg()
      .withExif({
        IFD0: { Make: "Google", Model: "Pixel 8" },
        IFD2: { DateTimeOriginal: "2026:11:20 10:11:12", OffsetTimeOriginal: "+01:00" },
        IFD3: {
          GPSLatitudeRef: "S",
          GPSLatitude: "33/1 51/1 3600/100",
          GPSLongitudeRef: "E",
          GPSLongitude: "151/1 12/1 3000/100",
          GPSAltitude: "58/1",
          GPSImgDirectionRef: "T",
          GPSImgDirection: "271/2",
          GPSHPositioningError: "9/2",
        },
      })
      .toBuffer();
    const exif = await readExif(jpeg);
    expect(exif.model).toBe("Pixel 8");
    expect(exif.captured_at).toBe("2026-11-20T09:11:12.000Z");
    expect(exif.utc_offset).toBe("+01:00");
    expect(exif.captured_at_source).toBe("offset");
    expect(exif.gps).toEqual({ lat: -33.86, lng: 151.2083333, altitude_m: 58, accuracy_m: 4.5, direction_deg: 135.5, direction_ref: "true" });
  });

  it("reports no EXIF for a file without any, and for bytes that are not an image", async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
      .jpeg()
      .toBuffer();
    expect((await readExif(plain)).present).toBe(false);
    expect((await readExif(Buffer.from("not an image at all"))).present).toBe(false);
  });
});

describe("summariseExif", () => {
  it("derives the UTC offset from the GPS clock when it is a plausible one", () => {
    const exif = summariseExif({ DateTimeOriginal: "2024:06:01 14:30:00", GPSDateStamp: "2024:06:01", GPSTimeStamp: [12, 30, 0] });
    expect(exif.utc_offset).toBe("+02:00");
    expect(exif.captured_at).toBe("2024-06-01T12:30:00.000Z");
  });

  it("ignores a GPS clock that disagrees by an impossible offset", () => {
    const exif = summariseExif({ DateTimeOriginal: "2008:10:22 16:28:39", GPSDateStamp: "2008:10:23", GPSTimeStamp: [14, 27, 7.24] });
    expect(exif.captured_at_source).toBe("assumed_utc");
    expect(exif.captured_at).toBe("2008-10-22T16:28:39.000Z");
  });

  it("cleans strings PostgreSQL cannot store (embedded NUL, lone surrogates) instead of passing them to a jsonb column", () => {
    const exif = summariseExif({ Make: "Can\u0000on\u0000\u0000", Model: "X\uD800 Pro", Software: "\u0000\u0000" });
    expect(exif.make).toBe("Canon");
    expect(exif.model).toBe("X\uFFFD Pro");
    expect(exif.software).toBeNull();
  });

  it("refuses impossible coordinates and null island", () => {
    expect(summariseExif({ GPSLatitude: [95, 0, 0], GPSLongitude: [10, 0, 0] }).gps).toBeNull();
    expect(summariseExif({ GPSLatitude: [0, 0, 0], GPSLongitude: [0, 0, 0] }).gps).toBeNull();
  });
});
