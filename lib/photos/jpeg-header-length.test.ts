import { describe, expect, it } from "vitest";
import { jpegHeaderLength } from "./jpeg-header-length";

/** A segment: marker, big-endian length (which counts itself), payload. */
const segment = (marker: number, payloadLength: number) => [0xff, marker, ((payloadLength + 2) >> 8) & 0xff, (payloadLength + 2) & 0xff, ...new Array<number>(payloadLength).fill(0x20)];
const SOI = [0xff, 0xd8];

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
