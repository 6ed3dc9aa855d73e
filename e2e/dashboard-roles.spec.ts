// What a viewer may not do, checked in the page and again where the data is written: no "New
// mission" button, the editor's page replaced by a notice, the create action refused on the server
// even when called directly, and the administrators' pages closed.
import type { BrowserContext, Page } from "@playwright/test";
import { CredentialsPage } from "./pages/credentials-page";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { MissionsListPage } from "./pages/missions-list-page";
import { SignInPage } from "./pages/sign-in-page";
import { WebhooksPage } from "./pages/webhooks-page";
import { expect, test } from "./support/fixtures";
import { squareAround, unique, type DashboardUser } from "./support/operator";
import { ORIGIN } from "./support/server";

async function signedIn(context: BrowserContext, user: DashboardUser): Promise<Page> {
  const page = await context.newPage();
  await new SignInPage(page).signInAs(user);
  return page;
}

test("a viewer sees missions but no way to create one, and no administrator pages", async ({ page, operator, partner, signIn, shell }) => {
  const mission = await partner.api.createMission({ title: unique("Viewer-visible mission"), bounds: squareAround(43.723, 10.3966) });
  const viewer = await operator.createUser(partner.org.id, "viewer");
  await signIn.signInAs(viewer);

  const list = new MissionsListPage(page);
  await expect(list.missionLink(mission.title)).toBeVisible();
  await expect(list.newMission).toHaveCount(0);
  await expect(list.viewerNote).toBeVisible();
  await expect(shell.missionsLink).toBeVisible();
  await expect(shell.webhooksLink).toHaveCount(0);
  await expect(shell.credentialsLink).toHaveCount(0);

  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await expect(editor.forbidden).toContainText("You need the Editor role for this page.");
  await expect(editor.forbidden).toContainText(`Your role in \u2068${partner.org.name}\u2069 is Viewer.`);
  await expect(editor.form).toHaveCount(0);

  // A mission page is readable, but offers no Edit; its edit page is closed like the new one.
  await page.goto(`/missions/${mission.id}`);
  await expect(page.getByRole("heading", { level: 1, name: mission.title })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
  await editor.gotoEdit(mission.id);
  await expect(editor.forbidden).toContainText("You need the Editor role for this page.");
  await expect(editor.form).toHaveCount(0);

  const webhooks = new WebhooksPage(page);
  await webhooks.goto();
  await expect(webhooks.forbidden).toContainText("You need the Administrator role for this page.");
  await expect(webhooks.addForm).toHaveCount(0);
  await expect(webhooks.endpoints).toHaveCount(0);
  // The browser's read path is closed too, not only the page.
  expect((await page.request.get("/dashboard-api/webhooks")).status()).toBe(403);

  const credentials = new CredentialsPage(page);
  await credentials.goto();
  await expect(credentials.forbidden).toContainText("You need the Administrator role for this page.");
  await expect(credentials.clients).toHaveCount(0);
  await expect(credentials.createClientForm).toHaveCount(0);
  await expect(credentials.createKeyForm).toHaveCount(0);
});

test("the create-mission server action is refused for a viewer even when called directly", async ({ browser, operator, partner }) => {
  const editor = await operator.createUser(partner.org.id, "editor");
  const viewer = await operator.createUser(partner.org.id, "viewer");
  const title = unique("Replayed mission");

  // An editor submits the form (area imported as GeoJSON); the action call is captured, not sent.
  const editorContext = await browser.newContext({ baseURL: ORIGIN });
  const editorPage = await signedIn(editorContext, editor);
  const form = new MissionEditorPage(editorPage);
  await form.gotoNew();
  await form.title.fill(title);
  await form.photosNeeded.fill("3");
  await form.importGeoJson.setInputFiles({
    name: "area.geojson",
    mimeType: "application/geo+json",
    buffer: Buffer.from(JSON.stringify({ type: "Feature", properties: {}, geometry: squareAround(43.723, 10.3966) })),
  });
  await expect(form.vertices).toHaveText("4");
  await expect(form.valid).toBeVisible();
  const captured = new Promise<{ headers: Record<string, string>; body: string }>((resolve) => {
    void editorPage.route("**/missions/new", async (route) => {
      const request = route.request();
      const headers = await request.allHeaders();
      if (request.method() !== "POST" || !headers["next-action"]) return route.continue();
      resolve({ headers, body: request.postData() ?? "" });
      await route.abort();
    });
  });
  await form.submit.click();
  const call = await captured;
  expect(call.body).toContain(title);
  const replayHeaders = Object.fromEntries(
    Object.entries(call.headers).filter(([name]) => ["accept", "content-type", "next-action", "next-router-state-tree", "origin"].includes(name)),
  );

  // Control: the same call with the editor's session creates the mission, so the call is valid.
  const asEditor = await editorPage.request.post("/missions/new", { headers: replayHeaders, data: call.body });
  expect(asEditor.status(), await asEditor.text()).toBe(200);
  await expect.poll(async () => (await partner.api.missions()).map((m) => m.title)).toContain(title);

  // The viewer makes the very same call, with another title: refused by the action, nothing created.
  const viewerContext = await browser.newContext({ baseURL: ORIGIN });
  const viewerPage = await signedIn(viewerContext, viewer);
  const viewerTitle = `${title} (viewer)`;
  const asViewer = await viewerPage.request.post("/missions/new", { headers: replayHeaders, data: call.body.replace(title, viewerTitle) });
  const answer = await asViewer.text();
  expect(answer).toContain("forbidden");
  expect(answer).toContain(`This needs the Editor role in ${partner.org.name}.`);
  const titles = (await partner.api.missions()).map((m) => m.title);
  expect(titles).toContain(title);
  expect(titles).not.toContain(viewerTitle);

  await editorContext.close();
  await viewerContext.close();
});
