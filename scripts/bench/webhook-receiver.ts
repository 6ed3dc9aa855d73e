// The receiver of the webhook-delivery benchmark, run as a child process (started by
// scripts/bench/lib/webhook-receiver-client.ts) so that it never shares an event loop with the
// sender it measures. Every POST is answered 200 as soon as its body has been read; per request it
// records the X-SVC-Event-Id header and the arrival time on the clock the runner shares
// (lib/wall-clock.ts), and for a sample of requests it checks the X-SVC-Signature HMAC against the
// endpoint secret — so the benchmark proves that what it counts was signed correctly.
// Control routes under /_bench/: ready, reset, records (outside any timed part) and count (polled
// while the full path runs: cheaper for the subject than polling its own database).
// Not meant to be run by hand.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import type { ReceiverRecords } from "./lib/webhook-receiver-client";
import { wallClockMs } from "./lib/wall-clock";
import { keepIdleConnections, signatureMatches } from "./lib/webhook-receiving";

/** What GET /_bench/records answers: the shape the client module declares. */
type Records = ReceiverRecords;

const MAX_EXAMPLES = 5;

let secret = "";
let sampleEvery = 10;
let records: Records = emptyRecords();
/** Distinct event ids since the reset, for the cheap /_bench/count the runner polls. */
let distinct = new Set<string>();

function emptyRecords(): Records {
  return { requests: 0, missingEventId: 0, sampled: 0, verified: 0, failures: 0, failureExamples: [], eventIds: [], arrivals: [] };
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function fail(reason: string): void {
  records.failures++;
  if (records.failureExamples.length < MAX_EXAMPLES) records.failureExamples.push(reason);
}

/** The receiver side of the spec: hex HMAC-SHA256 of the raw body; the body names the same event. */
function verify(body: Buffer, signature: string | undefined, eventId: string | undefined): void {
  records.sampled++;
  if (!signatureMatches(secret, body, signature)) return fail(`bad signature for ${eventId ?? "(no event id)"}`);
  let id: unknown;
  try {
    id = (JSON.parse(body.toString("utf8")) as { id?: unknown }).id;
  } catch {
    return fail(`body of ${eventId ?? "(no event id)"} is not JSON`);
  }
  if (id !== eventId) return fail(`body id ${String(id)} ≠ header ${eventId ?? "(none)"}`);
  records.verified++;
}

function onWebhook(request: IncomingMessage, response: ServerResponse): void {
  const arrivedAt = wallClockMs();
  const sequence = records.requests++;
  const eventId = header(request, "x-svc-event-id");
  if (eventId) {
    distinct.add(eventId);
    records.eventIds.push(eventId);
    records.arrivals.push(arrivedAt);
  } else {
    records.missingEventId++;
  }
  const sampled = sequence % sampleEvery === 0;
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => {
    if (sampled) chunks.push(chunk);
  });
  request.on("end", () => {
    if (sampled) verify(Buffer.concat(chunks), header(request, "x-svc-signature"), eventId);
    response.writeHead(200, { "content-type": "text/plain", "content-length": "2" });
    response.end("ok");
  });
}

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    request.on("error", reject);
  });
}

/** POST /_bench/reset {secret, sampleEvery}: a new phase, a new endpoint secret, no records. */
async function reset(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readJson(request);
  const given = typeof body === "object" && body !== null ? (body as { secret?: unknown; sampleEvery?: unknown }) : {};
  if (typeof given.secret !== "string" || given.secret === "") throw new Error("reset needs a secret");
  secret = given.secret;
  sampleEvery = typeof given.sampleEvery === "number" && given.sampleEvery >= 1 ? Math.floor(given.sampleEvery) : 10;
  records = emptyRecords();
  distinct = new Set();
  response.writeHead(204).end();
}

function onControl(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? "";
  if (path === "/_bench/ready") {
    response.writeHead(200, { "content-type": "text/plain" }).end("ok");
  } else if (path === "/_bench/count") {
    response.writeHead(200, { "content-type": "text/plain" }).end(String(distinct.size));
  } else if (path === "/_bench/records") {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(records));
  } else if (path === "/_bench/reset" && request.method === "POST") {
    reset(request, response).catch((error: unknown) => {
      response.writeHead(400, { "content-type": "text/plain" }).end(error instanceof Error ? error.message : String(error));
    });
  } else {
    response.writeHead(404).end();
  }
}

const { values } = parseArgs({ options: { port: { type: "string" } } });
if (!values.port) throw new Error("usage: webhook-receiver.ts --port <n>");

const server = createServer((request, response) => {
  if (request.url?.startsWith("/_bench/")) onControl(request, response);
  else onWebhook(request, response);
});
// The fetch loop's keep-alive connections sit idle while the full path runs its round.
keepIdleConnections(server);
server.listen(Number(values.port), "127.0.0.1");
