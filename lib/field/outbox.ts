// The field page's outbox: photos written to the phone at once (store), sent one at a time when
// there is signal (upload), then followed until the server's verdict (checkVerdict). A lost
// signal puts the photo back to waiting; it goes again when the browser is online (and after a
// backoff meanwhile, for a signal that returns without an `online` event). Only a photo with its
// verdict may be removed. Storage, transport, timers and the online signal are injected, so the
// rules are unit-tested (outbox.test.ts) and the page wires in IndexedDB and HTTP.
//
// The outbox belongs to the signed-in zoomer (`owner`): each photo records who took it, only that
// zoomer's photos are sent, followed and shown; another zoomer's photos on the same phone stay,
// counted but unseen, until their owner signs in again (lib/field/outbox-owner.ts). With no owner
// (nobody signed in, or the session ran out) nothing is sent.
import { backoffDelay, type BackoffOptions } from "./backoff";
import { WAITING, isPending, needsSending, nextState, stateOnOpen, type OutboxEntry, type OutboxEvent } from "./outbox-state";
import { waitingByOwner, type WaitingForOwner } from "./outbox-owner";
import { startPoll } from "./poll";
import type { CheckVerdict, UploadPhoto } from "./transport";

export interface OutboxStore {
  list(): Promise<OutboxEntry[]>;
  get(id: string): Promise<OutboxEntry | null>;
  put(entry: OutboxEntry): Promise<void>;
  remove(id: string): Promise<void>;
}

export interface OutboxDeps {
  store: OutboxStore;
  upload: UploadPhoto;
  checkVerdict: CheckVerdict;
  isOnline: () => boolean;
  onOnline: (fn: () => void) => () => void;
  backoff?: BackoffOptions;
  verdictIntervalMs?: number;
  timers?: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
  /** Runs the sending loop in one tab at a time (the Web Locks API in the page). */
  exclusive?: (fn: () => Promise<void>) => Promise<void>;
  newId?: () => string;
  now?: () => Date;
  /** The signed-in zoomer at start (`usr_…`), or null: nothing is sent until one is set (setOwner). */
  owner?: string | null;
  /** The server said the signed-in zoomer is not who the page thought (409 outbox_owner_mismatch). */
  onWrongOwner?: () => void;
}

/** What a photo brings into the outbox; the outbox adds its id, time, state and owner. */
export type NewPhoto = Omit<OutboxEntry, "id" | "createdAt" | "state" | "owner" | "ownerName">;

/** Photos of other zoomers kept on this phone: how many wait for each (no content). */
export type OthersWaiting = readonly WaitingForOwner[];

/** The same photo (same SHA-256) is already in the outbox: it is kept, and sent, once. */
export class DuplicatePhotoError extends Error {
  constructor(readonly existing: OutboxEntry) {
    super("This photo is already waiting to be sent.");
    this.name = "DuplicatePhotoError";
  }
}

/** An entry as the page shows it: with the send's progress and whether its verdict waits for signal. */
export type OutboxView = OutboxEntry & { percent: number | null; verdictWaitsForSignal: boolean };

const SEND_BACKOFF: BackoffOptions = { baseMs: 2000, maxMs: 60_000 };

export class Outbox {
  private entries: OutboxEntry[] = [];
  private percent = new Map<string, number>();
  private verdictDelayed = new Set<string>();
  private polls = new Map<string, () => void>();
  private listeners = new Set<() => void>();
  private view: readonly OutboxView[] = [];
  private others: OthersWaiting = [];
  private currentOwner: string | null;
  private currentOwnerName: string | null = null;
  private sending = false;
  private again = false;
  private failures = 0;
  private retryTimer: unknown = null;
  private readonly timers: NonNullable<OutboxDeps["timers"]>;
  private stopOnline: (() => void) | null = null;

  constructor(private readonly deps: OutboxDeps) {
    this.timers = deps.timers ?? { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
    this.currentOwner = deps.owner ?? null;
  }

  /** The zoomer whose photos this outbox sends and shows (null: nobody's). */
  get owner(): string | null {
    return this.currentOwner;
  }

  /**
   * Another session on this page (signed in, out, or run out): from now on only that zoomer's
   * photos are sent, followed and shown. `ownerName` is stamped on the photos they take, so
   * another zoomer on the phone is told whose they are by name.
   */
  setOwner(owner: string | null, ownerName: string | null = null): void {
    this.currentOwnerName = owner === null ? null : ownerName;
    if (owner === this.currentOwner) return;
    this.currentOwner = owner;
    for (const [id, stop] of this.polls) {
      if (!this.entries.some((e) => e.id === id && this.mine(e))) {
        stop();
        this.polls.delete(id);
      }
    }
    if (this.stopOnline) for (const entry of this.entries) if (this.mine(entry) && entry.state.phase === "checking") this.follow(entry.id);
    this.failures = 0;
    this.emit();
    this.kick();
  }

  private mine(entry: OutboxEntry): boolean {
    return this.currentOwner !== null && entry.owner === this.currentOwner;
  }

  /** Sign-out: the owner's judged photos leave the phone; those not yet judged stay for their next sign-in. */
  async forgetJudged(owner: string): Promise<void> {
    const judged = this.entries.filter((e) => e.owner === owner && !isPending(e.state));
    for (const entry of judged) await this.deps.store.remove(entry.id);
    this.entries = this.entries.filter((e) => !judged.includes(e));
    this.emit();
  }

  /** Loads what the phone kept, follows the photos being checked and sends the waiting ones. */
  async open(): Promise<void> {
    await this.load();
    for (const entry of this.entries) if (this.mine(entry) && entry.state.phase === "checking") this.follow(entry.id);
    this.stopOnline = this.deps.onOnline(() => {
      this.failures = 0;
      this.kick();
    });
    this.kick();
  }

  /** Loads what the phone kept, and nothing more (flush sends). */
  async load(): Promise<void> {
    this.entries = (await this.deps.store.list()).map((e) => ({ ...e, state: stateOnOpen(e.state) }));
    this.emit();
  }

  close(): void {
    this.stopOnline?.();
    this.stopOnline = null;
    for (const stop of this.polls.values()) stop();
    this.polls.clear();
    if (this.retryTimer !== null) this.timers.clear(this.retryTimer);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The signed-in zoomer's photos. */
  getSnapshot = (): readonly OutboxView[] => this.view;

  /** How many photos wait for each other zoomer (entries kept before owners were recorded: owner null). */
  getOthers = (): OthersWaiting => this.others;

  /**
   * Writes the photo to the phone first; resolves once it is stored, then sends when it can. The
   * same photo a second time (same SHA-256) is refused with DuplicatePhotoError: the first one
   * stays and goes once. Only with a signed-in zoomer, whose photo it becomes.
   */
  async add(photo: NewPhoto): Promise<OutboxEntry> {
    const owner = this.currentOwner;
    if (owner === null) throw new Error("Sign in first: a photo is kept for the zoomer who took it.");
    const existing = photo.sha256 ? this.entries.find((e) => e.owner === owner && e.sha256 === photo.sha256) : undefined;
    if (existing) throw new DuplicatePhotoError(existing);
    const entry: OutboxEntry = {
      ...photo,
      owner,
      ...(this.currentOwnerName ? { ownerName: this.currentOwnerName } : {}),
      id: this.deps.newId?.() ?? crypto.randomUUID(),
      createdAt: (this.deps.now?.() ?? new Date()).toISOString(),
      state: WAITING,
    };
    await this.deps.store.put(entry);
    this.entries.push(entry);
    this.emit();
    this.kick();
    return entry;
  }

  /** Takes a judged (or refused) photo out of the outbox; a pending one stays. */
  async remove(id: string): Promise<boolean> {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry || isPending(entry.state)) return false;
    await this.deps.store.remove(id);
    this.entries = this.entries.filter((e) => e.id !== id);
    this.emit();
    return true;
  }

  /** A refused photo, sent again on the zoomer's request. */
  async retry(id: string): Promise<void> {
    await this.apply(id, { type: "retry" });
    this.kick();
  }

  /**
   * Sends what waits, once, and resolves when done — for a Background Sync event in the service
   * worker, which keeps the worker alive until then. Rejects when photos still wait, so the
   * browser fires the sync again later.
   */
  async flush(): Promise<void> {
    const run = () => this.sendWaiting();
    await (this.deps.exclusive ? this.deps.exclusive(run) : run());
    const waiting = this.entries.filter((e) => this.mine(e) && needsSending(e.state)).length;
    if (waiting > 0) throw new Error(`${waiting} photo${waiting === 1 ? "" : "s"} still waiting for signal.`);
  }

  /** Starts the sending loop unless it runs; a call while it runs makes it look once more. */
  kick(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    const run = async () => {
      do {
        this.again = false;
        await this.sendWaiting();
      } while (this.again);
    };
    void (this.deps.exclusive ? this.deps.exclusive(run) : run()).finally(() => {
      this.sending = false;
      // A kick that came after the loop's last look but before this point would be lost.
      if (this.again) this.kick();
    });
  }

  private async sendWaiting(): Promise<void> {
    for (;;) {
      if (!this.deps.isOnline()) return;
      const next = this.entries.find((e) => this.mine(e) && needsSending(e.state));
      if (!next) return;
      // Another tab may have sent it meanwhile: the stored state decides. A stored "sending" is a
      // send cut off (this loop runs in one tab at a time), so it is waiting.
      const found = await this.deps.store.get(next.id);
      const stored = found && { ...found, state: stateOnOpen(found.state) };
      if (!stored) {
        this.entries = this.entries.filter((e) => e.id !== next.id);
        this.emit();
        continue;
      }
      // Checked again against what is stored: only the signed-in zoomer's own photo goes.
      if (!this.mine(stored)) {
        this.replace(stored);
        continue;
      }
      if (!needsSending(stored.state)) {
        this.replace(stored);
        if (stored.state.phase === "checking" && this.stopOnline) this.follow(stored.id);
        continue;
      }
      await this.apply(next.id, { type: "send" });
      this.percent.set(next.id, 0);
      this.emit();
      const outcome = await this.deps.upload(stored, (p) => {
        this.percent.set(next.id, Math.round(Math.min(100, Math.max(0, p))));
        this.emit();
      });
      this.percent.delete(next.id);
      if (outcome.kind === "accepted") {
        this.failures = 0;
        await this.apply(next.id, { type: "accepted", submissionId: outcome.submissionId });
        // Only an opened outbox (the page) follows verdicts; a flush (the worker) leaves it to the page.
        if (this.stopOnline) this.follow(next.id);
      } else if (outcome.kind === "wrong-owner") {
        // The session is someone else's: the photo waits for its owner, and nothing more is sent
        // until the page knows who is signed in.
        await this.apply(next.id, { type: "lost-signal", error: outcome.error, code: outcome.code });
        this.currentOwner = null;
        this.currentOwnerName = null;
        this.emit();
        this.deps.onWrongOwner?.();
        return;
      } else if (outcome.kind === "refused") {
        await this.apply(next.id, { type: "refused", error: outcome.error, ...(outcome.code ? { code: outcome.code } : {}) });
      } else {
        await this.apply(next.id, { type: "lost-signal", error: outcome.error, ...(outcome.code ? { code: outcome.code } : {}) });
        if (this.stopOnline) this.scheduleRetry();
        return;
      }
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== null) this.timers.clear(this.retryTimer);
    const wait = backoffDelay(this.failures, this.deps.backoff ?? SEND_BACKOFF);
    this.failures += 1;
    this.retryTimer = this.timers.set(() => {
      this.retryTimer = null;
      this.kick();
    }, wait);
  }

  private follow(id: string): void {
    if (this.polls.has(id)) return;
    const stop = startPoll({
      intervalMs: this.deps.verdictIntervalMs ?? 1500,
      slowAfter: 40,
      slowIntervalMs: 5000,
      backoff: this.deps.backoff,
      timers: this.deps.timers,
      onOnline: this.deps.onOnline,
      check: async () => {
        const entry = this.entries.find((e) => e.id === id);
        // Only the signed-in zoomer may read the verdict (another zoomer's session would be refused).
        if (!entry || entry.state.phase !== "checking" || !this.mine(entry)) {
          this.polls.delete(id);
          return "done";
        }
        const verdict = await this.deps.checkVerdict(entry, entry.state.submissionId);
        if (verdict.status === "pending") return "again";
        await this.apply(
          id,
          verdict.status === "approved"
            ? { type: "verdict", status: "approved" }
            : { type: "verdict", status: "rejected", reasons: verdict.reasons, ...(verdict.reasonCodes ? { reasonCodes: verdict.reasonCodes } : {}) },
        );
        this.polls.delete(id);
        return "done";
      },
      onError: () => {
        this.verdictDelayed.add(id);
        this.emit();
      },
      onRecovered: () => {
        this.verdictDelayed.delete(id);
        this.emit();
      },
    });
    this.polls.set(id, stop);
  }

  private async apply(id: string, event: OutboxEvent): Promise<void> {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry) return;
    const state = nextState(entry.state, event);
    if (state === entry.state) return;
    const updated = { ...entry, state };
    // Progress lives in memory; every change of phase is on the phone before it is shown.
    if (state.phase !== entry.state.phase || event.type !== "progress") await this.deps.store.put(updated);
    if (state.phase !== "checking") this.verdictDelayed.delete(id);
    this.replace(updated);
  }

  private replace(entry: OutboxEntry): void {
    this.entries = this.entries.map((e) => (e.id === entry.id ? entry : e));
    this.emit();
  }

  private emit(): void {
    this.view = this.entries
      .filter((e) => this.mine(e))
      .map((e) => ({
        ...e,
        percent: e.state.phase === "sending" ? (this.percent.get(e.id) ?? 0) : null,
        verdictWaitsForSignal: this.verdictDelayed.has(e.id),
      }));
    this.others = waitingByOwner(this.entries, this.currentOwner, (e) => isPending(e.state));
    for (const listener of this.listeners) listener();
  }
}
