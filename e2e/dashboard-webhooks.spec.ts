// Webhooks from the dashboard: an administrator registers an endpoint, sees its signing secret
// exactly once, sends a test event and follows its delivery and attempt in the log. The target is
// a closed port on loopback (the browser tests' app allows private targets so that nothing leaves
// this machine), so the delivery fails: the test asserts that the delivery and its attempt are shown.
import { WebhooksPage } from "./pages/webhooks-page";
import { expect, test } from "./support/fixtures";
import { unique } from "./support/operator";

// A public-looking address (not in any reserved range), so registration passes the SSRF guard.
const TARGET = () => `http://127.0.0.1:59999/e2e/${unique("hook")}`;

test("register an endpoint, see its secret once, send a test event and see the delivery", async ({ page, partner, signIn }) => {
  test.setTimeout(90_000);
  await signIn.signInAs(partner.admin);
  const webhooks = new WebhooksPage(page);
  await webhooks.goto();
  await expect(webhooks.emptyState).toBeVisible();

  const url = TARGET();
  await webhooks.register(url, "E2E receiver");

  // The secret: shown once, right after creation.
  await expect(webhooks.secretReveal).toBeVisible();
  await expect(webhooks.secretReveal).toBeFocused();
  const secret = (await webhooks.revealedSecret.textContent())?.trim() ?? "";
  // Standard Webhooks: whsec_ + standard base64 of 32 bytes.
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const endpoint = webhooks.endpoint(url);
  await expect(endpoint.root).toBeVisible();
  await expect(endpoint.root).toContainText("E2E receiver");
  await expect(endpoint.root).toContainText("All events");
  await expect(endpoint.lastDelivery).toContainText("none yet");

  await webhooks.secretStored.click();
  await expect(webhooks.secretReveal).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  // Nothing brings it back: not the page, not the list the browser fetches.
  await page.reload();
  await expect(endpoint.root).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  const listed = await page.request.get("/dashboard-api/webhooks");
  expect(listed.status()).toBe(200);
  expect(await listed.text()).not.toContain(secret);

  // A test event, followed in the delivery log.
  await endpoint.sendTest.click();
  await expect(endpoint.status).toHaveText(/Test event queued/);
  await expect(endpoint.deliveries).toBeVisible();
  const delivery = endpoint.delivery("webhook.test");
  await expect(delivery.row).toBeVisible();
  await expect(delivery.row).toHaveAttribute("data-status", /^(pending|delivering|succeeded|failed)$/);

  // The worker tries it (against a public address it may time out: up to WEBHOOK_TIMEOUT_MS, 10 s).
  await expect(delivery.row.getByRole("cell").nth(2)).not.toHaveText("0", { timeout: 45_000 });
  await expect(delivery.row.getByRole("cell").nth(1)).toHaveText(/^(succeeded|failed|retrying)$/);
  await expect(delivery.row.getByRole("cell").nth(3)).not.toHaveText("—");

  await delivery.expand.click();
  await expect(delivery.expand).toHaveAttribute("aria-expanded", "true");
  await expect(delivery.attempts.first()).toBeVisible();
  const attempt = delivery.attempts.first().getByRole("cell");
  await expect(attempt.nth(0)).toHaveText("1");
  // Either an HTTP status from the receiver or the connection error, never nothing.
  await expect(attempt.nth(4)).not.toHaveText("—");
  await expect(endpoint.lastDelivery).toContainText("webhook.test");
});

test("an unsafe target is refused next to the URL field", async ({ page, partner, signIn }) => {
  await signIn.signInAs(partner.admin);
  const webhooks = new WebhooksPage(page);
  await webhooks.goto();
  // The browser tests' app allows private targets (so nothing leaves the machine); the port rule
  // still refuses well-known service ports. Private addresses are refused in the API tests.
  await webhooks.register("http://127.0.0.1:22/hook");
  await expect(webhooks.addForm.getByRole("alert")).toContainText(/Port 22 is not allowed/);
  await expect(webhooks.url).toHaveAttribute("aria-invalid", "true");
  await expect(webhooks.secretReveal).toHaveCount(0);
  await expect(webhooks.emptyState).toBeVisible();
});
