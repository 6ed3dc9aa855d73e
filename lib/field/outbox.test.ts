import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DuplicatePhotoError, Outbox, type NewPhoto, type OutboxStore } from "./outbox";
import type { OutboxEntry } from "./outbox-state";
import type { UploadOutcome, Verdict } from "./transport";

function memoryStore(): OutboxStore & { rows: Map<string, OutboxEntry> } {
  const rows = new Map<string, OutboxEntry>();
  return {
    rows,
    list: async () => [...rows.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    get: async (id) => rows.get(id) ?? null,
    put: async (e) => void rows.set(e.id, e),
    remove: async (id) => void rows.delete(id),
  };
}

function network() {
  const listeners = new Set<() => void>();
  let online = true;
  return {
    isOnline: () => online,
    onOnline: (fn: () => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    set(value: boolean) {
      online = value;
      if (value) listeners.forEach((fn) => fn());
    },
  };
}

const PHOTO: NewPhoto = {
  target: { kind: "mission", id: "mis_1", title: "Duomo" },
  angle: "front",
  note: null,
  filename: "IMG_1.jpg",
  photo: new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }),
  evidence: { position: { lat: 43.77, lng: 11.25, accuracy_m: 8 }, heading_deg: 200, captured_at: "2026-11-27T14:32:00.000Z" },
};

const ME = "usr_z1";
const OTHER = "usr_z2";

const backoff = { baseMs: 1000, maxMs: 4000, random: () => 1 };
let ids = 0;

function setup(store = memoryStore(), net = network(), owner: string | null = ME, onWrongOwner?: () => void) {
  const uploads: string[] = [];
  const senders: (string | undefined)[] = [];
  const asked: string[] = [];
  const outcomes: UploadOutcome[] = [];
  const verdicts: (Verdict | Error)[] = [];
  const outbox = new Outbox({
    store,
    isOnline: net.isOnline,
    onOnline: net.onOnline,
    backoff,
    verdictIntervalMs: 500,
    newId: () => `local_${++ids}`,
    owner,
    ...(onWrongOwner ? { onWrongOwner } : {}),
    upload: async (entry, onProgress) => {
      uploads.push(entry.id);
      senders.push(entry.owner);
      onProgress(42);
      return outcomes.shift() ?? { kind: "accepted", submissionId: `sub_${entry.id}` };
    },
    checkVerdict: async (entry) => {
      asked.push(entry.id);
      const next = verdicts.shift() ?? { status: "approved" };
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { outbox, store, net, uploads, senders, asked, outcomes, verdicts, phases: () => outbox.getSnapshot().map((e) => e.state.phase) };
}

describe("Outbox", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("keeps a photo taken offline waiting, sends it once when the signal returns, and follows it to its verdict", async () => {
    const net = network();
    net.set(false);
    const t = setup(memoryStore(), net);
    t.verdicts.push({ status: "pending" });
    await t.outbox.open();
    const entry = await t.outbox.add(PHOTO);
    expect(t.store.rows.get(entry.id)?.state.phase).toBe("waiting");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.uploads).toEqual([]);

    net.set(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.uploads).toEqual([entry.id]);
    expect(t.phases()).toEqual(["checking"]);
    await vi.advanceTimersByTimeAsync(600);
    expect(t.phases()).toEqual(["approved"]);
    expect(t.store.rows.get(entry.id)?.state).toEqual({ phase: "approved", submissionId: `sub_${entry.id}` });
    net.set(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.uploads).toHaveLength(1);
  });

  it("keeps the same photo once: a second copy (same SHA-256) is refused, the first one is sent once", async () => {
    const net = network();
    net.set(false);
    const t = setup(memoryStore(), net);
    await t.outbox.open();
    const first = await t.outbox.add({ ...PHOTO, sha256: "ab".repeat(32) });
    await expect(t.outbox.add({ ...PHOTO, filename: "copy.jpg", sha256: "ab".repeat(32) })).rejects.toBeInstanceOf(DuplicatePhotoError);
    await t.outbox.add({ ...PHOTO, sha256: "cd".repeat(32) });
    expect([...t.store.rows.values()].map((e) => e.sha256)).toEqual(["ab".repeat(32), "cd".repeat(32)]);
    net.set(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.uploads.filter((id) => id === first.id)).toHaveLength(1);
    expect(t.uploads).toHaveLength(2);
  });

  it("puts a cut send back to waiting and tries again after a backoff", async () => {
    const t = setup();
    t.outcomes.push({ kind: "lost-signal", error: "cut" });
    await t.outbox.open();
    await t.outbox.add(PHOTO);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.phases()).toEqual(["waiting"]);
    expect(t.outbox.getSnapshot()[0]?.state).toMatchObject({ lastError: "cut", attempts: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.uploads).toHaveLength(2);
    expect(t.phases()).not.toContain("waiting");
  });

  it("loses nothing across a reload: a send cut by a closed tab goes again, a photo being checked is followed", async () => {
    const store = memoryStore();
    const base = { ...PHOTO, owner: ME, createdAt: "2026-11-27T14:00:00.000Z" };
    await store.put({ ...base, id: "a", state: { phase: "sending", percent: 70, attempts: 1 } });
    await store.put({ ...base, id: "b", createdAt: "2026-11-27T14:01:00.000Z", state: { phase: "checking", submissionId: "sub_b" } });
    const t = setup(store);
    await t.outbox.open();
    await vi.advanceTimersByTimeAsync(600);
    expect(t.uploads).toEqual(["a"]);
    expect(t.phases()).toEqual(["approved", "approved"]);
  });

  it("does not send a photo that another tab has sent meanwhile", async () => {
    const store = memoryStore();
    await store.put({ ...PHOTO, owner: ME, id: "a", createdAt: "2026-11-27T14:00:00.000Z", state: { phase: "waiting", attempts: 0, lastError: null } });
    const net = network();
    net.set(false);
    const t = setup(store, net);
    await t.outbox.open();
    await store.put({ ...PHOTO, owner: ME, id: "a", createdAt: "2026-11-27T14:00:00.000Z", state: { phase: "checking", submissionId: "sub_other_tab" } });
    net.set(true);
    await vi.advanceTimersByTimeAsync(600);
    expect(t.uploads).toEqual([]);
    expect(t.phases()).toEqual(["approved"]);
  });

  it("keeps following a verdict through a lost signal", async () => {
    const t = setup();
    t.verdicts.push(new TypeError("Failed to fetch"), new TypeError("Failed to fetch"), { status: "rejected", reasons: ["Too dark"] });
    await t.outbox.open();
    await t.outbox.add(PHOTO);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.outbox.getSnapshot()[0]?.verdictWaitsForSignal).toBe(true);
    await vi.advanceTimersByTimeAsync(3000);
    expect(t.outbox.getSnapshot()[0]?.state).toMatchObject({ phase: "rejected", reasons: ["Too dark"] });
    expect(t.outbox.getSnapshot()[0]?.verdictWaitsForSignal).toBe(false);
  });

  it("refuses to remove a photo before its verdict, removes it after", async () => {
    const net = network();
    net.set(false);
    const t = setup(memoryStore(), net);
    await t.outbox.open();
    const entry = await t.outbox.add(PHOTO);
    expect(await t.outbox.remove(entry.id)).toBe(false);
    net.set(true);
    await vi.advanceTimersByTimeAsync(600);
    expect(await t.outbox.remove(entry.id)).toBe(true);
    expect(t.store.rows.size).toBe(0);
  });

  it("does not resend a refused photo by itself", async () => {
    const t = setup();
    t.outcomes.push({ kind: "refused", error: "This task is no longer reserved for you." });
    await t.outbox.open();
    const entry = await t.outbox.add(PHOTO);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.uploads).toHaveLength(1);
    expect(t.phases()).toEqual(["refused"]);
    await t.outbox.retry(entry.id);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.uploads).toHaveLength(2);
  });
});

describe("Outbox.flush (Background Sync in the service worker)", () => {
  it("sends what waits once and resolves, leaving the verdict to the page", async () => {
    const store = memoryStore();
    await store.put({ ...PHOTO, owner: ME, id: "a", createdAt: "2026-11-27T14:00:00.000Z", state: { phase: "sending", percent: 30, attempts: 1 } });
    const t = setup(store);
    await t.outbox.load();
    await t.outbox.flush();
    expect(t.uploads).toEqual(["a"]);
    expect(store.rows.get("a")?.state).toEqual({ phase: "checking", submissionId: "sub_a" });
  });

  it("rejects while photos still wait, so the browser syncs again later", async () => {
    const t = setup();
    t.outcomes.push({ kind: "lost-signal", error: "cut" });
    await t.store.put({ ...PHOTO, owner: ME, id: "b", createdAt: "2026-11-27T14:00:00.000Z", state: { phase: "waiting", attempts: 0, lastError: null } });
    await t.outbox.load();
    await expect(t.outbox.flush()).rejects.toThrow("1 photo still waiting for signal.");
    expect(t.store.rows.get("b")?.state).toMatchObject({ phase: "waiting", attempts: 1 });
  });
});

describe("Outbox owned by its zoomer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("keeps Z1's photo from Z2's session: not sent, not shown, counted for Z1; sent as Z1's when Z1 is back", async () => {
    const store = memoryStore();
    const net = network();
    net.set(false);
    const t = setup(store, net, ME);
    await t.outbox.open();
    const entry = await t.outbox.add(PHOTO);
    expect(store.rows.get(entry.id)?.owner).toBe(ME);

    t.outbox.setOwner(null); // the session ran out
    net.set(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.uploads).toEqual([]);
    expect(t.outbox.getSnapshot()).toEqual([]);
    expect(t.outbox.getOthers()).toEqual([{ owner: ME, ownerName: null, count: 1 }]);

    t.outbox.setOwner(OTHER); // Z2 signs in on the same phone
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.uploads).toEqual([]);
    expect(t.outbox.getSnapshot()).toEqual([]);
    expect(t.outbox.getOthers()).toEqual([{ owner: ME, ownerName: null, count: 1 }]);
    await expect(t.outbox.flush()).resolves.toBeUndefined();
    expect(t.uploads).toEqual([]);

    t.outbox.setOwner(ME); // Z1 signs in again
    await vi.advanceTimersByTimeAsync(600);
    expect(t.uploads).toEqual([entry.id]);
    expect(t.senders).toEqual([ME]);
    expect(t.phases()).toEqual(["approved"]);
    expect(t.outbox.getOthers()).toEqual([]);
  });

  it("stamps a new photo with the signed-in zoomer and refuses one with nobody signed in", async () => {
    const t = setup(memoryStore(), network(), null);
    await t.outbox.open();
    await expect(t.outbox.add(PHOTO)).rejects.toThrow(/Sign in first/);
    t.outbox.setOwner(OTHER);
    const entry = await t.outbox.add(PHOTO);
    expect(entry.owner).toBe(OTHER);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.senders).toEqual([OTHER]);
  });

  it("stamps a new photo with its owner's name, which the next zoomer sees instead of the id", async () => {
    const store = memoryStore();
    const net = network();
    net.set(false);
    const t = setup(store, net, null);
    await t.outbox.open();
    t.outbox.setOwner(ME, "Ana");
    const entry = await t.outbox.add(PHOTO);
    expect(store.rows.get(entry.id)).toMatchObject({ owner: ME, ownerName: "Ana" });
    t.outbox.setOwner(OTHER, "Bo");
    expect(t.outbox.getOthers()).toEqual([{ owner: ME, ownerName: "Ana", count: 1 }]);
    // A session without a name stamps none (and does not keep the last one's).
    const unnamed = await t.outbox.add({ ...PHOTO, sha256: "cd".repeat(32) });
    expect(unnamed).toMatchObject({ owner: OTHER, ownerName: "Bo" });
    t.outbox.setOwner(OTHER, null);
    const third = await t.outbox.add({ ...PHOTO, sha256: "ef".repeat(32) });
    expect(third.owner).toBe(OTHER);
    expect(third).not.toHaveProperty("ownerName");
  });

  it("the same photo kept by two zoomers is two entries (each goes with its owner)", async () => {
    const net = network();
    net.set(false);
    const t = setup(memoryStore(), net, ME);
    await t.outbox.open();
    await t.outbox.add({ ...PHOTO, sha256: "ab".repeat(32) });
    t.outbox.setOwner(OTHER);
    await expect(t.outbox.add({ ...PHOTO, sha256: "ab".repeat(32) })).resolves.toMatchObject({ owner: OTHER });
    await expect(t.outbox.add({ ...PHOTO, sha256: "ab".repeat(32) })).rejects.toBeInstanceOf(DuplicatePhotoError);
  });

  it("never sends a photo kept before owners were recorded", async () => {
    const store = memoryStore();
    await store.put({ ...PHOTO, id: "old", createdAt: "2026-11-27T14:00:00.000Z", state: { phase: "waiting", attempts: 0, lastError: null } });
    const t = setup(store);
    await t.outbox.open();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.uploads).toEqual([]);
    expect(t.outbox.getOthers()).toEqual([{ owner: null, ownerName: null, count: 1 }]);
  });

  it("does not ask for the verdict of another zoomer's photo, and follows it again for its owner", async () => {
    const store = memoryStore();
    await store.put({ ...PHOTO, owner: ME, id: "c", createdAt: "2026-11-27T14:00:00.000Z", state: { phase: "checking", submissionId: "sub_c" } });
    const t = setup(store, network(), OTHER);
    await t.outbox.open();
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.asked).toEqual([]);
    expect(store.rows.get("c")?.state.phase).toBe("checking");
    t.outbox.setOwner(ME);
    await vi.advanceTimersByTimeAsync(600);
    expect(t.asked).toEqual(["c"]);
    expect(t.phases()).toEqual(["approved"]);
  });

  it("on a refusal for another owner (409 outbox_owner_mismatch) the photo waits and nothing more is sent", async () => {
    const wrong = vi.fn();
    const t = setup(memoryStore(), network(), ME, wrong);
    t.outcomes.push({ kind: "wrong-owner", error: "another zoomer", code: { code: "problem.outbox_owner_mismatch", params: { status: 409 } } });
    await t.outbox.open();
    const entry = await t.outbox.add(PHOTO);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.uploads).toEqual([entry.id]);
    expect(wrong).toHaveBeenCalledOnce();
    expect(t.outbox.owner).toBeNull();
    expect(t.store.rows.get(entry.id)?.state.phase).toBe("waiting");
  });

  it("sign-out forgets the owner's judged photos and keeps those not yet judged", async () => {
    const store = memoryStore();
    await store.put({ ...PHOTO, owner: ME, id: "judged", createdAt: "2026-11-27T14:00:00.000Z", state: { phase: "approved", submissionId: "sub_j" } });
    await store.put({ ...PHOTO, owner: ME, id: "waiting", createdAt: "2026-11-27T14:01:00.000Z", state: { phase: "waiting", attempts: 0, lastError: null } });
    await store.put({
      ...PHOTO,
      owner: OTHER,
      id: "theirs",
      createdAt: "2026-11-27T14:02:00.000Z",
      state: { phase: "rejected", submissionId: "sub_t", reasons: [] },
    });
    const net = network();
    net.set(false);
    const t = setup(store, net, ME);
    await t.outbox.open();
    await t.outbox.forgetJudged(ME);
    expect([...store.rows.keys()].sort()).toEqual(["theirs", "waiting"]);
  });
});
