import { and, eq } from "drizzle-orm";
import { ROLE_SCOPES } from "@/lib/auth/scopes";
import { DASHBOARD_TOKEN_KIND } from "@/lib/service/keys/tokens";
import { memberships, organisations, users } from "@/lib/db/schema";
import type { DashboardToken } from "@/lib/schemas/dashboard";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { ensureDashboardClient } from "./ensure-dashboard-client";

/** Dashboard tokens live 15 minutes, so a changed role or a removed membership soon takes effect. */
export const DASHBOARD_TOKEN_TTL_SECONDS = 900;

export interface IssueDashboardTokenOptions {
  ctx: Pick<ServiceContext, "db" | "keys">;
  userId: string;
  orgId: string;
}

/**
 * An access token of the mission interface for a dashboard user acting in one organisation, with
 * the scopes of their role there (ROLE_SCOPES).
 *
 * The token deliberately does not name the user: its subject and client are the organisation's
 * dashboard client, so the dashboard can cache one token per organisation and role and share it
 * between members with that role. Who did what is therefore the dashboard's to record; the
 * service sees "the dashboard of org X". It is marked kind "dashboard", which gives it the
 * dashboard's rate limits (shared by all staff of the organisation).
 */
export async function issueDashboardToken({ ctx, userId, orgId }: IssueDashboardTokenOptions): Promise<DashboardToken> {
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound("user");
  const [membership] = await ctx.db
    .select({ role: memberships.role, orgName: organisations.name })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(and(eq(memberships.userId, userId), eq(memberships.orgId, orgId)))
    .limit(1);
  if (!membership) throw new ApiError(403, "not_a_member", "This user is not a member of that organisation.");

  const clientId = await ensureDashboardClient({ db: ctx.db, orgId });
  const scope = ROLE_SCOPES[membership.role].join(" ");
  const { token, expiresIn } = await ctx.keys.sign(
    { sub: clientId, client_id: clientId, scope, org: orgId, kind: DASHBOARD_TOKEN_KIND },
    { ttlSeconds: DASHBOARD_TOKEN_TTL_SECONDS },
  );
  return {
    access_token: token,
    token_type: "Bearer",
    expires_in: expiresIn,
    scope,
    role: membership.role,
    org: { id: orgId, name: membership.orgName },
  };
}
