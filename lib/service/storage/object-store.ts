// Where photo bytes live. The local store keeps them under DATA_DIR (the embedded default); the
// S3 store keeps them in an S3-compatible bucket so that every instance and worker sees the same
// objects (scale-out). Both implement this interface: put from a finished temp file, ranged
// reads, stat, delete, and a readiness probe.
import type { Readable } from "node:stream";

export interface StoredObject {
  size: number;
}

export interface PutFileOptions {
  /** SHA-256 (hex) of the bytes: the store checks the object it wrote against it. */
  sha256?: string;
  contentType?: string;
  /**
   * The temp file as its writer measured it: its size, and that it was created owner-only
   * (0600). The local store then moves it without looking at it first (no stat, no chmod).
   */
  measured?: { size: number; ownerOnly: true };
}

export interface ObjectStore {
  /** What kind of store this is (health figures, logs). */
  readonly kind: "local" | "s3";
  /** Moves a finished temporary file into the store under `key` (the temp file is consumed). */
  putFile(key: string, tempPath: string, options?: PutFileOptions): Promise<StoredObject>;
  putBuffer(key: string, data: Buffer, options?: { contentType?: string }): Promise<StoredObject>;
  /**
   * A stream of the object's bytes, optionally a byte range (inclusive end, like HTTP ranges).
   * Rejects with ObjectNotFoundError when there is no such object. The stream may still fail
   * later (a file removed, a connection cut): callers must listen for its `error`.
   */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /** Checks that the store can be reached and written to (readiness); throws when it cannot. */
  ping(): Promise<void>;
  /** A local path when the store is a filesystem (lets image analysis read the file directly). */
  localPath?(key: string): string;
}

/** Keys are built by us from ids only; this refuses anything that could escape the store. */
export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9_]+(\/[a-z0-9_.-]+)*$/.test(key) || key.split("/").some((part) => part === ".." || part === ".")) {
    throw new Error(`unsafe storage key: ${key}`);
  }
}

/**
 * A failure of the store itself (unreachable, refused, cut off, wrong bytes written). Its message
 * is for logs; the HTTP layer answers 503 `storage_unavailable` without it, so no bucket name,
 * endpoint or path reaches a partner.
 */
export class StorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageError";
  }
}

/** The object does not exist (removed, or written by an instance on another disk). */
export class ObjectNotFoundError extends StorageError {
  constructor(key: string) {
    super(`no object under ${key}`);
    this.name = "ObjectNotFoundError";
  }
}
