// One HTTP POST of a webhook: signed raw body, a timeout, redirects not followed, the target
// checked for every connection (ssrf-guard.ts), and what came back (status, a snippet, or why
// nothing did).
import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import { assertSafeUrlShape, guardedLookup, hostOf, isAllowedTarget, isMetadataHostname, refusedAddress, UnsafeTargetError } from "./ssrf-guard";
import { signPayload, standardSignature } from "./sign-payload";

export interface WebhookCall {
  url: string;
  payload: string;
  eventId: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
  secret: string;
  previousSecret: string | null;
}

export interface CallResult {
  statusCode: number | null;
  durationMs: number;
  snippet: string | null;
  error: string | null;
}

const SNIPPET_BYTES = 512;
export const USER_AGENT = "PhotoMissions-Webhooks/1.0";

export function webhookHeaders(call: WebhookCall, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(call.payload)),
    "user-agent": USER_AGENT,
    "x-svc-signature": signPayload(call.secret, call.payload),
    ...(call.previousSecret ? { "x-svc-signature-previous": signPayload(call.previousSecret, call.payload) } : {}),
    "x-svc-event-id": call.eventId,
    "x-svc-event": call.eventType,
    "x-svc-timestamp": String(timestamp),
    "x-svc-delivery-id": call.deliveryId,
    "x-svc-attempt": String(call.attempt),
    // Standard Webhooks headers: the same event, verifiable with their libraries.
    "webhook-id": call.eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standardSignature(call.previousSecret ? [call.secret, call.previousSecret] : [call.secret], call.eventId, timestamp, call.payload),
  };
}

export function executeWebhookCall(call: WebhookCall, { timeoutMs, allowPrivate }: { timeoutMs: number; allowPrivate: boolean }): Promise<CallResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<CallResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    let url: URL;
    try {
      url = new URL(call.url);
    } catch {
      return finish({ statusCode: null, snippet: null, error: "invalid URL" });
    }
    try {
      // The rules may have changed since the endpoint was registered: check them again, and an IP
      // literal here, since Node never calls `lookup` for one.
      assertSafeUrlShape(url);
      const host = hostOf(url);
      if (isMetadataHostname(host)) throw new UnsafeTargetError(`${host} is a cloud metadata service; not connecting.`);
      if (isIP(host) && !isAllowedTarget(host, { allowPrivate })) throw new UnsafeTargetError(`${host} is ${refusedAddress(host)}; not connecting.`);
    } catch (error) {
      if (error instanceof UnsafeTargetError) return finish({ statusCode: null, snippet: null, error: error.message });
      throw error;
    }
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(url, {
      method: "POST",
      headers: webhookHeaders(call),
      lookup: guardedLookup(allowPrivate),
      timeout: timeoutMs,
      agent: false, // a fresh connection per call: the guarded lookup runs every time
    });
    // Last line of defence: whatever led here (literal, resolved name, anything added later), the
    // peer this socket actually reached must be public (with private targets allowed: anything but
    // a metadata service). Registered before the request's body is flushed to the socket (Node
    // emits 'socket' first), so nothing is sent to a refused peer.
    request.on("socket", (socket: Socket) => {
      const check = () => {
        const peer = socket.remoteAddress;
        if (peer === undefined || !isAllowedTarget(peer, { allowPrivate })) {
          request.destroy(new UnsafeTargetError(`connected to ${peer ?? "an unknown address"}, ${peer ? refusedAddress(peer) : "a private or reserved address"}; closed before sending.`));
        }
      };
      if (socket.connecting) socket.prependOnceListener("connect", check);
      else check();
    });
    // One deadline for the whole exchange, not only for idle sockets.
    const deadline = setTimeout(() => request.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    request.on("timeout", () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      finish({ statusCode: null, snippet: null, error: error.code === "EPRIVATE" ? error.message : `${error.code ?? "error"}: ${error.message}` });
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(chunk.subarray(0, SNIPPET_BYTES - size));
        size += chunk.length;
      });
      const done = () => {
        clearTimeout(deadline);
        finish({ statusCode: response.statusCode ?? null, snippet: Buffer.concat(chunks).toString("utf8"), error: null });
      };
      response.on("end", done);
      response.on("error", done);
      response.on("close", done);
    });
    request.end(call.payload);
  });
}
