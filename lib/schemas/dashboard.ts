// What the operator interface tells the dashboard's server about its users: who they are, their
// memberships, and the short-lived tokens it calls the mission interface with.
import { z } from "@hono/zod-openapi";
import { ROLES } from "./statuses";
import { LOCALES } from "@/lib/i18n/locales";

// Deliberately looser than z.email(): an address an identity provider has verified (internationalised,
// say) must be answered "no such user" (404), not "invalid" (422).
const email = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, "Not an email address.")
  .openapi({ format: "email", example: "ada@example.com" });

export const SignInSchema = z
  .strictObject({
    email,
    password: z.string().min(1).max(1024).openapi({ example: "correct horse battery staple" }),
  })
  .openapi("DashboardSignIn");

export const UserLookupSchema = z.strictObject({ email }).openapi("DashboardUserLookup");

export const MembershipSchema = z
  .object({
    org_id: z.string().openapi({ example: "org_06h0m4b7yq4r6t9v0wxyzab3k" }),
    org_name: z.string().openapi({ example: "Acme Mapping" }),
    role: z.enum(ROLES).openapi({ description: "viewer < editor < admin; see the dashboard token's scopes." }),
  })
  .openapi("Membership");

/** The language a user chose for the dashboard (a BCP 47 tag we have a catalogue for), or null: the browser's languages decide. */
export const AccountLocaleSchema = z
  .enum(LOCALES)
  .nullable()
  .openapi({ description: "The dashboard's language for this user, or null to follow the browser's Accept-Language.", example: "fr" });

export const DashboardUserSettingsSchema = z.strictObject({ locale: AccountLocaleSchema }).openapi("DashboardUserSettings");

export const DashboardUserSchema = z
  .object({
    user: z.object({
      id: z.string().openapi({ example: "user_06h0m4b7yq4r6t9v0wxyzab3k" }),
      email: z.string().openapi({ example: "ada@example.com" }),
      name: z.string().nullable().openapi({ example: "Ada Lovelace" }),
      locale: AccountLocaleSchema,
    }),
    memberships: z.array(MembershipSchema).openapi({ description: "Sorted by organisation name." }),
  })
  .openapi("DashboardUser");

export const DashboardTokenRequestSchema = z
  .strictObject({
    user_id: z.string().min(1).max(100).openapi({ example: "user_06h0m4b7yq4r6t9v0wxyzab3k" }),
    org_id: z.string().min(1).max(100).openapi({ example: "org_06h0m4b7yq4r6t9v0wxyzab3k" }),
  })
  .openapi("DashboardTokenRequest");

export const DashboardTokenSchema = z
  .object({
    access_token: z
      .string()
      .openapi({ description: "A signed JWT (typ at+jwt) for the mission interface; it names the organisation's dashboard client, not the user." }),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().openapi({ example: 900 }),
    scope: z.string().openapi({ example: "missions:read submissions:read orders:read" }),
    role: z.enum(ROLES),
    org: z.object({ id: z.string(), name: z.string() }).openapi({ example: { id: "org_06h0m4b7yq4r6t9v0wxyzab3k", name: "Acme Mapping" } }),
  })
  .openapi("DashboardToken");

export type SignInInput = z.infer<typeof SignInSchema>;
export type DashboardUser = z.infer<typeof DashboardUserSchema>;
export type AccountLocale = z.infer<typeof AccountLocaleSchema>;
export type DashboardToken = z.infer<typeof DashboardTokenSchema>;
