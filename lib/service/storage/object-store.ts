// Where photo bytes live. The local store keeps them under DATA_DIR; an S3-compatible store
// implements the same interface (put from a finished temp file, ranged reads, delete).
import type { Readable } from "node:stream";

export interface StoredObject {
  size: number;
}

export interface ObjectStore {
  /** Moves a finished temporary file into the store under `key` (the temp file is consumed). */
  putFile(key: string, tempPath: string): Promise<StoredObject>;
  putBuffer(key: string, data: Buffer): Promise<StoredObject>;
  /** A stream of the object's bytes, optionally a byte range (inclusive end, like HTTP ranges). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /** A local path when the store is a filesystem (lets ZIP export read files lazily). */
  localPath?(key: string): string;
}

/** Keys are built by us from ids only; this refuses anything that could escape the store. */
export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9_]+(\/[a-z0-9_.-]+)*$/.test(key) || key.split("/").some((part) => part === ".." || part === ".")) {
    throw new Error(`unsafe storage key: ${key}`);
  }
}
