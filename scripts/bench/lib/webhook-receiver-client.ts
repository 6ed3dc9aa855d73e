// Starts the webhook-delivery benchmark's receiver (scripts/bench/webhook-receiver.ts) in its own
// process group and talks to its /_bench/ control routes; checks what it saw against what was sent.
import { request } from "node:http";
import { join } from "node:path";
import { freePort, waitForOk } from "./http";
import { fmt } from "./interleave";
import type { ManagedProcess, Supervisor } from "./processes";
import { ROOT } from "./targets";
import { wallClockMs } from "./wall-clock";

const TSX = join(ROOT, "node_modules/.bin/tsx");

/** What the receiver saw since its last reset. Arrival times on lib/wall-clock.ts's clock. */
export interface ReceiverRecords {
  requests: number;
  missingEventId: number;
  /** Requests whose signature was checked (every `sampleEvery`-th, the first included). */
  sampled: number;
  verified: number;
  failures: number;
  failureExamples: string[];
  eventIds: string[];
  arrivals: number[];
}

export interface Receiver {
  /** Where webhooks go (any path but /_bench/ is a webhook). */
  hookUrl: string;
  process: ManagedProcess;
  /** Forgets all records and checks signatures against `secret` from now on. */
  reset(secret: string, sampleEvery: number): Promise<void>;
  records(): Promise<ReceiverRecords>;
  /** Distinct event ids received since the reset. */
  count(): Promise<number>;
}

const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => typeof n === "number");
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

function isRecords(value: unknown): value is ReceiverRecords {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const counts = ["requests", "missingEventId", "sampled", "verified", "failures"].every((k) => typeof v[k] === "number");
  return counts && isStringArray(v.failureExamples) && isStringArray(v.eventIds) && isNumberArray(v.arrivals);
}

/**
 * A control request on a connection of its own (agent: false): a pooled keep-alive socket may
 * have been closed by the receiver while this process was busy, and a POST on it would fail.
 */
function control(base: string, method: "GET" | "POST", path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent: false, headers: body ? { "content-type": "application/json" } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function startReceiver(supervisor: Supervisor): Promise<Receiver> {
  const port = await freePort();
  // Through tsx like the other bench children; it acts only at module load, not per request.
  const child = supervisor.spawn({
    name: "webhook-receiver",
    command: TSX,
    args: ["scripts/bench/webhook-receiver.ts", "--port", String(port)],
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForOk(`${base}/_bench/ready`, child, 30_000);
  return {
    hookUrl: `${base}/hooks/photo-missions`,
    process: child,
    reset: async (secret, sampleEvery) => {
      const { status, text } = await control(base, "POST", "/_bench/reset", JSON.stringify({ secret, sampleEvery }));
      if (status !== 204) throw new Error(`receiver reset answered ${status}: ${text}`);
    },
    count: async () => {
      const { status, text } = await control(base, "GET", "/_bench/count");
      if (status !== 200) throw new Error(`receiver count answered ${status}: ${text.slice(0, 200)}`);
      return Number(text);
    },
    records: async () => {
      const { status, text } = await control(base, "GET", "/_bench/records");
      if (status !== 200) throw new Error(`receiver records answered ${status}: ${text.slice(0, 200)}`);
      const body: unknown = JSON.parse(text);
      if (!isRecords(body)) throw new Error(`receiver records have an unexpected shape: ${JSON.stringify(body).slice(0, 200)}`);
      return body;
    },
  };
}

// ---- what the receiver saw against what was sent ----------------------------------------------

/** The receiver's records of a pass checked against the event ids sent in it. */
export interface ReceiverCheck {
  arrived: number;
  distinct: number;
  /** Expected event ids that never arrived. */
  missing: number;
  /** Event ids the receiver saw that this pass did not send. */
  unexpected: number;
  duplicates: number;
  withoutEventId: number;
  sampled: number;
  verified: number;
  failureExamples: string[];
}

export function checkReceiver(records: ReceiverRecords, expected: Set<string>): ReceiverCheck {
  const seen = new Set<string>();
  let unexpected = 0;
  for (const id of records.eventIds) {
    if (!expected.has(id)) unexpected++;
    seen.add(id);
  }
  let missing = 0;
  for (const id of expected) if (!seen.has(id)) missing++;
  return {
    arrived: records.eventIds.length,
    distinct: seen.size,
    missing,
    unexpected,
    duplicates: records.eventIds.length - seen.size,
    withoutEventId: records.missingEventId,
    sampled: records.sampled,
    verified: records.verified,
    failureExamples: records.failureExamples,
  };
}

/**
 * A pass's checks as a report cell: its problems in bold, else "n/N arrived once, v/s [sampled]
 * signatures valid" and `suffix` (e.g. the attempts logged).
 */
export function describeReceiverCheck(
  check: ReceiverCheck,
  expected: number,
  problems: readonly string[],
  wording: { sampled: boolean; suffix?: string },
): string {
  if (problems.length) return `**${problems.join("; ")}**`;
  return `${fmt(check.distinct)}/${fmt(expected)} arrived once, ${check.verified}/${check.sampled} ${wording.sampled ? "sampled " : ""}signatures valid${wording.suffix ?? ""}`;
}

/** The check's failures, as the report names them; empty when everything arrived once, signed. */
export function receiverProblems(check: ReceiverCheck): string[] {
  const problems: string[] = [];
  if (check.missing) problems.push(`${check.missing} events never arrived`);
  if (check.unexpected) problems.push(`${check.unexpected} unexpected event ids`);
  if (check.duplicates) problems.push(`${check.duplicates} duplicate deliveries`);
  if (check.withoutEventId) problems.push(`${check.withoutEventId} requests without X-SVC-Event-Id`);
  if (check.sampled === 0) problems.push("no signature was checked");
  if (check.verified !== check.sampled)
    problems.push(`${check.sampled - check.verified} of ${check.sampled} sampled signatures wrong: ${check.failureExamples.join("; ")}`);
  return problems;
}

/**
 * Waits until the receiver has seen `expected` distinct events (or the timeout passed). Polling the
 * receiver costs the subject nothing, polling its database would cost it a query every 20 ms (on
 * PGlite, one more statement in the same single connection); the database is polled only after.
 */
export async function waitForArrivals(receiver: Receiver, expected: number, timeoutMs: number): Promise<void> {
  const deadline = wallClockMs() + timeoutMs;
  while (wallClockMs() < deadline && (await receiver.count()) < expected) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Each event id's first arrival (a duplicate would be a retry, reported by the check). */
export function firstArrivals(records: ReceiverRecords): Map<string, number> {
  const arrival = new Map<string, number>();
  records.eventIds.forEach((id, i) => arrival.has(id) || arrival.set(id, records.arrivals[i] ?? NaN));
  return arrival;
}
