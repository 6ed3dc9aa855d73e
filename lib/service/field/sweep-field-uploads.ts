// Housekeeping for resumable uploads: an upload past its expiry loses its bytes (a partial one
// was abandoned; a finished one kept only its row, for retries to find their submission) and its
// row. Driven by the database, so it works the same for the file and the S3 store and whichever
// instance runs it.
import { inArray, lt } from "drizzle-orm";
import { fieldUploads } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { fieldUploadStore, type FieldUploadStoreConfig } from "./field-upload-store";

const BATCH = 200;

export async function sweepFieldUploads(ctx: Pick<ServiceContext, "db"> & { config: FieldUploadStoreConfig }, now = new Date()): Promise<number> {
  const { datastore } = fieldUploadStore(ctx.config);
  let swept = 0;
  for (;;) {
    const expired = await ctx.db
      .select({ id: fieldUploads.id })
      .from(fieldUploads)
      .where(lt(fieldUploads.expiresAt, now))
      .limit(BATCH);
    if (expired.length === 0) return swept;
    // Finished ones gave their bytes up already, as a rule: removing again is harmless.
    for (const upload of expired) await datastore.remove(upload.id).catch(() => undefined);
    await ctx.db.delete(fieldUploads).where(inArray(fieldUploads.id, expired.map((u) => u.id)));
    swept += expired.length;
    if (expired.length < BATCH) return swept;
  }
}
