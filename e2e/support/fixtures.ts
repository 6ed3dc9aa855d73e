// The dashboard specs' fixtures: `operator` (the operator API with the server's token) and
// `partner` — a fresh organisation with an administrator, the partner API of that organisation,
// and the page objects most specs need. Import `test` and `expect` from here instead of
// @playwright/test.
import { test as base, expect } from "@playwright/test";
import { DashboardShell } from "../pages/dashboard-shell";
import { SignInPage } from "../pages/sign-in-page";
import { Operator, readAdminToken, type DashboardUser, type PartnerApi } from "./operator";

export interface PartnerOrg {
  org: { id: string; name: string };
  admin: DashboardUser;
  api: PartnerApi;
}

interface Fixtures {
  operator: Operator;
  partner: PartnerOrg;
  signIn: SignInPage;
  shell: DashboardShell;
}

export const test = base.extend<Fixtures>({
  operator: async ({ request }, provide) => {
    await provide(new Operator(request, readAdminToken()));
  },
  partner: async ({ operator }, provide) => {
    const org = await operator.createOrg("E2E Partner");
    const admin = await operator.createUser(org.id, "admin");
    const api = await operator.partner(org.id);
    await provide({ org, admin, api });
  },
  signIn: async ({ page }, provide) => {
    await provide(new SignInPage(page));
  },
  shell: async ({ page }, provide) => {
    await provide(new DashboardShell(page));
  },
});

export { expect };
