// The pages in the reader's language (next-intl, messages/<locale>/<namespace>.json): the field page in Spanish
// end to end from Accept-Language — a task, its photo, the verdict and the retake's instructions
// (server codes rendered in Spanish); Arabic right to left with nothing wider than a 390 px phone;
// a pseudo-locale (accented, ~40 % longer) that shows any string left hard-coded or cut short; the
// order wizard in German (every step's words, a validation message, prices, the recurrence and dates)
// and in Arabic at 390 px (right to left, nothing sticking out); and the switcher remembered across
// pages and reloads. Screenshots of the field page in Arabic and Japanese, and of every wizard step
// in German at 1366 px and Arabic at 390 px, go to shots/ (not committed).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";
import { OrderWizardPage } from "./pages/order-wizard-page";
import type { SignInPage } from "./pages/sign-in-page";
import { bearer } from "./support/api";
import { ORIGIN } from "./support/server";
import { expect, test } from "./support/fixtures";
import { overflow } from "./support/overflow";
import { unique } from "./support/operator";
import { ORDERS, json, orderApiKey } from "./support/orders";

const PHONE = { width: 390, height: 844 };
const SHOTS = join(process.cwd(), "shots");
/** Where "Use the demo location" puts the zoomer (components/field/types.ts). */
const DEMO = { lat: 43.7712, lng: 11.2555 };

let tmp: string;
test.beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "languages-"));
  mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A paid one-off order for one façade about 180 m south-west of the demo location; its name. */
async function taskNearDemoLocation(page: Page, key: string, prefix: string): Promise<{ name: string; lat: number; lng: number }> {
  const place = { name: unique(prefix), lat: DEMO.lat - 0.0012, lng: DEMO.lng - 0.0015 };
  const body = {
    client_reference: unique("e2e-languages"),
    category: "cultural_exterior",
    requirements: { angles: ["front"] },
    locations: [{ name: place.name, coordinates: { lat: place.lat, lng: place.lng } }],
  };
  const order = await json<{ id: string }>(
    await page.request.post(`${ORDERS}/orders`, { headers: { ...bearer(key), "idempotency-key": crypto.randomUUID() }, data: body }),
    201,
  );
  await json(
    await page.request.post(`${ORDERS}/orders/${order.id}/confirm`, {
      headers: { ...bearer(key), "idempotency-key": crypto.randomUUID() },
      data: { payment_method: "card" },
    }),
    200,
  );
  return place;
}

/** A phone photo 30 m south of the target facing `directionDeg`, as a file for the picker. */
async function photoFile(target: { lat: number; lng: number }, directionDeg: number, seed: number): Promise<string> {
  const bytes = await makePhoto({ lat: target.lat - 30 / 111_320, lng: target.lng, accuracyM: 5, directionDeg, capturedAt: new Date(), seed });
  const path = join(tmp, `IMG_${seed}.jpg`);
  writeFileSync(path, bytes);
  return path;
}

/** English words a translated sentence never has: a server-made sentence left in English shows one. */
const ENGLISH =
  /\b(the|of|and|was|were|checked|photo|image|analysis|analyser|taken|within|beyond|allowed|camera|view|crowd|people|sharp|exposure|metadata|position|this|order|not|from|phone)\b/i;

/** The lines of `texts` that still read in English, with the data (a place's name) left out. */
const englishLines = (texts: string[], data: string[]) => texts.map((t) => data.reduce((text, d) => text.replaceAll(d, ""), t)).filter((t) => ENGLISH.test(t));

async function expectFits(page: Page, what: string) {
  await page.waitForLoadState("networkidle").catch(() => {});
  const { scrollWidth, culprits } = await overflow(page);
  expect(culprits, `${what}: sticking out at 390 px`).toEqual([]);
  expect(scrollWidth, `${what}: scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
}

/** Text cut short: an element whose text is wider than its box while the box hides the rest. */
async function truncated(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>("main *, header *"))
      .filter(
        (el) =>
          el.checkVisibility() &&
          el.clientWidth > 2 &&
          el.scrollWidth > el.clientWidth + 1 &&
          ["hidden", "clip"].includes(getComputedStyle(el).overflowX) &&
          !el.closest("svg"),
      )
      .map((el) => `"${(el.textContent ?? "").trim().slice(0, 40)}"`),
  );
}

test.describe("the field page in Spanish (Accept-Language: es)", () => {
  test.use({ viewport: PHONE, locale: "es-ES" });
  test.setTimeout(180_000);

  test("a task, its photo, the verdict and the retake's instructions are all in Spanish", async ({ page, operator }) => {
    const org = await operator.createOrg("E2E Languages es");
    const place = await taskNearDemoLocation(page, await orderApiKey(operator, org.id), "E2E Claustro");

    await page.goto("/field");
    await expect(page.locator("html")).toHaveAttribute("lang", "es-ES");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await expect(page.getByRole("heading", { name: "Inicia sesión para hacer fotos" })).toBeVisible();
    await page.getByRole("button", { name: "Continuar como zoomer de demostración" }).click();
    await page.getByRole("button", { name: "Usar la ubicación de demostración (Florencia)" }).click();
    await expect(page.getByText(/^Ubicación de demostración: 43,7712, 11,2555$/)).toBeVisible();
    await page.getByRole("tab", { name: /^Tareas/ }).click();

    const card = page
      .getByRole("tabpanel", { name: /^Tareas/ })
      .getByTestId("field-task")
      .filter({ hasText: place.name });
    await expect(card).toContainText("Fachada — Toda la fachada del lugar, de frente, desde el otro lado de la calle.");
    await expect(card.getByTestId("task-way")).toContainText(/^\d+ m · SO/);
    await expect(card).toContainText(/Plazo/);

    await card.getByRole("button", { name: /Fachada/ }).click();
    const detail = page.getByTestId("task-detail");
    await expect(detail.getByRole("img", { name: /^Mapa: .*metros hacia el suroeste de ti$/ })).toBeVisible();
    await page.getByRole("button", { name: "Tomar esta tarea" }).click();
    // The place's zone by its Spanish name (Intl), not an English city inside a Spanish sentence.
    await expect(page.getByTestId("reservation")).toContainText(/Reservada para ti hasta las \d\d:\d\d hora de Europa central/);

    // Facing away from the façade: the checks on the phone say so in Spanish before sending…
    await page.getByLabel(/^Foto \(JPEG/).setInputFiles(await photoFile(place, 180, 8101));
    const preSend = page.getByTestId("pre-send-checks");
    await expect(preSend.locator('[data-check="angle_match"]')).toHaveAttribute("data-outcome", "failed");
    await expect(preSend.locator('[data-check="sharpness"]')).not.toContainText("Leyendo la foto");
    await expect(preSend).toContainText("Antes de enviar (comprobado en este teléfono)");
    await expect(preSend.locator('[data-check="angle_match"]')).toContainText(
      new RegExp(`Hacia dónde miras · Revisa esto\\s*Mira hacia \u2068${place.name}\u2069 \\(fachada\\)`),
    );
    await expect(preSend.locator('[data-check="location_match"]')).toContainText(/Dónde estás · OK\s*Hecha a [\d,]+ m de/);
    await expect(preSend).toContainText("Aún puedes enviar");
    expect(englishLines(await preSend.getByRole("listitem").allInnerTexts(), [place.name]), "English left in the checks before sending").toEqual([]);

    // …and once sent it is rejected, with what to do and a retake, in Spanish.
    await page.getByRole("button", { name: "Enviar foto" }).click();
    const verdict = page.getByTestId("task-verification");
    await expect(verdict).toHaveAttribute("data-status", "rejected", { timeout: 60_000 });
    await expect(verdict).toContainText("No aceptada");
    await expect(verdict.locator('[data-check="angle_match"]')).toContainText("Dirección · No superada");
    await expect(verdict.locator('[data-check="angle_match"]')).toContainText(/La cámara apuntaba a [\d,]+°/);
    await expect(verdict.locator('[data-check="location_match"]')).toContainText(/Lugar · Superada.*Hecha a [\d,]+ m de/);
    // Every check's sentence in Spanish: the image analysis (clear view) and the ones not evaluated too.
    const checkLines = await verdict.getByTestId("verification-check").allInnerTexts();
    expect(checkLines.length).toBeGreaterThanOrEqual(5);
    expect(englishLines(checkLines, [place.name]), "English left in the verdict").toEqual([]);
    await expect(verdict.locator('[data-check="obstruction"]')).toContainText(/Vista despejada · (Superada|No superada|No evaluada)\s*\S/);
    const instruction = page.getByTestId("verification-instructions").getByRole("listitem").first();
    // The place's name is isolated (U+2068 … U+2069) so it keeps its own direction in any sentence.
    await expect(instruction).toHaveText(
      new RegExp(`^Mira hacia \u2068${place.name}\u2069 \\(fachada\\), al norte de donde estabas: apuntabas [\\d,]+° desviado\\.$`),
    );
    await expect(page.getByTestId("retake-opened")).toContainText("Se abrió una repetición (repetición 1 de 3)");
    await page.screenshot({ path: join(SHOTS, "field-es-rejected.png"), fullPage: true });

    await page.getByRole("button", { name: "Ir a la repetición" }).click();
    await expect(detail).toHaveAttribute("data-status", "open");
    await expect(detail.getByText("Repetición 1 de 3")).toBeVisible();
    const retake = detail.getByTestId("retake-instructions");
    await expect(retake).toContainText("Repetición: haz esto de otra forma");
    await expect(retake).toContainText(`Mira hacia \u2068${place.name}\u2069 (fachada)`);
    // Nothing of the page's own English left (the place's name and the API's description of the angle are data).
    const text = (await page.locator("body").innerText()).replace(place.name, "");
    expect(text).not.toMatch(/\b(Take this task|Send photo|Retake|Deadline|Checks|Passed|Failed|All tasks|You are there|Reserved)\b/);
  });
});

test.describe("the field page in Arabic at 390 px", () => {
  test.use({ viewport: PHONE, locale: "ar" });

  test("is right to left, mirrored, and nothing sticks out of the screen", async ({ page, operator }) => {
    test.setTimeout(180_000);
    const org = await operator.createOrg("E2E Languages ar");
    const place = await taskNearDemoLocation(page, await orderApiKey(operator, org.id), "E2E Chiostro ar");
    await page.goto("/field");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.getByRole("heading", { name: "سجّل الدخول لالتقاط الصور" })).toBeVisible();
    await expectFits(page, "signed out");
    await page.getByRole("button", { name: "المتابعة كمصوّر تجريبي" }).click();
    await page.getByRole("button", { name: "استخدام الموقع التجريبي (فلورنسا)" }).click();
    await page.getByRole("tab", { name: /^المهام/ }).click();
    const card = page.getByTestId("field-task").filter({ hasText: place.name });
    await expect(card).toBeVisible();
    // Mirrored: the card's map sits at the right, its text to the left of it.
    const map = await card.getByRole("img").first().boundingBox();
    const name = await card.getByRole("heading").boundingBox();
    expect(map && name && map.x > name.x, "the map is at the start (right) of a right-to-left card").toBe(true);
    await expectFits(page, "the task list");
    await page.screenshot({ path: join(SHOTS, "field-ar-390.png"), fullPage: true });
    await card.getByRole("heading").getByRole("button").click();
    await expect(page.getByTestId("task-detail")).toBeVisible();
    await expectFits(page, "a task");
    expect(await truncated(page), "text cut short").toEqual([]);
    await page.screenshot({ path: join(SHOTS, "field-ar-390-task.png"), fullPage: true });

    // The verdict of a photo facing away, right to left and within the screen.
    await page.getByRole("button", { name: "أخذ هذه المهمة" }).click();
    await expect(page.getByTestId("reservation")).toBeVisible();
    await page
      .getByTestId("task-detail")
      .locator('input[type="file"]')
      .setInputFiles(await photoFile(place, 180, 8103));
    await expect(page.getByTestId("pre-send-checks").locator('[data-check="angle_match"]')).toHaveAttribute("data-outcome", "failed");
    await page.getByTestId("task-detail").getByRole("button", { name: "إرسال الصورة" }).click();
    const verdict = page.getByTestId("task-verification");
    await expect(verdict).toHaveAttribute("data-status", "rejected", { timeout: 60_000 });
    expect(englishLines(await verdict.getByTestId("verification-check").allInnerTexts(), [place.name]), "English left in the verdict").toEqual([]);
    await expectFits(page, "the verdict");
    await page.screenshot({ path: join(SHOTS, "field-ar-390-verdict.png"), fullPage: true });
  });
});

test.describe("the field page in Japanese at 390 px", () => {
  test.use({ viewport: PHONE, locale: "ja-JP" });

  test("reads in Japanese and fits the phone", async ({ page, operator }) => {
    const org = await operator.createOrg("E2E Languages ja");
    const place = await taskNearDemoLocation(page, await orderApiKey(operator, org.id), "E2E Chiostro ja");
    await page.goto("/field");
    await page.getByRole("button", { name: "デモ撮影者として続ける" }).click();
    await page.getByRole("button", { name: "デモの位置を使う（フィレンツェ）" }).click();
    await page.getByRole("tab", { name: /^タスク/ }).click();
    await expect(page.getByTestId("field-task").filter({ hasText: place.name })).toContainText("正面 —");
    await expectFits(page, "the task list");
    await page.screenshot({ path: join(SHOTS, "field-ja-390.png"), fullPage: true });
  });
});

test.describe("the pseudo-locale", () => {
  test.use({ viewport: PHONE });

  test("finds no hard-coded string and no text cut short on the field page", async ({ page, context, operator }) => {
    test.setTimeout(180_000);
    const org = await operator.createOrg("E2E Languages pseudo");
    const place = await taskNearDemoLocation(page, await orderApiKey(operator, org.id), "E2E Pseudo");
    await page.goto("/field");
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en-XA", url: page.url() }]);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
    await page.getByRole("button", { name: /Çöñtíñüé/ }).click();
    await page.getByRole("button", { name: /démö löçátíöñ/ }).click();
    await page.getByRole("tab", { name: /Tá/ }).click();
    const card = page.getByTestId("field-task").filter({ hasText: place.name });
    await expect(card).toBeVisible();

    const data = ["Photo Missions", place.name];
    const untranslated = async () =>
      page.evaluate((data: string[]) => {
        const out: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          // Data is marked translate="no" (a place's name); options are the languages in their own words.
          if (!parent || !parent.checkVisibility() || parent.closest("script, style, svg, option, [translate=no]")) continue;
          let text = node.textContent ?? "";
          for (const d of data) text = text.replaceAll(d, "");
          // What Intl writes (day and month names, "in 25 minutes") is the locale's data, not the page's strings.
          text = text.replace(
            /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|AM|PM|in|ago|now|seconds?|minutes?|hours?|days?)\b/g,
            "",
          );
          // Pseudo text has accents or the [ ~ ] frame; data (figures, times, units, place names) has no two plain letters in a row.
          if (/[A-Za-z]{3,}/.test(text) && !/[áéíöüçñýÅÉÎÖÛÇÑÝ\[~\]]/.test(text)) out.push(text.trim());
        }
        return out;
      }, data);
    expect(await untranslated(), "strings not from the catalogue on the task list").toEqual([]);
    expect(await truncated(page), "text cut short on the task list").toEqual([]);
    await expectFits(page, "the task list, pseudo-locale");
    await card.getByRole("heading").getByRole("button").click();
    await expect(page.getByTestId("task-detail")).toBeVisible();
    expect(await untranslated(), "strings not from the catalogue on a task").toEqual([]);
    expect(await truncated(page), "text cut short on a task").toEqual([]);
    await expectFits(page, "a task, pseudo-locale");

    // The rest of the field flow: taking the task, the checks before sending, the verdict and the retake.
    await page
      .getByTestId("task-detail")
      .getByRole("button", { name: /^\[Táké/ })
      .click();
    await expect(page.getByTestId("reservation")).toBeVisible();
    await page
      .getByTestId("task-detail")
      .locator('input[type="file"]')
      .setInputFiles(await photoFile(place, 180, 8102));
    const preSend = page.getByTestId("pre-send-checks");
    await expect(preSend.locator('[data-check="angle_match"]')).toHaveAttribute("data-outcome", "failed");
    await expect(preSend.locator('[data-check="sharpness"]')).toHaveAttribute("data-outcome", /^(passed|failed)$/);
    expect(await untranslated(), "strings not from the catalogue in the checks before sending").toEqual([]);
    await page.getByTestId("task-detail").getByRole("button", { name: /Séñd/ }).click();
    const verdict = page.getByTestId("task-verification");
    await expect(verdict).toHaveAttribute("data-status", "rejected", { timeout: 60_000 });
    expect(await untranslated(), "strings not from the catalogue in the verdict").toEqual([]);
    expect(await truncated(page), "text cut short in the verdict").toEqual([]);
    await expectFits(page, "the verdict, pseudo-locale");
  });
});

test("the language switcher is remembered across reloads and pages", async ({ page }) => {
  await page.goto("/field");
  await expect(page.getByRole("heading", { name: "Sign in to take photos" })).toBeVisible();
  await page.getByRole("combobox", { name: "Language" }).selectOption("es");
  await expect(page.getByRole("heading", { name: "Inicia sesión para hacer fotos" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", /^es/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Inicia sesión para hacer fotos" })).toBeVisible();
  const other = await page.context().newPage();
  await other.goto("/field");
  await expect(other.getByRole("combobox", { name: "Idioma" })).toHaveValue("es");
  await other.getByRole("combobox", { name: "Idioma" }).selectOption("en");
  await expect(other.getByRole("heading", { name: "Sign in to take photos" })).toBeVisible();
});

/** Signs in as the demo partner with the dashboard in English, then reads it in `locale` (the switcher's cookie). */
async function signInReadingIn(page: Page, signIn: SignInPage, locale: string) {
  await page.context().addCookies([{ name: LOCALE_COOKIE, value: "en", url: ORIGIN }]);
  await signIn.goto();
  await signIn.demoButton.click();
  await expect(page).toHaveURL(/\/missions(\?.*)?$/);
  await page.context().addCookies([{ name: LOCALE_COOKIE, value: locale, url: ORIGIN }]);
}

test.describe("the order wizard in German", () => {
  test.use({ locale: "de-DE", timezoneId: "Europe/Berlin" });

  test("speaks German in every step and writes prices and dates the German way", async ({ page, signIn }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1366, height: 900 });
    await signInReadingIn(page, signIn, "de");
    const wizard = new OrderWizardPage(page);
    // The page object reads the English labels: here the German ones are asked for by name.
    const atStep = (step: string) => expect(page).toHaveURL(new RegExp(`/orders/new/${step}\\?draft=drf_[0-9a-z]+$`));
    const saved = () => expect(wizard.saveStatus).toHaveText("Entwurf gespeichert");
    const next = page.getByRole("button", { name: /^Weiter: / });
    const shot = (step: string) => page.screenshot({ path: join(SHOTS, `wizard-de-1366-${step}.png`), fullPage: true });
    await page.goto("/orders/new");
    await expect(page.getByRole("heading", { name: "Neuer Auftrag", level: 1 })).toBeVisible();
    await shot("drafts");
    await page.getByRole("button", { name: "Neuen Auftrag beginnen" }).click();
    await atStep("locations");
    await expect(page.getByRole("navigation", { name: "Auftragsschritte" }).getByRole("link", { name: /Orte/ })).toHaveAttribute("aria-current", "step");
    await expect(page.getByRole("heading", { name: "Neuer Auftrag: Orte", level: 1 })).toBeVisible();
    await expect(page.getByTestId("locations-count")).toContainText("0 von 500 Orten.");
    // Next with nothing chosen: the step says what it lacks, in German.
    await next.click();
    await expect(page.locator("#locations-error")).toHaveText(
      "Fügen Sie mindestens einen Ort hinzu: Klicken Sie auf die Karte, suchen Sie einen Ort oder importieren Sie eine Datei.",
    );
    await page.getByRole("textbox", { name: "Oder einfügen" }).fill("name,lat,lng\nPonte Vecchio,43.768,11.2531\nNirgendwo,95,11");
    await page.getByRole("button", { name: "Eingefügte Liste importieren" }).click();
    await expect(wizard.importReport).toContainText("1 Ort aus der CSV-Datei importiert.");
    await expect(wizard.importReport).toContainText("Zeile 3: Breitengrad 95 liegt außerhalb von -90 bis 90");
    await expect(wizard.locationRows).toHaveCount(1);
    await expect(wizard.locationRows.first().getByRole("textbox", { name: "Name von Ort 1" })).toHaveValue("Ponte Vecchio");
    await expect(page.locator("#locations-error")).toHaveCount(0);
    await saved();
    await shot("locations");
    await next.click();

    await atStep("what");
    await expect(page.getByRole("group", { name: "Welche Art von Ort?" })).toBeVisible();
    await page.getByRole("radio", { name: /^Kulturstätte, außen/ }).check();
    await page.getByRole("checkbox", { name: "Vorderseite", exact: true }).check();
    await expect(page.getByLabel("Tageszeit")).toContainText("Tageslicht – jederzeit, solange die Sonne scheint");
    await saved();
    await shot("what");
    await next.click();

    await atStep("when");
    await page.getByRole("radio", { name: /^Wiederkehrend/ }).check();
    await expect(page.getByLabel("Wochentag")).toHaveValue("5");
    await expect(page.getByLabel("Wochentag").locator("option:checked")).toHaveText("Freitag");
    const summary = page.getByTestId("schedule-summary");
    // "Jeden Freitag", "12,00 € pro Zyklus, 15 % Rabatt (…)": the recurrence in words, a decimal comma, the euro sign after.
    await expect(summary).toContainText("Jeden Freitag", { timeout: 20_000 });
    await expect(summary).toContainText(/\d+,\d\d\s€ pro Zyklus/);
    // "Fr., 4. Dez. 2026": the weekday and month abbreviated in German, the day with a full stop.
    await expect(page.getByTestId("next-cycles").getByRole("listitem").first()).toHaveText(/^(Mo|Di|Mi|Do|Fr|Sa|So)\., \d{1,2}\. \S+ \d{4}$/);
    await saved();
    await shot("when");
    await next.click();

    await atStep("delivery");
    await expect(page.getByRole("radio", { name: /^Nur Dashboard/ })).toBeChecked();
    await shot("delivery");
    await next.click();

    await atStep("review");
    await expect(page.getByTestId("review-problems")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Angebot pro Zyklus" })).toBeVisible();
    await expect(wizard.quote).toContainText("Zwischensumme (1 Foto)");
    await expect(wizard.quote).toContainText(/Rabatt, wöchentlich wiederkehrender Auftrag \(\d+ %\)/);
    await expect(wizard.quoteTotal).toHaveText(/^\d+,\d\d\s€$/);
    await expect(wizard.placeOrder).toHaveText(/^Auftrag aufgeben und \d+,\d\d\s€ bezahlen$/);
    await expect(page.getByTestId("first-cycle")).toHaveText(/^\s*– erster Zyklus (Mo|Di|Mi|Do|Fr|Sa|So)\., \d{1,2}\. \S+ \d{4} \(Ortsdatum\)$/);
    await expect(page.getByText(/^Jeden Freitag/)).toBeVisible();
    await shot("review");
    // Nothing of the wizard's own English left (the place's name is data).
    const text = await page.locator("main").innerText();
    expect(text).not.toMatch(/\b(Locations|Subtotal|Total|Place order|Quote|Change|Payment|Every Friday|per cycle)\b/);
  });
});

test.describe("the order wizard in Arabic at 390 px", () => {
  test.use({ viewport: PHONE, locale: "ar" });

  test("is right to left, and its locations and review steps fit the screen", async ({ page, signIn }) => {
    test.setTimeout(180_000);
    await signInReadingIn(page, signIn, "ar");
    const wizard = new OrderWizardPage(page);
    const atStep = (step: string) => expect(page).toHaveURL(new RegExp(`/orders/new/${step}\\?draft=drf_[0-9a-z]+$`));
    const next = page.getByRole("button", { name: /^التالي: / });
    const shot = (step: string) => page.screenshot({ path: join(SHOTS, `wizard-ar-390-${step}.png`), fullPage: true });
    await page.goto("/orders/new");
    await page.getByRole("button", { name: "بدء طلب جديد" }).click();
    await atStep("locations");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await page.getByRole("textbox", { name: "أو الصق" }).fill("name,lat,lng\nPonte Vecchio,43.768,11.2531\nPalazzo Pitti,43.7651,11.2500");
    await page.getByRole("button", { name: "استيراد القائمة الملصقة" }).click();
    await expect(wizard.locationRows).toHaveCount(2);
    await expect(wizard.saveStatus).toHaveText("تم حفظ المسودة");
    // Mirrored: a row's number sits at its right, the remove button at its left.
    const row = wizard.locationRows.first();
    const number = await row.locator("span[aria-hidden]").first().boundingBox();
    const remove = await row.getByRole("button", { name: /^إزالة الموقع 1/ }).boundingBox();
    expect(number && remove && number.x > remove.x, "the row reads from the right").toBe(true);
    await expectFits(page, "the locations step");
    await shot("locations");
    await next.click();

    await atStep("what");
    await page.getByRole("radio", { name: /^موقع ثقافي، من الخارج/ }).check();
    await page.getByRole("checkbox", { name: "الواجهة", exact: true }).check();
    await expect(wizard.saveStatus).toHaveText("تم حفظ المسودة");
    await shot("what");
    await next.click();
    await atStep("when");
    await expect(page.getByTestId("schedule-summary")).toContainText("مرة واحدة، في أقرب وقت ممكن.", { timeout: 20_000 });
    await shot("when");
    await next.click();
    await atStep("delivery");
    await expect(page.getByRole("radio", { name: /^لوحة التحكم فقط/ })).toBeChecked();
    await shot("delivery");
    await next.click();

    await atStep("review");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    // The places' Latin names are set apart from the Arabic around them (U+2068 … U+2069).
    await expect(page.getByText("2: \u2068Ponte Vecchio\u2069, \u2068Palazzo Pitti\u2069")).toBeVisible();
    await expect(wizard.quote).toContainText("المجموع الفرعي (صورتان)");
    await expect(wizard.placeOrder).toContainText("إرسال الطلب ودفع");
    await expectFits(page, "the review step");
    await shot("review");
  });
});
