import "server-only";
// One access token per organisation and role, cached in this process and replaced a minute
// before it expires; concurrent requests share one in-flight mint. Tokens never leave the server.
import type { Role } from "@/lib/auth/roles";
import { mintDashboardToken } from "./operator";

const REFRESH_MARGIN_MS = 60_000;

interface CachedToken {
  value: string;
  expiresAt: number;
}

const cache = new Map<string, CachedToken>();
const inFlight = new Map<string, Promise<CachedToken>>();

export interface TokenHolder {
  userId: string;
  orgId: string;
  role: Role;
}

export async function dashboardToken({ userId, orgId, role }: TokenHolder): Promise<string> {
  const key = `${orgId}:${role}`;
  const cached = cache.get(key);
  if (cached && cached.expiresAt - REFRESH_MARGIN_MS > Date.now()) return cached.value;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = mintDashboardToken(userId, orgId)
      .then((token) => {
        // The service decides the role from the membership; cache under the role it granted.
        const entry = { value: token.access_token, expiresAt: Date.now() + token.expires_in * 1000 };
        cache.set(`${orgId}:${token.role}`, entry);
        return entry;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return (await pending).value;
}

/** Drops a token the service refused (e.g. signing keys rotated), so the next call mints anew. */
export function forgetDashboardToken(orgId: string, role: Role): void {
  cache.delete(`${orgId}:${role}`);
}
