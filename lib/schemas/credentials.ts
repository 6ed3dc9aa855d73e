// An organisation's own API credentials as the dashboard manages them: partner OAuth clients and
// order-interface API keys. Secrets appear once, in the answer that creates them.
import { z } from "@hono/zod-openapi";
import { PARTNER_SCOPES, type Scope } from "@/lib/auth/scopes";

export const PartnerScopeSchema = z
  .enum(PARTNER_SCOPES as [Scope, ...Scope[]], {
    error: () => `Use one of ${PARTNER_SCOPES.join(", ")}; clients:manage and submissions:write cannot be given to API clients.`,
  })
  .openapi("PartnerScope", { description: "A scope an API client may hold." });

const name = z.string().trim().min(1, "Give it a name.").max(100, "At most 100 characters.");

export const CreateClientSchema = z
  .strictObject({
    name: name.openapi({ example: "Warehouse sync" }),
    scopes: z
      .array(PartnerScopeSchema)
      .min(1, "Give the client at least one scope.")
      .max(PARTNER_SCOPES.length, "Each scope at most once.")
      .superRefine((scopes, ctx) => {
        scopes.forEach((scope, index) => {
          if (scopes.indexOf(scope) !== index) ctx.addIssue({ code: "custom", path: [index], message: `"${scope}" is listed twice.` });
        });
      })
      .openapi({ example: ["missions:read", "submissions:read"] }),
  })
  .openapi("CreateApiClient");

export const ApiClientSchema = z
  .object({
    id: z.string().openapi({ description: "The OAuth client_id.", example: "cli_06h0m4b7yq4r6t9v0wxyzab3k" }),
    name: z.string().openapi({ example: "Warehouse sync" }),
    scopes: z.array(PartnerScopeSchema),
    created_at: z.string().openapi({ example: "2026-11-21T06:30:07.123Z" }),
    revoked_at: z.string().nullable().openapi({ description: "Set once revoked: its tokens no longer work.", example: null }),
  })
  .openapi("ApiClient");

export const ApiClientWithSecretSchema = ApiClientSchema.extend({
  revoked_at: z.null(),
  client_secret: z.string().openapi({ description: "Shown only in this response; store it now.", example: "cs_Zk3…" }),
}).openapi("ApiClientWithSecret");

const ApiKeyAccessSchema = z.enum(["read_write", "read_only"]).openapi({ description: "read_only keys may call the order interface's GET routes only." });

export const CreateApiKeySchema = z
  .strictObject({ name: name.openapi({ example: "ERP orders" }), access: ApiKeyAccessSchema.optional().openapi({ description: "Default read_write." }) })
  .openapi("CreateOrgApiKey");

export const OrgApiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_06h0m4b7yq4r6t9v0wxyzab3k" }),
    name: z.string().openapi({ example: "ERP orders" }),
    key_prefix: z.string().openapi({ description: "The key's first characters, to recognise it.", example: "pm_live_Ab3d" }),
    access: ApiKeyAccessSchema,
    created_at: z.string().openapi({ example: "2026-11-21T06:30:07.123Z" }),
    last_used_at: z.string().nullable().openapi({ example: null }),
    revoked_at: z.string().nullable().openapi({ example: null }),
  })
  .openapi("OrgApiKey");

export const OrgApiKeyWithKeySchema = OrgApiKeySchema.extend({
  revoked_at: z.null(),
  key: z.string().openapi({ description: "Shown only in this response; store it now.", example: "pm_live_Ab3d…" }),
}).openapi("OrgApiKeyWithKey");

export type CreateClientInput = z.infer<typeof CreateClientSchema>;
export type ApiClientRecord = z.infer<typeof ApiClientSchema>;
export type OrgApiKeyRecord = z.infer<typeof OrgApiKeySchema>;
