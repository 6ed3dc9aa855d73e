// A real camera file end to end: DSCN0010.jpg (Nikon COOLPIX P6000, GPS near Arezzo) sent through
// the field API to a mission centred on its position, found on the map by clicking its point, and
// its metadata read in the panel; then the full-size viewer, driven by the keyboard.
import { readFileSync } from "node:fs";
import { corpusFile, CORPUS_SKIP_MESSAGE, HAS_CORPUS } from "@/lib/testing/corpus";
import { MissionPage } from "./pages/mission-page";
import { expect, test } from "./support/fixtures";
import { squareAround, unique } from "./support/operator";

// Where the camera says it was (EXIF GPS of DSCN0010.jpg).
const DSCN0010 = { lat: 43.467448, lng: 11.885127 };

test("clicking the point of a real camera photo shows its EXIF in the panel, then the full-size viewer", async ({ page, operator, partner, signIn }) => {
  test.skip(!HAS_CORPUS, CORPUS_SKIP_MESSAGE);
  test.setTimeout(90_000);
  const mission = await partner.api.createMission({ title: unique("Arezzo camera test"), bounds: squareAround(DSCN0010.lat, DSCN0010.lng, 150) });
  const zoomer = await operator.zoomer();
  // Two frames from the same walk, 40 m apart; the submission is placed where the first was taken.
  const submission = await zoomer.submit(mission.id, [
    { name: "DSCN0010.jpg", buffer: readFileSync(corpusFile("jpg/gps/DSCN0010.jpg")) },
    { name: "DSCN0012.jpg", buffer: readFileSync(corpusFile("jpg/gps/DSCN0012.jpg")) },
  ]);
  expect(submission.location?.lat).toBeCloseTo(DSCN0010.lat, 4);
  expect(submission.location?.lng).toBeCloseTo(DSCN0010.lng, 4);

  await signIn.signInAs(partner.admin);
  const missionPage = new MissionPage(page);
  await missionPage.goto(mission.id);
  await missionPage.waitForMap();
  await missionPage.expectPointsOnMap(1);
  await expect(missionPage.panel).toHaveCount(0);

  // The map opened fitted to the mission, which is centred on the photo: its point is in the middle.
  await missionPage.clickMap({ x: 0, y: 0 });
  await expect(missionPage.panel).toBeVisible();
  await expect(missionPage.panelId).toHaveText(submission.id);
  // The list follows the map's selection.
  await expect(missionPage.submission(submission.id).getByRole("button")).toHaveAttribute("aria-current", "true");

  await expect(missionPage.metadataValue("Device")).toHaveText(/^NIKON\b.*COOLPIX P6000$/);
  await expect(missionPage.metadataValue("GPS")).toHaveText(/^43\.467\d*° N, 11\.885\d*° E$/);
  await expect(missionPage.metadataValue("Captured")).toContainText("2008-10-22");
  await expect(missionPage.metadataValue("File")).toContainText("DSCN0010.jpg");
  await expect(missionPage.metadataValue("SHA-256")).toHaveText(/^[0-9a-f]{64}$/);

  // Full size: a modal dialog; the arrow keys move between the photos, Escape closes.
  await missionPage.viewFullSize.click();
  await expect(missionPage.viewer).toBeVisible();
  await expect(missionPage.viewer).toContainText("Photo 1 of 2 · DSCN0010.jpg");
  await expect(missionPage.viewer.getByRole("img", { name: "Photo 1 of the submission" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(missionPage.viewer).toContainText("Photo 2 of 2 · DSCN0012.jpg");
  await expect(missionPage.viewer.getByRole("img", { name: "Photo 2 of the submission" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(missionPage.viewer).toContainText("Photo 1 of 2 · DSCN0010.jpg");
  await page.keyboard.press("Escape");
  await expect(missionPage.viewer).toBeHidden();
  await expect(missionPage.panel).toBeVisible();
  await expect(missionPage.viewFullSize).toBeFocused();

  await missionPage.closePanel.click();
  await expect(missionPage.panel).toHaveCount(0);
});
