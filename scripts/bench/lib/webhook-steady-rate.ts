// webhook-delivery's latency part: events enqueued one per transaction on an absolute schedule
// (runAtRate), each timed from its commit to its request at the receiver, with the worker woken
// after each commit (as the service's own writes do) or left to its 500 ms poll (a producer in
// another process). Both clocks are the shared sub-ms wall clock (wall-clock.ts).
import { fmt } from "./file-report";
import { runAtRate } from "./fixed-rate";
import { percentiles, type Percentiles } from "./interleave";
import { wallClockMs } from "./wall-clock";
import { describeReceiverCheck, firstArrivals, type Receiver, type ReceiverCheck } from "./webhook-receiver-client";
import { enqueueBatch, settleAndCheck, type BenchService } from "./webhook-service";

export interface SteadyResult {
  /** Whether each enqueue was followed by ctx.wakeWorkers(), as the service's own writes are. */
  woken: boolean;
  rate: number;
  seconds: number;
  events: number;
  /** Enqueue calls per second actually started (the schedule is absolute, so it does not drift). */
  achievedRate: number;
  /** Each enqueue transaction, call to commit. */
  enqueueMs: Percentiles;
  /** Commit of the enqueue transaction → request at the receiver: the headline figure. */
  commitToArrivalMs: Percentiles;
  /** Enqueue call → request at the receiver (adds the transaction's own time). */
  callToArrivalMs: Percentiles;
  receiver: ReceiverCheck;
  problems: string[];
}

export interface SteadySettings {
  /** Events per second. */
  rate: number;
  seconds: number;
  /** Whether to wake the worker after each commit. */
  woken: boolean;
  /** The receiver checks the signature of every this-many-th request (the first included). */
  sampleEvery: number;
}

interface Enqueued {
  eventId: string;
  calledAt: number;
  committedAt: number;
}

async function enqueueOne(service: BenchService, orgId: string, woken: boolean): Promise<Enqueued> {
  const { ctx } = service.runtime;
  const calledAt = wallClockMs();
  const [eventId] = await enqueueBatch(ctx, orgId, service.eventData, 1);
  const committedAt = wallClockMs();
  if (woken) ctx.wakeWorkers();
  if (!eventId) throw new Error("recordEvent returned no event id");
  return { eventId, calledAt, committedAt };
}

/** `rate` × `seconds` events to a fresh endpoint, then everything settled and checked. */
export async function measureSteady(service: BenchService, receiver: Receiver, settings: SteadySettings): Promise<SteadyResult> {
  const { rate, seconds, woken } = settings;
  const endpoint = await service.newEndpoint(receiver.hookUrl);
  await receiver.reset(endpoint.secret, settings.sampleEvery);
  const total = Math.max(1, Math.round(rate * seconds));
  // Producers are independent requests: each enqueue starts on the schedule, not after the previous one.
  const enqueue = () => enqueueOne(service, endpoint.orgId, woken);
  const { list, achievedRate } = await runAtRate(total, rate, enqueue, (e) => e.calledAt);
  const settled = await settleAndCheck(service, receiver, endpoint.endpointId, new Set(list.map((e) => e.eventId)));
  const arrival = firstArrivals(settled.records);
  const delivered = list.filter((e) => arrival.has(e.eventId));
  const at = (e: Enqueued) => arrival.get(e.eventId) ?? NaN;
  return {
    woken,
    rate,
    seconds,
    events: total,
    achievedRate,
    enqueueMs: percentiles(list.map((e) => e.committedAt - e.calledAt)),
    commitToArrivalMs: percentiles(delivered.map((e) => at(e) - e.committedAt)),
    callToArrivalMs: percentiles(delivered.map((e) => at(e) - e.calledAt)),
    receiver: settled.check,
    problems: settled.problems,
  };
}

const ms = (n: number) => fmt(n, 1);

/** The header of steadyRow's table. */
export const STEADY_TABLE_HEADER = [
  "| worker | rate | enqueue→delivered p50 ms | p99 ms | max ms | call→delivered p50 / p99 ms | enqueue tx p50 / p99 ms | checks |",
  "|---|---|---:|---:|---:|---|---|---|",
];

export function steadyRow(s: SteadyResult): string {
  const c = s.commitToArrivalMs;
  const wake = s.woken ? "woken after each commit (as the service does)" : "not woken: 500 ms poll (producer in another process)";
  const checks = describeReceiverCheck(s.receiver, s.events, s.problems, { sampled: false });
  return (
    `| ${wake} | ${fmt(s.rate)}/s × ${fmt(s.seconds)} s (achieved ${fmt(s.achievedRate, 1)}/s) | ${ms(c.p50)} | ${ms(c.p99)} | ${ms(c.max)} | ` +
    `${ms(s.callToArrivalMs.p50)} / ${ms(s.callToArrivalMs.p99)} | ${ms(s.enqueueMs.p50)} / ${ms(s.enqueueMs.p99)} | ${checks} |`
  );
}
