// The mission page is live: photos a zoomer sends through the field API appear in the submission
// list and on the map while the page is open — no reload, no navigation — and their QA verdicts
// follow.
import { makePhoto } from "@/lib/demo/make-photo";
import { MissionPage } from "./pages/mission-page";
import { expect, test } from "./support/fixtures";
import { squareAround, unique } from "./support/operator";

test("submissions sent in the field appear in the list and on the map without a reload", async ({ page, operator, partner, signIn }) => {
  test.setTimeout(90_000);
  const center = { lat: 45.0703, lng: 7.6869 };
  const mission = await partner.api.createMission({ title: unique("Live mission"), bounds: squareAround(center.lat, center.lng, 200), required_images: 10 });
  const zoomer = await operator.zoomer();

  await signIn.signInAs(partner.admin);
  const missionPage = new MissionPage(page);
  await missionPage.goto(mission.id);
  await missionPage.waitForMap();
  await expect(missionPage.emptyList).toBeVisible();
  await missionPage.expectPointsOnMap(0);

  // Anything that reloads or navigates would lose this marker and count a navigation.
  const url = page.url();
  await page.evaluate(() => Object.assign(window, { __e2eLiveMarker: "kept" }));
  let navigations = 0;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });

  const photo = (seed: number, dLat: number, dLng: number) =>
    makePhoto({ lat: center.lat + dLat, lng: center.lng + dLng, accuracyM: 5, directionDeg: 120, capturedAt: new Date(), seed });
  const first = await zoomer.submit(mission.id, [{ name: "IMG_9001.jpg", buffer: await photo(9001, 0.0005, -0.0006) }], { angle: "front" });
  const second = await zoomer.submit(
    mission.id,
    [
      { name: "IMG_9002.jpg", buffer: await photo(9002, -0.0007, 0.0008) },
      { name: "IMG_9003.jpg", buffer: await photo(9003, -0.0007, 0.0009) },
    ],
    { angle: "entrance" },
  );

  await expect(missionPage.submission(first.id)).toBeVisible({ timeout: 20_000 });
  await expect(missionPage.submission(second.id)).toBeVisible();
  await expect(missionPage.submissions).toHaveCount(2);
  await expect(missionPage.submission(second.id)).toContainText("2 photos");
  await expect(missionPage.listCount).toHaveText(/^2 submissions/);
  // The header says what the list says, at once (its own poll is twice as slow as the list's).
  await expect(missionPage.headerSubmissions).toHaveText(/^2 submissions/, { timeout: 2_000 });
  await missionPage.expectPointsOnMap(2);

  // QA decides while the page stays open; the list follows.
  await partner.api.waitUntilDecided([first.id, second.id]);
  await expect(missionPage.submission(first.id)).toContainText(/approved|rejected/, { timeout: 20_000 });
  await expect(missionPage.submission(second.id)).toContainText(/approved|rejected/, { timeout: 20_000 });
  const approvedImages = (await missionPage.submissions.filter({ hasText: "approved" }).allTextContents()).reduce(
    (n, text) => n + (/(\d+) photos/.exec(text) ? Number(/(\d+) photos/.exec(text)?.[1]) : 1),
    0,
  );
  await expect(missionPage.headerApproved).toHaveText(new RegExp(`^${approvedImages} of `), { timeout: 2_000 });

  expect(page.url()).toBe(url);
  expect(navigations).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __e2eLiveMarker?: string }).__e2eLiveMarker)).toBe("kept");
});
