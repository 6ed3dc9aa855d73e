import { createReadStream } from "node:fs";
import { copyFile, mkdir, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { assertSafeKey, type ObjectStore, type StoredObject } from "./object-store";

/** Objects as files under one directory; writes land by rename, so a reader never sees half a file. */
export class LocalObjectStore implements ObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  localPath(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async putFile(key: string, tempPath: string): Promise<StoredObject> {
    const target = this.localPath(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(tempPath, target);
    } catch (error) {
      // Temp dir on another filesystem: copy, then remove the temp file.
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      await copyFile(tempPath, `${target}.partial`);
      await rename(`${target}.partial`, target);
      await unlink(tempPath);
    }
    return { size: (await stat(target)).size };
  }

  async putBuffer(key: string, data: Buffer): Promise<StoredObject> {
    const target = this.localPath(key);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(`${target}.partial`, data);
    await rename(`${target}.partial`, target);
    return { size: data.length };
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(this.localPath(key), range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      return { size: (await stat(this.localPath(key))).size };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }
}
