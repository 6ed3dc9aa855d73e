// The manual's links hold: every relative link in README.md and docs/*.md points to a file that
// exists and, with a #fragment into a Markdown file, to a heading that exists there (GitHub's
// anchors). Links to the web (https:, mailto:) and to the running app's paths (/docs, /api/…) are
// not checked here. Also: docs/webhooks.md names every event the service sends.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_EVENT, WEBHOOK_EVENTS } from "@/lib/schemas/webhook";

const root = join(import.meta.dirname, "..");

const manual = ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks, line by line (a `# comment` in a shell block is no heading). */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Link targets of a Markdown text, outside code blocks and code spans. */
export function linkTargets(markdown: string): string[] {
  const prose = proseLines(markdown)
    .join("\n")
    .replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? "");
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/");

function brokenLinks(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return linkTargets(text)
    .filter((target) => !isExternal(target))
    .flatMap((target) => {
      const [path = "", fragment] = target.split("#", 2);
      const resolved = path === "" ? join(root, file) : join(root, dirname(file), decodeURIComponent(path));
      const shown = `${file} → ${target}`;
      if (!resolved.startsWith(root) || !existsSync(resolved)) return [`${shown} (no such file: ${relative(root, resolved)})`];
      if (fragment === undefined || fragment === "") return [];
      if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) return [`${shown} (a #fragment into something that is not a Markdown file)`];
      return headingAnchors(readFileSync(resolved, "utf8")).has(fragment) ? [] : [`${shown} (no heading with anchor #${fragment})`];
    });
}

describe("the manual's links", () => {
  it("anchors and targets are read as GitHub reads them", () => {
    const sample = "# Ordering photography (quick start)\n## Fulfilment: tasks, verification, retakes, delivery\n```bash\n# not a heading\n```\n## Notes\n## Notes\nSee [a](orders.md#states), `[b](nowhere.md)` and <https://example.org>.";
    expect([...headingAnchors(sample)]).toEqual(["ordering-photography-quick-start", "fulfilment-tasks-verification-retakes-delivery", "notes", "notes-1"]);
    expect(linkTargets(sample)).toEqual(["orders.md#states"]);
  });

  it("the README and docs/ exist and link to one another", () => {
    expect(manual).toContain("docs/quick-start.md");
    expect(linkTargets(readFileSync(join(root, "README.md"), "utf8")).filter((t) => t.startsWith("docs/")).length).toBeGreaterThan(10);
  });

  it.each(manual)("%s: every relative link points to an existing file and heading", (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it("the README stays a front door (at most 300 lines)", () => {
    expect(readFileSync(join(root, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("docs/webhooks.md names every event the service sends", () => {
    const text = readFileSync(join(root, "docs/webhooks.md"), "utf8");
    const missing = [...WEBHOOK_EVENTS, TEST_EVENT].filter((event) => !text.includes(`\`${event}\``));
    expect(missing).toEqual([]);
  });
});
