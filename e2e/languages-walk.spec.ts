// The review walk an account manager forwards to a client, in the reader's language (issue 33):
// the mission page (a submission's QA checks, its position with hemispheres), the order page with
// a delivered photo, a photo held for review and a retake the partner asked for (its reason in the
// timeline), and the field verdict of a photo facing away.
// - In the pseudo-locale (en-XA: accented, bracketed catalogue English) every visible sentence on
//   the dashboard pages must come from the catalogue: plain English there was written in the code.
// - In de, es and ar no visible text may be an English catalogue sentence that the locale says
//   otherwise: a page that fell back to English (or a server sentence shown as the API's English).
// Also: the sign-in page's language switcher lets a German browser choose English before signing in.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/pseudo";
import { MissionPage } from "./pages/mission-page";
import { bearer } from "./support/api";
import { expect, test } from "./support/fixtures";
import { waitForMapReady } from "./support/map-frame";
import { squareAround, unique, type Operator } from "./support/operator";
import { ORDERS, json, orderApiKey } from "./support/orders";
import { ORIGIN } from "./support/server";

const DESKTOP = { width: 1366, height: 900 };
/** Where "Use the demo location" puts the zoomer (components/field/types.ts). */
const DEMO = { lat: 43.7712, lng: 11.2555 };
const MESSAGES = join(process.cwd(), "messages");
/** The namespaces these pages speak. */
const NAMESPACES = ["common", "codes", "field", "dashboard", "missions", "orders", "site"];

const catalogue = (locale: string): Messages =>
  Object.fromEntries(NAMESPACES.map((ns) => [ns, JSON.parse(readFileSync(join(MESSAGES, locale, `${ns}.json`), "utf8")) as Messages]));

function leaves(messages: Messages, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

/** A message's literal runs outside ICU arguments ("{distance} m outside the area" → [" m outside the area"]). */
function literals(message: string): string[] {
  const runs: string[] = [];
  let depth = 0;
  let run = "";
  for (const ch of message) {
    if (ch === "{") {
      if (depth === 0) runs.push(run);
      run = "";
      depth += 1;
    } else if (ch === "}") depth -= 1;
    else if (depth === 0) run += ch;
  }
  runs.push(run);
  return runs.map((r) => r.replace(/<\/?\w+>/g, " ").trim());
}

/**
 * The English sentences (literal runs of three words or more) of every message this locale says
 * differently, and that nowhere occur in its own catalogue: seen on a page, they are English left.
 */
function englishOnlyRuns(locale: string): string[] {
  const english = leaves(catalogue("en"));
  const own = leaves(catalogue(locale));
  const ownText = [...own.values()].join("\n");
  const runs = new Set<string>();
  for (const [key, message] of english) {
    if (own.get(key) === message) continue;
    for (const run of literals(message)) if (/^(\p{L}+[\s,'’-]+){2,}\p{L}+/u.test(run) && !ownText.includes(run)) runs.add(run);
  }
  return [...runs];
}

/** The visible text nodes of the page (not options: languages in their own words; not translate=no data). */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // The map's attribution credits the data's sources (lib/map/basemap-style.ts), in their own words.
      if (!parent || !parent.checkVisibility() || parent.closest("script, style, svg, option, code, [translate=no], .maplibregl-ctrl-attrib")) continue;
      const text = (node.textContent ?? "").trim();
      if (text) out.push(text);
    }
    return out;
  });
}

/** Texts that carry an English-only catalogue sentence, data (names, reasons) left out. */
async function englishLeft(page: Page, runs: string[], data: string[]): Promise<string[]> {
  const texts = (await visibleTexts(page)).map((t) => data.reduce((text, d) => text.replaceAll(d, ""), t));
  return texts.filter((t) => runs.some((run) => t.includes(run)));
}

/** Texts not from the pseudo catalogue: three plain letters in a row with no accent or [ ~ ] frame. */
async function notFromCatalogue(page: Page, data: string[]): Promise<string[]> {
  const texts = (await visibleTexts(page)).map((t) => data.reduce((text, d) => text.replaceAll(d, ""), t));
  return texts
    .map((t) =>
      t
        // Ids and file names are data, as are units and what Intl writes (day and month names).
        .replace(/\b[a-z]{2,4}_[0-9A-Za-z_-]+\b/g, "")
        .replace(/\b[\w-]+\.(jpe?g|heic|png)\b/gi, "")
        // A file's digest and media type ("image/jpeg").
        .replace(/\b[0-9a-f]{16,}\b/g, "")
        .replace(/\b[a-z]+\/[\w.+-]+\b/g, "")
        .replace(
          /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|AM|PM|in|ago|now|sec|min|seconds?|minutes?|hours?|days?|EUR|USD|GBP|px|km|KB|MB|GMT|GPS|EXIF|JPEG|UTC|JWS|ZIP|SHA-256)\b/g,
          "",
        ),
    )
    .filter((t) => /[A-Za-z]{3,}/.test(t) && !/[áéíöüçñýÅÉÎÖÛÇÑÝ[~\]]/.test(t));
}

interface Walk {
  missionId: string;
  orderId: string;
  data: string[];
}

/** What lib/demo/make-photo.ts writes into a photo's EXIF: the camera's own words, data. */
const CAMERA_DATA = ["Google Pixel 8", "photo-missions simulator"];

/** A mission with a submission, and a paid order: one photo delivered and sent back by the partner, one held for review. */
async function walkData(
  page: Page,
  operator: Operator,
  partner: {
    org: { id: string; name: string };
    admin: { name: string };
    api: { createMission: (m: { title: string; bounds: ReturnType<typeof squareAround>; required_images: number }) => Promise<{ id: string; title: string }> };
  },
): Promise<Walk> {
  const centre = { lat: 41.8986 + Math.random() * 0.01, lng: 12.4769 + Math.random() * 0.01 };
  const mission = await partner.api.createMission({ title: unique("E2E Walk mission"), bounds: squareAround(centre.lat, centre.lng, 160), required_images: 5 });
  const zoomer = await operator.zoomer();
  const shot = await makePhoto({ ...centre, accuracyM: 5, capturedAt: new Date(), seed: 3301 });
  await zoomer.submit(mission.id, [{ name: "IMG_3301.jpg", buffer: shot }], { angle: "front" });

  const key = await orderApiKey(operator, partner.org.id);
  const target = { lat: 45.4642 + Math.random() * 0.01, lng: 9.19 + Math.random() * 0.01 };
  const other = { lat: target.lat + 0.004, lng: target.lng - 0.007 };
  const names = [unique("Walk Cathedral"), unique("Walk Gate")];
  const reason = "A van hides the door.";
  const reference = unique("e2e-walk");
  const order = await json<{ id: string }>(
    await page.request.post(`${ORDERS}/orders`, {
      headers: { ...bearer(key), "idempotency-key": unique("create") },
      data: {
        client_reference: reference,
        category: "cultural_exterior",
        requirements: { angles: ["front"] },
        locations: [
          { name: names[0], coordinates: target },
          { name: names[1], coordinates: other },
        ],
      },
    }),
    201,
  );
  await json(
    await page.request.post(`${ORDERS}/orders/${order.id}/confirm`, {
      headers: { ...bearer(key), "idempotency-key": unique("confirm") },
      data: { payment_method: "card" },
    }),
    200,
  );
  const fieldZoomer = await operator.zoomer();
  const send = async (place: { lat: number; lng: number }, name: string, seed: number, device: { lat: number; lng: number }) => {
    const camera = { lat: place.lat - 30 / 111_320, lng: place.lng };
    const { data: tasks } = await json<{ data: { id: string; location: { name: string } }[] }>(
      await page.request.get(`/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, { headers: bearer(fieldZoomer.token) }),
      200,
    );
    const task = tasks.find((t) => t.location.name === name);
    if (!task) throw new Error(`no task for ${name}`);
    await json(await page.request.post(`/api/v1/field/assignments/${task.id}/take`, { headers: bearer(fieldZoomer.token) }), 200);
    const photo = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed });
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "IMG.jpg");
    form.append("device_position", `${device.lat},${device.lng},9`);
    await json(await page.request.post(`/api/v1/field/assignments/${task.id}/photo`, { headers: bearer(fieldZoomer.token), multipart: form }), 202);
  };
  // The first place's photo: the phone 12 m from its GPS (delivered). The second's: 9.3 km away (held).
  await send(target, names[0] ?? "", 3302, { lat: target.lat - 42 / 111_320, lng: target.lng });
  await send(other, names[1] ?? "", 3303, { lat: other.lat - 9330 / 111_320, lng: other.lng });
  let delivered = "";
  await expect
    .poll(
      async () => {
        const { data } = await json<{ data: { photo_id: string }[] }>(
          await page.request.get(`${ORDERS}/orders/${order.id}/photos`, { headers: bearer(key) }),
          200,
        );
        delivered = data[0]?.photo_id ?? "";
        return data.length;
      },
      { timeout: 60_000, message: "one photo delivered" },
    )
    .toBe(1);
  const states = async () =>
    (await json<{ data: { status: string }[] }>(await page.request.get(`${ORDERS}/orders/${order.id}/assignments`, { headers: bearer(key) }), 200)).data
      .map((a) => a.status)
      .sort();
  await expect.poll(states, { timeout: 60_000 }).toEqual(["held_for_review", "verified"]);
  // The partner sends the delivered photo back: the timeline shows the retake with the reason.
  await json(
    await page.request.post(`${ORDERS}/orders/${order.id}/photos/${delivered}/retake`, {
      headers: { ...bearer(key), "idempotency-key": unique("retake") },
      data: { reason },
    }),
    202,
  );
  // Data on the pages: names (the organisation's and the user's in the header too), the reason as written, the camera's EXIF.
  return {
    missionId: mission.id,
    orderId: order.id,
    data: [mission.title, ...names, reference, reason, partner.org.name, partner.admin.name, "Photo Missions", ...CAMERA_DATA],
  };
}

async function readIn(page: Page, locale: string) {
  await page.context().addCookies([{ name: LOCALE_COOKIE, value: locale, url: ORIGIN }]);
}

/** The mission page with the submission's panel open (QA checks, metadata), then the order page. */
async function walkDashboard(page: Page, walk: Walk, check: (where: string) => Promise<void>) {
  const missionPage = new MissionPage(page);
  await page.goto(`/missions/${walk.missionId}`);
  await expect(missionPage.heading).toBeVisible();
  const row = page.locator("[data-submission-id]").first();
  await row.getByRole("button").first().click();
  await expect(page.locator("[data-check=decodable]")).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("[data-check=gps_present] [data-testid=qa-figure]")).toHaveText(/\d/);
  await check("the mission page with a submission's QA checks");

  await page.goto(`/orders/${walk.orderId}`);
  await waitForMapReady(page.locator("[data-map-state]"));
  await expect(page.getByTestId("held-photo")).toBeVisible();
  await expect(page.getByTestId("delivered-photo").first()).toBeVisible();
  await expect(page.getByTestId("order-timeline").locator("[data-kind=retake]")).toBeVisible();
  await check("the order page with a delivered photo, a held one and a retake");
}

test.describe("the review walk", () => {
  test.use({ viewport: DESKTOP });

  test("in the pseudo-locale, every sentence on the mission page and the order page comes from the catalogue", async ({ page, operator, partner, signIn }) => {
    test.setTimeout(240_000);
    const walk = await walkData(page, operator, partner);
    await readIn(page, "en");
    await signIn.signInAs(partner.admin);
    await readIn(page, "en-XA");
    await walkDashboard(page, walk, async (where) => {
      await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
      expect(await notFromCatalogue(page, walk.data), `strings not from the catalogue: ${where}`).toEqual([]);
    });
  });

  for (const locale of ["de", "es", "ar"] as const) {
    test(`in ${locale}, no English sentence on the mission page, the order page and the field verdict`, async ({ page, operator, partner, signIn }) => {
      test.setTimeout(300_000);
      const runs = englishOnlyRuns(locale);
      expect(runs.length, "English sentences to look for").toBeGreaterThan(100);
      const walk = await walkData(page, operator, partner);
      await readIn(page, "en");
      await signIn.signInAs(partner.admin);
      await readIn(page, locale);
      await walkDashboard(page, walk, async (where) => {
        await expect(page.locator("html")).toHaveAttribute("lang", new RegExp(`^${locale}`));
        expect(await englishLeft(page, runs, walk.data), `English left: ${where}`).toEqual([]);
      });

      // The field verdict of a photo facing away, as the demo zoomer on the field page.
      const key = await orderApiKey(operator, partner.org.id);
      const place = { name: unique(`E2E Walk ${locale}`), lat: DEMO.lat - 0.0012, lng: DEMO.lng - 0.0015 };
      const order = await json<{ id: string }>(
        await page.request.post(`${ORDERS}/orders`, {
          headers: { ...bearer(key), "idempotency-key": unique("create") },
          data: {
            client_reference: unique("e2e-walk-field"),
            category: "cultural_exterior",
            requirements: { angles: ["front"] },
            locations: [{ name: place.name, coordinates: { lat: place.lat, lng: place.lng } }],
          },
        }),
        201,
      );
      await json(
        await page.request.post(`${ORDERS}/orders/${order.id}/confirm`, {
          headers: { ...bearer(key), "idempotency-key": unique("confirm") },
          data: { payment_method: "card" },
        }),
        200,
      );
      const words = leaves(catalogue(locale));
      const say = (key: string) => words.get(key) ?? key;
      await page.goto("/field");
      await page.getByRole("button", { name: say("field.signIn.demoSubmit") }).click();
      await page.getByRole("button", { name: say("field.home.useDemoLocation") }).click();
      await page.getByRole("tab", { name: new RegExp(`^${say("field.home.tabTasks")}`) }).click();
      const card = page.getByTestId("field-task").filter({ hasText: place.name });
      await card.getByRole("heading").getByRole("button").click();
      const detail = page.getByTestId("task-detail");
      await detail.getByRole("button", { name: say("field.task.take") }).click();
      await expect(page.getByTestId("reservation")).toBeVisible();
      const photo = await makePhoto({
        lat: place.lat - 30 / 111_320,
        lng: place.lng,
        accuracyM: 5,
        directionDeg: 180,
        capturedAt: new Date(),
        seed: 3400 + locale.charCodeAt(0),
      });
      await detail.locator('input[type="file"]').setInputFiles({ name: "IMG_3400.jpg", mimeType: "image/jpeg", buffer: photo });
      await expect(page.getByTestId("pre-send-checks").locator('[data-check="angle_match"]')).toHaveAttribute("data-outcome", "failed");
      await detail.getByRole("button", { name: say("field.task.send") }).click();
      await expect(page.getByTestId("task-verification")).toHaveAttribute("data-status", "rejected", { timeout: 60_000 });
      await expect(page.getByTestId("verification-instructions").getByRole("listitem").first()).toBeVisible();
      expect(await englishLeft(page, runs, [...walk.data, place.name]), "English left: the field verdict").toEqual([]);
    });
  }

  test("a German browser chooses English on the sign-in page, before signing in", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, locale: "de-DE", viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto("/sign-in");
    await expect(page.locator("html")).toHaveAttribute("lang", /^de/);
    const german = leaves(catalogue("de")).get("site.signIn.heading") ?? "";
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(german);
    await page.getByRole("combobox", { name: leaves(catalogue("de")).get("common.language") ?? "" }).selectOption("en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to your dashboard");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    // Remembered: the form itself is in English after a reload, before any account says otherwise.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to your dashboard");
    await context.close();
  });
});
