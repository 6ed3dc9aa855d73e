import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { DocsPage } from "./pages/docs-page";
import { ORIGIN, SCREENSHOT_DIR } from "./support/server";

test("/docs renders the Swagger UI reference from our own origin only", async ({ page }) => {
  // Swagger UI renders the whole document (both interfaces and every webhook) in the browser.
  test.setTimeout(120_000);
  const origin = new URL(ORIGIN).origin;
  const requested: string[] = [];
  const failed: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  page.on("requestfailed", (request) => {
    // Next prefetches the pages /docs links to (`?_rsc=`); the browser may abort such a prefetch
    // (superseded, or the page busy rendering Swagger UI). That is not a failure of this page.
    const abortedPrefetch = new URL(request.url()).searchParams.has("_rsc") && request.failure()?.errorText === "net::ERR_ABORTED";
    if (!abortedPrefetch) failed.push(`${request.url()} (${request.failure()?.errorText})`);
  });
  page.on("pageerror", (error) => errors.push(error.message));

  const docs = new DocsPage(page);
  const bundle = page.waitForResponse((response) => new URL(response.url()).pathname === "/vendor/swagger-ui/swagger-ui-bundle.js");
  await docs.goto();
  expect((await bundle).status()).toBe(200);

  await expect(docs.heading).toBeVisible();
  await expect(docs.tag("Missions")).toBeVisible();
  await expect(docs.operation("POST", "/api/v1/missions")).toBeVisible();
  await expect(docs.operation("POST", "/api/v1/auth/token")).toBeVisible();
  // The operator interface has its own document, served only with the admin token.
  await expect(docs.tag("Health")).toBeVisible();
  await expect(docs.tag("Operator")).toHaveCount(0);
  // Swagger UI's stylesheet and our contrast overrides applied (however they are bundled): POST
  // badges are the darker green of components/docs/swagger-contrast.css, and badges are laid out
  // as Swagger UI lays them out.
  await expect(docs.methodBadge("POST", "/api/v1/missions")).toHaveCSS("background-color", "rgb(4, 120, 87)");
  await expect(docs.methodBadge("POST", "/api/v1/missions")).toHaveCSS("min-width", "80px");
  await page.waitForLoadState("networkidle");

  // Nothing from a CDN or any other host: the reference works offline and leaks nothing.
  const foreign = requested.filter((url) => /^https?:/.test(url) && new URL(url).origin !== origin);
  expect(foreign).toEqual([]);
  const paths = new Set(requested.map((url) => new URL(url).pathname));
  const expected = ["/vendor/swagger-ui/swagger-ui-bundle.js", "/api/v1/openapi.json"];
  expect(expected.filter((path) => !paths.has(path)), `requested: ${[...paths].join(", ")}`).toEqual([]);
  expect(failed).toEqual([]);
  expect(errors).toEqual([]);

  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, "docs.png"), fullPage: true });
});
