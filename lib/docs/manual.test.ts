// The manual as served at /docs/<page>: anchors match GitHub's, links lead where the served site
// has the page (or are plain text where only the repository has the file), and every served page
// renders from its file.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderManual, renderManualPage, SERVED_PAGES, servedHref, servedPage } from "./manual";

const root = join(import.meta.dirname, "..", "..");

describe("servedHref", () => {
  it("sends links between served pages to their /docs path, with the fragment", () => {
    expect(servedHref("docs/orders.md", "verification.md#held-for-review")).toBe("/docs/verification#held-for-review");
    expect(servedHref("docs/quick-start.md", "orders.md")).toBe("/docs/orders");
  });

  it("sends docs/webhooks.md to the webhooks guide, keeping only the anchors the guide has", () => {
    expect(servedHref("docs/orders.md", "webhooks.md#events")).toBe("/docs/webhooks#events");
    expect(servedHref("docs/orders.md", "webhooks.md#signatures")).toBe("/docs/webhooks");
  });

  it("keeps the web and the app's paths, and makes the examples' localhost links this app's own", () => {
    expect(servedHref("docs/orders.md", "https://tus.io/protocols/resumable-upload")).toBe("https://tus.io/protocols/resumable-upload");
    expect(servedHref("docs/orders.md", "#states")).toBe("#states");
    expect(servedHref("docs/quick-start.md", "http://localhost:3000/docs/webhooks")).toBe("/docs/webhooks");
  });

  it("has no target for a file only the repository has", () => {
    expect(servedHref("docs/orders.md", "operations.md#signing-keys")).toBeNull();
    expect(servedHref("docs/quick-start.md", "../clients/typescript/README.md")).toBeNull();
    expect(servedHref("docs/orders.md", "../README.md")).toBeNull();
  });
});

describe("renderManual", () => {
  it("gives headings GitHub's anchors and renders links as they lead on the served site", () => {
    const html = renderManual(
      "# Orders\n\n## Fulfilment: tasks, retakes\n\nSee [states](#states), [keys](operations.md#signing-keys) and [proof](verification.md#signed-evidence).\n",
      "docs/orders.md",
    );
    expect(html).toContain('<h1 id="orders">Orders</h1>');
    expect(html).toContain('<h2 id="fulfilment-tasks-retakes">Fulfilment: tasks, retakes</h2>');
    expect(html).toContain('<a href="#states">states</a>');
    expect(html).toContain('<span class="manual-repo-link">keys</span>');
    expect(html).toContain('<a href="/docs/verification#signed-evidence">proof</a>');
  });

  it("renders tables and code blocks, escaping code", () => {
    const html = renderManual("| a | b |\n| --- | --- |\n| `x<y` | 2 |\n\n```bash\ncurl -d '<json>'\n```\n", "docs/orders.md");
    expect(html).toContain("<table>");
    expect(html).toContain("<code>x&lt;y</code>");
    expect(html).toContain("curl -d &#39;&lt;json&gt;&#39;");
  });
});

describe("the served pages", () => {
  it("are found by their slug and not by another", () => {
    expect(servedPage("orders")?.file).toBe("docs/orders.md");
    expect(servedPage("operations")).toBeUndefined();
  });

  it.each(SERVED_PAGES.map((page) => [page.slug, page] as const))("%s renders from its file, every internal link to a served path", (_slug, page) => {
    const html = renderManualPage(page, root);
    expect(html).toMatch(/^<h1 id="[^"]+">/);
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(html).toContain("<h2 id=");
    expect(hrefs.filter((href) => !/^(https?:|mailto:|\/|#)/.test(href) || /\.md(#|$)/.test(href))).toEqual([]);
  });
});
