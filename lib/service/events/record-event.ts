// Writes an event to the outbox inside the caller's transaction, so an event exists exactly when
// the change that caused it was committed. Delivery to webhook endpoints happens from the outbox.
import type { Db } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";

export type EventType =
  | "mission.created"
  | "mission.completed"
  | "submission.received"
  | "submission.approved"
  | "submission.rejected";

export interface RecordEventOptions {
  orgId: string;
  type: EventType;
  data: Record<string, unknown>;
}

export async function recordEvent(tx: Db, { orgId, type, data }: RecordEventOptions): Promise<string> {
  const id = createId("event");
  await tx.insert(events).values({ id, orgId, type, data });
  return id;
}
