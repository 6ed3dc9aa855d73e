// One HTTP path for every call: authentication, JSON in and out, problem errors, and retries —
// 429 is always retried after `Retry-After` (the API did nothing), 5xx and network failures only
// when repeating cannot do anything twice (GET, HEAD, PUT, DELETE, or a POST carrying an
// Idempotency-Key, which the SDK sets on every POST).
import type { Authenticator } from "./auth.js";
import { problemFrom, parseRetryAfter } from "./errors.js";

export type Query = Record<string, string | number | boolean | undefined | null | readonly (string | number)[]>;

export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  maxRetries?: number;
  /** First backoff for 5xx and network failures, doubled each time, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Longest single wait, Retry-After included (default 60 s); a longer Retry-After is not waited for. */
  maxDelayMs?: number;
}

export interface RequestOptions {
  method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Query;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Whether the request needs credentials (CDN URLs are signed and need none). */
  authenticated?: boolean;
  /** Sends POSTs without an Idempotency-Key (the token endpoint, for instance). */
  idempotencyKey?: string | false;
  signal?: AbortSignal;
}

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE"]);
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

export class Transport {
  constructor(
    readonly origin: string,
    private readonly auth: Authenticator | null,
    private readonly fetchImpl: typeof fetch,
    private readonly retry: Required<RetryOptions>,
    private readonly userAgent: string,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  url(path: string, query?: Query): string {
    const url = new URL(path.startsWith("http") ? path : `${this.origin}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(name, Array.isArray(value) ? value.join(",") : String(value));
    }
    return url.toString();
  }

  /** Sends the request (retrying as allowed) and returns a 2xx response; anything else throws a ProblemError. */
  async send(options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": this.userAgent, ...options.headers };
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] = "application/json";
    } else if (options.form) {
      body = options.form;
    }
    if (options.method === "POST" && options.idempotencyKey !== false) {
      // The same key on every attempt: a retried POST is answered with the first response.
      headers["idempotency-key"] = options.idempotencyKey ?? crypto.randomUUID();
    }
    const retriable = IDEMPOTENT_METHODS.has(options.method) || headers["idempotency-key"] !== undefined;
    const url = this.url(options.path, options.query);
    let refreshedCredentials = false;

    for (let attempt = 0; ; attempt++) {
      if (options.authenticated !== false && this.auth) headers.authorization = await this.auth.authorization();
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method: options.method, headers, body, redirect: "manual", signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted || !retriable || attempt >= this.retry.maxRetries) throw error;
        await this.sleep(this.backoff(attempt));
        continue;
      }
      if (response.ok) return response;

      if (response.status === 401 && this.auth && options.authenticated !== false && !refreshedCredentials) {
        // A cached token can be revoked or expire early (clock skew): get a fresh one once.
        refreshedCredentials = true;
        this.auth.invalidate();
        await response.body?.cancel();
        continue;
      }
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      const waitMs =
        response.status === 429
          ? (retryAfter ?? 1) * 1000
          : retriable && RETRYABLE_STATUS.has(response.status)
            ? Math.max((retryAfter ?? 0) * 1000, this.backoff(attempt))
            : null;
      if (waitMs === null || attempt >= this.retry.maxRetries || waitMs > this.retry.maxDelayMs) throw await problemFrom(response);
      await response.body?.cancel();
      await this.sleep(waitMs);
    }
  }

  async json<T>(options: RequestOptions): Promise<T> {
    const response = await this.send(options);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}
