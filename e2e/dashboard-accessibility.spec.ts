// axe-core on every dashboard page and on the public pages: no serious or critical violations.
// Nothing is excluded from the scan. (MapLibre's own canvas and controls are scanned too: if one of
// them is ever excluded, it is named here with the reason.)
import type { Page, TestInfo } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { CredentialsPage } from "./pages/credentials-page";
import { DocsPage } from "./pages/docs-page";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { MissionPage } from "./pages/mission-page";
import { MissionsListPage } from "./pages/missions-list-page";
import { WebhooksPage } from "./pages/webhooks-page";
import { describeViolations, expectNoSeriousViolations } from "./support/axe";
import { expect, test, type PartnerOrg } from "./support/fixtures";
import { squareAround, unique, type Operator } from "./support/operator";

async function scan(page: Page, testInfo: TestInfo) {
  // The page at rest: the mouse off every control, so a hover style is not what gets measured.
  await page.mouse.move(1, 1);
  const violations = await expectNoSeriousViolations(page);
  if (violations.length > 0) {
    // Minor and moderate findings do not fail the test; they are kept in the report.
    testInfo.annotations.push({ type: "axe minor/moderate", description: describeViolations(violations) });
  }
}

async function missionWithSubmission(operator: Operator, partner: PartnerOrg) {
  const center = { lat: 44.4939, lng: 11.3426 }; // Bologna
  const mission = await partner.api.createMission({
    title: unique("A11y mission"),
    bounds: squareAround(center.lat, center.lng),
    description: "Axe looks at this page.",
  });
  const zoomer = await operator.zoomer();
  const photo = await makePhoto({ ...center, accuracyM: 5, capturedAt: new Date(), seed: 5151 });
  const submission = await zoomer.submit(mission.id, [{ name: "IMG_5151.jpg", buffer: photo }]);
  // Decided, so the panel shows everything it can: thumbnails, metadata and the QA checks.
  await partner.api.waitUntilDecided([submission.id]);
  return { mission, submission };
}

test.describe("public pages", () => {
  test("/", async ({ page }, testInfo) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await scan(page, testInfo);
  });

  test("/docs", async ({ page }, testInfo) => {
    // Two axe scans of the whole API reference, one with Swagger UI open: over a minute when
    // another Playwright worker shares the 2 cores.
    test.setTimeout(180_000);
    const docs = new DocsPage(page);
    await docs.goto();
    await expect(docs.outlineTag("Missions")).toBeVisible();
    await docs.outlineOperation("POST", "/api/v1/missions").click();
    await scan(page, testInfo);
    // And Swagger UI, once opened.
    await docs.openConsole();
    await scan(page, testInfo);
  });

  test("/field", async ({ page }, testInfo) => {
    await page.goto("/field");
    await expect(page.getByRole("button", { name: "Continue as demo zoomer" })).toBeVisible();
    await scan(page, testInfo);
  });

  test("sign-in, with an error shown", async ({ page, signIn }, testInfo) => {
    await signIn.goto();
    await signIn.fill("nobody@e2e.photo-missions.test", "not-the-password");
    await expect(signIn.error).toBeVisible();
    await scan(page, testInfo);
  });
});

test.describe("dashboard pages", () => {
  test("missions list", async ({ page, operator, partner, signIn }, testInfo) => {
    await missionWithSubmission(operator, partner);
    await signIn.signInAs(partner.admin);
    await expect(new MissionsListPage(page).table).toBeVisible();
    await scan(page, testInfo);
  });

  test("empty missions list of a new organisation", async ({ page, partner, signIn }, testInfo) => {
    await signIn.signInAs(partner.admin);
    const list = new MissionsListPage(page);
    await expect(list.emptyState).toBeVisible();
    await expect(list.drawFirstMission).toBeVisible();
    await scan(page, testInfo);
  });

  test("new mission", async ({ page, partner, signIn }, testInfo) => {
    await signIn.signInAs(partner.admin);
    const editor = new MissionEditorPage(page);
    await editor.gotoNew();
    await editor.waitForMap();
    await scan(page, testInfo);
  });

  test("edit mission", async ({ page, partner, signIn }, testInfo) => {
    const mission = await partner.api.createMission({ title: unique("A11y edit"), bounds: squareAround(44.4943, 11.3466) });
    await signIn.signInAs(partner.admin);
    const editor = new MissionEditorPage(page);
    await editor.gotoEdit(mission.id);
    await editor.waitForMap();
    await expect(editor.valid).toBeVisible();
    await scan(page, testInfo);
  });

  test("mission page with a submission's panel open", async ({ page, operator, partner, signIn }, testInfo) => {
    const { mission, submission } = await missionWithSubmission(operator, partner);
    await signIn.signInAs(partner.admin);
    const missionPage = new MissionPage(page);
    await missionPage.goto(mission.id);
    await missionPage.waitForMap();
    await missionPage.submission(submission.id).getByRole("button").click();
    await expect(missionPage.metadataValue("SHA-256")).toHaveText(/^[0-9a-f]{64}$/);
    await expect(missionPage.qaChecks.getByRole("listitem").first()).toBeVisible();
    await expect(missionPage.thumbnail(1)).toHaveJSProperty("complete", true);
    await scan(page, testInfo);
  });

  test("webhooks, with an endpoint and its deliveries", async ({ page, partner, signIn }, testInfo) => {
    await partner.api.createWebhook(`http://127.0.0.1:59999/e2e/${unique("a11y")}`);
    await signIn.signInAs(partner.admin);
    const webhooks = new WebhooksPage(page);
    await webhooks.goto();
    await expect(webhooks.endpoints.getByRole("listitem").first()).toBeVisible();
    await page.getByRole("button", { name: /^Show deliveries/ }).click();
    await scan(page, testInfo);
  });

  test("API credentials", async ({ page, partner, signIn }, testInfo) => {
    await signIn.signInAs(partner.admin);
    await new CredentialsPage(page).goto();
    await scan(page, testInfo);
  });
});
