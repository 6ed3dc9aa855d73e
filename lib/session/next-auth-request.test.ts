// next-auth's answers to a hostile callbackUrl, through next-auth's own request handler (v4's core,
// the function its Next route handler calls after reading cookies and headers from Next): with our
// `redirect` callback and the route's check in front of it, no form of the value is a 500.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { safeCallbackUrl } from "./callback-url";
import { CALLBACK_COOKIES, refuseHostileCallbackUrl } from "./next-auth-request";

const ORIGIN = "http://localhost:3000";

interface InternalRequest {
  action: string;
  providerId?: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  cookies: Record<string, string>;
  body?: Record<string, string>;
  query?: Record<string, string>;
}
interface InternalResponse {
  status?: number;
  redirect?: string;
  body?: unknown;
  cookies?: { name: string; value: string }[];
}
type AuthHandler = (params: { req: InternalRequest; options: NextAuthOptions }) => Promise<InternalResponse>;

// next-auth does not export its core; its route handler is this function plus Next's request store.
const require = createRequire(import.meta.url);
const { AuthHandler } = require(join(dirname(require.resolve("next-auth")), "core", "index.js")) as { AuthHandler: AuthHandler };

function options(redirect?: NonNullable<NextAuthOptions["callbacks"]>["redirect"]): NextAuthOptions {
  return {
    secret: "a-test-secret-of-thirty-two-chars!!",
    session: { strategy: "jwt" },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [CredentialsProvider({ id: "credentials", name: "test", credentials: {}, authorize: () => null })],
    callbacks: redirect ? { redirect } : {},
    logger: { error: () => undefined, warn: () => undefined, debug: () => undefined },
  };
}

// next-auth's origin (lib/env.ts sets NEXTAUTH_URL to PUBLIC_ORIGIN).
beforeAll(() => vi.stubEnv("NEXTAUTH_URL", ORIGIN));
afterAll(() => vi.unstubAllEnvs());

const ours = options(({ url }) => safeCallbackUrl(url, ORIGIN));

/** A signed-out browser's POST to /api/auth/<action> with a callbackUrl in the form body. */
async function post(action: "signout" | "callback", callbackUrl: string, opts: NextAuthOptions): Promise<InternalResponse> {
  const csrf = await AuthHandler({ req: { action: "csrf", method: "GET", headers: { host: "localhost:3000" }, cookies: {} }, options: opts });
  const cookie = csrf.cookies?.find((c) => c.name === "next-auth.csrf-token");
  const token = (csrf.body as { csrfToken: string }).csrfToken;
  return AuthHandler({
    req: {
      action,
      providerId: action === "callback" ? "credentials" : undefined,
      method: "POST",
      headers: { host: "localhost:3000" },
      cookies: cookie ? { [cookie.name]: cookie.value } : {},
      body: { csrfToken: token, callbackUrl, email: "a@example.org", password: "x" },
    },
    options: opts,
  });
}

const HOSTILE = [
  "http://localhost:3000.evil.example/",
  "/\\evil.example/phish",
  "/\\/evil.example",
  "/\t/evil.example",
  "//evil.example",
  "javascript:alert(1)",
  "https://evil.example/",
];

describe("next-auth's sign-out and credentials callback with a callbackUrl in the body", () => {
  it("with next-auth's default redirect callback, the first form throws (the 500 of issue 32)", async () => {
    await expect(post("signout", "http://localhost:3000.evil.example/", options())).rejects.toThrow(/Invalid URL/);
  });

  it.each(HOSTILE)("with ours, %s ends on this site", async (callbackUrl) => {
    for (const action of ["signout", "callback"] as const) {
      const answer = await post(action, callbackUrl, ours);
      expect(answer.status ?? 302, action).toBeLessThan(500);
      const target = answer.redirect ?? "";
      expect(new URL(target, ORIGIN).origin, `${action} → ${target}`).toBe(ORIGIN);
      for (const c of answer.cookies?.filter((c) => c.name === "next-auth.callback-url") ?? []) expect(new URL(c.value).origin).toBe(ORIGIN);
    }
  });

  it("with ours, a path of this site is followed", async () => {
    expect((await post("signout", "/sign-in", ours)).redirect).toBe(`${ORIGIN}/sign-in`);
  });
});

describe("refuseHostileCallbackUrl (in front of next-auth's routes)", () => {
  it("next-auth alone answers a query callbackUrl it cannot parse with a 500", async () => {
    const answer = await AuthHandler({
      req: {
        action: "signout",
        method: "POST",
        headers: { host: "localhost:3000" },
        cookies: {},
        query: { callbackUrl: "http://localhost:3000.evil.example/" },
      },
      options: ours,
    });
    expect(answer.status).toBe(500);
  });

  it.each(HOSTILE)("refuses %s in the query with a 400 problem", async (callbackUrl) => {
    const answer = refuseHostileCallbackUrl(
      new Request(`${ORIGIN}/api/auth/signout?callbackUrl=${encodeURIComponent(callbackUrl)}`, { method: "POST" }),
      ORIGIN,
    );
    expect(answer?.status).toBe(400);
    expect(answer?.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer?.json()).toMatchObject({ status: 400, code: "invalid_callback_url", instance: "/api/auth/signout" });
  });

  it("refuses a hostile callback-url cookie and clears it", async () => {
    for (const name of CALLBACK_COOKIES) {
      const cookie = `other=1; ${name}=${encodeURIComponent("javascript:alert(1)")}`;
      const answer = refuseHostileCallbackUrl(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie } }), ORIGIN);
      expect(answer?.status, name).toBe(400);
      expect(answer?.headers.get("set-cookie"), name).toMatch(new RegExp(`^${name}=; Path=/; Max-Age=0`));
    }
  });

  it("lets through a request without a callbackUrl, with a path of this site, or with next-auth's own cookie", () => {
    const pass = [
      new Request(`${ORIGIN}/api/auth/session`),
      new Request(`${ORIGIN}/api/auth/signin?callbackUrl=%2Fmissions%2Fmis_1`),
      new Request(`${ORIGIN}/api/auth/csrf`, { headers: { cookie: `next-auth.callback-url=${encodeURIComponent(`${ORIGIN}/orders`)}` } }),
      new Request(`${ORIGIN}/api/auth/csrf`, { headers: { cookie: `next-auth.callback-url=${encodeURIComponent(ORIGIN)}` } }),
    ];
    for (const request of pass) expect(refuseHostileCallbackUrl(request, ORIGIN), request.url).toBeNull();
  });
});
