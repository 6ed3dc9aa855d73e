// Browser security headers on every page (proxy.ts, lib/http/security-headers.ts), and a server
// action posted from another origin refused with 403 (Next alone answered 500).
import { expect, test } from "./support/fixtures";
import { squareAround } from "./support/operator";
import { ORIGIN } from "./support/server";

const PUBLIC_PAGES = ["/", "/sign-in", "/docs", "/docs/webhooks", "/field"];
const DASHBOARD_PAGES = ["/missions", "/missions/new", "/webhooks", "/settings", "/settings/credentials"];

function expectSecurityHeaders(headers: Record<string, string>, path: string) {
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, `${path} CSP`).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(csp, `${path} CSP`).toContain("frame-ancestors 'none'");
  expect(csp, `${path} CSP`).toContain("object-src 'none'");
  expect(csp, `${path} CSP`).not.toContain("'unsafe-eval'");
  expect(csp, `${path} CSP`).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers["x-frame-options"], path).toBe("DENY");
  expect(headers["x-content-type-options"], path).toBe("nosniff");
  expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  // Served over plain http here: HSTS would mean nothing (lib/http/security-headers.test.ts covers https).
  expect(headers["strict-transport-security"], path).toBeUndefined();
}

test("public pages send the security headers, with a fresh nonce each time", async ({ request }) => {
  for (const path of PUBLIC_PAGES) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expectSecurityHeaders(res.headers(), path);
  }
  const nonceOf = async () => /'nonce-([^']+)'/.exec((await request.get("/sign-in")).headers()["content-security-policy"] ?? "")?.[1];
  expect(await nonceOf()).not.toBe(await nonceOf());
});

test("dashboard pages send them too, and every script in their HTML carries the response's nonce", async ({ page, partner, signIn }) => {
  await signIn.signInAs(partner.admin);
  const mission = await partner.api.createMission({ title: "Headers", bounds: squareAround(43.7696, 11.2558) });
  for (const path of [...DASHBOARD_PAGES, `/missions/${mission.id}`]) {
    // The HTML as served (with the session's cookies): scripts the page adds later are trusted
    // through 'strict-dynamic' and carry no nonce of their own.
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    const headers = res.headers();
    expectSecurityHeaders(headers, path);
    const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")?.[1];
    const scripts = (await res.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, path).toBeGreaterThan(0);
    expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`)), `${path}: scripts without the nonce`).toEqual([]);
  }
});

test("a server action posted from another origin is refused with 403, not a server error", async ({ request }) => {
  const res = await request.post("/missions", {
    headers: { "next-action": "7f".repeat(21), origin: "https://attacker.example", "content-type": "text/plain;charset=UTF-8" },
    data: "[]",
  });
  expect(res.status()).toBe(403);
  // The same request from our own origin reaches Next (an unknown action is not a 500 either way).
  const own = await request.post("/missions", {
    headers: { "next-action": "7f".repeat(21), origin: new URL(ORIGIN).origin, "content-type": "text/plain;charset=UTF-8" },
    data: "[]",
  });
  expect(own.status()).not.toBe(403);
});
