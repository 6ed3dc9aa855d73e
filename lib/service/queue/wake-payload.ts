// Wake-ups across processes on PostgreSQL: a web instance without workers NOTIFYs this channel
// after committing work (the queues it concerns, comma-separated; empty for all), and every worker
// process LISTENs, waking the named workers at once instead of at their next poll. A lost
// notification costs only latency: the workers still poll.

export const WORK_QUEUES = ["qa", "webhooks", "orders"] as const;
export type WorkQueue = (typeof WORK_QUEUES)[number];

export const WAKE_CHANNEL = "photo_missions_wake";

/** The queues a payload names; unknown names are ignored, and an empty payload (or none known) means all. */
export function parseWakePayload(payload: string): WorkQueue[] {
  return payload
    .split(",")
    .map((name) => name.trim())
    .filter((name): name is WorkQueue => (WORK_QUEUES as readonly string[]).includes(name));
}
