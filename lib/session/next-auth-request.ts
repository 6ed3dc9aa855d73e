// What next-auth's routes (app/api/auth/[...nextauth]/route.ts) refuse before next-auth sees the
// request. next-auth v4 checks a callbackUrl in the query string or in its callback-url cookie
// itself, and answers one it cannot parse (`javascript:…`, `http://localhost:3000.evil.example/`)
// with a 500 "server configuration" error and a stack trace in the log; a callbackUrl in the form
// body goes to our `redirect` callback (lib/session/next-auth-options.ts), which never throws. So a
// query or cookie value that `sameOriginPath` refuses is answered here with a 400 problem — and
// the cookie is cleared, so the next request works.
import { ApiError, PROBLEM_CONTENT_TYPE } from "@/lib/service/errors";
import { sameOriginPath } from "./callback-url";

/** next-auth's callback-url cookie, over http and over https (its `__Secure-` form). */
export const CALLBACK_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"] as const;

function cookieValues(header: string | null, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const raw = part
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    try {
      values.push(decodeURIComponent(raw));
    } catch {
      values.push(raw);
    }
  }
  return values;
}

/** The 400 problem for a request to next-auth that carries a callbackUrl naming another site, or null. */
export function refuseHostileCallbackUrl(request: Request, origin: string): Response | null {
  const query = new URL(request.url).searchParams.getAll("callbackUrl");
  const cookieHeader = request.headers.get("cookie");
  const badCookies = CALLBACK_COOKIES.filter((name) => cookieValues(cookieHeader, name).some((value) => sameOriginPath(value, origin) === null));
  const badQuery = query.some((value) => sameOriginPath(value, origin) === null);
  if (!badQuery && badCookies.length === 0) return null;
  const problem = new ApiError(400, "invalid_callback_url", "callbackUrl must be a path of this site.", {
    errors: [{ pointer: "callbackUrl", in: badQuery ? "query" : "header", message: "Not a path of this site.", code: "invalid_callback_url" }],
  });
  const headers = new Headers({ "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store" });
  for (const name of badCookies) {
    headers.append("set-cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`);
  }
  return new Response(JSON.stringify(problem.toBody(new URL(request.url).pathname)), { status: 400, headers });
}
