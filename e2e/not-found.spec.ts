// An address nobody serves gets the app's own 404 page (app/not-found.tsx) with a way back, at
// phone and desktop widths, with no CSP error (Next's default page carried an inline style the
// CSP refused) — the cspViolations fixture fails the test on any.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { SCREENSHOT_DIR } from "./support/server";

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 850 },
]) {
  test(`an unknown address shows the branded not-found page with a way back at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const res = await page.goto("/no-such-page/anywhere");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page).toHaveTitle("Page not found · Photo Missions");
    const ways = page.getByRole("navigation", { name: "Ways back" });
    for (const name of ["Go to your missions", "Orders", "Home page"]) {
      const link = ways.getByRole("link", { name });
      await expect(link).toBeVisible();
      expect((await link.boundingBox())?.height ?? 0, `${name} is a 44 px tap target`).toBeGreaterThanOrEqual(44);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await expectNoSeriousViolations(page);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `not-found-${viewport.width}.png`), caret: "hide", animations: "disabled", fullPage: true });

    await ways.getByRole("link", { name: "Home page" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}
