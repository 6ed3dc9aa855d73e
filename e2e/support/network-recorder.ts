// Records what the browser receives over a session — every response's headers and, for text
// (HTML, RSC payloads, JSON, JavaScript chunks, CSS), its body — and every request's headers, so a
// spec can assert that no secret ever reached the browser.
import type { Page, Request, Response, Route } from "@playwright/test";

export interface RecordedResponse {
  url: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
}

const TEXT = /^(text\/|application\/(json|javascript|x-javascript|ecmascript|problem\+json|geo\+json|manifest\+json|xml)|image\/svg\+xml)|x-component/;

export class NetworkRecorder {
  readonly responses: RecordedResponse[] = [];
  readonly requests: RecordedRequest[] = [];
  /**
   * Text responses whose body could not be read, with the reason. Chromium drops a document's
   * response bodies when the page navigates away, so a spec calls `settle()` before each full
   * navigation (on a loaded machine the reads lag seconds behind the responses); a response still
   * arriving then can be lost all the same. (A built script or style that was dropped is fetched
   * again, so it is never among them.)
   */
  readonly unread: string[] = [];
  private readonly pending: Promise<void>[] = [];

  /** RSC payloads' bodies, read by the route below as they pass. */
  private readonly routed = new WeakMap<Request, string>();

  private constructor(private readonly page: Page) {
    page.on("response", (response) => this.pending.push(this.record(response)));
    page.on("request", (request) => this.pending.push(this.recordRequest(request)));
  }

  /**
   * Starts recording `page`. RSC payloads (the router's fetches and server actions' answers, which
   * Next reads as a stream) are fetched through a route and handed to the page whole: Chromium
   * often keeps no copy of a streamed fetch's body for the protocol ("No data found for resource
   * with given identifier"), nearly always on a loaded machine, and an unread payload is an
   * unsearched one.
   */
  static async start(page: Page): Promise<NetworkRecorder> {
    const recorder = new NetworkRecorder(page);
    await page.route("**/*", (route) => {
      const headers = route.request().headers();
      return headers["rsc"] === "1" || headers["next-action"] ? recorder.passThrough(route) : route.continue();
    });
    return recorder;
  }

  private async passThrough(route: Route): Promise<void> {
    try {
      const response = await route.fetch();
      const body = await response.text();
      this.routed.set(route.request(), body);
      await route.fulfill({ response, body });
    } catch {
      // The page went away or cancelled the request (a prefetch it no longer needs): nothing reached it.
      await route.abort().catch(() => undefined);
    }
  }

  private async record(response: Response): Promise<void> {
    const headers = await response.allHeaders().catch(() => ({}) as Record<string, string>);
    const contentType = headers["content-type"] ?? "";
    let body: string | null = null;
    // Redirects have no body; binary files (photos, ZIPs, fonts, map tiles) are not where a token would hide.
    if (TEXT.test(contentType) && (response.status() < 300 || response.status() >= 400)) {
      body =
        this.routed.get(response.request()) ??
        (await response.text().catch(async (error: unknown) => {
          // A built script or style is the same file for everyone (its name is its content's
          // hash): one Chromium dropped is fetched again and searched all the same.
          const again = isBuiltFile(response.url()) ? await this.fetchAgain(response.url()) : null;
          if (again === null)
            this.unread.push(`${response.status()} ${response.url()}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
          return again;
        }));
    }
    this.responses.push({ url: response.url(), status: response.status(), contentType, headers, body });
  }

  private async fetchAgain(url: string): Promise<string | null> {
    try {
      const again = await this.page.context().request.get(url);
      return again.ok() ? await again.text() : null;
    } catch {
      return null;
    }
  }

  private async recordRequest(request: Request): Promise<void> {
    const headers = await request.allHeaders().catch(() => ({}) as Record<string, string>);
    this.requests.push({ url: request.url(), method: request.method(), headers });
  }

  /** Waits for the bodies still being read: at the end, and before each full navigation (see `unread`). */
  async settle(): Promise<void> {
    for (let done = 0; done < this.pending.length;) {
      const batch = this.pending.slice(done);
      await Promise.allSettled(batch);
      done += batch.length;
    }
  }
}

/** Next's built scripts and styles: immutable, named by their content's hash. */
function isBuiltFile(url: string): boolean {
  return new URL(url).pathname.startsWith("/_next/static/");
}

export interface Finding {
  where: string;
  what: string;
  excerpt: string;
}

function excerpt(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 40);
  return text.slice(start, Math.min(text.length, index + Math.min(length, 60) + 40)).replace(/\s+/g, " ");
}

/**
 * Every place one of the patterns occurs in what the browser received. Set-Cookie headers are
 * left to the cookie assertions (the session cookie is meant to be there, httpOnly).
 */
export function findSecrets(recorder: NetworkRecorder, patterns: { what: string; pattern: RegExp | string }[]): Finding[] {
  const findings: Finding[] = [];
  const scan = (where: string, text: string) => {
    for (const { what, pattern } of patterns) {
      if (typeof pattern === "string") {
        if (!pattern) continue;
        const index = text.indexOf(pattern);
        if (index >= 0) findings.push({ where, what, excerpt: excerpt(text, index, pattern.length) });
      } else {
        for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`))) {
          findings.push({ where, what, excerpt: excerpt(text, match.index ?? 0, match[0].length) });
        }
      }
    }
  };
  for (const r of recorder.responses) {
    for (const [name, value] of Object.entries(r.headers)) {
      if (name === "set-cookie") continue;
      scan(`${r.status} ${r.url} header ${name}`, `${name}: ${value}`);
    }
    if (r.body) scan(`${r.status} ${r.url} body (${r.contentType})`, r.body);
  }
  return findings;
}

export function describeFindings(findings: Finding[]): string {
  return findings.map((f) => `- ${f.what} in ${f.where}:\n    …${f.excerpt}…`).join("\n");
}
