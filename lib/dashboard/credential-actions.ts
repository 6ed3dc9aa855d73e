"use server";
// The API credentials page's writes; administrators only (the API checks clients:manage again).
// A new secret or key is returned to the caller for the one-time reveal and nowhere else: the
// revalidated page only ever lists credentials without them.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { components } from "@/lib/api-client/openapi-types";
import { PARTNER_SCOPES, type Scope } from "@/lib/auth/scopes";
import { CreateApiKeySchema, CreateClientSchema } from "@/lib/schemas/credentials";
import { dashboardAction, problemResult } from "@/lib/dashboard/action-client";

const PAGE = "/settings/credentials";
const Id = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "Not an id.");

// CreateClientSchema has refused every other scope already, but its enum is typed as Scope; this
// only narrows the type to the API's PartnerScope.
const isPartnerScope = (scope: Scope): scope is components["schemas"]["PartnerScope"] => PARTNER_SCOPES.some((p) => p === scope);

// POST /api/v1/clients — the client and, in this answer only, its secret.
export const createApiClient = dashboardAction({
  least: "admin",
  schema: CreateClientSchema,
  handler: async (input, access) => {
    const { data, error, response } = await access.api.POST("/api/v1/clients", { body: { name: input.name, scopes: input.scopes.filter(isPartnerScope) } });
    if (!data) return problemResult(response.status, error);
    revalidatePath(PAGE);
    return { ok: true, data: { id: data.id, name: data.name, scopes: data.scopes, clientSecret: data.client_secret } };
  },
});

// DELETE /api/v1/clients/{client_id} — it can no longer get tokens; the ones it has stop working.
export const revokeApiClient = dashboardAction({
  least: "admin",
  schema: z.object({ id: Id }),
  handler: async ({ id }, access) => {
    const { error, response } = await access.api.DELETE("/api/v1/clients/{client_id}", { params: { path: { client_id: id } } });
    if (!response.ok) return problemResult(response.status, error);
    revalidatePath(PAGE);
    return { ok: true, data: { id } };
  },
});

// POST /api/v1/api-keys — the key record and, in this answer only, the key.
export const createApiKey = dashboardAction({
  least: "admin",
  schema: CreateApiKeySchema,
  handler: async (input, access) => {
    const { data, error, response } = await access.api.POST("/api/v1/api-keys", { body: input });
    if (!data) return problemResult(response.status, error);
    revalidatePath(PAGE);
    return { ok: true, data: { id: data.id, name: data.name, keyPrefix: data.key_prefix, key: data.key } };
  },
});

// DELETE /api/v1/api-keys/{key_id} — requests with it are refused from now on.
export const revokeApiKey = dashboardAction({
  least: "admin",
  schema: z.object({ id: Id }),
  handler: async ({ id }, access) => {
    const { error, response } = await access.api.DELETE("/api/v1/api-keys/{key_id}", { params: { path: { key_id: id } } });
    if (!response.ok) return problemResult(response.status, error);
    revalidatePath(PAGE);
    return { ok: true, data: { id } };
  },
});
