// Drafts of orders for the dashboard's wizard: a create-order body in progress (not validated
// until it is priced or placed), saved by the service so that back, refresh, a deep link and a
// second tab all see the same draft. Saves carry the version they replace (If-Match): a save from
// a stale tab is refused with 412 instead of silently overwriting the other tab's work.
import { and, desc, eq } from "drizzle-orm";
import { orderDrafts } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";

type DraftRow = typeof orderDrafts.$inferSelect;

export function serializeDraft(row: DraftRow) {
  return {
    id: row.id,
    body: row.body as Record<string, unknown>,
    step: row.step,
    version: row.version,
    order_id: row.orderId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function createDraft(ctx: ServiceContext, { orgId, ...input }: { orgId: string; body: Record<string, unknown>; step?: string }) {
  const [row] = await ctx.db
    .insert(orderDrafts)
    .values({ id: createId("draft"), orgId, body: input.body, step: input.step ?? null })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return serializeDraft(row);
}

export async function getDraft(ctx: ServiceContext, { orgId, draftId: id }: { orgId: string; draftId: string }) {
  const [row] = await ctx.db
    .select()
    .from(orderDrafts)
    .where(and(eq(orderDrafts.id, id), eq(orderDrafts.orgId, orgId)))
    .limit(1);
  if (!row) throw notFound("draft");
  return serializeDraft(row);
}

export async function listDrafts(ctx: ServiceContext, { orgId, limit = 50 }: { orgId: string; limit?: number }) {
  const rows = await ctx.db.select().from(orderDrafts).where(eq(orderDrafts.orgId, orgId)).orderBy(desc(orderDrafts.updatedAt)).limit(limit);
  return rows.map(serializeDraft);
}

/** Replaces the draft's body (and step) when `expectedVersion` is current (or not given). */
export interface SaveDraftOptions {
  orgId: string;
  draftId: string;
  body: Record<string, unknown>;
  step?: string;
  orderId?: string;
  /** The version this save replaces (If-Match); a draft saved since answers 412. */
  expectedVersion?: number;
}

export async function saveDraft(ctx: ServiceContext, { orgId, draftId: id, expectedVersion, ...input }: SaveDraftOptions) {
  const current = await getDraft(ctx, { orgId, draftId: id });
  if (expectedVersion !== undefined && expectedVersion !== current.version) {
    throw new ApiError(412, "draft_changed", `The draft was saved elsewhere (version ${current.version}, not ${expectedVersion}); reload it.`);
  }
  const [row] = await ctx.db
    .update(orderDrafts)
    .set({
      body: input.body,
      step: input.step ?? current.step,
      orderId: input.orderId ?? current.order_id,
      version: current.version + 1,
      updatedAt: new Date(),
    })
    .where(and(eq(orderDrafts.id, id), eq(orderDrafts.orgId, orgId), eq(orderDrafts.version, current.version)))
    .returning();
  if (!row) throw new ApiError(412, "draft_changed", "The draft was saved elsewhere at the same moment; reload it.");
  return serializeDraft(row);
}

export async function deleteDraft(ctx: ServiceContext, { orgId, draftId: id }: { orgId: string; draftId: string }) {
  const rows = await ctx.db
    .delete(orderDrafts)
    .where(and(eq(orderDrafts.id, id), eq(orderDrafts.orgId, orgId)))
    .returning({ id: orderDrafts.id });
  if (rows.length === 0) throw notFound("draft");
}
