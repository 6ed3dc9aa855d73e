// The dashboard opened at another host than PUBLIC_ORIGIN (http://127.0.0.1:<port> where
// PUBLIC_ORIGIN is http://localhost:<port>, as from a LAN address or behind a proxy before
// PUBLIC_ORIGIN is set): every photo it shows still loads — the pages use same-origin /cdn/ paths
// (lib/api-client/page-photo-urls.ts) — with no CSP error, while the API keeps handing integrators
// absolute URLs under PUBLIC_ORIGIN. The field page too.
import type { Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { FieldPage } from "./pages/field-page";
import { MissionPage } from "./pages/mission-page";
import { MissionsListPage } from "./pages/missions-list-page";
import { OrderPage } from "./pages/order-page";
import { bearer } from "./support/api";
import { expect, test } from "./support/fixtures";
import { squareAround } from "./support/operator";
import { orderApiKey, orderWithDeliveredPhoto } from "./support/orders";
import { ORIGIN } from "./support/server";

const OTHER_HOST = ORIGIN.replace("//localhost:", "//127.0.0.1:");

test.use({ baseURL: OTHER_HOST, viewport: { width: 1366, height: 850 } });

/** Every <img> of the page has loaded from the page's own origin and decoded (naturalWidth > 0). */
async function expectEveryImageDecoded(page: Page, atLeast: number) {
  const images = () =>
    page.locator("img").evaluateAll((imgs) =>
      imgs.map((img) => ({
        src: (img as HTMLImageElement).currentSrc || (img as HTMLImageElement).src,
        ok: (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      })),
    );
  await expect.poll(async () => (await images()).filter((i) => !i.ok).map((i) => i.src), { message: "images not decoded" }).toEqual([]);
  const all = await images();
  expect(all.length).toBeGreaterThanOrEqual(atLeast);
  for (const { src } of all.filter((i) => /\/cdn\//.test(i.src))) expect(new URL(src).origin, src).toBe(OTHER_HOST);
}

test("opened at 127.0.0.1, the mission page, its submission panel and an order page show every photo", async ({ page, request, operator, partner, signIn }) => {
  test.setTimeout(180_000);
  const center = { lat: 44.4939, lng: 11.3426 };
  const mission = await partner.api.createMission({ title: "Another host — Neptune", bounds: squareAround(center.lat, center.lng, 180), required_images: 10 });
  const zoomer = await operator.zoomer();
  const ids: string[] = [];
  for (const [i, [dLat, dLng]] of (
    [
      [0.0004, -0.0006],
      [-0.0005, 0.0007],
      [0.0009, 0.001],
    ] as const
  ).entries()) {
    const photo = await makePhoto({
      lat: center.lat + dLat,
      lng: center.lng + dLng,
      accuracyM: 5,
      directionDeg: 90 * i,
      capturedAt: new Date(),
      seed: 8300 + i,
    });
    ids.push((await zoomer.submit(mission.id, [{ name: `IMG_83${i}.jpg`, buffer: photo }], { angle: "front" })).id);
  }
  await partner.api.waitUntilDecided(ids);
  const { orderId, photoId } = await orderWithDeliveredPhoto(request, operator, await orderApiKey(operator, partner.org.id));

  // Integrators still get absolute URLs under PUBLIC_ORIGIN, whichever host they called.
  const detail = (await (await request.get(`/api/v1/submissions/${ids[0]}`, { headers: bearer(partner.api.token) })).json()) as {
    images: { url: string; thumbnail_url: string }[];
  };
  expect(detail.images[0]?.thumbnail_url.startsWith(`${ORIGIN}/cdn/images/`)).toBe(true);

  await signIn.signInAs(partner.admin);
  expect(new URL(page.url()).origin).toBe(OTHER_HOST);
  await expect(new MissionsListPage(page).missionLink(mission.title)).toBeVisible();

  const missionPage = new MissionPage(page);
  await missionPage.goto(mission.id);
  await expect(missionPage.submissions).toHaveCount(ids.length);
  await expectEveryImageDecoded(page, ids.length);
  await missionPage
    .submission(ids[0] ?? "")
    .getByRole("button")
    .click();
  await expect(missionPage.thumbnail(1)).toBeVisible();
  await expectEveryImageDecoded(page, ids.length + 1);
  await missionPage.viewFullSize.click();
  await expect(missionPage.viewer).toBeVisible();
  await expectEveryImageDecoded(page, ids.length + 2);

  const orderPage = new OrderPage(page);
  await orderPage.goto(orderId);
  await expect(orderPage.photo(photoId)).toBeVisible();
  await expectEveryImageDecoded(page, 1);
  // The cspViolations fixture fails the test on any CSP error the pages reported.
});

test("opened at 127.0.0.1 on a phone, the field page shows the photo it sent", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await field.mission(/Duomo/).click();
  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 8342 });
  await field.photosInput.setInputFiles({ name: "IMG_8342.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();
  await expect(field.verdict).toHaveAttribute("data-phase", /approved|rejected/, { timeout: 30_000 });
  await expect(field.verdict.getByRole("img", { name: "Your photo" })).toBeVisible();
  await expectEveryImageDecoded(page, 1);
});
