// Drawing help in the mission editor (issue 15, item 4) and the readable submission list (item 7):
// snapping to the organisation's other missions, checked through the API; the search box with
// coordinates and offline place names; keyboard vertex editing with undo; the list's rows. Axe
// runs on the editor with the new controls showing.
import { makePhoto } from "@/lib/demo/make-photo";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { MissionPage } from "./pages/mission-page";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { CenteredView, type Pixel } from "./support/map-view";
import { squareAround, unique } from "./support/operator";

// Metres and square metres: an en-US browser (Playwright's default) reads acres and feet.
test.use({ locale: "en-GB" });

/** Zoom the search opens a point at (SEARCH_ZOOM in components/missions/mission-draw-map.tsx). */
const SEARCH_ZOOM = 15;
const PARIS = { lat: 48.8566, lng: 2.3522 };

const plus = (a: Pixel, b: Pixel): Pixel => ({ x: a.x + b.x, y: a.y + b.y });

test("a vertex drawn near another mission's corner is stored as exactly that corner", async ({ page, partner, signIn }, testInfo) => {
  test.setTimeout(120_000);
  const neighbour = await partner.api.createMission({ title: unique("Neighbour"), bounds: squareAround(PARIS.lat, PARIS.lng, 150) });
  const corner = neighbour.bounds.coordinates[0]?.[2] as [number, number]; // north-east, 6 decimals
  await signIn.signInAs(partner.admin);
  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await editor.waitForMap();

  // Coordinates typed in the search box move the map there (centred, at SEARCH_ZOOM).
  await editor.search.fill(`${PARIS.lat}, ${PARIS.lng}`);
  await expect(editor.searchResults.first()).toContainText(`${PARIS.lat}, ${PARIS.lng}`);
  await editor.search.press("Enter");
  await expect(editor.snapStatus).toHaveText("Snaps to the corners of 1 other mission (dashed)");
  const view = new CenteredView(PARIS, SEARCH_ZOOM);
  const cornerAt = view.toOffset(corner);

  // The first click lands 6 px off the neighbour's corner (≈95 px up and right of the centre);
  // the others are far from any vertex and inside the map (≈190 px from centre to top edge).
  const near = plus(cornerAt, { x: 4, y: -4.5 });
  expect(Math.abs(cornerAt.y)).toBeLessThan(120);
  await editor.drawPolygon([near, plus(cornerAt, { x: 150, y: 10 }), plus(cornerAt, { x: 75, y: 150 })]);
  await expect(editor.vertices).toHaveText("3");
  await expect(editor.valid).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("snapped.png") });

  const title = unique("Snapped");
  await editor.title.fill(title);
  await editor.submit.click();
  await expect(page).toHaveURL(/\/missions\/mission_[0-9a-z]+$/);
  const missionId = new URL(page.url()).pathname.split("/").pop() ?? "";
  const stored = (await partner.api.missions()).find((m) => m.id === missionId);
  const ring = (stored?.bounds.coordinates[0] ?? []).slice(0, -1);
  expect(ring).toHaveLength(3);
  // Exactly the neighbour's vertex, bit for bit; the two other vertices are where they were clicked.
  expect(ring).toContainEqual(corner);
  expect(ring.filter((p) => p[0] === corner[0] && p[1] === corner[1])).toHaveLength(1);
});

test("an offline place name moves the map there, and the editor asks for the missions in that view", async ({ page, partner, signIn }) => {
  await signIn.signInAs(partner.admin);
  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await editor.waitForMap();
  await editor.search.fill("lyon");
  const lyon = editor.searchResults.filter({ hasText: /^Lyon/ }).first();
  await expect(lyon).toContainText("offline");
  // The missions of the new view are read through the dashboard proxy with the view's bbox.
  const request = page.waitForRequest((r) => {
    const bbox = new URL(r.url()).searchParams.get("bbox");
    if (!r.url().includes("/dashboard-api/missions?") || !bbox) return false;
    const [w, s, e, n] = bbox.split(",").map(Number) as [number, number, number, number];
    return w < 4.84671 && e > 4.84671 && s < 45.74846 && n > 45.74846;
  });
  await lyon.click();
  const seen = new URL((await request).url()).searchParams.get("bbox")?.split(",").map(Number) ?? [];
  // A few streets around the place, not the whole region.
  expect((seen[2] ?? 0) - (seen[0] ?? 0)).toBeLessThan(0.2);
  await expect(editor.search).toHaveValue("");
});

test("vertices can be chosen, moved, added and deleted from the keyboard, and undone", async ({ page, partner, signIn }, testInfo) => {
  test.setTimeout(90_000);
  const mission = await partner.api.createMission({ title: unique("Keyboard edit"), bounds: squareAround(44.4943, 11.3466) });
  const [, south_east] = (mission.bounds.coordinates[0] ?? []) as [number, number][];
  if (!south_east) throw new Error("no second vertex");
  await signIn.signInAs(partner.admin);
  const editor = new MissionEditorPage(page);
  await editor.gotoEdit(mission.id);
  await editor.waitForMap();
  await expect(editor.vertexEditor).toHaveAttribute("data-vertex", "1");

  await editor.vertexEditor.focus();
  await page.keyboard.press("]");
  await expect(editor.vertexEditor).toHaveAttribute("data-vertex", "2");
  await expect(editor.vertexAnnouncement).toHaveText(/^Vertex 2 of 4: /);
  await page.keyboard.press("Shift+ArrowRight");
  await expect(editor.vertexAnnouncement).toHaveText(/^Vertex 2 moved to /);
  await page.keyboard.press("Insert");
  await expect(editor.vertices).toHaveText("5");
  await expect(editor.vertexEditor).toHaveAttribute("data-vertex", "3");
  await page.keyboard.press("Delete");
  await expect(editor.vertices).toHaveText("4");
  await page.keyboard.press("Control+z");
  await expect(editor.vertices).toHaveText("5");
  await expect(editor.vertexAnnouncement).toHaveText("Undone");
  await page.keyboard.press("Control+z");
  await expect(editor.vertices).toHaveText("4");
  await expect(editor.valid).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("keyboard.png") });
  await expectNoSeriousViolations(page);

  await editor.submit.click();
  await expect(page).toHaveURL(new RegExp(`/missions/${mission.id}$`));
  const stored = (await partner.api.missions()).find((m) => m.id === mission.id);
  const ring = (stored?.bounds.coordinates[0] ?? []).slice(0, -1) as [number, number][];
  expect(ring).toHaveLength(4);
  expect(ring).not.toContainEqual(south_east);
  // Moved 10 px east at the fitted zoom: a little east, the same latitude.
  const moved = ring.find((p) => Math.abs(p[1] - south_east[1]) < 2e-6 && p[0] > south_east[0]);
  expect(moved, JSON.stringify(ring)).toBeDefined();
  expect((moved?.[0] ?? 0) - south_east[0]).toBeLessThan(0.001);
});

test("axe: the editor with search results open and snap targets shown", async ({ page, partner, signIn }, testInfo) => {
  await partner.api.createMission({ title: unique("Axe neighbour"), bounds: squareAround(43.77, 11.255, 300) });
  await signIn.signInAs(partner.admin);
  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await editor.waitForMap();
  await expect(editor.snapStatus).toHaveText(/1 other mission/);
  await editor.search.fill("flor");
  await expect(editor.searchResults.first()).toBeVisible();
  await page.mouse.move(1, 1);
  await page.screenshot({ path: testInfo.outputPath("search.png") });
  await expectNoSeriousViolations(page);
});

test("a submission row shows its thumbnail, capture time, angle, distance and status, not its id", async ({ page, operator, partner, signIn }, testInfo) => {
  test.setTimeout(90_000);
  const center = { lat: 44.4939, lng: 11.3426 };
  const mission = await partner.api.createMission({ title: unique("Readable list"), bounds: squareAround(center.lat, center.lng, 150) });
  const zoomer = await operator.zoomer();
  const capturedAt = new Date(Date.now() - 5 * 60_000);
  const inside = await zoomer.submit(mission.id, [{ name: "IMG_1.jpg", buffer: await makePhoto({ ...center, accuracyM: 5, capturedAt, seed: 7101 }) }], {
    angle: "front",
  });
  // 300 m north of the centre: 150 m beyond the square's north edge.
  const outside = await zoomer.submit(mission.id, [
    { name: "IMG_2.jpg", buffer: await makePhoto({ lat: center.lat + 300 / 111_320, lng: center.lng, accuracyM: 5, capturedAt, seed: 7102 }) },
  ]);
  await partner.api.waitUntilDecided([inside.id, outside.id]);

  await signIn.signInAs(partner.admin);
  const missionPage = new MissionPage(page);
  await missionPage.goto(mission.id);
  await missionPage.waitForMap();
  const insideRow = missionPage.submission(inside.id);
  const outsideRow = missionPage.submission(outside.id);
  await expect(insideRow.getByTestId("submission-distance")).toHaveText("inside");
  await expect(outsideRow.getByTestId("submission-distance")).toHaveText(/^1(4[5-9]|5[0-5]) m away$/);
  await expect(insideRow).toContainText("front");
  // The status QA decided, as the API says it.
  await expect(insideRow).toContainText((await partner.api.submission(inside.id)).status);
  await expect(insideRow.locator("time")).toHaveAttribute("datetime", new RegExp(`^${capturedAt.toISOString().slice(0, 16)}`));
  await expect(insideRow.getByTestId("submission-thumbnail").locator("img")).toHaveJSProperty("complete", true);
  expect(
    await insideRow
      .getByTestId("submission-thumbnail")
      .locator("img")
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);
  await expect(missionPage.submissions.filter({ hasText: "sub_" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("list.png") });

  await insideRow.getByRole("button").click();
  await expect(missionPage.panelId).toHaveText(inside.id);
  await expect(missionPage.panel.getByRole("button", { name: "Copy id" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("panel.png") });
  await expectNoSeriousViolations(page);
});
