// How the demo's simulated actors reach the service: through its own HTTP app (real auth, rate
// limits, validation and intake), never around it. The partner publishes missions with OAuth
// client credentials and orders with an API key; the zoomer submits with its own credentials.
import { randomUUID } from "node:crypto";
import type { Hono } from "hono";

export type DemoApp = Pick<Hono, "request">;

export interface ClientCredentials {
  client_id: string;
  client_secret: string;
}

export interface DemoCredentials {
  zoomer: ClientCredentials;
  partner: ClientCredentials;
  /** The demo organisation's order-interface API key. */
  apiKey: string;
}

export type DemoActor = "zoomer" | "partner" | "orders";

export interface DemoResponse<T> {
  status: number;
  ok: boolean;
  body: T;
}

const MAX_RATE_LIMIT_RETRIES = 3;
const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After in seconds (the service's form), capped; one second when absent or unreadable. */
export function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : 1000;
}

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}

export class DemoApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`[demo] ${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}

export class DemoApi {
  private tokens = new Map<"zoomer" | "partner", { value: string; expiresAt: number }>();
  private readonly stopping = new AbortController();

  constructor(
    readonly app: DemoApp,
    readonly credentials: DemoCredentials,
  ) {}

  private async token(actor: "zoomer" | "partner"): Promise<string> {
    const cached = this.tokens.get(actor);
    if (cached && cached.expiresAt > Date.now() + 60_000) return cached.value;
    const res = await this.app.request("/api/v1/auth/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", ...this.credentials[actor] }),
    });
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!res.ok || !body.access_token) throw new DemoApiError(res.status, body, `the demo ${actor} cannot get a token`);
    this.tokens.set(actor, { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 });
    return body.access_token;
  }

  private async authorization(actor: DemoActor): Promise<string> {
    return `Bearer ${actor === "orders" ? this.credentials.apiKey : await this.token(actor)}`;
  }

  /** One call as `actor`; JSON bodies are sent as JSON, FormData as multipart. POSTs to the order interface carry an Idempotency-Key. */
  async call<T = Record<string, unknown>>(actor: DemoActor, method: string, path: string, body?: unknown): Promise<DemoResponse<T>> {
    // One key for the call, so a retry after a 429 is the same request to the order interface.
    const idempotencyKey = randomUUID();
    const send = async () => {
      const headers: Record<string, string> = { authorization: await this.authorization(actor) };
      let payload: BodyInit | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers["content-type"] = "application/json";
      }
      if (actor === "orders" && method === "POST") headers["idempotency-key"] = idempotencyKey;
      return this.app.request(path, { method, headers, body: payload });
    };
    let res = await send();
    if (res.status === 401 && actor !== "orders") {
      // A token revoked or signed with a retired key: get a new one once.
      this.tokens.delete(actor);
      res = await send();
    }
    // Over a rate limit: wait as long as the service says and try again, as a well-behaved client
    // does (the simulated actors share their limits with nobody, so a short wait always clears).
    for (let retry = 0; res.status === 429 && retry < MAX_RATE_LIMIT_RETRIES; retry++) {
      await pause(retryAfterMs(res.headers.get("retry-after")), this.stopping.signal);
      if (this.stopping.signal.aborted) break;
      await res.body?.cancel();
      res = await send();
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, ok: res.ok, body: parsed as T };
  }

  /** Stops waiting out rate limits (the demo is shutting down): a pending call answers what it last got. */
  stop(): void {
    this.stopping.abort();
  }

  /** Like call(), but a non-2xx answer throws. */
  async expect<T = Record<string, unknown>>(actor: DemoActor, method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(actor, method, path, body);
    if (!res.ok) throw new DemoApiError(res.status, res.body, `${method} ${path}`);
    return res.body;
  }
}
