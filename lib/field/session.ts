import "server-only";
// The field page's session: the zoomer's access token in an httpOnly cookie, so page scripts
// never see it; the field routes read it server-side and call the API with it.
import { cookies } from "next/headers";
import { env } from "@/lib/env";
import { serviceFetch } from "@/lib/api-client/transport";

const COOKIE = "pm_field_session";

export async function fieldToken(): Promise<string | null> {
  return (await cookies()).get(COOKIE)?.value ?? null;
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
    maxAge: Math.max(60, (body.expires_in ?? 3600) - 60),
  });
  return { ok: true };
}

export async function endFieldSession(): Promise<void> {
  (await cookies()).delete({ name: COOKIE, path: "/field" });
}

/** Calls the API as the signed-in zoomer; 401 when there is no session. */
export async function fieldFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const token = await fieldToken();
  if (!token) {
    return Response.json({ code: "unauthorized", detail: "Sign in first." }, { status: 401, headers: { "content-type": "application/problem+json" } });
  }
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return serviceFetch(path, { ...init, headers });
}
