import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { jpegHeaderLength, readJpegHeader } from "./jpeg-header-length";

/** A segment: marker, big-endian length (which counts itself), payload. */
const segment = (marker: number, payloadLength: number) => [
  0xff,
  marker,
  ((payloadLength + 2) >> 8) & 0xff,
  (payloadLength + 2) & 0xff,
  ...new Array<number>(payloadLength).fill(0x20),
];
const SOI = [0xff, 0xd8];
const SOS_MARKER = 0xda;

describe("jpegHeaderLength", () => {
  it("ends the header after the SOS segment, past APP1, DQT and SOF", () => {
    const header = [...SOI, ...segment(0xe1, 300), ...segment(0xdb, 67), ...segment(0xc0, 15), ...segment(0xda, 10)];
    const file = Uint8Array.from([...header, 0x12, 0x34, 0xff, 0xd9]);
    expect(jpegHeaderLength(file)).toBe(header.length);
  });

  it("is null when the header runs past the bytes kept", () => {
    const header = [...SOI, ...segment(0xe1, 300), ...segment(0xc0, 15), ...segment(0xda, 10)];
    expect(jpegHeaderLength(Uint8Array.from(header.slice(0, 200)))).toBeNull();
    expect(jpegHeaderLength(Uint8Array.from(header.slice(0, header.length - 1)))).toBeNull();
  });

  it("skips fill bytes and standalone markers", () => {
    const header = [...SOI, 0xff, ...segment(0xe0, 14), 0xff, 0xd0, ...segment(0xda, 10)];
    expect(jpegHeaderLength(Uint8Array.from(header))).toBe(header.length);
  });

  it("is null for anything that is not a well-formed JPEG header", () => {
    expect(jpegHeaderLength(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))).toBeNull();
    expect(jpegHeaderLength(Uint8Array.from([...SOI, 0x00, 0x00, 0x00, 0x10]))).toBeNull();
    expect(jpegHeaderLength(Uint8Array.from([...SOI, 0xff, 0xe1, 0x00, 0x01]))).toBeNull();
    expect(jpegHeaderLength(Uint8Array.from(SOI))).toBeNull();
  });
});

describe("readJpegHeader's frame size", () => {
  const make = (options: { width: number; height: number; channels: 1 | 3 | 4 }) =>
    sharp({
      create: { width: options.width, height: options.height, channels: options.channels === 4 ? 4 : 3, background: { r: 40, g: 90, b: 160, alpha: 1 } },
    });
  const variants: [string, () => Promise<Buffer>][] = [
    ["baseline 4:2:0", () => make({ width: 1600, height: 1200, channels: 3 }).jpeg({ quality: 80 }).toBuffer()],
    ["progressive", () => make({ width: 801, height: 333, channels: 3 }).jpeg({ progressive: true }).toBuffer()],
    ["greyscale", () => make({ width: 640, height: 480, channels: 3 }).greyscale().jpeg().toBuffer()],
    ["4:4:4, mozjpeg", () => make({ width: 123, height: 4567, channels: 3 }).jpeg({ chromaSubsampling: "4:4:4", mozjpeg: true }).toBuffer()],
    ["CMYK", () => make({ width: 300, height: 200, channels: 3 }).toColourspace("cmyk").jpeg().toBuffer()],
    [
      "EXIF orientation 6 (stored size, as sharp reports it)",
      () => make({ width: 400, height: 300, channels: 3 }).withMetadata({ orientation: 6 }).jpeg().toBuffer(),
    ],
  ];

  it.each(variants)("is what sharp's header read reports: %s", async (_name, build) => {
    const file = await build();
    const metadata = await sharp(file).metadata();
    const header = readJpegHeader(file);
    expect(header?.frame).toEqual({ width: metadata.width, height: metadata.height });
    expect(header?.length).toBe(jpegHeaderLength(file));
  });

  it("leaves anything but a plain frame to sharp", () => {
    const sof = (marker: number, precision: number, components: number[][]) => [
      0xff,
      marker,
      0,
      8 + components.length * 3,
      precision,
      0x01,
      0x00,
      0x02,
      0x00,
      components.length,
      ...components.flat(),
    ];
    const sos = (ids: number[]) => [0xff, SOS_MARKER, 0, 6 + ids.length * 2, ids.length, ...ids.flatMap((id) => [id, 0]), 0, 63, 0];
    const header = (...segments: number[][]) => Uint8Array.from([...SOI, ...segments.flat()]);
    const ycc = [
      [1, 0x22, 0],
      [2, 0x11, 1],
      [3, 0x11, 1],
    ];
    expect(readJpegHeader(header(sof(0xc0, 8, ycc), sos([1, 2, 3])))?.frame).toEqual({ width: 512, height: 256 });
    expect(readJpegHeader(header(sof(0xc3, 8, ycc), sos([1, 2, 3])))?.frame).toBeNull(); // lossless
    expect(readJpegHeader(header(sof(0xc9, 8, ycc), sos([1, 2, 3])))?.frame).toBeNull(); // arithmetic
    expect(readJpegHeader(header(sof(0xc0, 12, ycc), sos([1, 2, 3])))?.frame).toBeNull(); // 12-bit
    expect(
      readJpegHeader(
        header(
          sof(0xc0, 8, [
            [1, 0x11, 0],
            [1, 0x11, 1],
            [3, 0x11, 1],
          ]),
          sos([1, 3]),
        ),
      )?.frame,
    ).toBeNull(); // repeated id
    expect(
      readJpegHeader(
        header(
          sof(0xc0, 8, [
            [1, 0x51, 0],
            [2, 0x11, 1],
            [3, 0x11, 1],
          ]),
          sos([1, 2, 3]),
        ),
      )?.frame,
    ).toBeNull(); // sampling 5
    expect(readJpegHeader(header(sof(0xc0, 8, ycc), sos([1, 2, 9])))?.frame).toBeNull(); // scan names no frame component
    expect(readJpegHeader(header(sos([1])))?.frame).toBeNull(); // no frame at all
    expect(readJpegHeader(header(sof(0xc0, 8, ycc), sof(0xc0, 8, ycc), sos([1, 2, 3])))?.frame).toBeNull(); // two frames
  });
});
