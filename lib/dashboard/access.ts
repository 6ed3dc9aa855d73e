import "server-only";
// Who is asking, for which organisation, with which role — resolved on every page, proxy call
// and action from the session cookie plus the user's memberships as the service knows them now
// (cached for a few seconds per user), never from what the browser claims.
import { getServerSession } from "next-auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { signInPath } from "@/lib/session/callback-url";
import { authOptions } from "@/lib/session/next-auth-options";
import { ROLES, roleAtLeast, type Role } from "@/lib/auth/roles";
import { apiClientFor, type ApiClient } from "@/lib/api-client/client";
import { getUserAccess, type Membership, type UserAccess } from "@/lib/api-client/operator";
import { env } from "@/lib/env";

export const ACTIVE_ORG_COOKIE = "pm_org";
const MEMBERSHIP_TTL_MS = 10_000;

export interface DashboardAccess {
  user: UserAccess["user"];
  memberships: Membership[];
  org: { id: string; name: string };
  role: Role;
  /** The typed API client for this organisation and role. */
  api: ApiClient;
  holder: { userId: string; orgId: string; role: Role };
}

const membershipCache = new Map<string, { access: UserAccess | null; at: number }>();

async function freshUserAccess(userId: string): Promise<UserAccess | null> {
  const hit = membershipCache.get(userId);
  if (hit && Date.now() - hit.at < MEMBERSHIP_TTL_MS) return hit.access;
  const access = await getUserAccess(userId);
  membershipCache.set(userId, { access, at: Date.now() });
  return access;
}

/** The caller's access, or null when not signed in (or the user or all memberships are gone). */
export const getDashboardAccess = cache(async (): Promise<DashboardAccess | null> => {
  const session = await getServerSession(authOptions());
  const userId = session?.user.id;
  if (!userId) return null;
  const access = await freshUserAccess(userId);
  if (!access || access.memberships.length === 0) return null;
  const wanted = (await cookies()).get(ACTIVE_ORG_COOKIE)?.value;
  // Without a choice yet, start where the user may do the most.
  const byRole = [...access.memberships].sort((a, b) => ROLES.indexOf(b.role) - ROLES.indexOf(a.role));
  const membership = access.memberships.find((m) => m.org_id === wanted) ?? byRole[0];
  if (!membership) return null;
  const holder = { userId, orgId: membership.org_id, role: membership.role };
  return {
    user: access.user,
    memberships: access.memberships,
    org: { id: membership.org_id, name: membership.org_name },
    role: membership.role,
    api: apiClientFor(holder),
    holder,
  };
});

export type PageAccess = { allowed: true; access: DashboardAccess } | { allowed: false; access: DashboardAccess; needed: Role };

/**
 * For pages: redirects to sign-in without a session; otherwise says whether the role suffices,
 * so the page can render its "you need the … role" state instead of the content.
 */
export async function requirePageAccess(least: Role, returnTo: string): Promise<PageAccess> {
  const access = await getDashboardAccess();
  if (!access) redirect(signInPath(returnTo, env.PUBLIC_ORIGIN));
  return roleAtLeast(access.role, least) ? { allowed: true, access } : { allowed: false, access, needed: least };
}
