// The delivery promise of a dispatched location: by when its photos are promised (`deliver_by`),
// by when its task should have been taken (past that, untaken, it is escalated and at risk), and
// where an order stands given its locations. Pure (no clock, no database): the service hands in
// the quote's estimate, the plan's deadline and the instants.
import type { DeliveryEstimate } from "./delivery-estimate";
import type { DeliveryStatus } from "./vocabulary";

const HOUR_MS = 3_600_000;

export interface LocationPromise {
  deliverBy: Date;
  expectedTakeBy: Date;
  /** Which promise is the later, and so binds: the plan's, or the estimate's. */
  source: "plan" | "estimate";
}

/**
 * A location's promise when its task opens at `opensAt`: the later of the plan's deadline (48 h /
 * 24 h after payment for a one-off order, the end of a recurring cycle's window) and the estimate
 * the quote stated (`opensAt` + its p90_hours). Its expected take time is `opensAt` + the
 * estimate's p50_hours — by then half of the similar tasks near the place were already delivered,
 * so one not even taken is behind — or, without an estimate, half-way to `deliverBy`; never later
 * than `deliverBy`.
 */
export function locationPromise({
  estimate,
  planDeadline,
  opensAt,
}: {
  estimate: Pick<DeliveryEstimate, "p50_hours" | "p90_hours"> | null;
  planDeadline: Date;
  opensAt: Date;
}): LocationPromise {
  const byEstimate = estimate ? opensAt.getTime() + estimate.p90_hours * HOUR_MS : null;
  const source = byEstimate !== null && byEstimate > planDeadline.getTime() ? "estimate" : "plan";
  const deliverBy = new Date(source === "estimate" && byEstimate !== null ? byEstimate : planDeadline.getTime());
  const span = Math.max(0, deliverBy.getTime() - opensAt.getTime());
  const takeAfter = estimate ? estimate.p50_hours * HOUR_MS : span / 2;
  const expectedTakeBy = new Date(opensAt.getTime() + Math.min(Math.max(0, takeAfter), span));
  return { deliverBy, expectedTakeBy, source };
}

/** A delivered location's status: late when it was already late (by the service's clock) or arrived after its promise. */
export function deliveredStatus({ status, deliverBy, deliveredAt }: { status: DeliveryStatus; deliverBy: Date; deliveredAt: Date }): DeliveryStatus {
  return status === "late" || status === "delivered_late" || deliveredAt.getTime() > deliverBy.getTime() ? "delivered_late" : "delivered_on_time";
}

const OPEN_RANK: Partial<Record<DeliveryStatus, number>> = { on_track: 0, at_risk: 1, late: 2 };

/** Whether a status is of a location still to be delivered. */
export function isOpenStatus(status: DeliveryStatus): boolean {
  return OPEN_RANK[status] !== undefined;
}

/**
 * An order's status from its locations' (`open`: still to be delivered, not given up or
 * cancelled): the worst of the open ones (late, then at_risk, then on_track); once none is open,
 * delivered_late if any was delivered late, else delivered_on_time; null when nothing was
 * delivered and nothing is open (not dispatched yet, or everything given up or cancelled).
 */
export function orderDeliveryStatus(locations: readonly { status: DeliveryStatus; open: boolean }[]): DeliveryStatus | null {
  const open = locations.filter((l) => l.open && isOpenStatus(l.status));
  if (open.length > 0)
    return open.reduce((worst, l) => ((OPEN_RANK[l.status] ?? 0) > (OPEN_RANK[worst] ?? 0) ? l.status : worst), "on_track" as DeliveryStatus);
  const delivered = locations.filter((l) => l.status === "delivered_on_time" || l.status === "delivered_late");
  if (delivered.length === 0) return null;
  return delivered.some((l) => l.status === "delivered_late") ? "delivered_late" : "delivered_on_time";
}

/** A location delivered late, or still late, may be cancelled by the partner free of charge. */
export function mayCancelFree(status: DeliveryStatus): boolean {
  return status === "late" || status === "delivered_late";
}
