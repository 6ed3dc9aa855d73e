// The organisation's order-delivery secret: it signs every request to an order's
// `delivery.webhook_url` (X-SVC-Signature, as for webhook endpoints). Created once and shown
// once; rotating shows the new one once and keeps signing with the old one (X-SVC-Signature-
// Previous) for the grace period, so receivers can switch without losing a delivery. New and
// rotated secrets are Standard Webhooks secrets (`whsec_` + base64, ../webhooks/signing-secret.ts);
// one made before (`odsec_…`) keeps signing as it did until it is rotated.
import { and, eq, isNull } from "drizzle-orm";
import { organisations } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { isoOrNull } from "@/lib/service/iso-or-null";
import { newStandardSecret, type SigningSecret } from "@/lib/service/webhooks/signing-secret";

type OrgRow = typeof organisations.$inferSelect;

function describe(row: OrgRow, now = new Date()) {
  const previousLive = row.previousOrderDeliverySecretExpiresAt && row.previousOrderDeliverySecretExpiresAt > now;
  return {
    exists: row.orderDeliverySecret !== null,
    created_at: isoOrNull(row.orderDeliverySecretCreatedAt),
    previous_secret_expires_at: previousLive ? isoOrNull(row.previousOrderDeliverySecretExpiresAt) : null,
  };
}

async function orgRow(ctx: ServiceContext, orgId: string): Promise<OrgRow> {
  const [row] = await ctx.db.select().from(organisations).where(eq(organisations.id, orgId)).limit(1);
  if (!row) throw notFound("organisation");
  return row;
}

export async function getDeliverySecretInfo(ctx: ServiceContext, { orgId }: { orgId: string }) {
  return describe(await orgRow(ctx, orgId));
}

/** Creates the secret; 409 when there is one already (rotate it instead: it is never shown twice). */
export async function createDeliverySecret(ctx: ServiceContext, { orgId }: { orgId: string }) {
  const secret = newStandardSecret();
  const [row] = await ctx.db
    .update(organisations)
    .set({ orderDeliverySecret: ctx.secretBox.seal(secret.value), orderDeliverySecretFormat: secret.format, orderDeliverySecretCreatedAt: new Date() })
    .where(and(eq(organisations.id, orgId), isNull(organisations.orderDeliverySecret)))
    .returning();
  if (!row) {
    await orgRow(ctx, orgId);
    throw new ApiError(
      409,
      "delivery_secret_exists",
      "The organisation already has an order-delivery secret; it is shown only once. Rotate it to get a new one.",
    );
  }
  return { ...describe(row), secret: secret.value };
}

/** A new secret (created if there was none); the old one keeps signing for the grace period. */
export async function rotateDeliverySecret(ctx: ServiceContext, { orgId }: { orgId: string }) {
  const current = await orgRow(ctx, orgId);
  const secret = newStandardSecret();
  const now = new Date();
  const [row] = await ctx.db
    .update(organisations)
    .set({
      orderDeliverySecret: ctx.secretBox.seal(secret.value),
      orderDeliverySecretFormat: secret.format,
      orderDeliverySecretCreatedAt: now,
      // The outgoing secret moves across as stored (still sealed), with its format.
      previousOrderDeliverySecret: current.orderDeliverySecret,
      previousOrderDeliverySecretFormat: current.orderDeliverySecretFormat,
      previousOrderDeliverySecretExpiresAt: current.orderDeliverySecret ? new Date(now.getTime() + ctx.config.webhooks.secretGraceSeconds * 1000) : null,
    })
    .where(eq(organisations.id, orgId))
    .returning();
  if (!row) throw notFound("organisation");
  return { ...describe(row), secret: secret.value };
}

/** What signs a delivery to an order's URL now; null when the organisation has no secret. */
export async function orderDeliverySecrets(
  ctx: Pick<ServiceContext, "db" | "secretBox">,
  orgId: string,
  now: Date,
): Promise<{ secret: SigningSecret; previousSecret: SigningSecret | null } | null> {
  const [row] = await ctx.db.select().from(organisations).where(eq(organisations.id, orgId)).limit(1);
  if (!row?.orderDeliverySecret) return null;
  const previousLive = row.previousOrderDeliverySecret && row.previousOrderDeliverySecretExpiresAt && row.previousOrderDeliverySecretExpiresAt > now;
  return {
    secret: { value: ctx.secretBox.open(row.orderDeliverySecret), format: row.orderDeliverySecretFormat },
    previousSecret:
      previousLive && row.previousOrderDeliverySecret
        ? { value: ctx.secretBox.open(row.previousOrderDeliverySecret), format: row.previousOrderDeliverySecretFormat }
        : null,
  };
}
