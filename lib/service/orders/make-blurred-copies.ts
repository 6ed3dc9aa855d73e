// For organisations with privacy_blur: the full-size copy of each delivered photo with faces
// blurred (lib/photos/blur-faces.ts, EXIF copied less its thumbnail), stored beside the original
// — which stays, byte for byte, for the operator and the retention period. Made once, at delivery,
// before the delivery's transaction (CPU work must not hold locks).
import { eq } from "drizzle-orm";
import { images, organisations } from "@/lib/db/schema";
import { blurredCopy } from "@/lib/photos/blur-faces";
import type { ServiceContext } from "@/lib/service/context";

type ImageRow = typeof images.$inferSelect;

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Whether the organisation's deliveries carry blurred copies. */
export async function wantsBlurredDelivery(ctx: ServiceContext, orgId: string): Promise<boolean> {
  const [org] = await ctx.db.select({ privacyBlur: organisations.privacyBlur }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  return org?.privacyBlur ?? false;
}

/** The images with their blurred copy made and recorded (those that had one are left as they are). */
export async function makeBlurredCopies(ctx: ServiceContext, rows: ImageRow[]): Promise<ImageRow[]> {
  const findPeople = ctx.findPeople ?? (() => Promise.reject(new Error("no people detector")));
  const out: ImageRow[] = [];
  for (const row of rows) {
    if (row.blurredKey) {
      out.push(row);
      continue;
    }
    const original = await readAll(await ctx.store.read(row.storageKey));
    const copy = await blurredCopy(original, findPeople, { maxPixels: ctx.config.uploads.maxPixels });
    const key = `${row.storageKey.replace(/\/original\.(jpg|heic|heif)$/, "")}/blurred.jpg`;
    await ctx.store.putBuffer(key, copy, { contentType: "image/jpeg" });
    await ctx.db.update(images).set({ blurredKey: key }).where(eq(images.id, row.id));
    out.push({ ...row, blurredKey: key });
  }
  return out;
}
