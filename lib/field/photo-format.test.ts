import { describe, expect, it } from "vitest";
import { photoFormatOf, readPhotoFormat } from "./photo-format";

const ascii = (prefix: number[], text: string) => Uint8Array.from([...prefix, ...[...text].map((c) => c.charCodeAt(0))]);

describe("photoFormatOf: what the phone may send, by the file's first bytes", () => {
  it("sends JPEG and HEIC/HEIF", () => {
    expect(photoFormatOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe1]))).toEqual({ sendable: true, mime: "image/jpeg" });
    expect(photoFormatOf(ascii([0, 0, 0, 24], "ftypheic"))).toEqual({ sendable: true, mime: "image/heic" });
    expect(photoFormatOf(ascii([0, 0, 0, 24], "ftypmif1"))).toEqual({ sendable: true, mime: "image/heif" });
  });

  it("refuses a PNG, a GIF and a video, naming what they are, whatever the phone called them", () => {
    expect(photoFormatOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "image/jpeg")).toEqual({ sendable: false, mime: "image/png" });
    expect(photoFormatOf(ascii([], "GIF89a"))).toEqual({ sendable: false, mime: "image/gif" });
    expect(photoFormatOf(ascii([0, 0, 0, 20], "ftypqt  "))).toEqual({ sendable: false, mime: "video/quicktime" });
    expect(photoFormatOf(ascii([0, 0, 0, 24], "ftypmp42"))).toEqual({ sendable: false, mime: "video/mp4" });
  });

  it("names an unknown file by the phone's guess only when that guess is not a photo type", () => {
    expect(photoFormatOf(ascii([], "hello"), "text/plain")).toEqual({ sendable: false, mime: "text/plain" });
    expect(photoFormatOf(ascii([], "<html>"), "image/jpeg")).toEqual({ sendable: false, mime: null });
  });

  it("reads only the head of a Blob", async () => {
    const video = new Blob([ascii([0, 0, 0, 20], "ftypqt  "), new Uint8Array(1_000_000)], { type: "video/quicktime" });
    expect(await readPhotoFormat(video)).toEqual({ sendable: false, mime: "video/quicktime" });
  });
});
