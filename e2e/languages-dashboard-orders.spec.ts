// The dashboard's orders area in the reader's language (messages/<locale>/orders.json), chosen with
// the switcher's cookie: the orders list and an order with a delivered photo in German — German
// words, the price in the German currency format, dates the German way on a 24-hour clock — then
// the same order's page in Arabic on a 390 px phone, right to left with nothing wider than the
// screen. On the way, one of the order's missions in German: its brief from the order, its due time. Screenshots (de at 1366, ar at 390) go to shots/ (not committed).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { bearer } from "./support/api";
import { expect, test } from "./support/fixtures";
import { overflow } from "./support/overflow";
import { waitForMapReady } from "./support/map-frame";
import { ORDERS, json, orderApiKey, orderWithDeliveredPhoto } from "./support/orders";

const SHOTS = join(process.cwd(), "shots");

test("the orders list and an order's page in German, then the order in Arabic on a phone", async ({
  page,
  context,
  request,
  operator,
  partner,
  signIn,
  baseURL,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const key = await orderApiKey(operator, partner.org.id);
  const { orderId, photoId, name, reference } = await orderWithDeliveredPhoto(request, operator, key);
  const order = await json<{ quote: { total_cents: number; currency: string }; amount_charged_cents: number }>(
    await request.get(`${ORDERS}/orders/${orderId}`, { headers: bearer(key) }),
    200,
  );
  const german = (cents: number) => new Intl.NumberFormat("de-DE", { style: "currency", currency: order.quote.currency }).format(cents / 100);
  const total = german(order.quote.total_cents);
  // "12,40 €": a decimal comma, the euro sign after the amount.
  expect(total).toMatch(/^\d{1,3}(\.\d{3})*,\d\d\s€$/);

  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn.signInAs(partner.admin);
  await context.addCookies([{ name: "NEXT_LOCALE", value: "de", url: baseURL ?? page.url() }]);

  // The list: German words, the German price and date.
  await page.goto(`/orders?status=all&reference=${encodeURIComponent(reference)}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aufträge");
  await expect(page.getByRole("navigation", { name: "Auftragsstatus" }).getByRole("link", { name: "Alle" })).toHaveAttribute("aria-current", "page");
  const row = page.getByTestId("order-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Kulturstätte, außen · 2 Orte · einmalig");
  await expect(row.locator("[data-status]")).toHaveText("In Arbeit");
  await expect(row).toContainText(total);
  // "27. Nov. 2026": the day with a full stop, the German month.
  // The cell's <time> (below 768 px the cell also carries its column's name, for the card layout).
  await expect(row.locator("td").last().locator("time")).toHaveText(/^\d{1,2}\. (Jan|Feb|März|Apr|Mai|Juni|Juli|Aug|Sept|Okt|Nov|Dez)\.? \d{4}$/);
  await expect(page.getByRole("table", { name: "Aufträge, neueste zuerst" })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(/\b(locations?|once|Created|Next cycle)\b/);
  await page.screenshot({ path: join(SHOTS, "orders-list-de-1366.png") });

  // The order's page.
  await row.getByRole("link", { name: reference }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${orderId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(reference);
  await expect(page.locator("header [data-status]")).toHaveText("In Arbeit");
  const facts = page.locator("dl").first();
  await expect(facts).toContainText(`Gesamt${total}`);
  await expect(facts).toContainText(`Belastet${german(order.amount_charged_cents)}`);
  await expect(page.getByTestId("delivered-count")).toHaveText("1 von 2");
  await waitForMapReady(page.locator("[data-map-state]"));
  const legend = page.getByRole("region", { name: "Kartenlegende" });
  await expect(legend.locator("[data-legend-state]")).toHaveText([
    /^Wartet1$/,
    /^Zugewiesen0$/,
    /^Wird geprüft0$/,
    /^Wartet auf Ihre Prüfung0$/,
    /^Wiederholung0$/,
    /^Geliefert1$/,
    /^Aufgegeben0$/,
  ]);
  await expect(page.getByTestId("order-location").filter({ hasText: `${name} (annex)` })).toContainText("Wartet");

  const timeline = page.getByTestId("order-timeline");
  await expect(timeline).toContainText("Auftrag erstellt");
  await expect(timeline).toContainText(`${german(order.amount_charged_cents)} belastet`);
  await expect(timeline).toContainText("An die Fotografen vor Ort gesendet");
  await expect(timeline).toContainText(`Geliefert: ${name}`);
  // "27. Nov., 23:05": a German date on the 24-hour clock.
  await expect(timeline.locator("time").first()).toHaveText(/^\d{1,2}\. \S+,? \d{2}:\d{2}$/);

  const card = page.locator(`[data-testid="delivered-photo"][data-photo-id="${photoId}"]`);
  await expect(card.getByTestId("camera-position")).toHaveText("30 m im Süden des Ziels");
  await expect(card).toContainText("0° (Norden)");
  await expect(card).toContainText("Wetter nicht verfügbar");
  await expect(card.locator('[data-check="location_match"]')).toContainText("OrtBestanden");
  await expect(card.getByRole("button", { name: "Kamera auf der Karte zeigen" })).toBeVisible();
  await expect(card).not.toContainText(/\b(AM|PM)\b/);
  await expect(page.getByRole("heading", { name: "Gelieferte Fotos" })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(/\b(Delivered photos|Timeline|Locations delivered|Charged|Refunded|Waiting)\b/);
  await page.mouse.move(1, 1);
  await page.screenshot({ path: join(SHOTS, "orders-de-1366.png"), fullPage: true });

  // One of its missions: what it asks for comes from the order, in German, and when it is due is
  // written the German way in the place's time — no English brief, no ISO time.
  const { data: missions } = await json<{ data: { id: string; title: string; deadline_at: string | null }[] }>(
    await request.get(`${ORDERS}/orders/${orderId}/missions`, { headers: bearer(key) }),
    200,
  );
  const annex = missions.find((m) => m.title === `${name} (annex)`);
  expect(annex?.deadline_at).toEqual(expect.any(String));
  await page.goto(`/missions/${annex?.id}`);
  const brief = page.getByTestId("order-mission-brief");
  await expect(brief.getByRole("link", { name: `Für Auftrag „${reference}“` })).toHaveAttribute("href", `/orders/${orderId}`);
  // "Fällig bis 30. Nov., 23:05 MEZ".
  await expect(brief.getByTestId("mission-due")).toHaveText(/^Fällig bis \d{1,2}\. \S+,? \d{2}:\d{2} \S+$/);
  await expect(brief.getByRole("list", { name: "Gewünschte Blickwinkel" })).toContainText("Vorderseite — ");
  await expect(page.getByText("Noch keine Einsendungen")).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(/Photograph|Due by|\d{4}-\d{2}-\d{2}T/);
  await page.screenshot({ path: join(SHOTS, "order-mission-de-1366.png") });
  // It changes only with its order: no "Bearbeiten" here, and its edit address says why and leads to the order.
  await expect(page.getByRole("link", { name: "Bearbeiten", exact: true })).toHaveCount(0);
  await page.goto(`/missions/${annex?.id}/edit`);
  await expect(page.getByRole("main").getByRole("status")).toContainText("Diese Mission gehört zu einem Auftrag");
  await expect(page.getByRole("main").getByRole("alert"), "not an error").toHaveCount(0);
  await expect(page.getByRole("link", { name: "Auftrag öffnen" })).toHaveAttribute("href", `/orders/${orderId}`);
  // Named plainly: not the editor's "„…“ bearbeiten" and its "Ändern Sie das Gebiet …" above a notice that says it cannot be.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${name} (annex)`);
  await expect(page.getByRole("main")).not.toContainText(/bearbeiten|Ändern Sie das Gebiet/);
  await page.screenshot({ path: join(SHOTS, "order-mission-edit-de-1366.png") });

  // Arabic on a phone: right to left, nothing wider than the screen.
  await context.addCookies([{ name: "NEXT_LOCALE", value: "ar", url: baseURL ?? page.url() }]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/orders/${orderId}`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(reference);
  await expect(page.getByRole("heading", { name: "الصور المسلّمة" })).toBeVisible();
  await expect(page.locator("header [data-status]")).toHaveText("قيد التنفيذ");
  await waitForMapReady(page.locator("[data-map-state]"));
  await page.waitForLoadState("networkidle").catch(() => {});
  const { scrollWidth, culprits } = await overflow(page);
  expect(culprits, "sticking out at 390 px").toEqual([]);
  expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(390);
  await page.screenshot({ path: join(SHOTS, "orders-ar-390.png"), fullPage: true });
});
