import "server-only";
// The dashboard's calls to the operator interface: signing users in, mapping an OIDC identity to
// a user, re-reading a user's memberships, saving their own settings, and minting an organisation's dashboard token. Only
// the server holds the operator token; nothing here is reachable from the browser.
import createClient from "openapi-fetch";
import { env } from "@/lib/env";
import type { components, paths } from "./openapi-types";
import { operatorToken, serviceRequest } from "./transport";

export type UserAccess = components["schemas"]["DashboardUser"];
export type Membership = components["schemas"]["Membership"];
export type DashboardToken = components["schemas"]["DashboardToken"];
export type AccountLocale = components["schemas"]["DashboardUserSettings"]["locale"];

export class OperatorCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const operator = createClient<paths>({ baseUrl: env.PUBLIC_ORIGIN, fetch: serviceRequest });
operator.use({
  async onRequest({ request }) {
    request.headers.set("authorization", `Bearer ${await operatorToken()}`);
    return request;
  },
});

function failure(response: Response, error: unknown): OperatorCallError {
  const problem = (error ?? {}) as { code?: unknown; detail?: unknown };
  const retryAfter = Number(response.headers.get("retry-after"));
  return new OperatorCallError(
    response.status,
    typeof problem.code === "string" ? problem.code : "error",
    typeof problem.detail === "string" ? problem.detail : `The service answered ${response.status}.`,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

/** null when the email or password is wrong; throws OperatorCallError for anything else (e.g. 429). */
export async function signInWithPassword(email: string, password: string): Promise<UserAccess | null> {
  const { data, error, response } = await operator.POST("/api/admin/v1/dashboard/sign-in", { body: { email, password } });
  if (data) return data;
  // 422: text no account can have (e.g. U+0000 in the password) — the same answer as a wrong one.
  if (response.status === 401 || response.status === 422) return null;
  throw failure(response, error);
}

/** The user with this (verified) email, or null: OIDC sign-in only admits existing users. */
export async function findUserByEmail(email: string): Promise<UserAccess | null> {
  const { data, error, response } = await operator.POST("/api/admin/v1/dashboard/users/lookup", { body: { email } });
  if (data) return data;
  if (response.status === 404) return null;
  throw failure(response, error);
}

export async function getUserAccess(userId: string): Promise<UserAccess | null> {
  const { data, error, response } = await operator.GET("/api/admin/v1/dashboard/users/{user_id}", { params: { path: { user_id: userId } } });
  if (data) return data;
  if (response.status === 404) return null;
  throw failure(response, error);
}

/** Saves the dashboard language the user chose (null: their browser's); the user as they now are, or null when gone. */
export async function setUserLocale(userId: string, locale: AccountLocale): Promise<UserAccess | null> {
  const { data, error, response } = await operator.PATCH("/api/admin/v1/dashboard/users/{user_id}", {
    params: { path: { user_id: userId } },
    body: { locale },
  });
  if (data) return data;
  if (response.status === 404) return null;
  throw failure(response, error);
}

export async function mintDashboardToken(userId: string, orgId: string): Promise<DashboardToken> {
  const { data, error, response } = await operator.POST("/api/admin/v1/dashboard/tokens", { body: { user_id: userId, org_id: orgId } });
  if (data) return data;
  throw failure(response, error);
}
