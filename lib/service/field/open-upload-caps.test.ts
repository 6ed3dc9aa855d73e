import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { ApiError } from "@/lib/service/errors";
import { assertRoomForUpload, DEFAULT_MAX_OPEN_UPLOAD_BYTES, DEFAULT_MAX_OPEN_UPLOADS, openUploadCaps } from "./open-upload-caps";

const MiB = 1024 * 1024;

function refusal(fn: () => void): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("openUploadCaps", () => {
  it("defaults to 20 uploads and 250 MiB, and takes the configured ones", () => {
    expect(openUploadCaps({})).toEqual({ count: DEFAULT_MAX_OPEN_UPLOADS, bytes: DEFAULT_MAX_OPEN_UPLOAD_BYTES });
    expect(DEFAULT_MAX_OPEN_UPLOADS).toBe(20);
    expect(DEFAULT_MAX_OPEN_UPLOAD_BYTES).toBe(250 * MiB);
    expect(openUploadCaps({ maxOpenUploads: 3, maxOpenUploadBytes: 10 })).toEqual({ count: 3, bytes: 10 });
  });
});

describe("the environment's caps", () => {
  it("defaults to 20 and 250 MiB, takes whole numbers, and refuses a bytes cap below the largest photo", () => {
    const defaults = parseEnv({});
    expect([defaults.MAX_OPEN_UPLOADS_PER_ZOOMER, defaults.MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER]).toEqual([20, 250 * MiB]);
    const set = parseEnv({ MAX_OPEN_UPLOADS_PER_ZOOMER: "5", MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER: String(100 * MiB) });
    expect([set.MAX_OPEN_UPLOADS_PER_ZOOMER, set.MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER]).toEqual([5, 100 * MiB]);
    expect(() => parseEnv({ MAX_OPEN_UPLOADS_PER_ZOOMER: "0" })).toThrow(/MAX_OPEN_UPLOADS_PER_ZOOMER/);
    expect(() => parseEnv({ MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER: String(10 * MiB) })).toThrow(
      /MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER: must be at least MAX_UPLOAD_BYTES/,
    );
  });
});

describe("assertRoomForUpload", () => {
  const caps = { count: 20, bytes: 250 * MiB };

  it("lets the 20th upload in and refuses the 21st with too_many_open_uploads, saying how many are open", () => {
    expect(() => assertRoomForUpload({ count: 19, bytes: 19 * MiB }, MiB, caps)).not.toThrow();
    const error = refusal(() => assertRoomForUpload({ count: 20, bytes: 20 * MiB }, MiB, caps));
    expect(error.status).toBe(409);
    expect(error.code).toBe("too_many_open_uploads");
    expect(error.message).toContain("You have 20 unfinished uploads");
    expect(error.message).toContain("at most 20");
    expect(error.message).toMatch(/Finish or DELETE/);
  });

  it("refuses by reserved bytes with upload_quota_exceeded, at the byte", () => {
    expect(() => assertRoomForUpload({ count: 2, bytes: 200 * MiB }, 50 * MiB, caps)).not.toThrow();
    const error = refusal(() => assertRoomForUpload({ count: 2, bytes: 200 * MiB }, 50 * MiB + 1, caps));
    expect(error.status).toBe(409);
    expect(error.code).toBe("upload_quota_exceeded");
    expect(error.message).toContain("Your 2 unfinished uploads reserve 200 MiB");
    expect(error.message).toContain(`${250 * MiB} bytes`);
  });

  it("names the count first when both caps are passed", () => {
    expect(refusal(() => assertRoomForUpload({ count: 20, bytes: 250 * MiB }, MiB, caps)).code).toBe("too_many_open_uploads");
  });
});
