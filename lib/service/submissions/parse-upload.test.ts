import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/service/errors";
import { parseUpload, removeTempFiles, type UploadLimits } from "./parse-upload";

const LIMITS: UploadLimits = { maxFileBytes: 1 << 20, maxFiles: 2, fileField: "photos", allowedFields: ["angle"], maxFieldBytes: 100 };
const BOUNDARY = "bench-boundary";
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(70_000, 7)]);

function body(parts: Buffer[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new Uint8Array(part));
      controller.close();
    },
  });
}

const filePart = (bytes: Buffer) =>
  Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), bytes]);
const end = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

describe("parseUpload", () => {
  const dirs: string[] = [];
  const tempRoot = () => {
    const dir = mkdtempSync(join(tmpdir(), "parse-upload-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("creates a missing temp directory owner-only, and writes the part owner-only with its size and SHA-256", async () => {
    const tempDir = join(tempRoot(), "data", "tmp");
    const upload = await parseUpload(body([filePart(JPEG), end]), CONTENT_TYPE, tempDir, LIMITS);
    const [file] = upload.files;
    expect(file?.size).toBe(JPEG.length);
    expect(file?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(tempDir).mode & 0o777).toBe(0o700);
    expect(statSync(file?.tempPath ?? "").mode & 0o777).toBe(0o600);
    await removeTempFiles(upload.files);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("a body cut off inside the photo is a 400 and leaves no temp file (no uncaught stream error)", async () => {
    const tempDir = join(tempRoot(), "tmp");
    const cut = parseUpload(body([filePart(JPEG.subarray(0, 30_000))]), CONTENT_TYPE, tempDir, LIMITS);
    await expect(cut).rejects.toBeInstanceOf(ApiError);
    await expect(cut).rejects.toMatchObject({ status: 400 });
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it("leaves a temp file the store has taken (consumed) alone", async () => {
    const tempDir = join(tempRoot(), "tmp");
    const upload = await parseUpload(body([filePart(JPEG), end]), CONTENT_TYPE, tempDir, LIMITS);
    const [file] = upload.files;
    if (!file) throw new Error("no file");
    file.consumed = true;
    await removeTempFiles(upload.files);
    expect(readdirSync(tempDir)).toHaveLength(1);
  });
});
