import { describe, expect, it } from "vitest";
import {
  deliveryPollInterval,
  deliveryStatus,
  describeEvents,
  endpointState,
  eventsToSubmit,
  IDLE_POLL_MS,
  lastOutcome,
  LIVE_POLL_MS,
} from "./webhook-display";
import type { Delivery, Webhook } from "./types";

const webhook = (over: Partial<Webhook> = {}): Webhook => ({
  id: "wh_1",
  url: "https://partner.example/hooks",
  description: null,
  events: ["*"],
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  consecutive_failures: 0,
  previous_secret_expires_at: null,
  created_at: "2025-03-10T10:00:00.000Z",
  updated_at: "2025-03-10T10:00:00.000Z",
  ...over,
});

const now = Date.parse("2025-03-10T12:00:00Z");
const delivery = (over: Partial<Delivery> = {}): Delivery => ({
  id: "dlv_1",
  webhook_id: "wh_1",
  event_id: "evt_1",
  event: "webhook.test",
  status: "succeeded",
  attempt_count: 1,
  next_attempt_at: null,
  last_status_code: 200,
  created_at: "2025-03-10T11:59:00.000Z",
  completed_at: "2025-03-10T11:59:01.000Z",
  attempts: [],
  ...over,
});

describe("endpointState", () => {
  it("is enabled while nothing fails", () => {
    expect(endpointState(webhook())).toEqual({ kind: "enabled", tone: "success" });
  });
  it("is failing after failed attempts, counting them", () => {
    expect(endpointState(webhook({ consecutive_failures: 1 }))).toMatchObject({ kind: "failing", failures: 1 });
    expect(endpointState(webhook({ consecutive_failures: 4 }))).toMatchObject({ kind: "failing", tone: "danger" });
    expect(endpointState(webhook({ consecutive_failures: 4 }))).toMatchObject({ failures: 4 });
  });
  it("is disabled whatever the failures, with the service's reason when it gave one", () => {
    expect(endpointState(webhook({ enabled: false, consecutive_failures: 9, disabled_reason: "The endpoint answered 410 Gone." }))).toMatchObject({
      kind: "disabled",
      reason: "The endpoint answered 410 Gone.",
    });
    expect(endpointState(webhook({ enabled: false }))).toEqual({ kind: "disabled", tone: "neutral", reason: null });
  });
});

describe("events", () => {
  it("spells out the wildcard", () => {
    expect(describeEvents(["*"])).toBe("all");
    expect(describeEvents(["submission.approved"])).toEqual(["submission.approved"]);
  });
  it("sends the wildcard for all events, else the ticked ones in the form's order", () => {
    expect(eventsToSubmit(true, ["submission.approved"])).toEqual(["*"]);
    expect(eventsToSubmit(false, ["submission.rejected", "mission.created", "bogus"])).toEqual(["mission.created", "submission.rejected"]);
    expect(eventsToSubmit(false, [])).toEqual([]);
  });
});

describe("deliveryStatus and lastOutcome", () => {
  it("calls a pending delivery that was tried already retrying", () => {
    expect(deliveryStatus(delivery({ status: "pending", attempt_count: 0 })).kind).toBe("pending");
    expect(deliveryStatus(delivery({ status: "pending", attempt_count: 2 }))).toEqual({ kind: "retrying", tone: "warning" });
    expect(deliveryStatus(delivery({ status: "failed" })).tone).toBe("danger");
  });
  it("describes the last attempt", () => {
    const attempt = { id: "att_1", attempt: 1, started_at: "2025-03-10T11:59:00.000Z", duration_ms: 12, response_snippet: null };
    expect(lastOutcome(delivery({ attempts: [{ ...attempt, status_code: 500, error: null }] }))).toEqual({ kind: "response", text: "HTTP 500" });
    expect(lastOutcome(delivery({ attempts: [{ ...attempt, status_code: 302, error: "redirects are not followed" }] }))).toEqual({
      kind: "response",
      text: "HTTP 302 · redirects are not followed",
    });
    expect(lastOutcome(delivery({ attempts: [{ ...attempt, status_code: null, error: "timeout after 10000 ms" }] }))).toEqual({
      kind: "response",
      text: "timeout after 10000 ms",
    });
    expect(lastOutcome(delivery({ attempts: [{ ...attempt, status_code: null, error: null }] }))).toEqual({ kind: "no_response" });
    expect(lastOutcome(delivery({ attempts: [], last_status_code: null, status: "pending", attempt_count: 0 }))).toBeNull();
  });
});

describe("deliveryPollInterval", () => {
  it("idles when everything is settled", () => {
    expect(deliveryPollInterval([delivery(), delivery({ status: "failed" })], now)).toBe(IDLE_POLL_MS);
    expect(deliveryPollInterval(undefined, now)).toBe(IDLE_POLL_MS);
  });
  it("polls fast while a delivery is in flight or due", () => {
    expect(deliveryPollInterval([delivery({ status: "delivering" })], now)).toBe(LIVE_POLL_MS);
    expect(deliveryPollInterval([delivery({ status: "pending", attempt_count: 0, next_attempt_at: new Date(now - 500).toISOString() })], now)).toBe(
      LIVE_POLL_MS,
    );
  });
  it("looks again just after a retry that is due soon, and idles for a distant one", () => {
    expect(deliveryPollInterval([delivery({ status: "pending", attempt_count: 1, next_attempt_at: new Date(now + 10_000).toISOString() })], now)).toBe(11_000);
    expect(deliveryPollInterval([delivery({ status: "pending", attempt_count: 5, next_attempt_at: new Date(now + 6 * 3600_000).toISOString() })], now)).toBe(
      IDLE_POLL_MS,
    );
  });
});
