// A streamed ZIP whose exact size is known before the first byte: files are stored, not
// compressed (JPEGs do not shrink), each opened only when the archive reaches it, and a metadata
// document produced as a stream twice — once to size it, once to send it — so memory stays flat.
// yazl switches to ZIP64 on its own when sizes or counts need it. The mission export and the
// order photos export both build their archives here.
import { Readable } from "node:stream";
import yazl from "yazl";
import { log } from "@/lib/log";
import type { ServiceContext } from "@/lib/service/context";

export interface StoredFile {
  /** The entry name; built by the caller from ids only (never from anything a client sent). */
  name: string;
  /** The object's key in the store. */
  storageKey: string;
  byteSize: number;
  mtime: Date;
}

export interface StoredZip {
  stream: Readable;
  /** Exact archive size, known before the first byte is sent (Content-Length, progress bars). */
  size: number;
  fileCount: number;
}

/** Why an archive stopped part-way; the cause (with keys or paths) is for the log only. */
export class ExportError extends Error {
  constructor(cause: Error) {
    super("the export stopped: a photo could not be read from storage", { cause });
    this.name = "ExportError";
  }
}

async function streamedSize(stream: Readable): Promise<number> {
  let size = 0;
  for await (const chunk of stream) size += Buffer.byteLength(chunk as string);
  return size;
}

/**
 * Adds `files` (page by page) and then `metadataName`, whose content `metadata()` must produce
 * identically on each call (it is read once for its size, once for the archive).
 */
export async function storedZip(
  ctx: ServiceContext,
  files: AsyncIterable<StoredFile[]>,
  metadata: { name: string; mtime: Date; create: () => Readable },
  /** Named in the log when the archive stops part-way (e.g. `{ mission_id }`). */
  logContext: Record<string, string> = {},
): Promise<StoredZip> {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  // One failure (a missing object, a read cut off, a short file) ends the archive: the client sees
  // the response cut short (the announced Content-Length is not reached), never a valid-looking ZIP.
  const fail = (error: Error) => {
    if (output.destroyed) return;
    log.error("export stopped part-way", logContext, error);
    output.destroy(new ExportError(error));
  };
  zip.on("error", fail);
  let fileCount = 0;
  for await (const page of files) {
    for (const file of page) {
      fileCount++;
      // Only the key is captured: the archive keeps one closure per entry until it ends.
      const key = file.storageKey;
      zip.addReadStreamLazy(file.name, { compress: false, mtime: file.mtime, size: file.byteSize }, (callback) => {
        ctx.store.read(key).then(
          (stream) => {
            // yazl pipes the stream without listening for its errors: a file removed or a
            // connection cut mid-entry would be an uncaught exception that ends the process.
            stream.once("error", (error: Error) => fail(error));
            callback(null, stream);
          },
          (error: Error) => fail(error),
        );
      });
    }
  }
  const metadataSize = await streamedSize(metadata.create());
  zip.addReadStreamLazy(metadata.name, { compress: false, mtime: metadata.mtime, size: metadataSize }, (callback) => {
    const stream = metadata.create();
    stream.once("error", (error: Error) => fail(error)); // a database error mid-document, as above
    callback(null, stream);
  });
  // @types/yazl declares the callback without its argument; yazl passes the total size (README).
  const onSize = ((total: number) => sizeKnown(total)) as () => void;
  let sizeKnown: (total: number) => void = () => {};
  const size = await new Promise<number>((resolve) => {
    sizeKnown = resolve;
    // Always ZIP64 records: yazl 3.3.1's size calculation adds the ZIP64 end record from about 540
    // entries while its writer adds it only past 4 GiB, announcing 76 bytes too many in between.
    zip.end({ forceZip64Format: true, comment: "" }, onSize);
  });
  return { stream: output, size, fileCount };
}
