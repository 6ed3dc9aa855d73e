// Screenshots of the dashboard's main pages, kept as artifacts in SCREENSHOT_DIR for people to
// look at: desktop (1280×800) for each page, and the mission page on a tablet (820×1180) too.
// Each waits for its page to be complete (data loaded, map ready) before the picture.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { CredentialsPage } from "./pages/credentials-page";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { MissionPage } from "./pages/mission-page";
import { MissionsListPage } from "./pages/missions-list-page";
import { WebhooksPage } from "./pages/webhooks-page";
import { expect, test, type PartnerOrg } from "./support/fixtures";
import { squareAround, unique, type Operator } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 820, height: 1180 };

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Caret and animations off, so two runs of the same page look the same.
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled" });
}

/**
 * A mission in Bologna with a few decided submissions, as a partner would have after a day. (Not
 * in Florence: the field spec picks demo missions there by title.)
 */
async function busyMission(operator: Operator, partner: PartnerOrg) {
  const center = { lat: 44.4939, lng: 11.3426 };
  const mission = await partner.api.createMission({
    title: "Piazza Maggiore — Fountain of Neptune",
    description: "Street-level views of the fountain and the Palazzo d'Accursio, any time of day.",
    bounds: squareAround(center.lat, center.lng, 180),
    required_images: 12,
  });
  const zoomer = await operator.zoomer();
  const ids: string[] = [];
  const offsets: [number, number][] = [
    [0.0004, -0.0006],
    [-0.0005, 0.0007],
    [0.0009, 0.001],
    [-0.0008, -0.0009],
  ];
  for (const [i, [dLat, dLng]] of offsets.entries()) {
    const photo = await makePhoto({
      lat: center.lat + dLat,
      lng: center.lng + dLng,
      accuracyM: 5,
      directionDeg: 90 * i,
      capturedAt: new Date(),
      seed: 6100 + i,
    });
    ids.push((await zoomer.submit(mission.id, [{ name: `IMG_61${i}.jpg`, buffer: photo }], { angle: "front" })).id);
  }
  await partner.api.waitUntilDecided(ids);
  return { mission, submissionIds: ids as [string, string, ...string[]] };
}

test.use({ viewport: DESKTOP });

test("sign-in page", async ({ page, signIn }) => {
  await signIn.goto();
  await expect(signIn.demoButton).toBeVisible();
  await shoot(page, "dashboard-sign-in");
});

test("missions list, new mission, mission page, webhooks and credentials", async ({ page, operator, partner, signIn }) => {
  test.setTimeout(120_000);
  const { mission, submissionIds } = await busyMission(operator, partner);
  await partner.api.createMission({ title: "Two Towers — Asinelli and Garisenda", bounds: squareAround(44.4943, 11.3466, 120), required_images: 25 });
  await partner.api.createWebhook(`http://127.0.0.1:59999/e2e/${unique("shots")}`);
  await signIn.signInAs(partner.admin);

  const list = new MissionsListPage(page);
  await expect(list.missionLink(mission.title)).toBeVisible();
  await shoot(page, "dashboard-missions");

  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await editor.waitForMap();
  await editor.title.fill("Oltrarno — Piazza Santo Spirito");
  await editor.drawPolygon([
    { x: -150, y: -100 },
    { x: 120, y: -130 },
    { x: 170, y: 50 },
    { x: 0, y: 140 },
    { x: -160, y: 80 },
  ]);
  await expect(editor.valid).toBeVisible();
  await shoot(page, "dashboard-new-mission");

  const missionPage = new MissionPage(page);
  await missionPage.goto(mission.id);
  await missionPage.waitForMap();
  await expect(missionPage.submissions).toHaveCount(submissionIds.length);
  await shoot(page, "dashboard-mission");
  await missionPage.submission(submissionIds[0]).getByRole("button").click();
  await expect(missionPage.metadataValue("GPS")).toHaveText(/° N/);
  await expect(missionPage.thumbnail(1)).toBeVisible();
  await expect.poll(() => missionPage.thumbnail(1).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await shoot(page, "dashboard-mission-panel");

  await editor.gotoEdit(mission.id);
  await editor.waitForMap();
  await expect(editor.valid).toBeVisible();
  await shoot(page, "dashboard-edit-mission");

  const webhooks = new WebhooksPage(page);
  await webhooks.goto();
  await expect(webhooks.endpoints.getByRole("listitem")).toHaveCount(1);
  await shoot(page, "dashboard-webhooks");

  await new CredentialsPage(page).goto();
  await shoot(page, "dashboard-credentials");
});

test.describe("tablet", () => {
  test.use({ viewport: TABLET });

  test("mission page on a tablet, with a submission open", async ({ page, operator, partner, signIn }) => {
    test.setTimeout(90_000);
    const { mission, submissionIds } = await busyMission(operator, partner);
    await signIn.signInAs(partner.admin);
    const missionPage = new MissionPage(page);
    await missionPage.goto(mission.id);
    await missionPage.waitForMap();
    await expect(missionPage.submissions).toHaveCount(submissionIds.length);
    await shoot(page, "dashboard-mission-tablet");
    await missionPage.submission(submissionIds[1]).getByRole("button").click();
    await expect(missionPage.metadataValue("Device")).not.toHaveText("not recorded");
    await expect.poll(() => missionPage.thumbnail(1).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // Selecting in the list scrolled it into view; the panel is on the map, at the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "dashboard-mission-panel-tablet");
  });
});
