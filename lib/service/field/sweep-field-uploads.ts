// Housekeeping for resumable uploads, so that nothing an upload wrote outlives it:
// - rows past their expiry lose their bytes and then the row (a partial upload was abandoned; a
//   finished one kept only its row, for retries to find their submission);
// - the upload FILES themselves are walked (the FileStore's DATA_DIR/tus-uploads: `upl_…` and
//   `upl_….json`): a file without a live row — its row gone (refused, deleted, swept, or the process
//   killed between the two), expired, or finished a while ago — is removed. The row is always
//   written before the first file (beginFieldUpload), so a file without one is never an upload in
//   the making; a short grace on the file's age covers anything written outside that order;
// - on S3, the store's own expired multipart uploads are aborted (S3Store.deleteExpired).
// Run at start and periodically by every process (startFieldUploadSweeper, from the runtime), and
// by the worker's housekeeping; a refused upload's files are removed at once (discardFieldUpload).
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { and, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { fieldUploads } from "@/lib/db/schema";
import { log } from "@/lib/log";
import type { ServiceContext } from "@/lib/service/context";
import { fieldUploadStore, type FieldUploadStoreConfig } from "./field-upload-store";

const BATCH = 200;
/** A file this young is left alone even without a live row; a finished upload's bytes this long after it finished. */
export const FIELD_UPLOAD_FILE_GRACE_MS = 5 * 60_000;

/** S3 stores whose server answered ListMultipartUploads with NotImplemented. */
const cannotListMultipart = new WeakSet<object>();

type SweepContext = Pick<ServiceContext, "db"> & { config: FieldUploadStoreConfig };

/** A refused or abandoned upload: its bytes (both files, or the S3 objects) and its row, now. */
export async function discardFieldUpload(ctx: SweepContext, uploadId: string): Promise<void> {
  await fieldUploadStore(ctx.config)
    .datastore.remove(uploadId)
    .catch(() => undefined);
  await ctx.db.delete(fieldUploads).where(inArray(fieldUploads.id, [uploadId]));
}

/** Which of these upload ids may keep their files at `now`. */
async function liveUploadIds(ctx: SweepContext, ids: string[], now: Date, graceMs: number): Promise<Set<string>> {
  const live = new Set<string>();
  const recently = new Date(now.getTime() - graceMs);
  for (let i = 0; i < ids.length; i += BATCH) {
    const rows = await ctx.db
      .select({ id: fieldUploads.id })
      .from(fieldUploads)
      .where(
        and(
          inArray(fieldUploads.id, ids.slice(i, i + BATCH)),
          gt(fieldUploads.expiresAt, now),
          // Unfinished, or finished so recently that its request may still be reading the bytes.
          or(
            and(isNull(fieldUploads.submissionId), isNull(fieldUploads.refusal)),
            gt(sql`coalesce(${fieldUploads.completedAt}, ${fieldUploads.createdAt})`, recently),
          ),
        ),
      );
    for (const row of rows) live.add(row.id);
  }
  return live;
}

export interface SweepUploadFilesOptions {
  directory: string;
  /** The ids among these whose files must stay. */
  liveIds: (ids: string[]) => Promise<Set<string>>;
  now?: Date;
  graceMs?: number;
}

/** Removes every file of the directory that belongs to no live upload (and is older than the grace); returns how many. */
export async function sweepUploadFiles({
  directory,
  liveIds,
  now = new Date(),
  graceMs = FIELD_UPLOAD_FILE_GRACE_MS,
}: SweepUploadFilesOptions): Promise<number> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return 0; // no upload was ever made here
  }
  const idOf = (name: string) => (name.endsWith(".json") ? name.slice(0, -".json".length) : name);
  const live = await liveIds([...new Set(names.map(idOf))]);
  let removed = 0;
  for (const name of names) {
    if (live.has(idOf(name))) continue;
    const path = join(directory, name);
    try {
      const info = await stat(path);
      if (!info.isFile() || now.getTime() - info.mtimeMs < graceMs) continue;
      await rm(path, { force: true });
      removed++;
    } catch {
      // Gone meanwhile: nothing to do.
    }
  }
  return removed;
}

export interface FieldUploadSweep {
  /** Rows past their expiry removed (with their bytes). */
  rows: number;
  /** Files without a live row removed from the FileStore's directory. */
  files: number;
  /** Expired multipart uploads the S3 store aborted. */
  s3: number;
}

export async function sweepFieldUploads(
  ctx: SweepContext,
  now = new Date(),
  { graceMs = FIELD_UPLOAD_FILE_GRACE_MS }: { graceMs?: number } = {},
): Promise<FieldUploadSweep> {
  const { datastore, directory } = fieldUploadStore(ctx.config);
  const sweep: FieldUploadSweep = { rows: 0, files: 0, s3: 0 };
  for (;;) {
    const expired = await ctx.db.select({ id: fieldUploads.id }).from(fieldUploads).where(lt(fieldUploads.expiresAt, now)).limit(BATCH);
    // Finished ones gave their bytes up already, as a rule: removing again is harmless.
    for (const upload of expired) await discardFieldUpload(ctx, upload.id);
    sweep.rows += expired.length;
    if (expired.length < BATCH) break;
  }
  if (directory) {
    sweep.files = await sweepUploadFiles({ directory, liveIds: (ids) => liveUploadIds(ctx, ids, now, graceMs), now, graceMs });
  } else if (!cannotListMultipart.has(datastore)) {
    // S3: the store lists the bucket's multipart uploads and aborts those begun before the expiry.
    sweep.s3 = await datastore.deleteExpired().catch((error: unknown) => {
      if (error instanceof Error && error.name === "NotImplemented") {
        // Some S3-compatible servers have no ListMultipartUploads: said once, not every sweep.
        cannotListMultipart.add(datastore);
        log.warn("the S3 server cannot list multipart uploads: abandoned ones are left to the bucket's lifecycle rule (AbortIncompleteMultipartUpload)");
      } else {
        log.warn("could not sweep expired uploads in S3", {}, error);
      }
      return 0;
    });
  }
  if (sweep.rows + sweep.files + sweep.s3 > 0) log.info("resumable uploads swept", { ...sweep });
  return sweep;
}

/** Sweeps now and then every `everyMs` until stopped (stop waits for a sweep under way). */
export function startFieldUploadSweeper(
  ctx: SweepContext,
  { everyMs = 5 * 60_000 }: { everyMs?: number } = {},
): { first: Promise<unknown>; stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running.then(() => sweepFieldUploads(ctx)).catch((error: unknown) => log.error("field upload sweep failed", {}, error));
    return running;
  };
  const first = run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return {
    first,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
