// One HTTP POST of a webhook: signed raw body, a timeout, redirects not followed, the target
// checked for every connection (ssrf-guard.ts), and what came back (status, a snippet, or why
// nothing did).
import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import { assertSafeUrlShape, guardedLookup, hostOf, isAllowedTarget, isMetadataHostname, refusedAddress, UnsafeTargetError } from "./ssrf-guard";
import { signPayload, standardSignature } from "./sign-payload";
import type { SigningSecret } from "./signing-secret";
import { toStorableText } from "@/lib/text/storable-text";

export interface WebhookCall {
  url: string;
  payload: string;
  eventId: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
  secret: SigningSecret;
  /** The rotated-out secret, while its grace period lasts. */
  previousSecret: SigningSecret | null;
}

export interface CallResult {
  statusCode: number | null;
  durationMs: number;
  snippet: string | null;
  error: string | null;
}

const SNIPPET_BYTES = 512;

/**
 * Connections are kept for the next call to the same host and port, briefly: a fresh TCP
 * connection per call cost both sides a connect and an accept on every delivery. Every new
 * connection still resolves through the guarded lookup, and every call (on a new or a kept
 * socket) checks the socket's actual peer before sending; a kept socket stays connected to the
 * address that was checked when it connected, so DNS changes since then reach nothing else. One
 * pool per setting, since the lookup differs. An idle socket is closed after a second (before
 * common servers' keep-alive timeouts of 5 s and more, and Node honours a shorter Keep-Alive
 * hint), so a call rarely meets a socket the receiver is closing.
 */
const KEEP_IDLE_MS = 1_000;
const pools = new Map<string, http.Agent>();

function pool(protocol: "http:" | "https:", allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate ? "private" : "public"}`;
  let agent = pools.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: KEEP_IDLE_MS, maxFreeSockets: 16, scheduling: "lifo" as const };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    pools.set(key, agent);
  }
  return agent;
}
export const USER_AGENT = "PhotoMissions-Webhooks/1.0";

export function webhookHeaders(call: WebhookCall, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(call.payload)),
    "user-agent": USER_AGENT,
    "x-svc-signature": signPayload(call.secret.value, call.payload),
    ...(call.previousSecret ? { "x-svc-signature-previous": signPayload(call.previousSecret.value, call.payload) } : {}),
    "x-svc-event-id": call.eventId,
    "x-svc-event": call.eventType,
    "x-svc-timestamp": String(timestamp),
    "x-svc-delivery-id": call.deliveryId,
    "x-svc-attempt": String(call.attempt),
    // Standard Webhooks headers: the same event, verifiable with their libraries (in their default
    // mode for a standard secret; see ./signing-secret.ts).
    "webhook-id": call.eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standardSignature(call.previousSecret ? [call.secret, call.previousSecret] : [call.secret], call.eventId, timestamp, call.payload),
  };
}

export interface CallOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

export async function executeWebhookCall(call: WebhookCall, options: CallOptions): Promise<CallResult> {
  const first = await sendOnce(call, options, true);
  // A kept connection the receiver closed just as it was reused fails before anything was
  // answered: sent again once on a new connection, as a fresh connection per call never met one
  // (the receiver may have read the first request; deliveries are at-least-once).
  return first.staleSocket ? (await sendOnce(call, options, false)).result : first.result;
}

function sendOnce(call: WebhookCall, { timeoutMs, allowPrivate }: CallOptions, reuse: boolean): Promise<{ result: CallResult; staleSocket: boolean }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const finish = (result: Omit<CallResult, "durationMs">, staleSocket = false) => {
      if (settled) return;
      settled = true;
      resolve({ result: { ...result, durationMs: elapsed() }, staleSocket });
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
    const secure = url.protocol === "https:";
    const request = (secure ? https : http).request(url, {
      method: "POST",
      headers: webhookHeaders(call),
      lookup: guardedLookup(allowPrivate),
      timeout: timeoutMs,
      agent: reuse ? pool(secure ? "https:" : "http:", allowPrivate) : false,
    });
    // Last line of defence: whatever led here (literal, resolved name, anything added later), the
    // peer this socket actually reached must be public (with private targets allowed: anything but
    // a metadata service). Registered before the request's body is flushed to the socket (Node
    // emits 'socket' first), so nothing is sent to a refused peer.
    request.on("socket", (socket: Socket) => {
      const check = () => {
        const peer = socket.remoteAddress;
        if (peer === undefined || !isAllowedTarget(peer, { allowPrivate })) {
          request.destroy(
            new UnsafeTargetError(
              `connected to ${peer ?? "an unknown address"}, ${peer ? refusedAddress(peer) : "a private or reserved address"}; closed before sending.`,
            ),
          );
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
      const staleSocket = request.reusedSocket && !answered && (error.code === "ECONNRESET" || error.code === "EPIPE");
      finish({ statusCode: null, snippet: null, error: error.code === "EPRIVATE" ? error.message : `${error.code ?? "error"}: ${error.message}` }, staleSocket);
    });
    request.on("response", (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(chunk.subarray(0, SNIPPET_BYTES - size));
        size += chunk.length;
      });
      const done = () => {
        clearTimeout(deadline);
        // Shown in the delivery log and stored there: a receiver's binary answer loses its NUL bytes
        // (PostgreSQL text cannot hold them; the success could not be recorded otherwise).
        const snippet = toStorableText(Buffer.concat(chunks).toString("utf8"));
        finish({ statusCode: response.statusCode ?? null, snippet, error: null });
      };
      response.on("end", done);
      response.on("error", done);
      response.on("close", done);
    });
    request.end(call.payload);
  });
}
