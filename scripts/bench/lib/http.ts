// Small HTTP helpers for setting targets up (not for load: that is autocannon's job).
import { createServer } from "node:net";
import { z } from "zod";
import type { ManagedProcess } from "./processes";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A port that was free a moment ago; the child binds it right after. The OS picks it, or, with
 * BENCH_PORTS=<first>-<last> (a machine shared by several people, each given a range), the first
 * free one of that range.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? "");
  if (!range) return tryPort(0);
  for (let port = Number(range[1]); port <= Number(range[2]); port++) {
    const free = await tryPort(port).catch(() => 0);
    if (free > 0 && !taken.has(free)) {
      taken.add(free);
      return free;
    }
  }
  throw new Error(`no free port in BENCH_PORTS=${process.env.BENCH_PORTS ?? ""}`);
}

/** Ports of the range already handed out by this run (a child may not have bound its port yet). */
const taken = new Set<number>();

function tryPort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

/** Polls `url` until it answers 2xx; fails early (with the child's output) if the child dies. */
export async function waitForOk(url: string, child: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.hasExited()) throw new Error(`${child.name} exited before it was ready:\n${child.logTail()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${child.name} was not ready at ${url} after ${timeoutMs / 1000} s:\n${child.logTail()}`);
}

/**
 * One JSON request to a service under test (set-up and checks, not load): `bearer` as the
 * Authorization, `body` as JSON; any status other than `expect` is an error naming both, and the
 * answer (an empty one as {}) is parsed with `schema`.
 */
export async function requestJson<T>(
  url: string,
  method: string,
  schema: z.ZodType<T>,
  options: { bearer?: string | undefined; body?: unknown; expect?: number } = {},
): Promise<T> {
  const { bearer, body, expect = 200 } = options;
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  if (response.status !== expect) throw new Error(`${method} ${url} answered ${response.status} (wanted ${expect}): ${text.slice(0, 400)}`);
  const parsed = schema.safeParse(text ? JSON.parse(text) : {});
  if (!parsed.success) throw new Error(`${method} ${url}: unexpected answer ${text.slice(0, 200)}: ${parsed.error.message}`);
  return parsed.data;
}

/** POSTs JSON and returns the parsed answer; any status other than `expect` is an error. */
export function postJson(url: string, body: unknown, bearer: string | undefined, expect: number): Promise<unknown> {
  return requestJson(url, "POST", z.unknown(), { body, bearer, expect });
}

/** A string member of a parsed JSON object, or a clear error naming what was missing. */
export function stringField(value: unknown, key: string): string {
  if (typeof value === "object" && value !== null && key in value) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (typeof member === "string") return member;
  }
  throw new Error(`expected a string "${key}" in ${JSON.stringify(value)}`);
}

export interface CapturedResponse {
  status: number;
  contentType: string;
  contentLength: number;
  body: Buffer;
  /** X-RateLimit-Limit, or null: whether (and against what) the answer counted the request. */
  rateLimit: string | null;
}

/** One GET, keeping the exact body bytes and the headers the bare server must reproduce. */
export async function capture(url: string, headers: Record<string, string>): Promise<CapturedResponse> {
  return captureResponse(await fetch(url, { headers }));
}

/** A response read to its end: its exact body bytes and the headers a replay or a peer must match. */
export async function captureResponse(response: Response): Promise<CapturedResponse> {
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    contentLength: Number(response.headers.get("content-length") ?? body.length),
    body,
    rateLimit: response.headers.get("x-ratelimit-limit"),
  };
}

/** Why `got` differs from `want` (status, content type, body length; `wantFrom` names where `want` came from), or undefined. */
export function describeMismatch(got: CapturedResponse, want: CapturedResponse, wantFrom: string): string | undefined {
  if (got.status !== 200) return `answered ${got.status}: ${got.body.toString("utf8").slice(0, 300)}`;
  if (got.contentType !== want.contentType) return `content-type ${got.contentType}, ${wantFrom} sends ${want.contentType}`;
  if (got.body.length !== want.body.length) return `body of ${got.body.length} bytes, ${wantFrom} sends ${want.body.length}`;
  return undefined;
}

/** A GET of `url` that must return exactly `want`'s body and content type (a peer or a bare server replaying it); throws `what: why` otherwise. */
export async function expectSameBytes(url: string, headers: Record<string, string>, want: CapturedResponse, what: string): Promise<CapturedResponse> {
  const got = await capture(url, headers);
  if (!got.body.equals(want.body) || got.contentType !== want.contentType) {
    throw new Error(`${what}: ${describeMismatch(got, want, "the reference") ?? "different body"}`);
  }
  return got;
}
