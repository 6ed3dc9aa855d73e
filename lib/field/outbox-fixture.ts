// One photo in the outbox as the transport tests need it: a mission target, an angle, a note and
// the phone's evidence; each test changes what it is about.
import type { OutboxEntry } from "./outbox-state";

export function outboxEntry(overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    id: "local_1",
    target: { kind: "mission", id: "mis_1", title: "Duomo" },
    angle: "front",
    note: "north door",
    filename: "IMG_1.jpg",
    photo: new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }),
    evidence: { position: { lat: 43.7733, lng: 11.2562, accuracy_m: 8.4 }, heading_deg: 199.6, captured_at: "2026-11-27T14:32:00.000Z" },
    createdAt: "2026-11-27T14:32:01.000Z",
    state: { phase: "waiting", attempts: 0, lastError: null },
    ...overrides,
  };
}
