// Operator routes for the service's signing keys: the published keys with their state, and a
// rotation (new signing key; the old ones retired but still published for verifying).
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { describeSigningKeys, rotateSigningKeys } from "@/lib/service/keys/rotate-signing-keys";
import { requireAdmin } from "../middleware/require-admin";
import { adminSecurity, publicErrorResponses } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Operator"];

const SigningKeySchema = z
  .object({
    kid: z.string(),
    alg: z.string().openapi({ example: "EdDSA" }),
    created_at: z.string(),
    retired_at: z
      .string()
      .nullable()
      .openapi({ description: "When a rotation retired it: it signs nothing since, and stays in the JWKS to verify what it signed." }),
    signing: z.boolean().openapi({ description: "true for the one key that signs tokens and evidence now." }),
  })
  .openapi("SigningKey");

const SigningKeysSchema = z
  .object({
    signing_kid: z.string(),
    keys: z.array(SigningKeySchema).openapi({ description: "Every published key (the JWKS at /.well-known/jwks.json), the signing one first." }),
  })
  .openapi("SigningKeys");

const listKeysRoute = createRoute({
  method: "get",
  path: "/keys",
  operationId: "listSigningKeys",
  tags,
  summary: "The service's signing keys",
  description: "The keys in the published JWKS: which one signs, and when each was made and retired.",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  responses: { 200: { description: "The keys.", content: { "application/json": { schema: SigningKeysSchema } } }, ...publicErrorResponses(401) },
});

const rotateKeysRoute = createRoute({
  method: "post",
  path: "/keys/rotate",
  operationId: "rotateSigningKeys",
  tags,
  summary: "Rotate the signing keys",
  description:
    "A new Ed25519 key signs access tokens and photo evidence from now on. The keys it replaces are retired: never used to sign again, and kept in the JWKS for as long as " +
    "the evidence they signed may be checked — the photos of partner organisations are kept without a time limit, so retired keys stay published. " +
    "Delivered evidence is not re-signed: it was stored as made at delivery. The C2PA claim-signing certificate is renewed as well (new key, same root).",
  security: adminSecurity,
  middleware: [requireAdmin] as const,
  responses: {
    200: {
      description: "The keys after the rotation, and which were retired.",
      content: {
        "application/json": {
          schema: SigningKeysSchema.extend({
            retired: z.array(z.string()).openapi({ description: "The kids this rotation retired." }),
            c2pa_claim_certificate: z
              .object({ serial_number: z.string(), not_after: z.string() })
              .openapi({ description: "The renewed C2PA claim-signing certificate (new key, same root, 365 days)." }),
          }).openapi("RotatedSigningKeys"),
        },
      },
    },
    ...publicErrorResponses(401),
  },
});

export function registerAdminKeyRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /keys – the published signing keys
  app.openapi(listKeysRoute, (c) => c.json(describeSigningKeys(c.var.ctx), 200));

  // POST /keys/rotate – a new signing key; the old ones retired, still published
  app.openapi(rotateKeysRoute, async (c) => c.json(await rotateSigningKeys(c.var.ctx), 200));
}
