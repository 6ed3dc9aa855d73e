import { constants, createReadStream, open } from "node:fs";
import { access, chmod, copyFile, mkdir, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "@/lib/fs/private-files";
import { assertSafeKey, ObjectNotFoundError, StorageError, type ObjectStore, type PutFileOptions, type StoredObject } from "./object-store";

const openFile = promisify(open);

/**
 * Objects as files under one directory; writes land by rename, so a reader never sees half a file.
 * Owner-only like the rest of DATA_DIR (lib/fs/private-files.ts): originals carry GPS.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = "local";
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  localPath(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async putFile(key: string, tempPath: string, { measured }: PutFileOptions = {}): Promise<StoredObject> {
    const target = this.localPath(key);
    const directory = mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    if (measured) {
      // Intake's own temp file: its size was counted and its mode set when it was written, so
      // the photo's path is the directory and the rename, nothing else.
      await directory;
      await this.moveIn(tempPath, target);
      return { size: measured.size };
    }
    // The directory and the temp file's size and mode in one wait (the size is the inode's, moved
    // below); a temp file already owner-only needs no chmod.
    const [, temp] = await Promise.all([directory, stat(tempPath)]);
    if ((temp.mode & 0o777) !== PRIVATE_FILE_MODE) await chmod(tempPath, PRIVATE_FILE_MODE);
    await this.moveIn(tempPath, target);
    return { size: temp.size };
  }

  /** Renames the temp file to `target`; across filesystems, copies it and removes the temp file. */
  private async moveIn(tempPath: string, target: string): Promise<void> {
    try {
      await rename(tempPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      await copyFile(tempPath, `${target}.partial`);
      await chmod(`${target}.partial`, PRIVATE_FILE_MODE);
      await rename(`${target}.partial`, target);
      await unlink(tempPath);
    }
  }

  async putBuffer(key: string, data: Buffer): Promise<StoredObject> {
    const target = this.localPath(key);
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFile(`${target}.partial`, data, { mode: PRIVATE_FILE_MODE });
    await rename(`${target}.partial`, target);
    return { size: data.length };
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    // Opened here, not lazily by the stream: a missing file rejects this promise (a clear 404 or
    // export error) instead of erroring a stream that a caller may not be listening to yet. A plain
    // descriptor, not a FileHandle: the stream then reads with fs's callbacks, not a promise per
    // chunk (a ZIP export reads thousands of files; stored-zip.ts).
    const path = this.localPath(key);
    let fd: number;
    try {
      fd = await openFile(path, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ObjectNotFoundError(key);
      throw new StorageError(`could not open ${key}`, { cause: error });
    }
    return createReadStream(path, range ? { fd, start: range.start, end: range.end } : { fd });
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

  async ping(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
      await access(this.root, constants.R_OK | constants.W_OK);
    } catch (error) {
      throw new StorageError("the photo directory is not writable", { cause: error });
    }
  }
}
