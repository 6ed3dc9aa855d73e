// Assertions the API test files share: the problem+json error shape, Bearer challenges and the
// rate-limit headers.
import { expect } from "vitest";
import type { ProblemBody } from "@/lib/service/errors";
import type { ApiResponse } from "./client";

/** Text that would only appear in a leaked stack trace or a server file path. */
const LEAK_PATTERNS = [/\n\s*at /, /\bat [\w.<>$]+ \([^)]*:\d+:\d+\)/, /\/[\w./-]+\.(?:ts|tsx|js|mjs|cjs)\b/, /node_modules/, /\/work\//];

/** Asserts an RFC 9457 problem response with the given status and code, and returns its body. */
export function expectProblem(res: ApiResponse<unknown>, status: number, code: string): ProblemBody {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/problem\+json\b/);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const body = res.body as ProblemBody;
  expect(body).toMatchObject({ status, code });
  expect(typeof body.type).toBe("string");
  expect(typeof body.title).toBe("string");
  expect(body.title.length).toBeGreaterThan(0);
  for (const pattern of LEAK_PATTERNS) expect(res.text, `body leaks ${pattern}`).not.toMatch(pattern);
  return body;
}

/** The pointers of a problem's errors[]. */
export function pointersOf(body: ProblemBody): string[] {
  return (body.errors ?? []).map((e) => e.pointer);
}

/** Asserts a `WWW-Authenticate: Bearer …` challenge, with `error="…"` when given. */
export function expectBearerChallenge(res: ApiResponse<unknown>, error?: string) {
  const challenge = res.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/^Bearer\b/);
  if (error) expect(challenge).toContain(`error="${error}"`);
}

/** Asserts the three rate-limit headers for a window of the given limit and length. */
export function expectRateLimitHeaders(res: ApiResponse<unknown>, limit: number, windowSeconds: number) {
  const now = Math.floor(Date.now() / 1000);
  expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
  const remainingText = res.headers.get("x-ratelimit-remaining") ?? "";
  const resetText = res.headers.get("x-ratelimit-reset") ?? "";
  expect(remainingText).toMatch(/^\d+$/);
  expect(resetText).toMatch(/^\d+$/);
  const remaining = Number(remainingText);
  const reset = Number(resetText);
  expect(remaining).toBeLessThanOrEqual(limit);
  expect(reset).toBeGreaterThanOrEqual(now);
  expect(reset).toBeLessThanOrEqual(now + windowSeconds + 1);
  return { remaining, reset };
}
