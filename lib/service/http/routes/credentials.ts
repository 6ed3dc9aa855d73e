// The organisation's own credentials, managed from the dashboard by its administrators (scope
// clients:manage, held only by admin dashboard tokens): partner API clients and API keys.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import {
  ApiClientSchema,
  ApiClientWithSecretSchema,
  CreateApiKeySchema,
  CreateClientSchema,
  OrgApiKeySchema,
  OrgApiKeyWithKeySchema,
} from "@/lib/schemas/credentials";
import { MAX_ACTIVE_API_KEYS, createApiKey } from "@/lib/service/accounts/create-api-key";
import { createClient } from "@/lib/service/accounts/create-client";
import { revokeClient } from "@/lib/service/accounts/revoke-client";
import { listApiKeys } from "@/lib/service/credentials/list-api-keys";
import { listPartnerClients } from "@/lib/service/credentials/list-partner-clients";
import { revokeApiKey } from "@/lib/service/credentials/revoke-api-key";
import { authenticate, callerOrg } from "../middleware/authenticate";
import { jsonBody } from "../middleware/json-body";
import { errorResponses, jsonResponse, security, noContent, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Credentials"];
const scope = "clients:manage" as const;
const auth = authenticate({ scope });
const jsonBodyOf = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const ClientIdParam = z.object({
  client_id: z
    .string()
    .max(MAX_ID_LENGTH)
    .openapi({ param: { name: "client_id", in: "path" }, example: "cli_06h0m4b7yq4r6t9v0wxyzab3k" }),
});
const KeyIdParam = z.object({
  key_id: z
    .string()
    .max(MAX_ID_LENGTH)
    .openapi({ param: { name: "key_id", in: "path" }, example: "key_06h0m4b7yq4r6t9v0wxyzab3k" }),
});

const routes = {
  listClients: createRoute({
    method: "get",
    path: "/clients",
    operationId: "listClients",
    tags,
    summary: "List the organisation's API clients",
    description: "Partner API clients (OAuth client credentials), revoked ones included, newest first. Secrets are never shown again.",
    security: security(scope),
    middleware: [auth] as const,
    responses: { 200: jsonResponse(z.object({ data: z.array(ApiClientSchema) }).openapi("ApiClientList"), "The clients."), ...errorResponses() },
  }),
  createClient: createRoute({
    method: "post",
    path: "/clients",
    operationId: "createClient",
    tags,
    summary: "Create an API client",
    description:
      "Client credentials for an integration, holding the scopes given (partner scopes only: clients:manage and submissions:write are refused). " +
      "The `client_secret` is in this response only.",
    security: security(scope),
    middleware: [auth, jsonBody] as const,
    request: { body: jsonBodyOf(CreateClientSchema) },
    responses: { 201: jsonResponse(ApiClientWithSecretSchema, "The client and its secret."), ...errorResponses(400, 413, 415, 422) },
  }),
  revokeClient: createRoute({
    method: "delete",
    path: "/clients/{client_id}",
    operationId: "revokeClient",
    tags,
    summary: "Revoke an API client",
    description:
      "It can no longer get tokens, and the tokens it has stop working: at once on the instance that revoked it, within moments on every other instance (at most 5 seconds). Revoking a revoked client changes nothing.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: ClientIdParam },
    responses: { 204: noContent("Revoked."), ...errorResponses(404) },
  }),
  listApiKeys: createRoute({
    method: "get",
    path: "/api-keys",
    operationId: "listApiKeys",
    tags,
    summary: "List the organisation's API keys",
    description: "Order-interface API keys, revoked ones included, newest first; only each key's prefix is shown.",
    security: security(scope),
    middleware: [auth] as const,
    responses: { 200: jsonResponse(z.object({ data: z.array(OrgApiKeySchema) }).openapi("OrgApiKeyList"), "The keys."), ...errorResponses() },
  }),
  createApiKey: createRoute({
    method: "post",
    path: "/api-keys",
    operationId: "createApiKey",
    tags,
    summary: "Create an API key",
    description:
      "An order-interface API key; the `key` is in this response only (it is stored as a digest). " +
      `An organisation holds at most ${MAX_ACTIVE_API_KEYS} active keys: one more is 409 \`api_key_limit_reached\` (revoke one first). ` +
      "The plan's requests per minute count per organisation, whatever the key.",
    security: security(scope),
    middleware: [auth, jsonBody] as const,
    request: { body: jsonBodyOf(CreateApiKeySchema) },
    responses: { 201: jsonResponse(OrgApiKeyWithKeySchema, "The key."), ...errorResponses(400, 409, 413, 415, 422) },
  }),
  revokeApiKey: createRoute({
    method: "delete",
    path: "/api-keys/{key_id}",
    operationId: "revokeApiKey",
    tags,
    summary: "Revoke an API key",
    description:
      "The key stops working at once on the instance that revoked it and within 5 seconds on every other instance (verified keys are kept that long). Revoking a revoked key changes nothing.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: KeyIdParam },
    responses: { 204: noContent("Revoked."), ...errorResponses(404) },
  }),
};

export function registerCredentialRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /clients – the organisation's partner API clients
  app.openapi(routes.listClients, async (c) => c.json({ data: await listPartnerClients({ db: c.var.ctx.db, orgId: callerOrg(c) }) }, 200));

  // POST /clients – new client credentials, secret shown once
  app.openapi(routes.createClient, async (c) => {
    const { name, scopes } = c.req.valid("json");
    const created = await createClient({ db: c.var.ctx.db, name, scopes, kind: "partner", orgId: callerOrg(c) });
    return c.json(
      {
        id: created.client_id,
        name: created.name,
        scopes: created.scopes,
        created_at: created.created_at,
        revoked_at: null,
        client_secret: created.client_secret,
      },
      201,
    );
  });

  // DELETE /clients/:client_id – revoke (partner clients of this organisation only)
  app.openapi(routes.revokeClient, async (c) => {
    const { client_id } = c.req.valid("param");
    await revokeClient({ db: c.var.ctx.db, clientId: client_id, orgId: callerOrg(c), kind: "partner" });
    c.var.ctx.limiter.clientRevoked(client_id);
    return c.body(null, 204);
  });

  // GET /api-keys – the organisation's API keys
  app.openapi(routes.listApiKeys, async (c) => c.json({ data: await listApiKeys({ db: c.var.ctx.db, orgId: callerOrg(c) }) }, 200));

  // POST /api-keys – new key, shown once
  app.openapi(routes.createApiKey, async (c) => {
    const body = c.req.valid("json");
    const created = await createApiKey({ db: c.var.ctx.db, orgId: callerOrg(c), name: body.name, access: body.access });
    return c.json(
      {
        id: created.id,
        name: created.name,
        key_prefix: created.prefix,
        access: created.access,
        created_at: created.created_at,
        last_used_at: null,
        revoked_at: null,
        key: created.api_key,
      },
      201,
    );
  });

  // DELETE /api-keys/:key_id – revoke
  app.openapi(routes.revokeApiKey, async (c) => {
    await revokeApiKey({ db: c.var.ctx.db, credentials: c.var.ctx.credentials, orgId: callerOrg(c), keyId: c.req.valid("param").key_id });
    return c.body(null, 204);
  });
}
