// An order's delivery URL in the runner's own process (order-delivery-latency): a node:http server
// that answers every POST 200 once its body is read and records, per request, the event type,
// data.mission_id, the arrival time on the clock the runner shares (lib/wall-clock.ts) and whether
// X-SVC-Signature is right for the order's delivery secret; a latency benchmark waits on it for an
// event of a mission. GET /weather answers in Open-Meteo's shape at once, so a service pointed at
// it (WEATHER_URL) takes its weather path without waiting for the internet.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { wallClockMs } from "./wall-clock";
import { keepIdleConnections, signatureMatches } from "./webhook-receiving";

export interface Arrival {
  type: string;
  missionId: string | null;
  /** When the request's headers arrived (lib/wall-clock.ts: the system clock, sub-ms). */
  at: number;
  signatureOk: boolean;
  photos: number;
  approved: boolean;
}

/** What of a delivery's body is recorded; anything else in it (or a body that is not this) is ignored. */
const deliveryBody = z
  .object({
    type: z.unknown(),
    data: z
      .object({
        mission_id: z.unknown(),
        photos: z
          .array(z.object({ verification: z.object({ status: z.unknown() }).partial().optional() }))
          .optional()
          .catch(undefined),
      })
      .partial()
      .optional()
      .catch(undefined),
  })
  .partial();

type DeliveryBody = z.infer<typeof deliveryBody>;

function parseBody(raw: Buffer): DeliveryBody {
  try {
    const parsed = deliveryBody.safeParse(JSON.parse(raw.toString("utf8")));
    return parsed.success ? parsed.data : {};
  } catch {
    return {}; // recorded as an unknown type
  }
}

/** How the arrivals of one event type went: each mission once, every request signed. */
export interface ArrivalTally {
  /** Arrivals of the type. */
  count: number;
  /** Arrivals of the type beyond the first for their mission. */
  duplicates: number;
  /** Requests of any type whose signature was wrong. */
  badSignatures: number;
  /** Requests of other types, by type. */
  otherEvents: Record<string, number>;
}

export class DeliveryReceiver {
  readonly arrivals: Arrival[] = [];
  /** The order's delivery secret, once known: every signature is checked against it. */
  secret = "";
  private waiters = new Map<string, (a: Arrival) => void>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<DeliveryReceiver> {
    const holder: { receiver?: DeliveryReceiver } = {};
    const server = createServer((request, response) => holder.receiver?.handle(request, response));
    keepIdleConnections(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new DeliveryReceiver(server, `http://127.0.0.1:${port}`);
    holder.receiver = receiver;
    return receiver;
  }

  /** The variables that point a service at this receiver: private webhook targets allowed, weather from the stub. */
  serviceEnv(): Record<string, string> {
    return { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEATHER_URL: `${this.url}/weather` };
  }

  /** The first arrival of `type` for the mission (already there, or when it comes). */
  waitFor(type: string, missionId: string, timeoutMs: number): Promise<Arrival> {
    const seen = this.arrivals.find((a) => a.type === type && a.missionId === missionId);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(`${type} ${missionId}`);
        reject(new Error(`no ${type} for mission ${missionId} within ${timeoutMs / 1000} s (received so far: ${this.arrivals.length} requests)`));
      }, timeoutMs);
      this.waiters.set(`${type} ${missionId}`, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
    });
  }

  /** The arrivals of `type` and how they went, the other requests counted by type. */
  tally(type: string): ArrivalTally {
    const ofType = this.arrivals.filter((a) => a.type === type);
    const otherEvents: Record<string, number> = {};
    for (const a of this.arrivals) if (a.type !== type) otherEvents[a.type] = (otherEvents[a.type] ?? 0) + 1;
    return {
      count: ofType.length,
      duplicates: ofType.length - new Set(ofType.map((a) => a.missionId)).size,
      badSignatures: this.arrivals.filter((a) => !a.signatureOk).length,
      otherEvents,
    };
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const at = wallClockMs();
    if (request.method === "GET" && request.url?.startsWith("/weather")) return answerWeather(request, response);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok");
      const raw = Buffer.concat(chunks);
      const body = parseBody(raw);
      const header = request.headers["x-svc-event"];
      const type = typeof header === "string" ? header : typeof body.type === "string" ? body.type : "(unknown)";
      const missionId = typeof body.data?.mission_id === "string" ? body.data.mission_id : null;
      const photos = body.data?.photos ?? [];
      const arrival: Arrival = {
        type,
        missionId,
        at,
        signatureOk: signatureMatches(this.secret, raw, String(request.headers["x-svc-signature"] ?? "")),
        photos: photos.length,
        approved: photos.length > 0 && photos.every((p) => p.verification?.status === "approved"),
      };
      this.arrivals.push(arrival);
      if (missionId) {
        const key = `${type} ${missionId}`;
        const waiter = this.waiters.get(key);
        if (waiter) {
          this.waiters.delete(key);
          waiter(arrival);
        }
      }
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Open-Meteo's hourly answer for the asked day: clear sky, 18.5 °C every hour. */
function answerWeather(request: IncomingMessage, response: ServerResponse): void {
  const day = new URL(request.url ?? "/", "http://x").searchParams.get("start_date") ?? "2026-01-01";
  const hours = Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, "0")}:00`);
  const body = JSON.stringify({ hourly: { time: hours, temperature_2m: hours.map(() => 18.5), weather_code: hours.map(() => 0) } });
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

/**
 * A receiver and a service started with its env (`startService`), while `alongside` runs (set-up
 * on the other core); `work` gets all three. Service and receiver are stopped after `work`, or
 * when the start fails: an open server would keep the runner alive after the failure is reported.
 */
export async function withReceiverAndService<S extends { process: { stop(): Promise<void> } }, A, T>(
  startService: (env: Record<string, string>) => Promise<S>,
  alongside: () => Promise<A>,
  work: (service: S, receiver: DeliveryReceiver, alongside: A) => Promise<T>,
): Promise<{ service: S; result: T }> {
  const receiver = await DeliveryReceiver.start();
  let started: [S, A];
  try {
    started = await Promise.all([startService(receiver.serviceEnv()), alongside()]);
  } catch (error) {
    await receiver.close();
    throw error;
  }
  const [service, extra] = started;
  try {
    return { service, result: await work(service, receiver, extra) };
  } finally {
    await service.process.stop();
    await receiver.close();
  }
}
