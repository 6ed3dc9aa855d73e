// Signing in to the partner dashboard: errors, the demo account, a user the operator created,
// switching organisation, signing out, and the redirect for pages without a session.
import { MissionsListPage } from "./pages/missions-list-page";
import { expect, test } from "./support/fixtures";
import { squareAround } from "./support/operator";

test("a wrong password shows an error and stays on the sign-in page", async ({ page, partner, signIn }) => {
  await signIn.goto();
  await signIn.fill(partner.admin.email, `${partner.admin.password}-wrong`);
  await expect(signIn.error).toHaveText("That email and password did not match an account.");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(signIn.submit).toBeEnabled();
});

test("the demo button signs in to the demo partner account", async ({ page, signIn, shell }) => {
  await signIn.goto();
  await expect(page.getByRole("region", { name: "Demo mode" })).toContainText("demo@photo-missions.dev");
  await signIn.demoButton.click();
  await expect(page).toHaveURL(/\/missions$/);
  const list = new MissionsListPage(page);
  await expect(list.heading).toBeVisible();
  // The demo user administers the demo partner organisation; the dashboard starts there.
  await expect(list.description).toHaveText(/for Demo Partner\b/);
  await expect(shell.signOut).toBeVisible();
});

test("a user the operator created lands on /missions showing their organisation", async ({ page, partner, signIn, shell }) => {
  await signIn.signInAs(partner.admin);
  const list = new MissionsListPage(page);
  await list.expectOrganisation(partner.org.name);
  // One membership: the organisation is named in the header, there is nothing to switch.
  await expect(shell.currentOrg()).toContainText(partner.org.name);
  await expect(shell.orgSwitcher).toHaveCount(0);
  await expect(shell.currentOrg()).toContainText(partner.admin.name);
  await expect(shell.currentOrg()).toContainText("Administrator");
});

test("an account manager in two organisations switches between them", async ({ page, operator, signIn, shell }) => {
  const first = await operator.createOrg("E2E Agency North");
  const second = await operator.createOrg("E2E Agency South");
  const manager = await operator.createUser(first.id, "admin");
  await operator.createUser(second.id, "admin", { email: manager.email, password: manager.password, name: manager.name });
  const north = await (
    await operator.partner(first.id, ["missions:read", "missions:write"])
  ).createMission({
    title: "North mission — harbour cranes",
    bounds: squareAround(44.4056, 8.9463),
  });
  const south = await (
    await operator.partner(second.id, ["missions:read", "missions:write"])
  ).createMission({
    title: "South mission — lighthouse",
    bounds: squareAround(40.8359, 14.2488),
  });

  await signIn.signInAs(manager);
  const list = new MissionsListPage(page);
  await expect(shell.orgSwitcher).toBeVisible();
  await expect(shell.orgSwitcher.getByRole("option")).toHaveCount(2);
  expect((await shell.orgSwitcher.getByRole("option").allTextContents()).sort()).toEqual([first.name, second.name].sort());
  const startsIn = (await shell.orgSwitcher.locator("option:checked").textContent())?.trim();
  expect([first.name, second.name]).toContain(startsIn);
  const [here, there, hereMission, thereMission] = startsIn === first.name ? [first, second, north, south] : [second, first, south, north];

  await list.expectOrganisation(here.name);
  await expect(list.missionLink(hereMission.title)).toBeVisible();
  await expect(list.missionLink(thereMission.title)).toHaveCount(0);

  await shell.switchOrganisation(there.name);
  await expect(page).toHaveURL(/\/missions$/);
  await list.expectOrganisation(there.name);
  await expect(list.missionLink(thereMission.title)).toBeVisible();
  await expect(list.missionLink(hereMission.title)).toHaveCount(0);

  // The choice is remembered by the server (an httpOnly cookie), not only by this page.
  await page.reload();
  await list.expectOrganisation(there.name);
});

test("signing out returns to /sign-in and the dashboard is closed again", async ({ page, partner, signIn, shell }) => {
  await signIn.signInAs(partner.admin);
  await shell.signOut.click();
  await expect(page).toHaveURL(/\/sign-in(\?|$)/);
  await expect(signIn.heading).toBeVisible();
  await page.goto("/missions");
  await expect(page).toHaveURL(/\/sign-in(\?|$)/);
});

test("/missions without a session redirects to /sign-in", async ({ page, signIn }) => {
  const response = await page.goto("/missions");
  await expect(page).toHaveURL(/\/sign-in(\?|$)/);
  await expect(signIn.heading).toBeVisible();
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Missions" })).toHaveCount(0);
});
