// A real local webhook receiver for tests: records every request's raw bytes and headers, and
// answers as the test scripts it (status sequence, redirects, hanging).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: { id: string; event: string; timestamp: string; data: Record<string, unknown> };
}

export type Reply = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private replies: Reply[] = [];
  private fallback: Reply = { status: 200, body: "ok" };
  /** The event whose next request hangs, whatever else arrives before it. */
  private hangNext: string | null = null;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    // The handler needs the receiver, which needs the server's port: a holder bridges the two.
    const holder: { receiver?: Receiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => holder.receiver?.handle(req.url ?? "/", req.headers, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    holder.receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.receiver;
  }

  /** Answers the next requests with these replies, in order, then with `then`. */
  script(replies: Reply[], then: Reply = { status: 200, body: "ok" }) {
    this.replies = [...replies];
    this.fallback = then;
  }

  /** The next request of `event` is never answered (other events are answered as scripted). */
  hangNextOf(event: string) {
    this.hangNext = event;
  }

  private handle(path: string, headers: IncomingHttpHeaders, raw: Buffer, res: import("node:http").ServerResponse) {
    const json = JSON.parse(raw.toString("utf8")) as ReceivedRequest["json"];
    this.requests.push({ at: Date.now(), path, headers, raw, json });
    if (this.hangNext !== null && json.event === this.hangNext) {
      this.hangNext = null;
      return;
    }
    const reply = this.replies.shift() ?? this.fallback;
    if (reply === "hang") return; // never answers: the sender's timeout (or death) ends it
    res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
    res.end(reply.body ?? "");
  }

  /** Waits until `count` requests of `event` (any event when omitted) have arrived. */
  async waitFor(count: number, event?: string, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
    const matching = () => (event ? this.of(event) : this.requests);
    const deadline = Date.now() + timeoutMs;
    while (matching().length < count) {
      if (Date.now() > deadline) throw new Error(`receiver got ${matching().length} of ${count} ${event ?? "requests"}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return matching();
  }

  of(event: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.json.event === event);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What a receiver does: HMAC the raw bytes with the secret and compare in constant time. */
export function verifies(request: ReceivedRequest, secret: string, header = "x-svc-signature"): boolean {
  const expected = Buffer.from(createHmac("sha256", secret).update(request.raw).digest("hex"));
  const given = Buffer.from(String(request.headers[header] ?? ""));
  return expected.length === given.length && timingSafeEqual(expected, given);
}
