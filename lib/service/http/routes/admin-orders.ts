// Operator routes of the order side: organisations with their plan and the month's use, the plan
// and card on file of one organisation, the price list, and an organisation's order-delivery secret.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { asc, count, eq, ilike } from "drizzle-orm";
import { PLANS, organisations } from "@/lib/db/schema";
import { DeliverySecretRevealSchema } from "@/lib/schemas/order";
import { notFound } from "@/lib/service/errors";
import { rotateDeliverySecret } from "@/lib/service/orders/delivery-secret";
import { PLAN_TERMS, monthStart } from "@/lib/service/orders/plans";
import { PriceListSchema, getPriceList, setPriceList } from "@/lib/service/orders/price-list";
import { photosUsedSql, photosUsedThisMonth } from "@/lib/service/orders/quote-order";
import { isTestPaymentMethod } from "@/lib/service/payments/test-card-processor";
import { ApiError } from "@/lib/service/errors";
import { jsonBody } from "../middleware/json-body";
import { requireAdmin } from "../middleware/require-admin";
import { ListMetaSchema, PagingQuery, adminSecurity, publicErrorResponses } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Operator"];
const OrgIdParam = z.object({
  org_id: z
    .string()
    .max(100)
    .openapi({ param: { name: "org_id", in: "path" } }),
});
const ok = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

const OrganisationUsageSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.enum(PLANS),
    card_on_file: z.string(),
    privacy_blur: z.boolean().openapi({ description: "Deliveries carry copies with faces blurred (EXIF copied); the originals stay stored for the operator." }),
    created_at: z.string(),
    usage: z.object({
      month: z.string().openapi({ description: "The calendar month (UTC) counted, YYYY-MM.", example: "2026-11" }),
      photos: z.number().int().openapi({ description: "Photos of order cycles dispatched this month." }),
      photos_per_month: z.number().int().nullable().openapi({ description: "The plan's quota; null: unlimited." }),
    }),
  })
  .openapi("OrganisationWithUsage");

const listOrgsRoute = createRoute({
  method: "get",
  path: "/orgs",
  operationId: "listOrganisations",
  tags,
  summary: "List organisations with their plan and the month's use",
  description: "Every organisation with its plan and this calendar month's photo use against the plan's quota.",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  request: { query: z.object({ ...PagingQuery, q: z.string().max(200).optional().openapi({ description: "Part of the name (case-insensitive)." }) }) },
  responses: {
    200: ok(z.object({ data: z.array(OrganisationUsageSchema), meta: ListMetaSchema }).openapi("OrganisationList"), "A page of organisations, by name."),
    ...publicErrorResponses(401, 422),
  },
});

const updateOrgRoute = createRoute({
  method: "patch",
  path: "/orgs/{org_id}",
  operationId: "updateOrganisation",
  tags,
  summary: "Change an organisation's name, plan, card on file or privacy blur",
  description:
    "Changes an organisation's name, plan (which sets its rate limit, monthly quota and delivery promise), card on file, or `privacy_blur`: when on, its deliveries' `url` is a copy of each photo with faces blurred (EXIF copied, its embedded thumbnail removed); the original is kept for the operator and the retention period. Off by default: originals are delivered byte for byte.",
  security: adminSecurity,
  middleware: [requireAdmin, jsonBody] as const,
  request: {
    params: OrgIdParam,
    body: {
      content: {
        "application/json": {
          schema: z
            .strictObject({
              name: z.string().trim().min(1).max(200).optional(),
              plan: z.enum(PLANS).optional(),
              card_on_file: z
                .string()
                .max(100)
                .optional()
                .openapi({ description: "Test mode: one of the test payment methods (pm_card_visa, pm_card_declined, …)." }),
              privacy_blur: z.boolean().optional(),
            })
            .refine((b) => Object.keys(b).length > 0, { message: "Send at least one field to change." })
            .openapi("UpdateOrganisation"),
        },
      },
      required: true,
    },
  },
  responses: { 200: ok(OrganisationUsageSchema, "The organisation."), ...publicErrorResponses(400, 401, 404, 413, 415, 422) },
});

const getPricesRoute = createRoute({
  method: "get",
  path: "/price-list",
  operationId: "getPriceList",
  tags,
  summary: "The price list of the order interface",
  description: "The price list the order interface quotes from: per-photo prices by category and time of day, recurring discounts, currency.",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  responses: { 200: ok(PriceListSchema.extend({ updated_at: z.string() }).openapi("PriceListWithDate"), "The prices in force."), ...publicErrorResponses(401) },
});

const putPricesRoute = createRoute({
  method: "put",
  path: "/price-list",
  operationId: "replacePriceList",
  tags,
  summary: "Replace the price list",
  description: "New quotes use it at once; existing orders keep the quote they were created with.",
  security: adminSecurity,
  middleware: [requireAdmin, jsonBody] as const,
  request: { body: { content: { "application/json": { schema: PriceListSchema } }, required: true } },
  responses: { 200: ok(PriceListSchema.extend({ updated_at: z.string() }), "The new prices."), ...publicErrorResponses(400, 401, 413, 415, 422) },
});

const rotateSecretRoute = createRoute({
  method: "post",
  path: "/orgs/{org_id}/delivery-secret/rotate",
  operationId: "rotateOrganisationDeliverySecret",
  tags,
  summary: "Create or rotate an organisation's order-delivery secret",
  description: "For the partner's enterprise contact: a new secret, shown only here; the old one keeps signing for the grace period.",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  request: { params: OrgIdParam },
  responses: { 200: ok(DeliverySecretRevealSchema, "The new secret."), ...publicErrorResponses(401, 404) },
});

type OrgRow = typeof organisations.$inferSelect;

function withUsage(row: OrgRow, photos: number, now: Date) {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    card_on_file: row.cardOnFile,
    privacy_blur: row.privacyBlur,
    created_at: row.createdAt.toISOString(),
    usage: { month: monthStart(now).toISOString().slice(0, 7), photos, photos_per_month: PLAN_TERMS[row.plan].photosPerMonth },
  };
}

export function registerAdminOrderRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /orgs – organisations, their plan and the month's use
  app.openapi(listOrgsRoute, async (c) => {
    const { db } = c.var.ctx;
    const { page, per_page, q } = c.req.valid("query");
    const now = new Date();
    const condition = q ? ilike(organisations.name, `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`) : undefined;
    const [rows, totals] = await Promise.all([
      db
        .select({ org: organisations, photos: photosUsedSql(organisations.id, now) })
        .from(organisations)
        .where(condition)
        .orderBy(asc(organisations.name), asc(organisations.id))
        .limit(per_page)
        .offset((page - 1) * per_page),
      db.select({ total: count() }).from(organisations).where(condition),
    ]);
    return c.json({ data: rows.map((r) => withUsage(r.org, Number(r.photos), now)), meta: { total: totals[0]?.total ?? 0, page, per_page } }, 200);
  });

  // PATCH /orgs/:org_id – plan, name, card on file, privacy blur
  app.openapi(updateOrgRoute, async (c) => {
    const { ctx } = c.var;
    const { org_id } = c.req.valid("param");
    const body = c.req.valid("json");
    if (body.card_on_file !== undefined && !(ctx.payments.testMode && isTestPaymentMethod(body.card_on_file))) {
      throw new ApiError(422, "validation_failed", "card_on_file must be a test payment method in test mode.", {
        errors: [
          {
            pointer: "/card_on_file",
            in: "body",
            message: "Use pm_card_visa, pm_card_mastercard, pm_card_declined, pm_card_insufficient_funds or pm_card_authentication_required.",
          },
        ],
      });
    }
    const [row] = await ctx.db
      .update(organisations)
      .set({
        ...(body.name ? { name: body.name } : {}),
        ...(body.plan ? { plan: body.plan } : {}),
        ...(body.card_on_file ? { cardOnFile: body.card_on_file } : {}),
        ...(body.privacy_blur !== undefined ? { privacyBlur: body.privacy_blur } : {}),
      })
      .where(eq(organisations.id, org_id))
      .returning();
    if (!row) throw notFound("organisation");
    // Its plan may have changed: requests of its keys and tokens see it at once (in this process).
    ctx.credentials.invalidateOrg(org_id);
    const now = new Date();
    return c.json(withUsage(row, await photosUsedThisMonth(ctx.db, org_id, now), now), 200);
  });

  // GET /price-list – prices in force
  app.openapi(getPricesRoute, async (c) => {
    const { prices, updatedAt } = await getPriceList(c.var.ctx.db);
    return c.json({ ...prices, updated_at: updatedAt.toISOString() }, 200);
  });

  // PUT /price-list – replace the prices
  app.openapi(putPricesRoute, async (c) => {
    const { prices, updatedAt } = await setPriceList(c.var.ctx.db, c.req.valid("json"));
    return c.json({ ...prices, updated_at: updatedAt.toISOString() }, 200);
  });

  // POST /orgs/:org_id/delivery-secret/rotate – new order-delivery secret
  app.openapi(rotateSecretRoute, async (c) => c.json(await rotateDeliverySecret(c.var.ctx, { orgId: c.req.valid("param").org_id }), 200));
}
