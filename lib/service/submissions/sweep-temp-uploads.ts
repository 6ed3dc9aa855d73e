// Uploads stream to DATA_DIR/tmp before they are checked and stored; a process killed mid-upload
// leaves its temp file behind. These are removed at start and periodically. Only files untouched
// for a while go (a live upload writes continuously), so instances sharing a directory are safe.
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { log } from "@/lib/log";

export const TEMP_UPLOAD_MAX_AGE_MS = 15 * 60_000;

/** Removes `upload-*` files older than `olderThanMs` (by modification time); returns how many. */
export async function sweepTempUploads(tempDir: string, { olderThanMs = TEMP_UPLOAD_MAX_AGE_MS, now = Date.now() } = {}): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tempDir);
  } catch {
    return 0; // no temp directory yet
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith("upload-")) continue;
    const path = join(tempDir, name);
    try {
      const info = await stat(path);
      if (!info.isFile() || now - info.mtimeMs < olderThanMs) continue;
      await rm(path, { force: true });
      removed++;
    } catch {
      // Gone meanwhile (its upload finished): nothing to do.
    }
  }
  if (removed > 0) log.info("leftover temp uploads removed", { files: removed });
  return removed;
}

/** Sweeps now and then every `everyMs` until stopped. */
export function startTempUploadSweeper(tempDir: string, { everyMs = 5 * 60_000, olderThanMs = TEMP_UPLOAD_MAX_AGE_MS } = {}): { first: Promise<number>; stop(): void } {
  const first = sweepTempUploads(tempDir, { olderThanMs });
  const timer = setInterval(() => void sweepTempUploads(tempDir, { olderThanMs }), everyMs);
  timer.unref();
  return { first, stop: () => clearInterval(timer) };
}
