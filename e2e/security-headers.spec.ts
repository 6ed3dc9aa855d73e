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
    expect(
      scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`)),
      `${path}: scripts without the nonce`,
    ).toEqual([]);
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

test("a server action posted from PUBLIC_ORIGIN to another host of the app is accepted, and a forged X-Forwarded-Host is not believed", async ({
  playwright,
}) => {
  // Opened at 127.0.0.1 while PUBLIC_ORIGIN is localhost: Next compared Origin with the host and
  // failed the action with a 500.
  const otherHost = await playwright.request.newContext({ baseURL: ORIGIN.replace("//localhost:", "//127.0.0.1:") });
  const action = { "next-action": "7f".repeat(21), "content-type": "text/plain;charset=UTF-8" };
  const fromPublicOrigin = await otherHost.post("/missions", { headers: { ...action, origin: new URL(ORIGIN).origin }, data: "[]" });
  expect(fromPublicOrigin.status(), await fromPublicOrigin.text()).toBeLessThan(500);
  expect(fromPublicOrigin.status()).not.toBe(403);
  // TRUST_PROXY is off: a client naming its own origin as the forwarded host is still another origin.
  const forged = await otherHost.post("/missions", {
    headers: { ...action, origin: "https://attacker.example", "x-forwarded-host": "attacker.example" },
    data: "[]",
  });
  expect(forged.status()).toBe(403);
  // A form post (no Next-Action header, as a no-script form sends it) from another origin too.
  const form = await otherHost.post("/missions", { headers: { origin: "https://attacker.example" }, form: { $ACTION_ID_x: "" } });
  expect(form.status()).toBe(403);
  await otherHost.dispose();
});

test("next-auth's own pages send the same security headers, and their inline style carries the nonce", async ({ page, request }) => {
  for (const path of ["/api/auth/signout", "/api/auth/verify-request"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    const headers = res.headers();
    expectSecurityHeaders(headers, path);
    const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")?.[1];
    const styles = (await res.text()).match(/<style\b[^>]*>/g) ?? [];
    expect(styles.length, path).toBeGreaterThan(0);
    expect(
      styles.filter((tag) => !tag.includes(`nonce="${nonce}"`)),
      `${path}: styles without the nonce`,
    ).toEqual([]);
  }
  // In the browser: the sign-out page renders styled, with no CSP error (the cspViolations fixture).
  await page.goto("/api/auth/signout");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  expect(await page.getByRole("button", { name: "Sign out" }).evaluate((el) => getComputedStyle(el).minHeight)).toBe("62px");
});
