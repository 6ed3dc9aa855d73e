// Drawing a mission: a polygon drawn with the mouse on the new-mission map, its area, vertex count
// and validity shown live, the mission created, and the API's copy of it checked against where
// the mouse clicked. A bow-tie drawing is refused before it is sent.
import { area as turfArea } from "@turf/turf";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { MissionPage } from "./pages/mission-page";
import { MissionsListPage } from "./pages/missions-list-page";
import { expect, test } from "./support/fixtures";
import type { Pixel } from "./support/map-view";
import { unique } from "./support/operator";

// Metres and square metres: an en-US browser (Playwright's default) reads acres and feet.
test.use({ locale: "en-GB" });

/** "950 m²", "12.4 ha", "3.25 km²", "1,200 km²" back to square metres. */
function parseArea(text: string): number {
  const match = /^([\d,.]+)\s*(m²|ha|km²)$/.exec(text.trim());
  if (!match?.[1] || !match[2]) throw new Error(`not an area: ${text}`);
  const value = Number(match[1].replaceAll(",", ""));
  return value * { "m²": 1, ha: 10_000, "km²": 1_000_000 }[match[2] as "m²" | "ha" | "km²"];
}

// A pentagon around the map's centre, vertices well over CLOSE_DISTANCE_PX apart.
const PENTAGON: [Pixel, ...Pixel[]] = [
  { x: -140, y: -90 },
  { x: 100, y: -120 },
  { x: 160, y: 40 },
  { x: 10, y: 130 },
  { x: -150, y: 80 },
];

test("draw a polygon with the mouse, see it measured live, create the mission and find it in the API", async ({ page, partner, signIn }) => {
  test.setTimeout(90_000);
  await signIn.signInAs(partner.admin);
  await new MissionsListPage(page).newMission.click();
  await expect(page).toHaveURL(/\/missions\/new$/);
  const editor = new MissionEditorPage(page);
  await editor.waitForMap();
  await expect(editor.area).toHaveCount(0);
  const view = await editor.newMissionView();

  await editor.drawPolygon(PENTAGON, "first-vertex");
  await expect(editor.vertices).toHaveText("5");
  await expect(editor.valid).toHaveText(/A valid mission area/);
  await expect(editor.issues).toHaveCount(0);
  // The area shown is the area of what was drawn where it was drawn (within rounding of the display).
  const drawnRing = [...PENTAGON, PENTAGON[0]].map((p) => view.toLngLat(p));
  const expectedM2 = turfArea({ type: "Polygon", coordinates: [drawnRing] });
  const shownM2 = parseArea((await editor.area.textContent()) ?? "");
  expect(Math.abs(shownM2 - expectedM2) / expectedM2).toBeLessThan(0.1);

  const title = unique("Drawn mission");
  await editor.title.fill(title);
  await editor.description.fill("Drawn by the e2e test with the mouse.");
  await editor.photosNeeded.fill("12");
  await expect(editor.submit).toBeEnabled();
  await editor.submit.click();

  await expect(page).toHaveURL(/\/missions\/mission_[0-9a-z]+$/);
  const missionId = new URL(page.url()).pathname.split("/").pop() ?? "";
  const missionPage = new MissionPage(page);
  await expect(missionPage.heading).toHaveText(title);
  await missionPage.waitForMap();

  // The partner's own systems see the same mission, with the outline that was drawn.
  const mission = (await partner.api.missions()).find((m) => m.id === missionId);
  if (!mission) throw new Error(`mission ${missionId} is not listed by GET /api/v1/missions`);
  expect(mission).toMatchObject({ title, required_images: 12, status: "active" });
  const ring = mission.bounds.coordinates[0] ?? [];
  expect(ring.length).toBe(PENTAGON.length + 1);
  expect(ring.at(-1)).toEqual(ring[0]);
  // Every stored vertex is where a click was (within a few pixels), whatever the winding the API chose.
  const stored = ring.slice(0, -1).map((position) => view.toOffset(position as [number, number]));
  for (const clicked of PENTAGON) {
    const nearest = Math.min(...stored.map((s) => Math.hypot(s.x - clicked.x, s.y - clicked.y)));
    expect(nearest, `a stored vertex lies within 4 px of the click at ${clicked.x},${clicked.y}`).toBeLessThan(4);
  }
});

test("a self-intersecting (bow-tie) drawing shows the issue and cannot be submitted", async ({ page, partner, signIn }) => {
  await signIn.signInAs(partner.admin);
  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await editor.waitForMap();
  await editor.title.fill(unique("Bow-tie"));

  // Top-left, bottom-right, top-right, bottom-left: the first and third edges cross.
  await editor.drawPolygon(
    [
      { x: -120, y: -100 },
      { x: 120, y: 100 },
      { x: 120, y: -100 },
      { x: -120, y: 100 },
    ],
    "double-click",
  );
  await expect(editor.vertices).toHaveText("4");
  await expect(editor.issues).toContainText("The outline crosses itself");
  await expect(editor.valid).toHaveCount(0);
  await expect(editor.area).toHaveText("—");
  await expect(editor.submit).toBeDisabled();
  await expect(page).toHaveURL(/\/missions\/new$/);
  expect(await partner.api.missions()).toEqual([]);
});
