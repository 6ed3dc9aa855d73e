// A streamed ZIP whose exact size is known before the first byte: files are stored, not
// compressed (JPEGs do not shrink), each opened only when the archive reaches it, and a metadata
// document produced as a stream — kept from its sizing pass when it is small, produced a second
// time otherwise — so memory stays bounded. Always ZIP64 records (zip-records.ts), so sizes and
// counts have no 4 GiB / 65,535 limits and every record has a fixed length. CRC-32 by zlib.crc32
// (native) as the bytes pass. The mission export and the order photos export both build their
// archives here; small documents (the order's evidence signatures) join the photos as entries
// read when the archive reaches them.
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { log } from "@/lib/log";
import type { ServiceContext } from "@/lib/service/context";
import { archiveBytes, centralHeader, dataDescriptor, endRecords, localHeader, type WrittenEntry } from "./zip-records";

export type StoredFile = {
  /** The entry name; built by the caller from ids only (never from anything a client sent). */
  name: string;
  byteSize: number;
  mtime: Date;
} & (
  | {
      /** The object's key in the store. */
      storageKey: string;
    }
  | {
      /** A small document (a signature, a key set), read when the archive reaches it; exactly byteSize bytes. */
      read: () => Promise<Buffer>;
    }
);

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

/** metadata.json up to this size is kept from its sizing pass and sent from memory; a larger one is produced again. */
export const METADATA_KEPT_BYTES = 4 * 1024 * 1024;

/** Sizes the document, keeping its chunks while they stay under `keep` bytes. */
async function sizeDocument(stream: Readable, keep: number): Promise<{ size: number; kept: Buffer[] | null }> {
  let size = 0;
  let kept: Buffer[] | null = [];
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += bytes.length;
    if (kept && size <= keep) kept.push(bytes);
    else kept = null;
  }
  return { size, kept };
}

interface PendingEntry {
  name: Buffer;
  size: number;
  mtime: Date;
  /** Where the bytes come from: a photo's store key, a small document's reader, or null for the metadata document. */
  source: { storageKey: string } | { read: () => Promise<Buffer> } | null;
}

/**
 * Adds `files` (page by page) and then `metadataName`, whose content `metadata()` must produce
 * identically on each call (it may be read once for its size and once for the archive).
 */
export async function storedZip(
  ctx: ServiceContext,
  files: AsyncIterable<StoredFile[]>,
  metadata: { name: string; mtime: Date; create: () => Readable },
  /** Named in the log when the archive stops part-way (e.g. `{ mission_id }`). */
  logContext: Record<string, string> = {},
): Promise<StoredZip> {
  const entries: PendingEntry[] = [];
  for await (const page of files) {
    for (const file of page)
      entries.push({
        name: Buffer.from(file.name, "utf8"),
        size: file.byteSize,
        mtime: file.mtime,
        source: "storageKey" in file ? { storageKey: file.storageKey } : { read: file.read },
      });
  }
  const fileCount = entries.length;
  const document = await sizeDocument(metadata.create(), METADATA_KEPT_BYTES);
  entries.push({ name: Buffer.from(metadata.name, "utf8"), size: document.size, mtime: metadata.mtime, source: null });
  const size = archiveBytes(entries);

  /** The entry's bytes: a photo's store stream iterated directly (no generator in between, per chunk), or the document. */
  async function entryBytes(entry: PendingEntry): Promise<AsyncIterable<Buffer | string> | Iterable<Buffer>> {
    if (entry.source && "storageKey" in entry.source) return (await ctx.store.read(entry.source.storageKey)) as AsyncIterable<Buffer>;
    if (entry.source) return [await entry.source.read()];
    return document.kept ?? (metadata.create() as AsyncIterable<Buffer | string>);
  }

  async function* archive(): AsyncGenerator<Buffer> {
    const written: WrittenEntry[] = [];
    let offset = 0;
    try {
      for (const entry of entries) {
        const header = localHeader(entry);
        yield header;
        let crc = 0;
        let sent = 0;
        for await (const bytes of await entryBytes(entry)) {
          const chunk = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
          crc = crc32(chunk, crc);
          sent += chunk.length;
          if (sent > entry.size) break;
          yield chunk;
        }
        // A file shorter or longer than recorded (changed in the store, cut off) would break the
        // announced size and every offset after it: the archive stops instead.
        if (sent !== entry.size) throw new Error(`entry ${entry.name.toString()} has ${sent} bytes, ${entry.size} expected`);
        const done: WrittenEntry = { name: entry.name, size: entry.size, mtime: entry.mtime, crc32: crc, offset };
        const descriptor = dataDescriptor(done);
        yield descriptor;
        written.push(done);
        offset += header.length + entry.size + descriptor.length;
      }
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      log.error("export stopped part-way", logContext, cause);
      throw new ExportError(cause);
    }
    const centralOffset = offset;
    let centralSize = 0;
    // The central directory in batches: one write per entry would be thousands of tiny chunks.
    let batch: Buffer[] = [];
    for (const entry of written) {
      const record = centralHeader(entry);
      centralSize += record.length;
      batch.push(record);
      if (batch.length === 256) {
        yield Buffer.concat(batch);
        batch = [];
      }
    }
    if (batch.length > 0) yield Buffer.concat(batch);
    yield endRecords({ entryCount: written.length, centralOffset, centralSize });
  }

  return { stream: Readable.from(archive(), { objectMode: false }), size, fileCount };
}
