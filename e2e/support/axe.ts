// axe-core on a page, failing on serious and critical violations with a readable list of them.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import type { Result } from "axe-core";

const BLOCKING = new Set(["serious", "critical"]);

export function describeViolations(violations: Result[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 8)
        .map((n) => `    at ${n.target.join(" ")}\n      ${n.html.slice(0, 200)}\n      ${(n.failureSummary ?? "").replace(/\n/g, "\n      ")}`)
        .join("\n");
      const more = v.nodes.length > 8 ? `\n    … and ${v.nodes.length - 8} more` : "";
      return `[${v.impact}] ${v.id}: ${v.help}\n  ${v.helpUrl}\n${nodes}${more}`;
    })
    .join("\n\n");
}

/**
 * Runs axe on the whole page (WCAG 2.x A/AA and best practices). `exclude` is for third-party map
 * canvas internals only, each with the reason in the caller.
 */
export async function expectNoSeriousViolations(page: Page, { exclude = [] }: { exclude?: string[] } = {}): Promise<Result[]> {
  let builder = new AxeBuilder({ page });
  for (const selector of exclude) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const blocking = violations.filter((v) => BLOCKING.has(v.impact ?? ""));
  expect(blocking, `axe found serious or critical violations on ${page.url()}:\n\n${describeViolations(blocking)}`).toEqual([]);
  // The rest (minor, moderate) are returned for the caller to log.
  return violations;
}
