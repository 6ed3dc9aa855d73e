// The `orders` queue's jobs: a recurring order's next cycle, a photo's verification, a location's
// delivery. Each is safe to run twice (state checks inside their transactions).
import type { ServiceContext } from "@/lib/service/context";
import { deliverLocation } from "./deliver-location";
import { runOrderCycle } from "./cycles/run-due-cycle";
import { verifyAssignment } from "./verify-assignment";

export async function runOrderJob(ctx: ServiceContext, payload: Record<string, unknown>): Promise<void> {
  const { kind } = payload;
  if (kind === "verify" && typeof payload.submission_id === "string") return verifyAssignment(ctx, payload.submission_id);
  if (kind === "deliver" && typeof payload.mission_id === "string") return deliverLocation(ctx, payload.mission_id);
  // Cycle jobs were queued before jobs had kinds: no kind means a cycle.
  if ((kind === undefined || kind === "cycle") && typeof payload.order_id === "string" && typeof payload.cycle_index === "number") {
    return runOrderCycle(ctx, payload.order_id, payload.cycle_index);
  }
  throw new Error(`unknown orders job ${JSON.stringify(payload).slice(0, 200)}`);
}
