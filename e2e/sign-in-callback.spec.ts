// The sign-in's return address (issue 32): a callbackUrl that a browser would read as another site
// (`/\evil.example/phish`, `/\/evil.example`, a tab between the slashes) leaves the user on this
// site, before and after signing in; next-auth's routes answer such a value with a 4xx or a
// redirect to this site, never a 500.
import type { APIRequestContext, Page } from "@playwright/test";
import { ORIGIN } from "./support/server";
import { expect, test } from "./support/fixtures";

const HOSTILE = ["/\\evil.example/phish", "/\\/evil.example/phish", "/\t/evil.example/phish", "//evil.example/phish", "/%5Cevil.example/phish"];

/** Records every request the page makes to another host, and answers none of them. */
async function guardOrigin(page: Page): Promise<string[]> {
  const escaped: string[] = [];
  await page.route(
    (url) => url.origin !== ORIGIN,
    (route) => {
      escaped.push(route.request().url());
      return route.abort();
    },
  );
  return escaped;
}

test("signing in with a hostile callbackUrl lands on this site", async ({ page, partner, signIn }) => {
  const escaped = await guardOrigin(page);
  // The raw form of the report: the backslash as typed, not percent-encoded.
  await page.goto(`/sign-in?callbackUrl=/\\evil.example/phish`);
  await expect(signIn.heading).toBeVisible();
  await signIn.fill(partner.admin.email, partner.admin.password);
  await expect(page).toHaveURL(/\/missions$/);
  expect(new URL(page.url()).origin).toBe(ORIGIN);

  // Signed in, the sign-in page redirects at once: every form stays here.
  for (const callbackUrl of HOSTILE) {
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await expect(page, callbackUrl).toHaveURL(/\/missions$/);
    expect(new URL(page.url()).origin, callbackUrl).toBe(ORIGIN);
  }
  // A path of this site is still followed.
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent("/orders")}`);
  await expect(page).toHaveURL(/\/orders$/);
  expect(escaped).toEqual([]);
});

async function csrf(request: APIRequestContext): Promise<string> {
  const res = await request.get("/api/auth/csrf");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

test("next-auth's sign-out and credentials callback answer a hostile callbackUrl without a 500", async ({ request }) => {
  // Failed sign-ins are limited per address (10 in 15 minutes): an address of this test's own.
  const email = `nobody-${Date.now()}@example.org`;
  for (const action of ["signout", "callback/credentials"]) {
    for (const callbackUrl of ["http://localhost:3000.evil.example/", `${ORIGIN}.evil.example/`, ...HOSTILE, "javascript:alert(1)"]) {
      // In the form body: our redirect callback sends the browser to this site.
      const form = await request.post(`/api/auth/${action}`, {
        form: { csrfToken: await csrf(request), callbackUrl, email, password: "wrong" },
        maxRedirects: 0,
      });
      expect(form.status(), `${action} body ${callbackUrl}`).toBeLessThan(500);
      const location = form.headers()["location"];
      if (location) expect(new URL(location, ORIGIN).origin, `${action} body ${callbackUrl} → ${location}`).toBe(ORIGIN);

      // In the query string: refused before next-auth (which would answer 500).
      const query = await request.post(`/api/auth/${action}?callbackUrl=${encodeURIComponent(callbackUrl)}`, {
        form: { csrfToken: await csrf(request) },
        maxRedirects: 0,
      });
      expect(query.status(), `${action} query ${callbackUrl}`).toBe(400);
      expect(((await query.json()) as { code: string }).code).toBe("invalid_callback_url");
    }
  }
});
