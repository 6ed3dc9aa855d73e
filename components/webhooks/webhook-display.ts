// How an endpoint and its deliveries are summarised on the page, and how often the delivery log
// is looked at again: pure functions of the API's JSON (tests beside). They answer kinds, not
// words: the page says them in the reader's language (messages/<locale>/webhooks.json).
import type { Tone } from "@/components/ui/badge";
import type { WebhookEventType } from "@/lib/schemas/webhook";
import { EVENT_TYPES } from "./types";
import type { Delivery, Webhook } from "./types";

export type EndpointState =
  | { kind: "enabled"; tone: Tone }
  | { kind: "failing"; tone: Tone; failures: number }
  /** `reason`: the service's own words on why it disabled the endpoint (English, as the API gives it); null when a person did. */
  | { kind: "disabled"; tone: Tone; reason: string | null };

export function endpointState(webhook: Webhook): EndpointState {
  if (!webhook.enabled) return { kind: "disabled", tone: "neutral", reason: webhook.disabled_reason };
  if (webhook.consecutive_failures > 0) return { kind: "failing", tone: "danger", failures: webhook.consecutive_failures };
  return { kind: "enabled", tone: "success" };
}

/** The event names an endpoint subscribes to, or "all" for `*` (every event, also future ones). */
export function describeEvents(events: readonly string[]): "all" | string[] {
  if (events.includes("*")) return "all";
  return [...events];
}

/** The `events` to send for the form's choice: `["*"]` (every event, also future ones) or the ticked ones. */
export function eventsToSubmit(allEvents: boolean, selected: readonly string[]): (WebhookEventType | "*")[] {
  if (allEvents) return ["*"];
  // In the order the form lists them, whatever order they were ticked in.
  return EVENT_TYPES.filter((e) => selected.includes(e));
}

export interface DeliveryStatus {
  kind: "succeeded" | "failed" | "delivering" | "retrying" | "pending";
  tone: Tone;
}

/** A pending delivery that has been tried already is waiting for its retry: say so. */
export function deliveryStatus(delivery: Delivery): DeliveryStatus {
  switch (delivery.status) {
    case "succeeded":
      return { kind: "succeeded", tone: "success" };
    case "failed":
      return { kind: "failed", tone: "danger" };
    case "delivering":
      return { kind: "delivering", tone: "info" };
    case "pending":
      return delivery.attempt_count > 0 ? { kind: "retrying", tone: "warning" } : { kind: "pending", tone: "info" };
  }
}

/** What the last attempt got back: "HTTP 500", the error (the service's words), no response at all, or null before any attempt. */
export function lastOutcome(delivery: Delivery): { kind: "response"; text: string } | { kind: "no_response" } | null {
  const last = delivery.attempts.at(-1);
  if (!last) return delivery.last_status_code !== null ? { kind: "response", text: `HTTP ${delivery.last_status_code}` } : null;
  if (last.status_code !== null) return { kind: "response", text: last.error ? `HTTP ${last.status_code} · ${last.error}` : `HTTP ${last.status_code}` };
  return last.error ? { kind: "response", text: last.error } : { kind: "no_response" };
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
