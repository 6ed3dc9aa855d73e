// The operator interface's dashboard routes: the dashboard's server (which holds the operator
// token) signs users in, looks them up and gets mission-interface tokens for them here, so the
// dashboard never touches the database.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import {
  DashboardTokenRequestSchema,
  DashboardTokenSchema,
  DashboardUserSchema,
  DashboardUserSettingsSchema,
  SignInSchema,
  UserLookupSchema,
} from "@/lib/schemas/dashboard";
import { getDashboardUser } from "@/lib/service/dashboard/get-dashboard-user";
import { DASHBOARD_TOKEN_TTL_SECONDS, issueDashboardToken } from "@/lib/service/dashboard/issue-dashboard-token";
import { setUserLocale } from "@/lib/service/dashboard/set-user-locale";
import { SIGN_IN_FAILURES, signInWithPassword } from "@/lib/service/dashboard/sign-in-with-password";
import { notFound } from "@/lib/service/errors";
import { jsonBody } from "../middleware/json-body";
import { requireAdmin } from "../middleware/require-admin";
import { adminSecurity, problem, publicErrorResponses, retryAfterHeaderDoc, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Dashboard (operator)"];
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const bodyErrors = publicErrorResponses(400, 413, 415, 422);
const unauthorized = problem("Missing or wrong operator token (`unauthorized`).");

const userIdParam = z.object({
  user_id: z
    .string()
    .max(MAX_ID_LENGTH)
    .openapi({ param: { name: "user_id", in: "path" }, example: "user_06h0m4b7yq4r6t9v0wxyzab3k" }),
});

const EXAMPLE_USER = {
  user: { id: "user_06h0m4b7yq4r6t9v0wxyzab3k", email: "ada@example.com", name: "Ada Lovelace", locale: "fr" as const },
  memberships: [
    { org_id: "org_06h0m4b7yq4r6t9v0wxyzab3k", org_name: "Acme Mapping", role: "admin" as const },
    { org_id: "org_06h0m9c2xq1r6t9v0wxyzcd7p", org_name: "Zenith Surveys", role: "viewer" as const },
  ],
};
const userResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: DashboardUserSchema, example: EXAMPLE_USER } },
});

const routes = {
  signIn: createRoute({
    method: "post",
    path: "/dashboard/sign-in",
    operationId: "signInDashboardUser",
    tags,
    summary: "Sign a dashboard user in with email and password",
    description:
      "Answers the user and their memberships. A wrong password, an unknown address and an account without a password (single sign-on " +
      `only) all get the same 401 \`invalid_credentials\`. After ${SIGN_IN_FAILURES.limit} failures for one address (case-insensitive) ` +
      `within a ${SIGN_IN_FAILURES.seconds / 60}-minute window, that address is refused with 429 \`rate_limited\` until the window ends.`,
    security: adminSecurity,
    middleware: [requireAdmin, jsonBody] as const,
    request: { body: json(SignInSchema) },
    responses: {
      200: userResponse("The user and their memberships."),
      401: problem("Wrong email or password (`invalid_credentials`), or a wrong operator token (`unauthorized`)."),
      429: problem("Too many failed sign-ins for this address (`rate_limited`).", retryAfterHeaderDoc),
      ...bodyErrors,
    },
  }),
  lookup: createRoute({
    method: "post",
    path: "/dashboard/users/lookup",
    operationId: "lookUpDashboardUser",
    tags,
    summary: "Find a dashboard user by email",
    description: "For single sign-on: maps an email address the identity provider has verified to an existing user (case-insensitive).",
    security: adminSecurity,
    middleware: [requireAdmin, jsonBody] as const,
    request: { body: json(UserLookupSchema) },
    responses: { 200: userResponse("The user and their memberships."), 401: unauthorized, 404: problem("No user with that email address."), ...bodyErrors },
  }),
  get: createRoute({
    method: "get",
    path: "/dashboard/users/{user_id}",
    operationId: "getDashboardUser",
    tags,
    summary: "Get a dashboard user with their memberships",
    description: "The dashboard re-checks memberships and roles with this on every request (caching the answer briefly).",
    security: adminSecurity,
    middleware: [requireAdmin] as const,
    request: { params: userIdParam },
    responses: { 200: userResponse("The user and their memberships."), 401: unauthorized, 404: problem("No user with that id.") },
  }),
  settings: createRoute({
    method: "patch",
    path: "/dashboard/users/{user_id}",
    operationId: "updateDashboardUserSettings",
    tags,
    summary: "Change a dashboard user's own settings",
    description:
      "The dashboard's server calls this for the signed-in user (their settings page and language switcher). `locale` is the dashboard's " +
      "language for them; null clears it, so their browser's Accept-Language decides again.",
    security: adminSecurity,
    middleware: [requireAdmin, jsonBody] as const,
    request: { params: userIdParam, body: json(DashboardUserSettingsSchema) },
    responses: { 200: userResponse("The user as they now are."), 401: unauthorized, 404: problem("No user with that id."), ...bodyErrors },
  }),
  token: createRoute({
    method: "post",
    path: "/dashboard/tokens",
    operationId: "createDashboardToken",
    tags,
    summary: "Get a mission-interface token for a user in one organisation",
    description:
      `A ${DASHBOARD_TOKEN_TTL_SECONDS}-second access token with the scopes of the user's role there — viewer: missions:read submissions:read ` +
      "orders:read; editor: also missions:write orders:write; admin: also webhooks:manage clients:manage. The token names the organisation's " +
      "dashboard client, not the user, so one token per organisation and role can be cached and shared; dashboard tokens have their own, " +
      "higher rate limits shared by all staff of the organisation.",
    security: adminSecurity,
    middleware: [requireAdmin, jsonBody] as const,
    request: { body: json(DashboardTokenRequestSchema) },
    responses: {
      200: {
        description: "The token.",
        content: {
          "application/json": {
            schema: DashboardTokenSchema,
            example: {
              access_token: "eyJhbGciOiJFZERTQSIsInR5cCI6ImF0K2p3dCIsImtpZCI6ImtpZF8wNmgwIn0.eyJzdWIiOiJjbGlfMDZoMCJ9.c2lnbmF0dXJl",
              token_type: "Bearer",
              expires_in: DASHBOARD_TOKEN_TTL_SECONDS,
              scope: "missions:read submissions:read orders:read",
              role: "viewer",
              org: { id: "org_06h0m4b7yq4r6t9v0wxyzab3k", name: "Acme Mapping" },
            },
          },
        },
      },
      401: unauthorized,
      403: problem("The user is not a member of that organisation (`not_a_member`)."),
      404: problem("No user with that id."),
      ...bodyErrors,
    },
  }),
};

const SIGN_IN_HOOK_WAIT_MS = 2000;

/** Waits for `work` (its failure ignored: the hook logs its own), at most `ms`. */
async function settledWithin(work: Promise<void> | undefined, ms: number): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export function registerDashboardRoutes(app: OpenAPIHono<AppEnv>) {
  // POST /dashboard/sign-in – email and password → user and memberships
  app.openapi(routes.signIn, async (c) => {
    const user = await signInWithPassword({ ctx: c.var.ctx, ...c.req.valid("json") });
    // The demo tops up its missions for the visitor before their first page (never for long).
    await settledWithin(c.var.ctx.onDashboardSignIn?.(user), SIGN_IN_HOOK_WAIT_MS);
    return c.json(user, 200);
  });

  // POST /dashboard/users/lookup – verified email (single sign-on) → user and memberships
  app.openapi(routes.lookup, async (c) => {
    const user = await getDashboardUser({ db: c.var.ctx.db, email: c.req.valid("json").email });
    if (!user) throw notFound("user");
    return c.json(user, 200);
  });

  // GET /dashboard/users/:user_id – user and memberships, re-checked per dashboard request
  app.openapi(routes.get, async (c) => {
    const user = await getDashboardUser({ db: c.var.ctx.db, userId: c.req.valid("param").user_id });
    if (!user) throw notFound("user");
    return c.json(user, 200);
  });

  // PATCH /dashboard/users/:user_id – the user's own settings (the dashboard's language)
  app.openapi(routes.settings, async (c) => {
    const user = await setUserLocale({ db: c.var.ctx.db, userId: c.req.valid("param").user_id, locale: c.req.valid("json").locale });
    if (!user) throw notFound("user");
    return c.json(user, 200);
  });

  // POST /dashboard/tokens – a short-lived token for the user's role in one organisation
  app.openapi(routes.token, async (c) => {
    const { user_id, org_id } = c.req.valid("json");
    return c.json(await issueDashboardToken({ ctx: c.var.ctx, userId: user_id, orgId: org_id }), 200);
  });
}
