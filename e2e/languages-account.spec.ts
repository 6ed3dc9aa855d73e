// The account's language (users.locale, carried in the session cookie): it beats the browser's
// Accept-Language, clearing it hands the choice back to the browser, and the dashboard's switcher
// saves on the account so a new browser opens in it too. Then the webhooks and API credentials
// pages in German (labels and dates) and in Arabic on a 390 px phone (right to left, nothing wider
// than the screen). Screenshots of settings and webhooks (de 1366, ar 390) go to shots/ (not committed).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { bearer } from "./support/api";
import { expect, test } from "./support/fixtures";
import type { DashboardUser, Operator } from "./support/operator";
import { unique } from "./support/operator";

const SHOTS = join(process.cwd(), "shots");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

async function setAccountLocale(operator: Operator, userId: string, locale: string | null): Promise<void> {
  const res = await operator.request.patch(`/api/admin/v1/dashboard/users/${userId}`, { headers: bearer(operator.adminToken), data: { locale } });
  expect(res.status(), await res.text()).toBe(200);
}

async function accountLocale(operator: Operator, userId: string): Promise<string | null> {
  const res = await operator.request.get(`/api/admin/v1/dashboard/users/${userId}`, { headers: bearer(operator.adminToken) });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { user: { locale: string | null } }).user.locale;
}

/** Signs in by the form's field names: the sign-in page speaks the browser's language. */
async function signInAnyLanguage(page: Page, user: DashboardUser): Promise<void> {
  await page.goto("/sign-in");
  await page.locator('input[name="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/missions(\?.*)?$/);
}

/** A fresh browser set to `locale` (its Accept-Language), signed in as `user`. */
async function signedInBrowser(browser: Browser, user: DashboardUser, locale: string): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale });
  const page = await context.newPage();
  await signInAnyLanguage(page, user);
  return page;
}

const html = (page: Page) => page.locator("html");

/** How far the page scrolls sideways, and what sticks out past either edge (a wide table may scroll inside its own frame). */
async function expectFits(page: Page, what: string) {
  await page.waitForLoadState("networkidle").catch(() => {});
  const { scrollWidth, culprits } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = root.clientWidth;
    const out: string[] = [];
    const insideFrame = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible") {
          const frame = a.getBoundingClientRect();
          return frame.left >= -1 && frame.right <= width + 1;
        }
      }
      return false;
    };
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      if (insideFrame(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 1 && (box.right > width + 1 || box.left < -1))
        out.push(`<${el.tagName.toLowerCase()}> "${(el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
    return { scrollWidth: root.scrollWidth, culprits: out.slice(0, 5) };
  });
  expect(culprits, `${what}: sticking out at 390 px`).toEqual([]);
  expect(scrollWidth, `${what}: scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
}

test("the account's language beats Accept-Language, clearing it hands back to the browser, and the switcher saves on the account", async ({
  browser,
  operator,
  partner,
}) => {
  const user = await operator.createUser(partner.org.id, "viewer");
  await setAccountLocale(operator, user.id, "fr");

  // French for a German browser: the account's choice wins.
  const page = await signedInBrowser(browser, user, "de-DE");
  await expect(html(page)).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("navigation", { name: "Tableau de bord" }).getByRole("link", { name: "Commandes" })).toBeVisible();

  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Paramètres" })).toBeVisible();
  const select = page.getByLabel("Langue du tableau de bord");
  await expect(select).toHaveValue("fr");

  // Cleared: the browser's German decides, on this page and the next.
  await select.selectOption({ label: "Utiliser la langue de mon navigateur" });
  await expect(page.getByRole("heading", { level: 1, name: "Einstellungen" })).toBeVisible();
  await expect(html(page)).toHaveAttribute("lang", "de-DE");
  await expect(page.getByLabel("Sprache des Dashboards")).toHaveValue("");
  expect(await accountLocale(operator, user.id)).toBeNull();
  await page.goto("/missions");
  await expect(html(page)).toHaveAttribute("lang", "de-DE");

  // The switcher in the header saves on the account: a new browser (no cookie) opens in Italian.
  await page.getByTestId("language-switcher").selectOption("it");
  await expect(html(page)).toHaveAttribute("lang", "it");
  await expect.poll(() => accountLocale(operator, user.id)).toBe("it");
  await page.context().close();

  const elsewhere = await signedInBrowser(browser, user, "en-GB");
  await expect(html(elsewhere)).toHaveAttribute("lang", "it");
  await elsewhere.goto("/settings");
  await expect(elsewhere.getByRole("heading", { level: 1, name: "Impostazioni" })).toBeVisible();
  await elsewhere.context().close();
});

test.describe("webhooks and API credentials in German", () => {
  test.use({ locale: "de-DE", viewport: DESKTOP });

  test("labels and dates are German", async ({ page, partner }) => {
    const url = `http://127.0.0.1:59999/e2e/${unique("de")}`;
    await partner.api.createWebhook(url);
    await page.goto("/sign-in");
    await page.getByLabel("E-Mail").fill(partner.admin.email);
    await page.getByLabel("Passwort").fill(partner.admin.password);
    await page.getByRole("button", { name: "Anmelden", exact: true }).click();
    await expect(page).toHaveURL(/\/missions(\?.*)?$/);

    const today = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("de-DE", options).format(new Date());
    const germanDay = today({ day: "numeric", month: "short", year: "numeric" });

    await page.goto("/webhooks");
    await expect(page.getByRole("heading", { level: 2, name: "Endpunkte" })).toBeVisible();
    const endpoint = page.getByRole("list", { name: "Webhook-Endpunkte" }).getByRole("listitem").filter({ hasText: url });
    await expect(endpoint.getByText("Hinzugefügt:")).toBeVisible();
    await expect(endpoint.locator("dd time").last()).toHaveText(germanDay);
    await expect(page.getByRole("form", { name: "Webhook-Endpunkt hinzufügen" }).getByLabel("Endpunkt-URL")).toBeVisible();

    // A test event: its delivery log in German, with the attempt's time on the German 24-hour clock.
    await endpoint.getByRole("button", { name: "Testereignis senden" }).click();
    await expect(endpoint.getByRole("status").filter({ hasText: "Testereignis" })).toHaveText(
      "Testereignis eingereiht. Seine Zustellung erscheint unten und wird beim Senden aktualisiert.",
    );
    const deliveries = endpoint.getByRole("table", { name: "Zustellungen" });
    await expect(deliveries.getByRole("columnheader", { name: "Nächster Versuch" })).toBeVisible();
    const row = deliveries.getByTestId("delivery-row").first();
    await expect(row).toHaveAttribute("data-status", /failed|pending/, { timeout: 30_000 });
    await expect(row.getByText(/^(fehlgeschlagen|wird wiederholt)$/)).toBeVisible();
    await expect(row.locator("time").first()).toHaveText(/^(jetzt|vor \d+ (Sek|Min)\.)$/);
    await row.getByRole("button").first().click();
    const attempt = endpoint.getByTestId("delivery-attempt").first();
    await expect(attempt.locator("time")).toHaveText(new RegExp(`^${today({ day: "numeric", month: "short" }).replaceAll(".", "\\.")}, \\d{2}:\\d{2}:\\d{2}$`));
    await page.screenshot({ path: join(SHOTS, "webhooks-de-1366.png"), fullPage: true });

    await page.goto("/settings/credentials");
    await expect(page.getByRole("heading", { level: 1, name: "API-Zugangsdaten" })).toBeVisible();
    const form = page.getByRole("form", { name: "API-Schlüssel erstellen" });
    await form.getByLabel("Name des Schlüssels").fill("ERP-Aufträge");
    await form.getByRole("button", { name: "Schlüssel erstellen" }).click();
    await expect(page.getByRole("region", { name: "Neuer API-Schlüssel" })).toContainText("Sie sehen diesen API-Schlüssel nicht noch einmal");
    await page.getByRole("button", { name: "Fertig, ich habe es gespeichert" }).click();
    const keys = page.getByRole("table", { name: "API-Schlüssel" });
    const key = keys.getByTestId("api-key-row").filter({ hasText: "ERP-Aufträge" });
    await expect(key.locator("td").nth(2)).toHaveText(germanDay);
    await expect(key.locator("td").nth(3)).toHaveText("Nie");
    await expect(key.getByRole("button", { name: "ERP-Aufträge widerrufen" })).toBeVisible();

    await page.goto("/settings");
    await expect(page.getByRole("heading", { level: 1, name: "Einstellungen" })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, "settings-de-1366.png"), fullPage: true });
  });
});

test.describe("webhooks and API credentials in Arabic on a phone", () => {
  test.use({ locale: "ar", viewport: PHONE });

  test("right to left, nothing wider than 390 px", async ({ page, partner }) => {
    await partner.api.createWebhook(`http://127.0.0.1:59999/e2e/${unique("ar")}`);
    await signInAnyLanguage(page, partner.admin);

    for (const [path, heading, shot] of [
      ["/webhooks", "Webhooks", "webhooks-ar-390.png"],
      ["/settings/credentials", "بيانات اعتماد API", null],
      ["/settings", "الإعدادات", "settings-ar-390.png"],
    ] as const) {
      await page.goto(path);
      await expect(html(page)).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expectFits(page, path);
      if (shot) await page.screenshot({ path: join(SHOTS, shot), fullPage: true });
    }
  });
});
