// Uploads stream to DATA_DIR/tmp before they are checked and stored; a process killed mid-upload
// (kill -9, out of memory, power) leaves its temp file behind. Each file's name says which process
// wrote it (host, pid and a random id of that process's life): at start and then periodically,
// the files of a process that is gone — on this host, its pid no longer runs, or runs as another
// life (a container's app is pid 1 after every restart) — are removed at once. Files whose writer
// cannot be judged (another host sharing the directory, names from before this scheme) go once
// untouched for a while (a live upload writes continuously), so instances sharing a directory are safe.
import { randomBytes } from "node:crypto";
import { readdir, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { log } from "@/lib/log";

export const TEMP_UPLOAD_MAX_AGE_MS = 15 * 60_000;

export interface UploadWriter {
  host: string;
  pid: number;
  /** Random per process life: tells a reused pid from the process that wrote the file. */
  life: string;
}

const THIS_PROCESS: UploadWriter = {
  host:
    hostname()
      .replace(/[^A-Za-z0-9-]/g, "-")
      .slice(0, 63) || "host",
  pid: process.pid,
  life: randomBytes(4).toString("hex"),
};

const NAME = /^upload-([A-Za-z0-9-]{1,63})\.(\d{1,10})\.([0-9a-f]{8})-[0-9a-f]+$/;

/** A fresh temp file name for an upload written by this process. */
export function tempUploadName(writer: UploadWriter = THIS_PROCESS): string {
  return `upload-${writer.host}.${writer.pid}.${writer.life}-${randomBytes(12).toString("hex")}`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the process that wrote this temp file is certainly gone; false when it cannot be told. */
export function writerIsGone(name: string, self: UploadWriter = THIS_PROCESS, running: (pid: number) => boolean = isRunning): boolean {
  const match = NAME.exec(name);
  if (!match || match[1] !== self.host) return false;
  const pid = Number(match[2]);
  if (pid === self.pid) return match[3] !== self.life;
  return !running(pid);
}

export interface SweepOptions {
  olderThanMs?: number;
  now?: number;
  /** This process, as the sweep sees it (tests pass another). */
  self?: UploadWriter;
  running?: (pid: number) => boolean;
}

/** Removes `upload-*` files whose writer is gone, or untouched for `olderThanMs`; returns how many. */
export async function sweepTempUploads(
  tempDir: string,
  { olderThanMs = TEMP_UPLOAD_MAX_AGE_MS, now = Date.now(), self = THIS_PROCESS, running = isRunning }: SweepOptions = {},
): Promise<number> {
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
      if (!info.isFile()) continue;
      if (!writerIsGone(name, self, running) && now - info.mtimeMs < olderThanMs) continue;
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
export function startTempUploadSweeper(
  tempDir: string,
  { everyMs = 5 * 60_000, olderThanMs = TEMP_UPLOAD_MAX_AGE_MS } = {},
): { first: Promise<number>; stop(): void } {
  const first = sweepTempUploads(tempDir, { olderThanMs });
  const timer = setInterval(() => void sweepTempUploads(tempDir, { olderThanMs }), everyMs);
  timer.unref();
  return { first, stop: () => clearInterval(timer) };
}
