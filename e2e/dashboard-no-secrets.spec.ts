// Nothing secret reaches the browser. Over a whole session — sign-in, missions list, mission page
// with a submission open, webhooks, API credentials; and over an order session — the orders list,
// the wizard from start to the quote, an order's page with a delivered photo under review — every response the browser gets (headers;
// bodies of HTML, RSC payloads, JSON, JavaScript chunks) is recorded and searched for tokens and
// secrets, and the session cookie must be out of page scripts' reach. The one-time reveals a user
// triggers (a new webhook or client secret) are the only places a secret may appear: this spec
// triggers none, so any secret found is a leak.
import { makePhoto } from "@/lib/demo/make-photo";
import { DEMO_USER } from "@/lib/demo/demo-user";
import { CredentialsPage } from "./pages/credentials-page";
import { MissionPage } from "./pages/mission-page";
import { MissionsListPage } from "./pages/missions-list-page";
import { OrderPage } from "./pages/order-page";
import { OrderWizardPage } from "./pages/order-wizard-page";
import { OrdersListPage } from "./pages/orders-list-page";
import { bearer } from "./support/api";
import { WebhooksPage } from "./pages/webhooks-page";
import { expect, test } from "./support/fixtures";
import { EVIDENCE_TYP } from "@/lib/service/orders/photo-evidence";
import { describeFindings, findSecrets, NetworkRecorder } from "./support/network-recorder";
import { squareAround, unique } from "./support/operator";
import { ORDERS, json, orderApiKey, orderWithDeliveredPhoto } from "./support/orders";

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;
/** The base64url start of an evidence JWS's protected header ({"alg":"EdDSA","typ":"photo-evidence+jwt",…}), whole 3-byte groups only. */
const EVIDENCE_HEADER = (() => {
  const start = `{"alg":"EdDSA","typ":"${EVIDENCE_TYP}",`;
  return Buffer.from(start.slice(0, start.length - (start.length % 3))).toString("base64url");
})();
const EVIDENCE_JWS = new RegExp(`${EVIDENCE_HEADER}[\\w-]*\\.[\\w-]+\\.[\\w-]+`);
const NOT_EVIDENCE_JWT = new RegExp(`eyJ(?!${EVIDENCE_HEADER.slice(3)})[\\w-]+\\.[\\w-]+\\.[\\w-]+`);

test("no token, secret or password reaches the browser during a dashboard session", async ({ page, context, operator, partner, signIn }) => {
  test.setTimeout(120_000);
  // Secrets that exist while the session runs, none of them revealed by the user in this browser.
  const center = { lat: 43.843, lng: 10.508 }; // Lucca
  const mission = await partner.api.createMission({ title: unique("Secret-free mission"), bounds: squareAround(center.lat, center.lng) });
  const zoomer = await operator.zoomer();
  const photo = await makePhoto({ ...center, accuracyM: 5, capturedAt: new Date(), seed: 8181 });
  const submission = await zoomer.submit(mission.id, [{ name: "IMG_8181.jpg", buffer: photo }]);
  const webhook = await partner.api.createWebhook(`http://127.0.0.1:59999/e2e/${unique("hook")}`);
  const otherClient = await operator.partner(partner.org.id, ["missions:read"]);

  const recorder = await NetworkRecorder.start(page);
  // The sign-in page's bodies are read before the form's navigation drops them.
  await signIn.signInAs(partner.admin, undefined, { beforeSubmit: () => recorder.settle() });

  const list = new MissionsListPage(page);
  await expect(list.missionLink(mission.title)).toBeVisible();
  await list.missionLink(mission.title).click();

  const missionPage = new MissionPage(page);
  await expect(missionPage.heading).toHaveText(mission.title);
  await missionPage.submission(submission.id).getByRole("button").click();
  await expect(missionPage.panel).toBeVisible();
  await expect(missionPage.metadataValue("SHA-256")).toHaveText(/^[0-9a-f]{64}$/);

  const webhooks = new WebhooksPage(page);
  await recorder.settle();
  await webhooks.goto();
  await expect(webhooks.endpoints.getByRole("listitem").first()).toBeVisible();
  await webhooks.page
    .getByRole("button", { name: /^Show deliveries/ })
    .first()
    .click();

  const credentials = new CredentialsPage(page);
  await recorder.settle();
  await credentials.goto();
  // The credentials page lists clients by id, never with their secrets.
  await expect(credentials.client(otherClient.client.client_id)).toBeVisible();
  await expect(credentials.client(partner.api.client.client_id)).toBeVisible();
  await expect(credentials.secretReveals).toHaveCount(0);

  await recorder.settle();
  expectRscRead(recorder);
  expect(recorder.responses.length).toBeGreaterThan(20);
  // The recorder saw what matters: RSC payloads, JavaScript chunks and the proxy's JSON.
  expect(recorder.responses.some((r) => r.contentType.includes("x-component") && r.body)).toBe(true);
  expect(recorder.responses.some((r) => r.contentType.includes("javascript") && r.body)).toBe(true);
  expect(recorder.responses.some((r) => r.url.includes("/dashboard-api/") && r.body)).toBe(true);

  const findings = findSecrets(recorder, [
    { what: "a JWT", pattern: JWT },
    { what: "the operator token", pattern: operator.adminToken },
    { what: "an operator token", pattern: /\badm_[A-Za-z0-9_-]{43}\b/ },
    // Covers every client secret, the demo zoomer's included (it is only in the server's database).
    { what: "an OAuth client secret", pattern: /\bcs_[A-Za-z0-9_-]{43}/ },
    { what: "the partner client's secret", pattern: partner.api.client.client_secret },
    { what: "another client's secret", pattern: otherClient.client.client_secret },
    { what: "the zoomer's secret", pattern: zoomer.credentials.client_secret },
    // Standard base64 now, base64url before.
    { what: "a webhook signing secret", pattern: /\bwhsec_[A-Za-z0-9+/_-]{43}/ },
    { what: "the webhook's secret", pattern: webhook.secret },
    { what: "an order-interface API key", pattern: /\bpm_live_[A-Za-z0-9_-]{43}/ },
    { what: "a bearer credential", pattern: /Bearer\s+[A-Za-z0-9._~+/-]{20,}/ },
    { what: "the user's password", pattern: partner.admin.password },
    { what: "the demo account's password", pattern: DEMO_USER.password },
  ]);
  expect(findings, `secrets reached the browser:\n${describeFindings(findings)}`).toEqual([]);

  // The browser never holds a credential to send: no request carries an Authorization header.
  const authorised = recorder.requests.filter((r) => r.headers["authorization"]);
  expect(authorised.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  const authorisationHeaders = recorder.responses.filter((r) => Object.keys(r.headers).some((h) => h === "authorization" || h === "proxy-authorization"));
  expect(authorisationHeaders.map((r) => r.url)).toEqual([]);

  // The session lives in an httpOnly cookie: page scripts cannot read it.
  const cookies = await context.cookies();
  const session = cookies.filter((c) => /session-token/.test(c.name));
  expect(session.length, "a session cookie is set").toBeGreaterThan(0);
  for (const c of session) expect(c.httpOnly, `${c.name} is httpOnly`).toBe(true);
  const visible = await page.evaluate(() => document.cookie);
  expect(visible).not.toMatch(/session-token/);
  expect(visible).not.toMatch(JWT);
});

test("no API key, token or secret reaches the browser during an order session: list, wizard, order page and review", async ({
  page,
  context,
  request,
  operator,
  partner,
  signIn,
}) => {
  test.setTimeout(180_000);
  // The organisation's API key, its order-delivery signing secret, and an order with a delivered photo.
  const key = await orderApiKey(operator, partner.org.id);
  const { secret: deliverySecret } = await json<{ secret: string }>(await request.post(`${ORDERS}/delivery-secret`, { headers: bearer(key) }), 201);
  const delivered = await orderWithDeliveredPhoto(request, operator, key);

  const recorder = await NetworkRecorder.start(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The sign-in page's bodies are read before the form's navigation drops them.
  await signIn.signInAs(partner.admin, undefined, { beforeSubmit: () => recorder.settle() });

  const list = new OrdersListPage(page);
  await recorder.settle();
  await list.goto();
  await list.findByReference(delivered.reference);
  await expect(list.rows).toHaveCount(1);

  // The wizard, from a new draft to the API's quote (the draft and quote go through server actions).
  const wizard = new OrderWizardPage(page);
  await recorder.settle();
  await wizard.startNew();
  await wizard.pasteLocations("name,lat,lng\nTorre degli Asinelli,44.4943,11.3465");
  await expect(wizard.locationRows).toHaveCount(1);
  await wizard.goNext("what");
  await wizard.category("Cultural site, outside").check();
  await wizard.angle("Front").check();
  await wizard.goNext("when");
  await wizard.goNext("delivery");
  await wizard.goNext("review");
  await expect(wizard.quoteTotal).toHaveText(/€/);

  // The order's page: the delivered photo, its checks and camera, a location's ZIP.
  const orderPage = new OrderPage(page);
  await recorder.settle();
  await orderPage.goto(delivered.orderId);
  const card = orderPage.photo(delivered.photoId);
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Show camera on the map" }).click();
  await expect(card.getByRole("button", { name: "Shown on the map" })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: `Download the photos of ${delivered.name} as a ZIP` }).click();
  expect(await (await download).failure()).toBeNull();

  await recorder.settle();
  expectRscRead(recorder);
  expect(recorder.responses.some((r) => r.contentType.includes("x-component") && r.body)).toBe(true);
  expect(recorder.responses.some((r) => r.url.includes("/dashboard-api/orders/") && r.status === 200)).toBe(true);
  // The review showed signed photo URLs: those are meant for the browser, and carry no credential.
  expect(recorder.responses.some((r) => r.body?.includes(`/cdn/images/${delivered.photoId}/`))).toBe(true);

  // The delivered photo's evidence is a JWS meant for the reader (the review offers it for download):
  // public by design, and the only JWT allowed through. Any other JWT is a credential.
  expect(recorder.responses.some((r) => r.body && EVIDENCE_JWS.test(r.body))).toBe(true);
  const findings = findSecrets(recorder, [
    { what: "a JWT other than a photo's evidence", pattern: NOT_EVIDENCE_JWT },
    { what: "the organisation's API key", pattern: key },
    { what: "an order-interface API key", pattern: /\bpm_live_[A-Za-z0-9_-]{20,}/ },
    { what: "the order-delivery secret", pattern: deliverySecret },
    { what: "an order-delivery secret", pattern: /\bodsec_[A-Za-z0-9_-]{20,}/ },
    { what: "a signing secret in the Standard Webhooks form", pattern: /\bwhsec_[A-Za-z0-9+/_-]{20,}/ },
    { what: "the operator token", pattern: operator.adminToken },
    { what: "an operator token", pattern: /\badm_[A-Za-z0-9_-]{43}\b/ },
    { what: "an OAuth client secret", pattern: /\bcs_[A-Za-z0-9_-]{43}/ },
    { what: "the zoomer's secret", pattern: delivered.zoomer.credentials.client_secret },
    { what: "the zoomer's token", pattern: delivered.zoomer.token },
    { what: "a bearer credential", pattern: /Bearer\s+[A-Za-z0-9._~+/-]{20,}/ },
    { what: "the user's password", pattern: partner.admin.password },
  ]);
  expect(findings, `secrets reached the browser:\n${describeFindings(findings)}`).toEqual([]);
  expect(recorder.requests.filter((r) => r.headers["authorization"]).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  const cookies = await context.cookies();
  for (const c of cookies.filter((c) => /session-token/.test(c.name))) expect(c.httpOnly, `${c.name} is httpOnly`).toBe(true);
});

/**
 * Every RSC payload was read and searched (they pass through the recorder's route). Other bodies
 * Chromium dropped before they could be read (a response still arriving when the page navigated
 * on) are named in the report.
 */
function expectRscRead(recorder: NetworkRecorder) {
  const rsc = recorder.responses.filter((r) => r.contentType.includes("x-component"));
  expect(
    rsc.filter((r) => r.body === null).map((r) => r.url),
    "RSC payloads not read",
  ).toEqual([]);
  for (const line of recorder.unread) test.info().annotations.push({ type: "body not read", description: line });
}
