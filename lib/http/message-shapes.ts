// Keeps node's HTTP request and response objects fast when a server's first requests are followed
// by a quiet spell — as on every server that starts, answers a few checks and waits for traffic.
//
// V8 sizes the in-object space of the objects a constructor makes by watching its first seven
// constructions (in-object slack tracking); at the seventh it keeps the fields the hidden classes
// ("maps") then alive below the constructor's initial map use. A full collection drops the maps
// that no live object uses, and an idle server has no request in flight: when the seventh
// IncomingMessage and ServerResponse are the first after such a collection (V8's memory reducer
// runs them a few seconds into any quiet spell), V8's map log shows them given no in-object field
// at all (41 and 57 before). node's constructors then add a symbol-keyed property
// (`this[kAbortSignalSocket]`, `this[kNeedDrain]`) past V8's limit of out-of-object fields for
// keyed additions ("TooManyFastProperties"), and every request and response from then on is a
// dictionary (slow-properties) object, for the life of the process. Holding a finished request and
// its response did not prevent it; message-shapes.test.ts shows the case on a bare node server.
//
// Measured (docs/benchmarks-api-get-mission.md, 2026-12-02 evening): `npm start` with the demo off
// in `api-get-mission` was that case — six set-up requests, then the other targets' turns — and
// spent 30–50 % more CPU a request than with the demo on, whose own requests had passed seven
// before any idle spell. `%HasFastProperties` of the request and the response read true for the
// six set-up requests and false for every request after 35 s of idling.
//
// So a server sends itself more than seven requests as soon as it listens, one after the other:
// the seventh construction comes while the maps of the finished ones are alive.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { log } from "@/lib/log";

/** More than V8's seven tracked constructions (its kSlackTrackingCounterStart). */
export const SETTLING_REQUESTS = 8;

/**
 * Once `server` listens, sends it `requests` GETs of `path` in turn on loopback, each answered
 * before the next; resolves when they are done (a failure is logged, never thrown: the server
 * works without this, only slower).
 */
export async function settleMessageShapes(server: Server, { path, requests = SETTLING_REQUESTS }: { path: string; requests?: number }): Promise<void> {
  if (!server.listening) await new Promise<void>((resolve) => server.once("listening", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") return;
  const url = `http://${loopbackFor(address)}:${address.port}${path}`;
  try {
    for (let i = 0; i < requests; i++) {
      const response = await fetch(url, { headers: { "user-agent": "photo-missions/settle" } });
      await response.arrayBuffer();
    }
  } catch (error) {
    log.warn("could not send the server its settling requests", { url }, error);
  }
}

function loopbackFor(address: AddressInfo): string {
  if (address.address === "0.0.0.0" || address.address === "::") return "127.0.0.1";
  return address.family === "IPv6" ? `[${address.address}]` : address.address;
}
