// The mission editor's drawing tools as a person meets them: the editor opens drawing (Polygon
// active), pressing the active Polygon again keeps it drawing and does not move the map (it used
// to turn drawing off, shorten the hint and shift the map 68 px), and the next clicks on the map
// draw. A screenshot of the editor at 390 px goes to SCREENSHOT_DIR.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { expect, test } from "./support/fixtures";
import { SCREENSHOT_DIR } from "./support/server";

for (const viewport of [
  { width: 1366, height: 850 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px the editor opens drawing, and pressing the active tool neither stops it nor moves the map`, async ({
    page,
    partner,
    signIn,
  }) => {
    await page.setViewportSize(viewport);
    await signIn.signInAs(partner.admin);
    const editor = new MissionEditorPage(page);
    await editor.gotoNew();
    await editor.waitForMap();
    await expect(editor.tool("Polygon")).toHaveAttribute("aria-pressed", "true");

    // Where the map sits on the page (not in the viewport: the click may scroll the toolbar into view).
    const mapTop = async () => (await editor.mapBox()).y + (await page.evaluate(() => window.scrollY));
    await editor.tool("Polygon").scrollIntoViewIfNeeded();
    const before = await mapTop();
    await editor.tool("Polygon").click();
    await expect(editor.tool("Polygon")).toHaveAttribute("aria-pressed", "true");
    await expect(editor.toolbar.locator("xpath=..").getByText(/^Click the map to add vertices/)).toBeVisible();
    expect(Math.abs((await mapTop()) - before), "the map moved when the tool was pressed").toBeLessThan(1);

    // Clicks on the map draw, straight away (drawPolygon finds Polygon already active).
    await editor.drawPolygon([
      { x: -80, y: -60 },
      { x: 70, y: -70 },
      { x: 90, y: 50 },
      { x: -60, y: 70 },
    ]);
    await expect(editor.valid).toBeVisible();

    if (viewport.width === 390) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, "phone-mission-editor-390.png"), caret: "hide", animations: "disabled", fullPage: true });
    }
  });
}

test("searching a landmark without a geocoder says plainly what the search can find", async ({ page, partner, signIn }) => {
  await signIn.signInAs(partner.admin);
  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await editor.waitForMap();
  await expect(editor.search).toHaveAttribute("placeholder", "City, town or lat, lng");
  await editor.search.fill("Duomo");
  await expect(editor.searchNothingFound).toBeVisible();
  await expect(editor.searchNothingFound).toContainText("Nothing called “Duomo” was found.");
  await expect(editor.searchNothingFound).toContainText("Only cities and towns are searched here");
  // A city is found, and coordinates always are.
  await editor.search.fill("Florence");
  await expect(editor.searchResults.filter({ hasText: "Florence" }).first()).toBeVisible();
  await editor.search.fill("43.7731, 11.256");
  await expect(editor.searchResults.first()).toContainText("coordinates");
});
