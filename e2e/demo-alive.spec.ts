// A demo is most often opened long after its server started. Here every mission the demo had
// completes first (one more approved photo each, through the real intake and QA); then a visitor
// signs in and still finds missions active — none of the completed ones —, sees new points arrive
// on a mission's map, and the demo zoomer at the demo location has missions nearby.
// This spec completes the demo's missions, which the other specs pick by title, so the config runs
// it in a project of its own after all of them (playwright.config.ts, "demo-after-all").
import { pointOnFeature, polygon } from "@turf/turf";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { makePhoto } from "@/lib/demo/make-photo";
import { FieldPage } from "./pages/field-page";
import { FieldTasksPage } from "./pages/field-tasks-page";
import { MissionPage } from "./pages/mission-page";
import { MissionsListPage } from "./pages/missions-list-page";
import { bearer, getJson } from "./support/api";
import { expect, test } from "./support/fixtures";
import type { MissionSummary } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

interface Mission extends MissionSummary {
  approved_images: number;
  order_id: string | null;
}

test("a visitor arriving after every demo mission completed sees active missions and new points arrive", async ({ page, request, operator, signIn }) => {
  test.setTimeout(240_000);
  const orgs = await request.get("/api/admin/v1/orgs?q=Demo%20Partner", { headers: bearer(operator.adminToken) });
  expect(orgs.status()).toBe(200);
  const demoOrg = ((await orgs.json()) as { data: { id: string; name: string }[] }).data.find((o) => o.name === "Demo Partner — Florence");
  if (!demoOrg) throw new Error("the demo organisation is missing");
  const partner = await operator.partner(demoOrg.id, ["missions:read", "missions:write", "submissions:read"]);
  const zoomer = await operator.zoomer("demo-alive zoomer");
  // The signed-in dashboard below spends the same organisation's 60 requests a minute: wait out a 429.
  const get = <T>(path: string): Promise<T> => getJson<T>(request, path, partner.token);
  const activeFree = async () => (await get<{ data: Mission[] }>("/api/v1/missions?status=active&per_page=100")).data.filter((m) => m.order_id === null);

  // Every mission active now (the demo's own, not its orders') completes.
  const original = await activeFree();
  expect(original.length).toBeGreaterThanOrEqual(2);
  for (const [i, mission] of original.entries()) {
    const current = await get<Mission>(`/api/v1/missions/${mission.id}`);
    if (current.status !== "active") continue; // the simulator completed it meanwhile
    const patched = await request.patch(`/api/v1/missions/${mission.id}`, {
      headers: bearer(partner.token),
      data: { required_images: current.approved_images + 1 },
    });
    expect([200, 409], await patched.text()).toContain(patched.status());
    const [lng, lat] = pointOnFeature(polygon(mission.bounds.coordinates)).geometry.coordinates as [number, number];
    const photo = await makePhoto({ lat, lng, accuracyM: 5, directionDeg: 90, capturedAt: new Date(), seed: 5100 + i });
    const res = await request.post(`/api/v1/missions/${mission.id}/submissions`, {
      headers: bearer(zoomer.token),
      multipart: { photos: { name: `IMG_${5100 + i}.jpg`, mimeType: "image/jpeg", buffer: photo } },
    });
    expect([202, 409], await res.text()).toContain(res.status());
  }
  const originalIds = new Set(original.map((m) => m.id));
  await expect
    .poll(async () => (await Promise.all(original.map((m) => get<Mission>(`/api/v1/missions/${m.id}`)))).filter((m) => m.status === "completed").length, {
      timeout: 60_000,
      intervals: [1000, 2000, 5000],
    })
    .toBe(original.length);

  // The visitor signs in: the Active tab lists missions, and none of them is one that completed.
  const submissionsSoFar = async () => (await get<{ data: Mission[] }>("/api/v1/missions?status=all&per_page=100")).data;
  const before = new Map((await submissionsSoFar()).map((m) => [m.id, m.submissions]));
  await signIn.goto();
  await signIn.demoButton.click();
  const list = new MissionsListPage(page);
  await expect(list.heading).toBeVisible();
  await list.tab("Active");
  const rows = list.table.getByRole("row").filter({ has: page.getByRole("link") });
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
  const hrefs = await list.table.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  const listed = hrefs.map((h) => h.split("/").pop() ?? "");
  expect(listed.filter((id) => originalIds.has(id))).toEqual([]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, "demo-alive-missions.png"), fullPage: true });

  // New points arrive: a mission the simulator sent photos to since the sign-in shows them.
  let fed: Mission | undefined;
  await expect
    .poll(
      async () => {
        fed = (await submissionsSoFar()).find((m) => m.status === "active" && m.submissions > (before.get(m.id) ?? 0));
        return fed?.id ?? null;
      },
      { timeout: 90_000, intervals: [2000, 5000] },
    )
    .not.toBeNull();
  if (!fed) throw new Error("no mission received photos");
  expect(originalIds.has(fed.id)).toBe(false);
  const missionPage = new MissionPage(page);
  await missionPage.goto(fed.id);
  await missionPage.waitForMap();
  await expect(missionPage.submissions.first()).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => Number(await missionPage.mapPoints.getAttribute("data-count")), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  await page.screenshot({ path: join(SCREENSHOT_DIR, "demo-alive-points.png") });

  // The demo zoomer at the demo location has missions and order tasks nearby. (The demo partner
  // orders again as soon as no order has a task left, so a moment with none ends at its next round.)
  await page.setViewportSize({ width: 390, height: 844 });
  const field = new FieldPage(page);
  const tasks = new FieldTasksPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await expect.poll(() => field.missions.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await expect
    .poll(
      async () => {
        await field.goto();
        await field.demoLocation.click();
        // The tab shows its count once the tasks have loaded (0 included); read it only then.
        await expect(tasks.tasksTab).toHaveText(/\d/, { timeout: 10_000 });
        return Number((await tasks.tasksTab.textContent())?.match(/\d+/)?.[0] ?? 0);
      },
      { timeout: 60_000, intervals: [2000, 5000] },
    )
    .toBeGreaterThanOrEqual(1);
  await expect.poll(() => field.missions.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: join(SCREENSHOT_DIR, "demo-alive-field.png"), fullPage: true });
});
