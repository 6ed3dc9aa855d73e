// What a viewer may not do with orders, checked in the page and again where the data is written:
// no "New order", the wizard's pages closed, and the start-a-draft server action refused on the
// server even when a valid call (captured from an administrator) is replayed with the viewer's
// session. (Retakes: the same check in orders-review.spec.ts; the order interface's own 403 for
// a viewer's token: orders-photos-zip.api.test.ts.)
import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { OrdersListPage } from "./pages/orders-list-page";
import { SignInPage } from "./pages/sign-in-page";
import { bearer } from "./support/api";
import { expect, test } from "./support/fixtures";
import type { DashboardUser } from "./support/operator";
import { ORDERS, json, orderApiKey } from "./support/orders";
import { ORIGIN } from "./support/server";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

async function signedIn(context: BrowserContext, user: DashboardUser): Promise<Page> {
  const page = await context.newPage();
  await new SignInPage(page).signInAs(user);
  return page;
}

test("a viewer cannot order: no New order, the wizard closed, the draft action refused on the server", async ({ browser, request, operator, partner }) => {
  const viewer = await operator.createUser(partner.org.id, "viewer");
  const key = await orderApiKey(operator, partner.org.id);
  const drafts = async () =>
    (await json<{ data: { id: string }[] }>(await request.get(`${ORDERS}/drafts`, { headers: bearer(key) }), 200)).data.map((d) => d.id);

  // An administrator starts a draft; the action call is recorded on its way.
  const adminContext = await browser.newContext({ baseURL: ORIGIN });
  const adminPage = await signedIn(adminContext, partner.admin);
  await adminPage.goto("/orders/new");
  const captured = new Promise<{ headers: Record<string, string>; body: string }>((resolve) => {
    void adminPage.route("**/orders/new", async (route) => {
      const call = route.request();
      const headers = await call.allHeaders();
      if (call.method() === "POST" && headers["next-action"]) resolve({ headers, body: call.postData() ?? "" });
      await route.continue();
    });
  });
  await adminPage.getByRole("button", { name: "Start a new order" }).click();
  await expect(adminPage).toHaveURL(/\/orders\/new\/locations\?draft=drf_[0-9a-z]+$/);
  const adminDraft = new URL(adminPage.url()).searchParams.get("draft") ?? "";
  const call = await captured;
  expect(call.body).toMatch(UUID);
  const replayHeaders = Object.fromEntries(
    Object.entries(call.headers).filter(([h]) => ["accept", "content-type", "next-action", "next-router-state-tree", "origin"].includes(h)),
  );
  expect(await drafts()).toEqual([adminDraft]);

  // Control: the same call with a new request key, as the administrator, starts a second draft.
  const asAdmin = await adminPage.request.post("/orders/new", { headers: replayHeaders, data: call.body.replace(UUID, randomUUID()) });
  expect(asAdmin.status(), await asAdmin.text()).toBe(200);
  await expect.poll(async () => (await drafts()).length).toBe(2);

  // The viewer: no way in from the list, the wizard's pages closed.
  const viewerContext = await browser.newContext({ baseURL: ORIGIN });
  const viewerPage = await signedIn(viewerContext, viewer);
  const list = new OrdersListPage(viewerPage);
  await list.goto();
  await expect(list.newOrder).toHaveCount(0);
  for (const path of ["/orders/new", `/orders/new/locations?draft=${adminDraft}`, `/orders/new/review?draft=${adminDraft}`]) {
    await viewerPage.goto(path);
    await expect(viewerPage.getByRole("alert").filter({ hasText: "You need the Editor role for this page." })).toBeVisible();
    await expect(viewerPage.getByRole("button", { name: "Start a new order" })).toHaveCount(0);
    await expect(viewerPage.getByTestId("place-order")).toHaveCount(0);
  }

  // The very same call with the viewer's session: refused by the action, nothing created.
  const asViewer = await viewerPage.request.post("/orders/new", { headers: replayHeaders, data: call.body.replace(UUID, randomUUID()) });
  const answer = await asViewer.text();
  expect(answer).toContain("forbidden");
  expect(answer).toContain(`This needs the Editor role in ${partner.org.name}.`);
  expect(await drafts()).toHaveLength(2);

  await adminContext.close();
  await viewerContext.close();
});
