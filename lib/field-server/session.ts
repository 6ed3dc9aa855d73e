import "server-only";
// The field page's session: the zoomer's access token in an httpOnly cookie, so page scripts
// never see it; the field routes read it server-side and call the API with it.
//
// Who is signed in is read from the token itself (a JWT the service signed, claim `zoomer`), not
// from a second cookie: the owner the page stamps on its photos and the token the service checks
// on every forwarded request cannot disagree, there is no extra API call at sign-in, and it works
// with a separate API tier (API_INTERNAL_URL) that holds the signing keys. The claims are only
// decoded here; the service verifies the signature of every request, so an edited cookie names
// an owner no request can be sent with.
import { cookies, headers } from "next/headers";
import { env } from "@/lib/env";
import { serviceFetch } from "@/lib/api-client/transport";
import { PROBLEM_CONTENT_TYPE } from "@/lib/service/errors";
import { OUTBOX_OWNER_HEADER, outboxOwnerRefusal, type FieldSession } from "@/lib/field/outbox-owner";
import { COOKIE_MARGIN_S, sessionOfToken } from "./session-claims";

const COOKIE = "pm_field_session";

export async function fieldToken(): Promise<string | null> {
  return (await cookies()).get(COOKIE)?.value ?? null;
}

export type { FieldSession };

/** The signed-in zoomer, or null when nobody is (or the session has run out). */
export async function fieldSession(): Promise<FieldSession | null> {
  const token = await fieldToken();
  const session = token ? sessionOfToken(token) : null;
  return session && Date.parse(session.expiresAt) > Date.now() ? session : null;
}

export async function startFieldSession(clientId: string, clientSecret: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const res = await serviceFetch("/api/v1/auth/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret, scope: "submissions:write" }),
  });
  const body = (await res.json()) as { access_token?: string; expires_in?: number; error_description?: string };
  if (!res.ok || !body.access_token) {
    return { ok: false, error: res.status === 401 ? "Those credentials were not accepted." : (body.error_description ?? "Sign-in failed.") };
  }
  (await cookies()).set(COOKIE, body.access_token, {
    httpOnly: true,
    sameSite: "lax",
    secure: env.PUBLIC_ORIGIN.startsWith("https://"),
    path: "/field",
    maxAge: Math.max(60, (body.expires_in ?? 3600) - COOKIE_MARGIN_S),
  });
  return { ok: true };
}

export async function endFieldSession(): Promise<void> {
  (await cookies()).delete({ name: COOKIE, path: "/field" });
}

function problem(status: number, code: string, detail: string): Response {
  return Response.json(
    { type: `https://photo-missions.dev/problems/${code.replaceAll("_", "-")}`, title: status === 409 ? "Conflict" : "Unauthorized", status, code, detail },
    { status, headers: { "content-type": PROBLEM_CONTENT_TYPE } },
  );
}

/**
 * Calls the API as the signed-in zoomer; 401 when there is no session. A request that sends a
 * photo must name its owner (X-Outbox-Owner, from the phone's outbox): one that is not this
 * session's zoomer is refused with 409 `outbox_owner_mismatch` and never forwarded.
 */
export async function fieldFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const token = await fieldToken();
  if (!token) return problem(401, "unauthorized", "Sign in first.");
  const session = sessionOfToken(token);
  if (!session) return problem(401, "unauthorized", "The session is not valid: sign in again.");
  const refusal = outboxOwnerRefusal({ path, owner: (await headers()).get(OUTBOX_OWNER_HEADER), sessionOwner: session.zoomerId });
  if (refusal) return problem(refusal.status, refusal.code, refusal.detail);
  const forwarded = new Headers(init.headers);
  forwarded.delete(OUTBOX_OWNER_HEADER);
  forwarded.set("authorization", `Bearer ${token}`);
  return serviceFetch(path, { ...init, headers: forwarded });
}
