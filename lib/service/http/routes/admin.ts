import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { PARTNER_SCOPES, type Scope } from "@/lib/auth/scopes";
import { PLANS, ROLES, organisations } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { MAX_ACTIVE_API_KEYS, createApiKey } from "@/lib/service/accounts/create-api-key";
import { createClient } from "@/lib/service/accounts/create-client";
import { createOrganisation } from "@/lib/service/accounts/create-organisation";
import { createUser } from "@/lib/service/accounts/create-user";
import { createZoomer } from "@/lib/service/accounts/create-zoomer";
import { revokeClient } from "@/lib/service/accounts/revoke-client";
import { listApiKeys } from "@/lib/service/credentials/list-api-keys";
import { revokeApiKey } from "@/lib/service/credentials/revoke-api-key";
import { OrgApiKeySchema } from "@/lib/schemas/credentials";
import { notFound } from "@/lib/service/errors";
import { jsonBody } from "../middleware/json-body";
import { requireAdmin } from "../middleware/require-admin";
import { adminSecurity, publicErrorResponses, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Operator"];
const name = z.string().trim().min(1).max(200);
const OrgIdParam = z.object({
  org_id: z
    .string()
    .max(MAX_ID_LENGTH)
    .openapi({ param: { name: "org_id", in: "path" } }),
});
const adminErrors = publicErrorResponses(400, 401, 404, 413, 415, 422);

const OrganisationSchema = z.object({ id: z.string(), name: z.string(), plan: z.enum(PLANS), created_at: z.string() }).openapi("Organisation");

const ClientCredentialsSchema = z
  .object({
    client_id: z.string(),
    client_secret: z.string().openapi({ description: "Shown only in this response." }),
    scopes: z.array(z.string()),
  })
  .openapi("ClientCredentials");

const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const created = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

const createOrgRoute = createRoute({
  method: "post",
  path: "/orgs",
  operationId: "createOrganisation",
  tags,
  summary: "Create a partner organisation",
  description: "Creates a partner organisation (plan Developer unless given); its credentials, users and API keys are created separately.",
  security: adminSecurity,
  middleware: [requireAdmin, jsonBody] as const,
  request: { body: json(z.strictObject({ name, plan: z.enum(PLANS).optional() }).openapi("CreateOrganisation")) },
  responses: { 201: created(OrganisationSchema, "The organisation."), ...adminErrors },
});

const createClientRoute = createRoute({
  method: "post",
  path: "/orgs/{org_id}/clients",
  operationId: "createOrganisationClient",
  tags,
  summary: "Create partner API client credentials",
  description: "Creates OAuth client credentials for an organisation with the scopes given; the client secret is in this response only.",
  security: adminSecurity,
  middleware: [requireAdmin, jsonBody] as const,
  request: {
    params: OrgIdParam,
    body: json(
      z
        .strictObject({
          name,
          scopes: z
            .array(z.enum(PARTNER_SCOPES as [Scope, ...Scope[]]))
            .min(1)
            .max(PARTNER_SCOPES.length)
            .openapi({ description: "Scopes the client may be granted (submissions:write is for zoomers only)." }),
        })
        .openapi("CreateClient"),
    ),
  },
  responses: { 201: created(ClientCredentialsSchema, "The credentials; the secret is shown only here."), ...adminErrors },
});

const revokeClientRoute = createRoute({
  method: "delete",
  path: "/clients/{client_id}",
  operationId: "revokeClientCredentials",
  tags,
  summary: "Revoke API client credentials",
  description:
    "The client can no longer get tokens, and tokens it already has stop working: at once on the instance that revoked it, within moments on every other instance (at most 5 seconds).",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  request: {
    params: z.object({
      client_id: z
        .string()
        .max(MAX_ID_LENGTH)
        .openapi({ param: { name: "client_id", in: "path" } }),
    }),
  },
  responses: { 204: { description: "Revoked." }, ...publicErrorResponses(401, 404) },
});

const createUserRoute = createRoute({
  method: "post",
  path: "/orgs/{org_id}/users",
  operationId: "addOrganisationUser",
  tags,
  summary: "Add a dashboard user to an organisation",
  description: "An existing user (same email) is added to this organisation too, keeping their password.",
  security: adminSecurity,
  middleware: [requireAdmin, jsonBody] as const,
  request: {
    params: OrgIdParam,
    body: json(
      z
        .strictObject({
          email: z.email(),
          password: z.string().min(12, "At least 12 characters.").max(200),
          role: z.enum(ROLES),
          name: name.optional(),
        })
        .openapi("CreateUser"),
    ),
  },
  responses: {
    201: created(
      z.object({ id: z.string(), email: z.string(), org_id: z.string(), role: z.enum(ROLES), created: z.boolean() }).openapi("User"),
      "The user and their membership.",
    ),
    ...adminErrors,
  },
});

const createApiKeyRoute = createRoute({
  method: "post",
  path: "/orgs/{org_id}/api-keys",
  operationId: "createOrganisationApiKey",
  tags,
  summary: "Create an order-interface API key",
  description:
    "Creates an order-interface API key for an organisation (read-only or read-write); the key is in this response only and stored hashed. " +
    `An organisation holds at most ${MAX_ACTIVE_API_KEYS} active keys: one more is 409 \`api_key_limit_reached\` (revoke one first).`,
  security: adminSecurity,
  middleware: [requireAdmin, jsonBody] as const,
  request: {
    params: OrgIdParam,
    body: json(
      z
        .strictObject({
          name,
          access: z
            .enum(["read_write", "read_only"])
            .optional()
            .openapi({ description: "read_only keys may call the order interface's GET routes only. Default read_write." }),
        })
        .openapi("CreateApiKey"),
    ),
  },
  responses: {
    201: created(
      z.object({ id: z.string(), name: z.string(), access: z.enum(["read_write", "read_only"]), api_key: z.string(), prefix: z.string() }).openapi("ApiKey"),
      "The key; shown only here.",
    ),
    ...adminErrors,
    ...publicErrorResponses(409),
  },
});

const listApiKeysRoute = createRoute({
  method: "get",
  path: "/orgs/{org_id}/api-keys",
  operationId: "listOrganisationApiKeys",
  tags,
  summary: "List an organisation's order-interface API keys",
  description: "Revoked ones included, newest first; only each key's prefix is shown.",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  request: { params: OrgIdParam },
  responses: {
    200: {
      description: "The keys.",
      content: { "application/json": { schema: z.object({ data: z.array(OrgApiKeySchema) }).openapi("OrganisationApiKeyList") } },
    },
    ...publicErrorResponses(401, 404),
  },
});

const revokeApiKeyRoute = createRoute({
  method: "delete",
  path: "/orgs/{org_id}/api-keys/{key_id}",
  operationId: "revokeOrganisationApiKey",
  tags,
  summary: "Revoke an order-interface API key",
  description:
    "The key stops working at once on the instance that revoked it and within 5 seconds on every other instance (verified keys are kept that long). Revoking a revoked key changes nothing; a key of another organisation is 404.",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  request: {
    params: OrgIdParam.extend({
      key_id: z
        .string()
        .max(MAX_ID_LENGTH)
        .openapi({ param: { name: "key_id", in: "path" }, example: "key_06h0m4b7yq4r6t9v0wxyzab3k" }),
    }),
  },
  responses: { 204: { description: "Revoked." }, ...publicErrorResponses(401, 404) },
});

const createZoomerRoute = createRoute({
  method: "post",
  path: "/zoomers",
  operationId: "createZoomer",
  tags,
  summary: "Create a zoomer (field contributor) with credentials",
  description: "The credentials carry the scope submissions:write only.",
  security: adminSecurity,
  middleware: [requireAdmin, jsonBody] as const,
  request: { body: json(z.strictObject({ name }).openapi("CreateZoomer")) },
  responses: {
    201: created(
      z.object({ id: z.string(), name: z.string(), client_id: z.string(), client_secret: z.string() }).openapi("Zoomer"),
      "The zoomer and its credentials; the secret is shown only here.",
    ),
    ...adminErrors,
  },
});

async function requireOrg(db: AppEnv["Variables"]["ctx"]["db"], orgId: string) {
  const [org] = await db.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  if (!org) throw notFound("organisation");
}

export function registerAdminRoutes(app: OpenAPIHono<AppEnv>) {
  // POST /orgs – create an organisation
  app.openapi(createOrgRoute, async (c) => c.json(await createOrganisation({ db: c.var.ctx.db, ...c.req.valid("json") }), 201));

  // POST /orgs/:org_id/clients – partner client credentials
  app.openapi(createClientRoute, async (c) => {
    const { db } = c.var.ctx;
    const { org_id } = c.req.valid("param");
    await requireOrg(db, org_id);
    const body = c.req.valid("json");
    const { client_id, client_secret, scopes } = await createClient({ db, name: body.name, scopes: body.scopes, kind: "partner", orgId: org_id });
    return c.json({ client_id, client_secret, scopes }, 201);
  });

  // DELETE /clients/:client_id – revoke credentials
  app.openapi(revokeClientRoute, async (c) => {
    const { client_id } = c.req.valid("param");
    const outcome = await revokeClient({ db: c.var.ctx.db, clientId: client_id });
    c.var.ctx.limiter.clientRevoked(client_id);
    if (outcome === "already_revoked") throw notFound("active client");
    return c.body(null, 204);
  });

  // POST /orgs/:org_id/users – dashboard user
  app.openapi(createUserRoute, async (c) => {
    const { db } = c.var.ctx;
    const { org_id } = c.req.valid("param");
    await requireOrg(db, org_id);
    return c.json(await createUser({ db, orgId: org_id, ...c.req.valid("json") }), 201);
  });

  // POST /orgs/:org_id/api-keys – order-interface key
  app.openapi(createApiKeyRoute, async (c) => {
    const { db } = c.var.ctx;
    const { org_id } = c.req.valid("param");
    await requireOrg(db, org_id);
    const body = c.req.valid("json");
    const { id, name, access, api_key, prefix } = await createApiKey({ db, orgId: org_id, name: body.name, access: body.access });
    return c.json({ id, name, access, api_key, prefix }, 201);
  });

  // GET /orgs/:org_id/api-keys – the organisation's order-interface keys
  app.openapi(listApiKeysRoute, async (c) => {
    const { db } = c.var.ctx;
    const { org_id } = c.req.valid("param");
    await requireOrg(db, org_id);
    return c.json({ data: await listApiKeys({ db, orgId: org_id }) }, 200);
  });

  // DELETE /orgs/:org_id/api-keys/:key_id – revoke a key
  app.openapi(revokeApiKeyRoute, async (c) => {
    const { org_id, key_id } = c.req.valid("param");
    await revokeApiKey({ db: c.var.ctx.db, credentials: c.var.ctx.credentials, orgId: org_id, keyId: key_id });
    return c.body(null, 204);
  });

  // POST /zoomers – field contributor
  app.openapi(createZoomerRoute, async (c) => c.json(await createZoomer({ db: c.var.ctx.db, name: c.req.valid("json").name }), 201));
}
