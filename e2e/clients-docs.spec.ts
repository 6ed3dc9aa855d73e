import { expect, test } from "@playwright/test";
import { ORIGIN } from "./support/server";

test("/docs links the client libraries page, which shows both tested quick starts", async ({ page }) => {
  await page.goto("/docs");
  await page.getByRole("link", { name: /client libraries/i }).click();
  await expect(page).toHaveURL(/\/docs\/clients$/);
  await expect(page.getByRole("heading", { level: 1, name: "Client libraries" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /TypeScript/ })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /Python/ })).toBeVisible();
  await expect(page.getByText("await verifyWebhook(", { exact: false })).toBeVisible();
  await expect(page.getByText("verify_webhook(payload, self.headers, secrets)", { exact: false })).toBeVisible();
  // The commands name this deployment's origin, not a developer's localhost:3000.
  const origin = new URL(ORIGIN).origin;
  await expect(page.getByTestId("typescript-run")).toHaveText(`PHOTO_MISSIONS_URL=${origin} node quick-start.mjs`);
  await expect(page.getByTestId("python-run")).toHaveText(`PHOTO_MISSIONS_URL=${origin} python3 quick_start.py`);
});

test("OAuth discovery and the JWKS are served at the origin (under npm start by the service, before Next)", async ({ request }) => {
  const metadata = await request.get("/.well-known/oauth-authorization-server");
  expect(metadata.status()).toBe(200);
  const body = (await metadata.json()) as { issuer: string; token_endpoint: string; jwks_uri: string };
  const origin = new URL(ORIGIN).origin;
  expect(body.issuer).toBe(origin);
  expect(body.token_endpoint).toBe(`${origin}/api/v1/auth/token`);
  expect(body.jwks_uri).toBe(`${origin}/.well-known/jwks.json`);
  const jwks = await request.get("/.well-known/jwks.json");
  expect(jwks.status()).toBe(200);
  expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
});
