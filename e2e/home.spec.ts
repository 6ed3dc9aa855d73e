import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { HomePage } from "./pages/home-page";
import { SCREENSHOT_DIR } from "./support/server";

test("the home page renders its heading and links to the reference", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  const home = new HomePage(page);
  await home.goto();

  await expect(page).toHaveTitle("Photo Missions");
  await expect(home.heading).toHaveText("Geotagged photos, where and when you need them.");
  await expect(home.apiReferenceLink).toHaveAttribute("href", "/docs");
  await expect(home.openApiLink).toHaveAttribute("href", "/api/v1/openapi.json");
  // The stylesheet applied (Tailwind): the heading is bold, not the browser default look.
  await expect(home.heading).toHaveCSS("font-weight", "700");

  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, "home.png"), fullPage: true });
  expect(errors).toEqual([]);
});
