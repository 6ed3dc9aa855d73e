// OAuth discovery at the origin, where standard OAuth libraries look: RFC 8414 authorization
// server metadata and the token signing keys (the same JWKS as /api/v1/auth/jwks.json). The
// issuer is the public origin, the `iss` of every access token, so a client configured from
// `{origin}/.well-known/oauth-authorization-server` alone finds the token endpoint and the keys.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { ALL_SCOPES } from "@/lib/auth/scopes";
import { API_BASE_PATH } from "@/lib/service/context";
import type { AppEnv } from "../types";

export const WELL_KNOWN_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const WELL_KNOWN_JWKS_PATH = "/.well-known/jwks.json";

const tags = ["Authentication"];

const MetadataSchema = z
  .object({
    issuer: z.string().openapi({ description: "The `iss` of every access token: this deployment's public origin.", example: "https://photo-missions.example" }),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    grant_types_supported: z.array(z.literal("client_credentials")),
    token_endpoint_auth_methods_supported: z.array(z.enum(["client_secret_basic", "client_secret_post"])),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()).openapi({ description: "Empty: there is no authorization endpoint (client credentials only)." }),
    service_documentation: z.string(),
  })
  .openapi("AuthorizationServerMetadata");

const metadataRoute = createRoute({
  method: "get",
  path: WELL_KNOWN_METADATA_PATH,
  operationId: "getAuthorizationServerMetadata",
  tags,
  summary: "OAuth authorization server metadata (RFC 8414)",
  description:
    "Where OAuth client libraries discover the token endpoint, the JWKS, the grant (client credentials only), the client authentication " +
    "methods the token endpoint accepts (HTTP Basic or body parameters) and the scopes.",
  security: [],
  responses: { 200: { description: "The metadata.", content: { "application/json": { schema: MetadataSchema } } } },
});

const jwksRoute = createRoute({
  method: "get",
  path: WELL_KNOWN_JWKS_PATH,
  operationId: "getWellKnownJwks",
  tags,
  summary: "Token signing keys (JWKS) at the well-known address",
  description:
    "Public keys that verify access tokens and delivered photos' evidence, by `kid` (RFC 7517); the same set as `/api/v1/auth/jwks.json`. " +
    "Keys retired by a rotation stay here (they sign nothing new) so that evidence signed with them keeps verifying.",
  security: [],
  responses: {
    200: {
      description: "The key set.",
      content: { "application/json": { schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) } },
    },
  },
});

export function registerDiscoveryRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /.well-known/oauth-authorization-server – RFC 8414 metadata
  app.openapi(metadataRoute, (c) => {
    const origin = c.var.ctx.config.publicOrigin;
    return c.json(
      {
        issuer: origin,
        token_endpoint: `${origin}${API_BASE_PATH}/auth/token`,
        jwks_uri: `${origin}${WELL_KNOWN_JWKS_PATH}`,
        grant_types_supported: ["client_credentials" as const],
        token_endpoint_auth_methods_supported: ["client_secret_basic" as const, "client_secret_post" as const],
        scopes_supported: [...ALL_SCOPES],
        response_types_supported: [],
        service_documentation: `${origin}/docs`,
      },
      200,
      { "Cache-Control": "public, max-age=300" },
    );
  });

  // GET /.well-known/jwks.json – public signing keys
  app.openapi(jwksRoute, (c) => c.json(c.var.ctx.keys.jwks(), 200, { "Cache-Control": "public, max-age=300" }));
}
