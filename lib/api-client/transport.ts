import "server-only";
// How server-side code of the app (dashboard, field page) reaches the REST service: over HTTP when
// API_INTERNAL_URL names a separate API tier, else straight into the in-process service app —
// the same routes, auth and limits either way, without a network hop in the one-process default.
// The pages get the photo URLs in its answers as same-origin paths (page-photo-urls.ts).
import { env } from "@/lib/env";
import { getRuntime } from "@/lib/runtime/runtime";
import { withPagePhotoUrls } from "./page-photo-urls";

/** The same request, addressed to another origin (a streamed body needs `duplex: "half"`). */
function rebase(request: Request, origin: string): Request {
  const url = new URL(request.url);
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.body) {
    init.body = request.body;
    init.duplex = "half";
  }
  return new Request(`${origin}${url.pathname}${url.search}`, init);
}

/** Sends a request to the service; only its path and query matter. */
export async function serviceRequest(request: Request): Promise<Response> {
  return withPagePhotoUrls(await sendToService(request), { publicOrigin: env.PUBLIC_ORIGIN, cdnUrl: env.CDN_URL });
}

async function sendToService(request: Request): Promise<Response> {
  if (env.API_INTERNAL_URL) return fetch(rebase(request, env.API_INTERNAL_URL), { cache: "no-store" });
  const { app } = await getRuntime({ trustProxy: true });
  return app.fetch(request.url.startsWith(`${env.PUBLIC_ORIGIN}/`) ? request : rebase(request, env.PUBLIC_ORIGIN));
}

export async function serviceFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return serviceRequest(new Request(`${env.PUBLIC_ORIGIN}${path}`, init));
}

/** The operator token: ADMIN_TOKEN, or the one the embedded default generated on first start. */
export async function operatorToken(): Promise<string> {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  if (env.API_INTERNAL_URL) throw new Error("ADMIN_TOKEN must be set when API_INTERNAL_URL is: the dashboard signs users in through the operator interface.");
  const { resolveAdminToken } = await import("@/lib/runtime/runtime");
  return resolveAdminToken(env).token;
}
