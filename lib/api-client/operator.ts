import "server-only";
// The dashboard's calls to the operator interface: signing users in, mapping an OIDC identity to
// a user, re-reading a user's memberships, and minting an organisation's dashboard token. Only
// the server holds the operator token; nothing here is reachable from the browser.
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { operatorToken, serviceFetch } from "./transport";

const MembershipSchema = z.object({ org_id: z.string(), org_name: z.string(), role: z.enum(ROLES) });
const UserAccessSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
  memberships: z.array(MembershipSchema),
});
const DashboardTokenSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int().positive(),
  role: z.enum(ROLES),
  org: z.object({ id: z.string(), name: z.string() }),
});

export type Membership = z.infer<typeof MembershipSchema>;
export type UserAccess = z.infer<typeof UserAccessSchema>;
export type DashboardToken = z.infer<typeof DashboardTokenSchema>;

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

async function operatorCall<T>(schema: z.ZodType<T>, method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const res = await serviceFetch(`/api/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${await operatorToken()}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const problem = z.object({ code: z.string().optional(), detail: z.string().optional() }).safeParse(json);
    const retryAfter = Number(res.headers.get("retry-after"));
    throw new OperatorCallError(
      res.status,
      problem.data?.code ?? "error",
      problem.data?.detail ?? `The service answered ${res.status}.`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return schema.parse(json);
}

/** null when the email or password is wrong; throws OperatorCallError for anything else (e.g. 429). */
export async function signInWithPassword(email: string, password: string): Promise<UserAccess | null> {
  try {
    return await operatorCall(UserAccessSchema, "POST", "/dashboard/sign-in", { email, password });
  } catch (error) {
    if (error instanceof OperatorCallError && error.status === 401) return null;
    throw error;
  }
}

/** The user with this (verified) email, or null: OIDC sign-in only admits existing users. */
export async function findUserByEmail(email: string): Promise<UserAccess | null> {
  try {
    return await operatorCall(UserAccessSchema, "POST", "/dashboard/users/lookup", { email });
  } catch (error) {
    if (error instanceof OperatorCallError && error.status === 404) return null;
    throw error;
  }
}

export async function getUserAccess(userId: string): Promise<UserAccess | null> {
  try {
    return await operatorCall(UserAccessSchema, "GET", `/dashboard/users/${encodeURIComponent(userId)}`);
  } catch (error) {
    if (error instanceof OperatorCallError && error.status === 404) return null;
    throw error;
  }
}

export function mintDashboardToken(userId: string, orgId: string): Promise<DashboardToken> {
  return operatorCall(DashboardTokenSchema, "POST", "/dashboard/tokens", { user_id: userId, org_id: orgId });
}
