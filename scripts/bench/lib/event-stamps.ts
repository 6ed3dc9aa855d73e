// Where a latency's time went, from the service's own records: recordEvent stamps every event in
// its transaction with new Date() (the system clock, which lib/wall-clock.ts reads too), so the
// events of one mission, read back from the API's database after a run, split a request's time
// into stages (order-delivery-latency: upload → received → approved → verified → delivered).
import { inArray, sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import { openApiDatabase, type ApiDatabaseLocation } from "./databases";
import { fmt, percentiles, table, type Percentiles } from "./interleave";

/** Per mission (data.mission_id), the first stamp (epoch ms) of each event type asked for. */
export type EventStamps<E extends string> = Map<string, Partial<Record<E, number>>>;

/** Read after the service stopped: PGlite's directory can only be opened once the API let go of it. */
export async function readEventStamps<E extends string>(where: ApiDatabaseLocation, types: readonly E[]): Promise<EventStamps<E>> {
  const database = await openApiDatabase(where);
  try {
    const rows = await queryRows<{ type: E; mission_id: string | null; ms: string | number }>(
      database.db,
      sql`select type, data->>'mission_id' as mission_id, extract(epoch from created_at) * 1000 as ms from events where ${inArray(events.type, [...types])}`,
    );
    const stamps: EventStamps<E> = new Map();
    for (const row of rows) {
      if (!row.mission_id) continue;
      const entry: Partial<Record<E, number>> = stamps.get(row.mission_id) ?? {};
      // The first of each (a retried job would record again; none is expected).
      entry[row.type] ??= Number(row.ms);
      stamps.set(row.mission_id, entry);
    }
    return stamps;
  } finally {
    await database.close();
  }
}

export interface StageSummary<S extends string> {
  stage: S;
  label: string;
  /** Over the samples that had every stamp. */
  ms: Percentiles;
}

/** A stage of a latency: it ends when its event is stamped (`until`), or at the sample's end (null). */
export interface StageDefinition<S extends string, E extends string> {
  stage: S;
  label: string;
  until: E | null;
}

/** A timed request of a mission: from `startedAt` to `endedAt` (lib/wall-clock.ts ms). */
export interface StampedSample {
  missionId: string;
  startedAt: number;
  endedAt: number;
}

/**
 * Each sample's time split into consecutive stages (the first from its start, each to its event's
 * stamp, the last to its end), or null when one of its stamps is missing.
 */
export function splitAtStamps<S extends string, E extends string>(
  sample: StampedSample,
  stamps: EventStamps<E>,
  stages: readonly StageDefinition<S, E>[],
): Partial<Record<S, number>> | null {
  const own = stamps.get(sample.missionId);
  const split: Partial<Record<S, number>> = {};
  let from = sample.startedAt;
  for (const { stage, until } of stages) {
    const to = until === null ? sample.endedAt : own?.[until];
    if (to === undefined) return null;
    split[stage] = to - from;
    from = to;
  }
  return split;
}

/** Each stage's percentiles over the samples that had every stamp; how many samples missed one. */
export function summariseStages<S extends string, E extends string>(
  samples: readonly StampedSample[],
  stamps: EventStamps<E>,
  stages: readonly StageDefinition<S, E>[],
  round: (n: number) => number,
): { stages: StageSummary<S>[]; missing: number } {
  const per = samples.map((sample) => splitAtStamps(sample, stamps, stages));
  const known = per.filter((x): x is Partial<Record<S, number>> => x !== null);
  return {
    stages: stages.map(({ stage, label }) => ({
      stage,
      label,
      ms: percentiles(
        known.map((k) => k[stage] ?? NaN),
        round,
      ),
    })),
    missing: per.length - known.length,
  };
}

/**
 * The stages' table: a row per stage (its label), a column per set of summaries (e.g. one at a
 * time, bursts), each cell the stage's median (p90) in ms, "–" where it had no sample.
 */
export function formatStageTable<S extends string, E extends string>(
  stages: readonly StageDefinition<S, E>[],
  columns: readonly { title: string; summaries: readonly StageSummary<S>[] }[],
): string[] {
  const cell = (summaries: readonly StageSummary<S>[], i: number) => {
    const ms = summaries[i]?.ms;
    return ms && ms.n ? `${fmt(ms.p50)} (${fmt(ms.p90)})` : "–";
  };
  return table(
    ["stage", ...columns.map((c) => c.title)],
    `l${"r".repeat(columns.length)}`,
    stages.map(({ label }, i) => [label, ...columns.map((c) => cell(c.summaries, i))]),
  );
}
