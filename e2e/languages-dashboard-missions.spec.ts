// The dashboard's missions in the partner's language (next-intl, messages/<locale>/missions.json and
// dashboard.json): the list and a mission's page in German with German dates, digits and areas
// (Intl in the reader's locale), and in Arabic right to left with nothing wider than a 390 px phone.
// Screenshots go to shots/ (not committed).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { formatAreaIn } from "@/lib/geo/format-measure";
import { polygonAreaM2 } from "@/lib/geo/polygon";
import { MissionPage } from "./pages/mission-page";
import { expect, test } from "./support/fixtures";
import { squareAround, unique } from "./support/operator";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const SHOTS = join(process.cwd(), "shots");
const CENTER = { lat: 41.8986, lng: 12.4769 };
/** 320 m × 320 m: about 10.2 ha, an area with a decimal. */
const BOUNDS = squareAround(CENTER.lat, CENTER.lng, 160);

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

/** The text as a pattern that takes any kind of space (Intl puts no-break spaces between a number and its unit). */
const loosely = (text: string, whole = false) => {
  const body = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[\s\u00a0\u202f]/g, "[\\s\\u00a0\\u202f]");
  return new RegExp(whole ? `^${body}$` : body);
};

async function readIn(context: BrowserContext, baseURL: string | undefined, locale: string) {
  await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL ?? "http://127.0.0.1" }]);
}

/**
 * How far the page scrolls sideways at this width, and the first few elements sticking out of the
 * screen. Content inside a frame that scrolls or clips sideways (a wide table's own scroll frame,
 * the map) stays inside that frame, so it does not count.
 */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const framed = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== "visible") return true;
      return false;
    };
    const culprits: string[] = [];
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      if (framed(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 1 && (box.right > window.innerWidth + 1 || box.left < -1))
        culprits.push(`<${el.tagName.toLowerCase()}> "${(el.textContent ?? "").trim().slice(0, 30)}"`);
    }
    return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth, culprits: culprits.slice(0, 5) };
  });
}

test.describe("the missions in German", () => {
  test.use({ viewport: DESKTOP, locale: "de-DE" });

  test("the list and a mission's page speak German and write dates, numbers and areas the German way", async ({
    page,
    context,
    baseURL,
    operator,
    partner,
    signIn,
  }) => {
    test.setTimeout(90_000);
    const mission = await partner.api.createMission({ title: unique("E2E Piazza de"), bounds: BOUNDS, required_images: 1500 });
    const zoomer = await operator.zoomer();
    const photo = await makePhoto({ lat: CENTER.lat, lng: CENTER.lng, accuracyM: 5, capturedAt: new Date(), seed: 2601 });
    await zoomer.submit(mission.id, [{ name: "IMG_2601.jpg", buffer: photo }], { angle: "front" });

    // The sign-in page speaks the browser's language too: sign in in English, then read in de.
    await readIn(context, baseURL, "en");
    await signIn.signInAs(partner.admin);
    await readIn(context, baseURL, "de");
    await page.goto("/missions");
    await expect(page.locator("html")).toHaveAttribute("lang", /^de\b/);
    await expect(page.getByRole("heading", { level: 1, name: "Missionen" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Neue Mission" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Missionsstatus" }).getByRole("link", { name: "Aktiv" })).toHaveAttribute("aria-current", "page");
    const table = page.getByRole("table", { name: "Missionen, neueste zuerst" });
    await expect(table.getByRole("columnheader", { name: "Erstellt" })).toBeVisible();

    const row = table.getByRole("row").filter({ hasText: mission.title });
    // The day it was created, as German writes it ("27. Nov. 2026"), by the server in its own time zone.
    const created = await row.locator("time").getAttribute("datetime");
    expect(created).not.toBeNull();
    await expect(row.locator("time")).toHaveText(
      new Intl.DateTimeFormat("de", { day: "numeric", month: "short", year: "numeric" }).format(new Date(created ?? "")),
    );
    await expect(row.locator("time")).toHaveText(/^\d{1,2}\. \S+ \d{4}$/);
    // 1,500 photos needed: a German thousands separator (the photo may be approved already); 10.2 ha: a German decimal comma.
    await expect(row).toContainText(/[01]\/1\.500/);
    const area = formatAreaIn(polygonAreaM2(BOUNDS), "de");
    expect(area).toMatch(/^10,\d\sha$/);
    await expect(row).toContainText(loosely(area));
    await page.screenshot({ path: join(SHOTS, "missions-de-1366.png"), fullPage: true });

    await row.getByRole("link", { name: mission.title }).click();
    const missionPage = new MissionPage(page);
    await expect(missionPage.heading).toHaveText(mission.title);
    await expect(page.getByRole("link", { name: "← Missionen" })).toBeVisible();
    await expect(page.getByText("Freigegebene Bilder", { exact: true })).toBeVisible();
    // The photo may already be approved by its checks: 0 or 1 of 1,500.
    await expect(missionPage.headerApproved).toHaveText(/^[01] von 1\.500$/);
    await expect(missionPage.headerSubmissions).toHaveText(loosely(`1 Einsendung · ${area}`, true));
    await expect(page.getByRole("button", { name: "ZIP exportieren" })).toBeVisible();
    const list = page.getByRole("complementary", { name: "Liste der Einsendungen" });
    await expect(list.getByRole("group", { name: "Status" }).getByRole("button", { name: "freigegeben", exact: true })).toBeVisible();
    const item = list.getByRole("list", { name: "Einsendungen" }).getByRole("listitem");
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Vorderseite");
    await expect(item).toContainText("1 Foto");
    await expect(item.getByTestId("submission-distance")).toHaveText("im Gebiet");
    await page.screenshot({ path: join(SHOTS, "mission-de-1366.png") });

    await item.getByRole("button").click();
    const panel = page.getByRole("region", { name: "Details der Einsendung" });
    await expect(panel.getByRole("heading", { level: 2 })).toHaveText(/^Aufgenommen /);
    await expect(panel).toContainText("Metadaten");
    await page.screenshot({ path: join(SHOTS, "mission-de-1366-panel.png") });
  });
});

test.describe("the missions in Arabic at 390 px", () => {
  test.use({ viewport: PHONE, locale: "ar" });

  test("the list and a mission's page are right to left and nothing sticks out of the screen", async ({ page, context, baseURL, partner, signIn }) => {
    test.setTimeout(90_000);
    const mission = await partner.api.createMission({ title: unique("E2E Piazza ar"), bounds: BOUNDS, required_images: 1500 });
    // The sign-in page speaks the browser's language too: sign in in English, then read in ar.
    await readIn(context, baseURL, "en");
    await signIn.signInAs(partner.admin);
    await readIn(context, baseURL, "ar");
    await page.goto("/missions");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.getByRole("heading", { level: 1, name: "المهمات" })).toBeVisible();
    await page.waitForLoadState("networkidle").catch(() => {});
    const listFit = await overflow(page);
    expect(listFit.culprits, "the missions list sticks out at 390 px").toEqual([]);
    expect(listFit.scrollWidth, "the missions list scrolls sideways").toBeLessThanOrEqual(listFit.innerWidth);
    await page.screenshot({ path: join(SHOTS, "missions-ar-390.png"), fullPage: true });

    await page.getByRole("link", { name: mission.title }).click();
    const missionPage = new MissionPage(page);
    await expect(missionPage.heading).toHaveText(mission.title);
    await expect(page.getByText("الصور المعتمدة", { exact: true })).toBeVisible();
    await expect(page.getByText("لا توجد إرسالات بعد")).toBeVisible();
    await expect(page.locator("[data-map-state=ready]")).toBeVisible({ timeout: 30_000 });
    const pageFit = await overflow(page);
    expect(pageFit.culprits, "the mission page sticks out at 390 px").toEqual([]);
    expect(pageFit.scrollWidth, "the mission page scrolls sideways").toBeLessThanOrEqual(pageFit.innerWidth);
    await page.screenshot({ path: join(SHOTS, "mission-ar-390.png"), fullPage: true });
  });
});
