// Webhook endpoints of an organisation: register, read, change, delete, rotate the secret.
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { webhookEndpoints } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { Webhook } from "@/lib/schemas/webhook";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { newStandardSecret } from "./signing-secret";
import { assertSafeWebhookUrl, UnsafeTargetError } from "./ssrf-guard";
import { isoOrNull } from "@/lib/service/iso-or-null";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function serializeWebhook(row: EndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    failing_since: isoOrNull(row.failingSince),
    consecutive_failures: row.consecutiveFailures,
    previous_secret_expires_at: row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The URL, normalised, when it is a target we may POST to; else 422 pointing at `pointer`. */
export async function checkedUrl(ctx: ServiceContext, url: string, pointer = "/url"): Promise<string> {
  try {
    return (await assertSafeWebhookUrl(url, { allowPrivate: ctx.config.webhooks.allowPrivateTargets })).toString();
  } catch (error) {
    if (error instanceof UnsafeTargetError) {
      throw new ApiError(422, "unsafe_webhook_url", error.message, { errors: [{ pointer, in: "body", message: error.message }] });
    }
    throw error;
  }
}

export async function createWebhook(ctx: ServiceContext, orgId: string, input: { url: string; events?: string[]; description?: string }) {
  const url = await checkedUrl(ctx, input.url);
  const secret = newStandardSecret();
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({
      id: createId("webhook"),
      orgId,
      url,
      events: input.events ?? ["*"],
      description: input.description ?? null,
      secret: ctx.secretBox.seal(secret.value),
      secretFormat: secret.format,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return { ...serializeWebhook(row), secret: secret.value };
}

/** Registered endpoints only (`webhook`), or the hidden endpoint of an order's delivery URL (`order`). */
export type EndpointScope = "webhook" | "order";

const inScope = (scope: EndpointScope) => (scope === "webhook" ? isNull(webhookEndpoints.orderId) : isNotNull(webhookEndpoints.orderId));

export async function getWebhookRow(ctx: ServiceContext, orgId: string, id: string, scope: EndpointScope = "webhook"): Promise<EndpointRow> {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.orgId, orgId), inScope(scope)))
    .limit(1);
  if (!row) throw notFound("webhook endpoint");
  return row;
}

export async function listWebhooks(ctx: ServiceContext, orgId: string) {
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), inScope("webhook")))
    .orderBy(desc(webhookEndpoints.createdAt));
  return rows.map(serializeWebhook);
}

export async function updateWebhook(
  ctx: ServiceContext,
  orgId: string,
  id: string,
  input: { url?: string; events?: string[]; description?: string | null; enabled?: boolean },
) {
  await getWebhookRow(ctx, orgId, id);
  const changes: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: new Date() };
  if (input.url !== undefined) changes.url = await checkedUrl(ctx, input.url);
  if (input.events !== undefined) changes.events = input.events;
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    // Re-enabling starts afresh: the failure streak that disabled it is history now.
    if (input.enabled) Object.assign(changes, { disabledReason: null, consecutiveFailures: 0, failingSince: null });
    else changes.disabledReason = "Disabled by the organisation.";
  }
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set(changes)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.orgId, orgId), inScope("webhook")))
    .returning();
  if (!row) throw notFound("webhook endpoint");
  return serializeWebhook(row);
}

export async function deleteWebhook(ctx: ServiceContext, orgId: string, id: string): Promise<void> {
  const rows = await ctx.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.orgId, orgId), inScope("webhook")))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw notFound("webhook endpoint");
}

/**
 * A new secret, always in the Standard Webhooks form (a legacy endpoint moves to it here); the old
 * one keeps signing (X-SVC-Signature-Previous, and a second `webhook-signature` entry keyed as its
 * format says) for the grace period.
 */
export async function rotateWebhookSecret(ctx: ServiceContext, orgId: string, id: string) {
  const current = await getWebhookRow(ctx, orgId, id);
  const secret = newStandardSecret();
  const expires = new Date(Date.now() + ctx.config.webhooks.secretGraceSeconds * 1000);
  const [row] = await ctx.db
    .update(webhookEndpoints)
    // The outgoing secret moves across as stored (still sealed); only the new one is sealed here.
    .set({
      secret: ctx.secretBox.seal(secret.value),
      secretFormat: secret.format,
      previousSecret: current.secret,
      previousSecretFormat: current.secretFormat,
      previousSecretExpiresAt: expires,
      updatedAt: new Date(),
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.orgId, orgId), inScope("webhook")))
    .returning();
  if (!row) throw notFound("webhook endpoint");
  return { ...serializeWebhook(row), secret: secret.value };
}
