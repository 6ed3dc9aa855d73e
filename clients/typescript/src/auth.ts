// How the SDK authenticates: OAuth 2.0 client credentials (a token cached and refreshed before it
// expires, one request at a time however many calls wait for it) or an organisation API key
// (order interface only).
import { OAuthError, parseRetryAfter } from "./errors.js";

export interface Authenticator {
  /** The Authorization header value for the next request. */
  authorization(): Promise<string>;
  /** Forgets a cached credential the API refused (401), so the next call gets a fresh one. */
  invalidate(): void;
}

export interface ClientCredentialsOptions {
  clientId: string;
  clientSecret: string;
  /** Space-separated; omitted means every scope the client holds. */
  scope?: string;
  /**
   * The token endpoint. Omitted: discovered from `{origin}/.well-known/oauth-authorization-server`
   * (RFC 8414), as any OAuth library would.
   */
  tokenUrl?: string;
  /** Refresh this many seconds before the token expires (default 60). */
  refreshMarginSeconds?: number;
}

interface CachedToken {
  value: string;
  expiresAt: number;
}

/** Client-credentials grant with caching; shared by every request of one client. */
export class ClientCredentials implements Authenticator {
  private cached: CachedToken | null = null;
  private pending: Promise<CachedToken> | null = null;
  private tokenUrl: string | undefined;

  constructor(
    private readonly origin: string,
    private readonly options: ClientCredentialsOptions,
    private readonly fetchImpl: typeof fetch,
    private readonly now: () => number = Date.now,
  ) {
    this.tokenUrl = options.tokenUrl;
  }

  async authorization(): Promise<string> {
    return `Bearer ${await this.token()}`;
  }

  invalidate(): void {
    this.cached = null;
  }

  /** A valid access token: the cached one unless it expires within the margin. */
  async token(): Promise<string> {
    const margin = (this.options.refreshMarginSeconds ?? 60) * 1000;
    if (this.cached && this.now() < this.cached.expiresAt - margin) return this.cached.value;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    this.cached = await this.pending;
    return this.cached.value;
  }

  private async discoverTokenUrl(): Promise<string> {
    const response = await this.fetchImpl(`${this.origin}/.well-known/oauth-authorization-server`, { headers: { accept: "application/json" } });
    if (!response.ok) throw new OAuthError("discovery_failed", `GET /.well-known/oauth-authorization-server answered ${response.status}`, response.status);
    const metadata = (await response.json()) as { token_endpoint?: unknown };
    if (typeof metadata.token_endpoint !== "string") throw new OAuthError("discovery_failed", "The metadata names no token_endpoint.", response.status);
    return metadata.token_endpoint;
  }

  private async fetchToken(): Promise<CachedToken> {
    this.tokenUrl ??= await this.discoverTokenUrl();
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (this.options.scope) form.set("scope", this.options.scope);
    // RFC 6749 §2.3.1: form-encode the id and secret before base64 (client_secret_basic).
    const basic = btoa(`${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`);
    for (let attempt = 0; ; attempt++) {
      const requestedAt = this.now();
      const response = await this.fetchImpl(this.tokenUrl, {
        method: "POST",
        headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
      });
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (response.ok && typeof body.access_token === "string" && typeof body.expires_in === "number") {
        return { value: body.access_token, expiresAt: requestedAt + body.expires_in * 1000 };
      }
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      if (response.status === 429 && retryAfter !== null && retryAfter <= 60 && attempt < 2) {
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
        continue;
      }
      throw new OAuthError(
        typeof body.error === "string" ? body.error : `http_${response.status}`,
        typeof body.error_description === "string" ? body.error_description : "The token request failed.",
        response.status,
      );
    }
  }
}

/** An organisation API key (`pm_live_…`): the order interface only. */
export class ApiKey implements Authenticator {
  constructor(private readonly key: string) {}
  authorization(): Promise<string> {
    return Promise.resolve(`Bearer ${this.key}`);
  }
  invalidate(): void {
    // A key does not expire by itself: a 401 means it was revoked, and retrying will not help.
  }
}
