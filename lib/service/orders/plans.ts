// The plans of the order interface (spec "Plan terms"): monthly photo quota, request limit and the
// delivery promise that becomes each dispatched mission's deadline.
import type { Plan } from "@/lib/db/schema";

export interface PlanTerms {
  label: string;
  /** Photos per calendar month (UTC); null: unlimited. */
  photosPerMonth: number | null;
  /** Order-interface requests per minute per organisation (all its API keys and tokens); null: unlimited. */
  requestsPerMinute: number | null;
  /** Hours from dispatch until the photos are due. Enterprise is "per contract": 24 h unless agreed. */
  deliveryHours: number;
}

export const PLAN_TERMS: Record<Plan, PlanTerms> = {
  developer: { label: "Developer", photosPerMonth: 1000, requestsPerMinute: 60, deliveryHours: 48 },
  business: { label: "Business", photosPerMonth: 10_000, requestsPerMinute: 300, deliveryHours: 24 },
  enterprise: { label: "Enterprise", photosPerMonth: null, requestsPerMinute: null, deliveryHours: 24 },
};

/** The first instant of the calendar month (UTC) that `now` is in: quotas reset then. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
