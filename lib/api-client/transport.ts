import "server-only";
// How server-side code of the app (dashboard, field page) reaches the REST service: over HTTP when
// API_INTERNAL_URL names a separate API tier, else straight into the in-process service app —
// the same routes, auth and limits either way, without a network hop in the one-process default.
import { env } from "@/lib/env";
import { getRuntime } from "@/lib/service/runtime";

export async function serviceFetch(path: string, init: RequestInit = {}): Promise<Response> {
  if (env.API_INTERNAL_URL) return fetch(`${env.API_INTERNAL_URL}${path}`, { ...init, cache: "no-store" });
  const { app } = await getRuntime({ trustProxy: true });
  return app.fetch(new Request(`${env.PUBLIC_ORIGIN}${path}`, init));
}
