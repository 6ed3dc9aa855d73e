// The manual (README.md and docs/*.md) as the running app serves it to integrators at /docs/<page>:
// which pages are served, GitHub's heading anchors (so a link that works on GitHub works here too),
// and the rendering by marked. The Markdown is this repository's own, read from disk, so its HTML is
// trusted as the pages' own markup is; nothing a user sends is ever rendered here.
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { Marked } from "marked";

export interface ManualPage {
  /** The path under /docs. `webhooks` and `clients` are pages of their own (app/docs/…). */
  slug: string;
  /** The Markdown file, from the repository's root. */
  file: string;
  title: string;
}

/** The pages an integrator needs; operations, architecture, testing and benchmarks stay in the repository. */
export const SERVED_PAGES: readonly ManualPage[] = [
  { slug: "quick-start", file: "docs/quick-start.md", title: "Quick start" },
  { slug: "orders", file: "docs/orders.md", title: "Ordering photography" },
  { slug: "missions", file: "docs/missions.md", title: "Missions and submissions" },
  { slug: "verification", file: "docs/verification.md", title: "Photo verification" },
  { slug: "field-app", file: "docs/field-app.md", title: "The field app" },
  { slug: "security", file: "docs/security.md", title: "Security decisions" },
];

/** docs/webhooks.md is served as the webhooks guide (app/docs/webhooks), which has an `events` section. */
const WEBHOOKS_GUIDE = { file: "docs/webhooks.md", path: "/docs/webhooks", anchors: new Set(["events"]) };

/** The demo origin the manual's examples use: on a deployment its links are this app's own paths. */
const EXAMPLE_ORIGIN = "http://localhost:3000";

export function servedPage(slug: string): ManualPage | undefined {
  return SERVED_PAGES.find((page) => page.slug === slug);
}

/**
 * GitHub's anchors for the headings of one document, in order: lower case, punctuation dropped
 * (letters, digits, `_`, `-` and spaces stay), spaces to hyphens; a repeated anchor gets -1, -2…
 */
export function headingSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

/** What the link check reads of a document: its headings' anchors and its links' targets (marked's own lexer, so code blocks and spans hold none). */
export function outlineManual(markdown: string): { anchors: Set<string>; links: string[] } {
  const anchor = headingSlugger();
  const anchors = new Set<string>();
  const links: string[] = [];
  const marked = new Marked({ gfm: true });
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === "heading" && typeof token.text === "string") anchors.add(anchor(token.text));
    if (token.type === "link" && typeof token.href === "string") links.push(token.href);
  });
  return { anchors, links };
}

const isAbsolute = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/") || href.startsWith("#");

/**
 * Where a link of `fromFile` leads on the served site: another served page (`orders.md#states` →
 * `/docs/orders#states`), the webhooks guide, the app's own path for the examples' localhost
 * origin, the web as written; null for a file only the repository has (source, other docs).
 */
export function servedHref(fromFile: string, href: string): string | null {
  if (href.startsWith(EXAMPLE_ORIGIN)) return href.slice(EXAMPLE_ORIGIN.length) || "/";
  if (isAbsolute(href)) return href;
  const [path = "", fragment] = href.split("#", 2);
  const target = posix.normalize(posix.join(posix.dirname(fromFile), decodeURIComponent(path)));
  const page = SERVED_PAGES.find((p) => p.file === target);
  if (page) return `/docs/${page.slug}${fragment ? `#${fragment}` : ""}`;
  if (target === WEBHOOKS_GUIDE.file) return `${WEBHOOKS_GUIDE.path}${fragment && WEBHOOKS_GUIDE.anchors.has(fragment) ? `#${fragment}` : ""}`;
  return null;
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** One Markdown document as HTML: headings with GitHub's anchors, links as they lead on the served site. */
export function renderManual(markdown: string, fromFile: string): string {
  const anchor = headingSlugger();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }) {
        return `<h${depth} id="${escapeAttribute(anchor(text))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const target = servedHref(fromFile, href);
        if (target === null) return `<span class="manual-repo-link">${inner}</span>`;
        const titleAttribute = title ? ` title="${escapeAttribute(title)}"` : "";
        return `<a href="${escapeAttribute(target)}"${titleAttribute}>${inner}</a>`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}

const rendered = new Map<string, string>();

/** A served page's HTML, read from the repository (cached in production: the files do not change under it). */
export function renderManualPage(page: ManualPage, root: string = process.cwd()): string {
  const cached = rendered.get(page.slug);
  if (cached !== undefined) return cached;
  const html = renderManual(readFileSync(join(root, page.file), "utf8"), page.file);
  if (process.env.NODE_ENV === "production") rendered.set(page.slug, html);
  return html;
}
