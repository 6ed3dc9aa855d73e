import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { locationProgress, locationState, orderTimeline } from "./order-progress";
import { task } from "./assignment-fixture";
import { testWords } from "./test-words";
import type { Order } from "./types";

describe("locationProgress", () => {
  it("tells the six states apart from each angle's latest attempt", () => {
    const delivered = { status: "verified" as const, delivered_at: "2027-01-01T12:00:00Z" };
    const progress = locationProgress(
      ["loc_waiting", "loc_assigned", "loc_verifying", "loc_retake", "loc_delivered", "loc_given_up", "loc_none"],
      [
        task({ location_id: "loc_waiting", angle: "front", status: "open" }),
        task({ location_id: "loc_waiting", angle: "overview", ...delivered }),
        task({ location_id: "loc_assigned", angle: "front", status: "reserved" }),
        task({ location_id: "loc_assigned", angle: "overview", status: "open" }),
        task({ location_id: "loc_verifying", angle: "front", status: "submitted" }),
        task({ location_id: "loc_verifying", angle: "overview", status: "reserved" }),
        task({ location_id: "loc_retake", angle: "front", status: "failed" }),
        task({ location_id: "loc_retake", angle: "overview", status: "submitted" }),
        task({ location_id: "loc_delivered", angle: "front", status: "failed" }),
        task({ location_id: "loc_delivered", angle: "front", attempt: 1, ...delivered }),
        task({ location_id: "loc_delivered", angle: "overview", ...delivered }),
        task({ location_id: "loc_given_up", angle: "front", attempt: 3, status: "given_up" }),
        task({ location_id: "loc_given_up", angle: "overview", ...delivered }),
      ],
    );
    expect(Object.fromEntries([...progress].map(([id, p]) => [id, p.state]))).toEqual({
      loc_waiting: "waiting",
      loc_assigned: "assigned",
      loc_verifying: "verifying",
      loc_retake: "retake",
      loc_delivered: "delivered",
      loc_given_up: "given_up",
      loc_none: "waiting",
    });
  });

  it("is a retake when the partner sent a delivered photo back, whoever holds the new task", () => {
    const sentBack = task({ status: "cancelled", delivered_at: "2027-01-01T12:00:00Z" });
    expect(locationProgress(["loc_a"], [sentBack, task({ attempt: 1, status: "open", created_at: "2027-01-02T09:00:00Z" })]).get("loc_a")?.state).toBe(
      "retake",
    );
    expect(locationProgress(["loc_a"], [sentBack, task({ attempt: 1, status: "reserved", created_at: "2027-01-02T09:00:00Z" })]).get("loc_a")?.state).toBe(
      "retake",
    );
  });

  it("waits for delivery after a photo passed its checks", () => {
    expect(locationState([{ status: "verified", attempt: 0, delivered: false }])).toBe("verifying");
    // Held for review: waiting for the account manager, named as such (not "being checked").
    expect(locationState([{ status: "held_for_review", attempt: 0, delivered: false }])).toBe("held");
    // The manager's move comes first, even on a retake attempt or beside another angle's retake.
    expect(locationState([{ status: "held_for_review", attempt: 1, delivered: false }])).toBe("held");
    expect(
      locationState([
        { status: "held_for_review", attempt: 0, delivered: false },
        { status: "failed", attempt: 0, delivered: false },
      ]),
    ).toBe("held");
    expect(locationState([{ status: "cancelled", attempt: 0, delivered: false }])).toBe("waiting");
  });

  it("looks at the latest cycle only", () => {
    const progress = locationProgress(
      ["loc_a"],
      [task({ status: "verified", delivered_at: "2027-01-01T12:00:00Z" }), task({ cycle_index: 1, status: "open" })],
    );
    expect(progress.get("loc_a")).toMatchObject({ state: "waiting", cycleIndex: 1 });
  });
});

describe("orderTimeline", () => {
  const order = {
    created_at: "2027-01-01T09:00:00Z",
    confirmed_at: "2027-01-01T09:05:00Z",
    cancelled_at: null,
    status_reason: null,
    recurring: null,
    locations: [{ location_id: "loc_a", name: "Duomo" }],
    quote: { total_cents: 1240, currency: "EUR" },
    payments: [
      {
        kind: "charge",
        status: "succeeded",
        amount_cents: 1240,
        currency: "EUR",
        cycle_index: 0,
        payment_method: "pm_card_visa",
        failure_code: null,
        failure_message: null,
        created_at: "2027-01-01T09:05:00Z",
      },
    ],
  } as unknown as Order;
  const tasks = () => [
    task({ created_at: "2027-01-01T09:05:01Z", status: "verified", delivered_at: "2027-01-01T11:00:00Z" }),
    task({ angle: "overview", created_at: "2027-01-01T09:05:01Z", status: "verified", delivered_at: "2027-01-01T11:00:00Z" }),
  ];

  it("tells the order's story in time order", () => {
    const entries = orderTimeline(order, tasks(), testWords("en", "en-GB"));
    expect(entries.map((e) => e.title)).toEqual(["Order created", "Confirmed", "Charged €12.40", "Sent to the field", "Delivered: Duomo"]);
    expect(entries[0]?.detail).toBe("1 location, quoted €12.40");
    expect(entries[2]?.detail).toBe("Visa test card ···· 4242");
    expect(entries[3]?.detail).toBe("1 location, 2 photos to take");
    expect(entries[4]?.detail).toBe("2 photos");
  });

  it("tells it in the reader's language, with their money format", () => {
    const entries = orderTimeline(order, tasks(), testWords("de", "de"));
    expect(entries.map((e) => e.title)).toEqual([
      "Auftrag erstellt",
      "Bestätigt",
      "12,40\u00a0€ belastet",
      "An die Fotografen vor Ort gesendet",
      "Geliefert: Duomo",
    ]);
    expect(entries[2]?.detail).toBe("Visa-Testkarte ···· 4242");
    expect(entries[3]?.detail).toBe("1 Ort, 2 Fotos aufzunehmen");
  });

  it("gives a retake's reason as its codes, for the page to say in the reader's language, never as an English detail", () => {
    const codes = [{ code: "retake.partner_asked", params: { reason: "A van hides the door." } }];
    const retake = task({
      attempt: 1,
      created_at: "2027-01-02T09:00:00Z",
      instructions: ["The partner asked for this photo again: A van hides the door."],
      instruction_codes: codes,
    });
    const entry = orderTimeline(order, [...tasks(), retake], testWords("de", "de")).find((e) => e.kind === "retake");
    expect(entry?.title).toBe("Wiederholung eröffnet: Duomo, Vorderseite");
    expect(entry?.detail).toBeUndefined();
    expect(entry?.instructions).toEqual({ codes, english: ["The partner asked for this photo again: A van hides the door."] });
    for (const [locale, prefix] of [
      ["de", "Der Partner hat dieses Foto erneut angefordert: "],
      ["es", "El cliente pidió esta foto de nuevo: "],
      ["ar", "طلب الشريك هذه الصورة مرة أخرى: "],
    ] as const) {
      const catalogue = JSON.parse(readFileSync(join(import.meta.dirname, `../../messages/${locale}/codes.json`), "utf8")) as Record<string, never>;
      const say = createTranslator({ locale, messages: { codes: catalogue }, namespace: "codes" });
      expect(say("retake.partner_asked" as never, { reason: "A van hides the door." } as never)).toBe(`${prefix}A van hides the door.`);
    }
  });
});
