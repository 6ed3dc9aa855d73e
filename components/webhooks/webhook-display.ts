// How an endpoint and its deliveries are summarised on the page, and how often the delivery log
// is looked at again: pure functions of the API's JSON (tests beside).
import type { Tone } from "@/components/ui/badge";
import type { WebhookEventType } from "@/lib/schemas/webhook";
import { EVENT_TYPES } from "./types";
import type { Delivery, Webhook } from "./types";

export interface EndpointState {
  kind: "enabled" | "failing" | "disabled";
  label: string;
  tone: Tone;
  /** One sentence on why, when there is something to explain. */
  detail: string | null;
}

export function endpointState(webhook: Webhook): EndpointState {
  if (!webhook.enabled) {
    return { kind: "disabled", label: "Disabled", tone: "neutral", detail: webhook.disabled_reason ?? "No events are sent to it until it is enabled again." };
  }
  if (webhook.consecutive_failures > 0) {
    const n = webhook.consecutive_failures;
    return {
      kind: "failing",
      label: "Failing",
      tone: "danger",
      detail: `The last ${n === 1 ? "attempt" : `${n} attempts`} failed; failed deliveries are retried with backoff for about three days.`,
    };
  }
  return { kind: "enabled", label: "Enabled", tone: "success", detail: null };
}

/** The event names an endpoint subscribes to, with `*` spelled out. */
export function describeEvents(events: readonly string[]): string[] {
  if (events.includes("*")) return ["All events"];
  return [...events];
}

/** The `events` to send for the form's choice: `["*"]` (every event, also future ones) or the ticked ones. */
export function eventsToSubmit(allEvents: boolean, selected: readonly string[]): (WebhookEventType | "*")[] {
  if (allEvents) return ["*"];
  // In the order the form lists them, whatever order they were ticked in.
  return EVENT_TYPES.filter((e) => selected.includes(e));
}

export interface DeliveryStatus {
  label: string;
  tone: Tone;
}

/** A pending delivery that has been tried already is waiting for its retry: say so. */
export function deliveryStatus(delivery: Delivery): DeliveryStatus {
  switch (delivery.status) {
    case "succeeded":
      return { label: "succeeded", tone: "success" };
    case "failed":
      return { label: "failed", tone: "danger" };
    case "delivering":
      return { label: "delivering", tone: "info" };
    case "pending":
      return delivery.attempt_count > 0 ? { label: "retrying", tone: "warning" } : { label: "pending", tone: "info" };
  }
}

/** What the last attempt got back: "HTTP 500", the error, or null before any attempt. */
export function lastOutcome(delivery: Delivery): string | null {
  const last = delivery.attempts.at(-1);
  if (!last) return delivery.last_status_code !== null ? `HTTP ${delivery.last_status_code}` : null;
  if (last.status_code !== null) return last.error ? `HTTP ${last.status_code} · ${last.error}` : `HTTP ${last.status_code}`;
  return last.error ?? "No response";
}

/** Deliveries per page of an endpoint's log; the server page prefetches the first page with it. */
export const DELIVERIES_PER_PAGE = 10;

export const LIVE_POLL_MS = 2000;
export const IDLE_POLL_MS = 30_000;

/**
 * How soon to look at the delivery log again: every 2 s while something is being delivered or is
 * due, just after the next retry is due when one is scheduled within the idle interval, and
 * every 30 s otherwise (new events arrive on their own).
 */
export function deliveryPollInterval(deliveries: readonly Delivery[] | undefined, nowMs: number): number {
  if (!deliveries) return IDLE_POLL_MS;
  let next = IDLE_POLL_MS;
  for (const d of deliveries) {
    if (d.status === "delivering") return LIVE_POLL_MS;
    if (d.status !== "pending") continue;
    const due = d.next_attempt_at ? Date.parse(d.next_attempt_at) - nowMs : 0;
    // A second after it is due, so the worker has had the time to claim and send it.
    next = Math.min(next, Math.max(LIVE_POLL_MS, due + 1000));
  }
  return next;
}
