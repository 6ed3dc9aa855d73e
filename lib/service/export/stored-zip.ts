// A streamed ZIP whose exact size is known before the first byte: files are stored, not
// compressed (JPEGs do not shrink), each opened only when the archive reaches it, and a metadata
// document produced as a stream twice — once to size it, once to send it — so memory stays flat.
// yazl switches to ZIP64 on its own when sizes or counts need it. The mission export and the
// order photos export both build their archives here.
import { Readable } from "node:stream";
import yazl from "yazl";
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
): Promise<StoredZip> {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  zip.on("error", (error: Error) => output.destroy(error));
  let fileCount = 0;
  for await (const page of files) {
    for (const file of page) {
      fileCount++;
      // Only the key is captured: the archive keeps one closure per entry until it ends.
      const key = file.storageKey;
      zip.addReadStreamLazy(file.name, { compress: false, mtime: file.mtime, size: file.byteSize }, (callback) => {
        ctx.store.read(key).then(
          (stream) => callback(null, stream),
          (error: Error) => callback(error, Readable.from([])),
        );
      });
    }
  }
  const metadataSize = await streamedSize(metadata.create());
  zip.addReadStreamLazy(metadata.name, { compress: false, mtime: metadata.mtime, size: metadataSize }, (callback) => callback(null, metadata.create()));
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
