// The dashboard specs' fixtures: `operator` (the operator API with the server's token) and
// `partner` — a fresh organisation with an administrator, the partner API of that organisation,
// and the page objects most specs need. Import `test` and `expect` from here instead of
// @playwright/test. Every test using them also fails on a Content-Security-Policy violation
// reported in its page (`cspViolations`, automatic).
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
  cspViolations: string[];
  operator: Operator;
  partner: PartnerOrg;
  signIn: SignInPage;
  shell: DashboardShell;
}

export const test = base.extend<Fixtures>({
  cspViolations: [
    async ({ page }, provide) => {
      const violations: string[] = [];
      // The browser reports a violation both as a console error and as a DOM event; the event
      // names the directive and the blocked URL.
      await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
          report?.(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`);
        });
      });
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await provide(violations);
      expect(violations, "Content-Security-Policy violations in the page").toEqual([]);
    },
    { auto: true },
  ],
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
