// Streams a multipart/form-data upload to temporary files, hashing as it goes and keeping each
// file's first bytes (its JPEG header, as a rule), with caps on file size, file count and field
// size enforced while reading — nothing is buffered whole in memory.
import { createHash } from "node:crypto";
import { createWriteStream, open } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { promisify } from "node:util";
import busboy from "busboy";
import { ApiError } from "@/lib/service/errors";
import { StorageError } from "@/lib/service/storage/object-store";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "@/lib/fs/private-files";
import { HEAD_BYTES } from "@/lib/photos/jpeg-header-length";
import { toStorableText, unstorableReason } from "@/lib/text/storable-text";
import { tempUploadName } from "./sweep-temp-uploads";

// A plain descriptor, not a FileHandle: the write stream then writes with fs's callbacks, not a promise per chunk.
const openFile = promisify(open);

function isDiskError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === "string";
}

export interface UploadedFile {
  field: string;
  originalName: string | null;
  declaredType: string;
  tempPath: string;
  size: number;
  sha256: string;
  /** The first HEAD_BYTES of the file (all of it when smaller): type sniffing, and the JPEG header when it fits. */
  head: Uint8Array;
  /** Set once the store has taken the temp file (moved or copied and removed): nothing left to remove. */
  consumed?: boolean;
}

export interface ParsedUpload {
  files: UploadedFile[];
  fields: Record<string, string>;
}

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
  fileField: string;
  allowedFields: string[];
  maxFieldBytes: number;
}

export async function parseUpload(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  tempDir: string,
  limits: UploadLimits,
): Promise<ParsedUpload> {
  if (!contentType?.toLowerCase().startsWith("multipart/form-data")) {
    throw new ApiError(415, "unsupported_media_type", "Send photos as multipart/form-data with one or more `photos` parts.");
  }
  if (!body) throw new ApiError(400, "malformed_request", "The request has no body.");

  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const writes: Promise<void>[] = [];
  let failure: ApiError | undefined;
  const fail = (error: ApiError) => {
    failure ??= error;
  };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.maxFiles,
        fields: limits.allowedFields.length + 5,
        fieldSize: limits.maxFieldBytes,
        parts: limits.maxFiles + limits.allowedFields.length + 5,
      },
    });
  } catch {
    throw new ApiError(400, "malformed_request", "The multipart body has no valid boundary.");
  }

  parser.on("file", (field, stream, info) => {
    if (field !== limits.fileField || failure) {
      if (!failure)
        fail(
          new ApiError(422, "validation_failed", `Unexpected file part "${field}".`, {
            errors: [{ pointer: field, in: "body", message: `Send photos in parts named "${limits.fileField}".` }],
          }),
        );
      stream.resume();
      return;
    }
    const tempPath = join(tempDir, tempUploadName());
    // The name is metadata the phone chose, not something the zoomer typed: cleaned, not refused.
    const file: UploadedFile = {
      field,
      originalName: info.filename ? toStorableText(info.filename).slice(0, 255) : null,
      declaredType: info.mimeType,
      tempPath,
      size: 0,
      sha256: "",
      head: new Uint8Array(0),
    };
    files.push(file);
    const tap = measuringTap(file);
    stream.on("limit", () => {
      fail(new ApiError(413, "file_too_large", `"${file.originalName ?? "photo"}" is larger than ${limits.maxFileBytes} bytes.`));
    });
    // The part waits (busboy pauses the body) until its temp file is open; if it cannot be
    // opened, the part is drained so that the body can still be read to its end. A body cut off
    // meanwhile errors the part before the pipeline listens: the pipeline reports it, this
    // listener only keeps it from being an uncaught 'error' event.
    stream.on("error", () => undefined);
    const written = openTempFile(tempPath).then(
      (fd) => pipeline(stream, tap, createWriteStream(tempPath, { fd })),
      (error: unknown) => {
        stream.resume();
        throw error;
      },
    );
    // Awaited below with the others; this keeps a failure before then from being an unhandled
    // rejection (which would end the process).
    written.catch(() => undefined);
    writes.push(written);
  });
  parser.on("field", (name, value, info) => {
    if (!limits.allowedFields.includes(name)) {
      fail(
        new ApiError(422, "validation_failed", `Unexpected field "${name}".`, {
          errors: [{ pointer: name, in: "body", message: `Allowed fields: ${limits.allowedFields.join(", ")}, and "${limits.fileField}" files.` }],
        }),
      );
    } else if (info.valueTruncated) {
      fail(
        new ApiError(422, "validation_failed", `Field "${name}" is too long.`, {
          errors: [{ pointer: name, in: "body", message: `At most ${limits.maxFieldBytes} bytes.` }],
        }),
      );
    } else if (unstorableReason(value)) {
      fail(
        new ApiError(422, "validation_failed", "The request is not valid; see errors[].", {
          errors: [{ pointer: name, in: "body", message: unstorableReason(value) ?? "", code: "invalid_text" }],
        }),
      );
    } else {
      fields[name] = value;
    }
  });
  parser.on("filesLimit", () => fail(new ApiError(413, "too_many_photos", `At most ${limits.maxFiles} photos per submission.`)));
  parser.on("partsLimit", () => fail(new ApiError(413, "too_many_parts", "The upload has too many parts.")));
  parser.on("fieldsLimit", () => fail(new ApiError(413, "too_many_parts", "The upload has too many fields.")));

  try {
    await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), parser);
    await Promise.all(writes);
  } catch (error) {
    const settled = await Promise.allSettled(writes);
    await removeTempFiles(files);
    if (failure) throw failure;
    // Our disk failing (full, read-only) is not the client's fault, and its message names paths.
    const diskError = [error, ...settled.map((r) => (r.status === "rejected" ? (r.reason as unknown) : null))].find(isDiskError);
    if (diskError) throw new StorageError("an upload could not be written to the temporary directory", { cause: diskError });
    throw new ApiError(
      400,
      "malformed_request",
      `The multipart body could not be read (${error instanceof Error ? error.message.split("\n")[0] : "unknown error"}).`,
    );
  }
  if (failure) {
    await removeTempFiles(files);
    throw failure;
  }
  if (files.length === 0) {
    throw new ApiError(422, "validation_failed", "No photos in the upload.", {
      errors: [{ pointer: limits.fileField, in: "body", message: `Attach one or more files in parts named "${limits.fileField}".` }],
    });
  }
  const empty = files.find((f) => f.size === 0);
  if (empty) {
    await removeTempFiles(files);
    throw new ApiError(422, "validation_failed", `"${empty.originalName ?? "photo"}" is empty.`, {
      errors: [{ pointer: limits.fileField, in: "body", message: "Empty file." }],
    });
  }
  return { files, fields };
}

/**
 * Passes a file's bytes through while measuring them into `file`: size, SHA-256 and the first
 * HEAD_BYTES. The hash and head are set when the stream ends.
 */
export function measuringTap(file: UploadedFile): Transform {
  const hash = createHash("sha256");
  // The head is copied once into its own buffer as the bytes pass: holding on to the chunks
  // instead would keep every 64 KiB chunk it touched alive, and joining them copied it twice.
  const head = Buffer.allocUnsafe(HEAD_BYTES);
  let headLength = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      file.size += chunk.length;
      if (headLength < HEAD_BYTES) headLength += chunk.copy(head, headLength, 0, HEAD_BYTES - headLength);
      callback(null, chunk);
    },
    flush(callback) {
      file.sha256 = hash.digest("hex");
      file.head = new Uint8Array(head.buffer, head.byteOffset, headLength);
      callback();
    },
  });
}

/**
 * Opens a new owner-only temp file. The temp directory is created when it is missing (the first
 * upload, or someone removed it), not checked before every upload: a mkdir per request was one
 * more trip to the thread pool on every photo's path.
 */
async function openTempFile(tempPath: string): Promise<number> {
  try {
    return await openFile(tempPath, "wx", PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(dirname(tempPath), { recursive: true, mode: PRIVATE_DIR_MODE });
    return openFile(tempPath, "wx", PRIVATE_FILE_MODE);
  }
}

/** Copies a finished upload from elsewhere (a tus store) to a temp file, measured like a multipart part. */
export async function spoolToTempFile(source: Readable, tempDir: string, originalName: string | null): Promise<UploadedFile> {
  const file: UploadedFile = {
    field: "photos",
    originalName,
    declaredType: "image/jpeg",
    tempPath: join(tempDir, tempUploadName()),
    size: 0,
    sha256: "",
    head: new Uint8Array(0),
  };
  try {
    const fd = await openTempFile(file.tempPath);
    await pipeline(source, measuringTap(file), createWriteStream(file.tempPath, { fd }));
  } catch (error) {
    source.destroy();
    await removeTempFiles([file]);
    throw new StorageError("an upload could not be copied to the temporary directory", { cause: error });
  }
  return file;
}

/** Removes the temp files the store has not taken. */
export async function removeTempFiles(files: Pick<UploadedFile, "tempPath" | "consumed">[]): Promise<void> {
  await Promise.all(files.filter((f) => !f.consumed).map((f) => rm(f.tempPath, { force: true })));
}
