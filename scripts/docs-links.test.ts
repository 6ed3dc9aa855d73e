// The manual's links hold: every relative link in README.md and docs/*.md points to a file that
// exists and, with a #fragment into a Markdown file, to a heading that exists there (GitHub's
// anchors, which the served /docs pages use too). Links to the web (https:, mailto:) and to the
// running app's paths (/docs, /api/…) are not checked here. Also: the README stays a front door,
// and docs/webhooks.md names every event the service sends.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { outlineManual } from "@/lib/docs/manual";
import { TEST_EVENT, WEBHOOK_EVENTS } from "@/lib/schemas/webhook";

const root = join(import.meta.dirname, "..");

const manual = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

const read = (file: string) => readFileSync(join(root, file), "utf8");

const outlines = new Map<string, ReturnType<typeof outlineManual>>();
/** Each file lexed once, however many links point into it. */
function outlineOf(path: string) {
  const known = outlines.get(path);
  if (known) return known;
  const outline = outlineManual(readFileSync(path, "utf8"));
  outlines.set(path, outline);
  return outline;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/");

function brokenLinks(file: string): string[] {
  return outlineOf(join(root, file))
    .links.filter((target) => !isExternal(target))
    .flatMap((target) => {
      const [path = "", fragment] = target.split("#", 2);
      const resolved = path === "" ? join(root, file) : join(root, dirname(file), decodeURIComponent(path));
      const shown = `${file} → ${target}`;
      if (!resolved.startsWith(root) || !existsSync(resolved)) return [`${shown} (no such file: ${relative(root, resolved)})`];
      if (fragment === undefined || fragment === "") return [];
      if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) return [`${shown} (a #fragment into something that is not a Markdown file)`];
      return outlineOf(resolved).anchors.has(fragment) ? [] : [`${shown} (no heading with anchor #${fragment})`];
    });
}

describe("the manual's links", () => {
  it("reads anchors and links as GitHub does: code blocks and spans hold none, repeats are numbered", () => {
    const sample = [
      "# Ordering photography (quick start)",
      "## Fulfilment: tasks, verification, retakes, delivery",
      "```bash",
      "# not a heading [nor](a-link.md)",
      "```",
      "## Notes",
      "## Notes",
      "See [a](orders.md#states), `[b](nowhere.md)` and <https://example.org>.",
    ].join("\n");
    const { anchors, links } = outlineManual(sample);
    expect([...anchors]).toEqual(["ordering-photography-quick-start", "fulfilment-tasks-verification-retakes-delivery", "notes", "notes-1"]);
    expect(links).toEqual(["orders.md#states", "https://example.org"]);
  });

  it("the README links to the docs/ pages", () => {
    const toDocs = outlineManual(read("README.md")).links.filter((t) => t.startsWith("docs/"));
    expect(new Set(toDocs.map((t) => t.split("#")[0]))).toEqual(new Set(manual.filter((f) => f.startsWith("docs/") && !f.startsWith("docs/benchmarks-"))));
  });

  it.each(manual)("%s: every relative link points to an existing file and heading", (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it("the README stays a front door (at most 300 lines)", () => {
    expect(read("README.md").trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("docs/webhooks.md names every event the service sends", () => {
    const text = read("docs/webhooks.md");
    expect([...WEBHOOK_EVENTS, TEST_EVENT].filter((event) => !text.includes(`\`${event}\``))).toEqual([]);
  });
});
