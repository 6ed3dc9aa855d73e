"use client";
// The wizard's draft, held above the step pages (in the /orders/new layout, which stays mounted
// while the user moves between steps) so that every step sees the same body, version and API
// errors, and saves are made one at a time per draft, each replacing exactly the version it read
// (If-Match). A refresh starts from the server's copy; browser back, whose page may carry an older
// copy, keeps the newer one held here.
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { saveOrderDraft } from "@/lib/dashboard/order-actions";
import type { OrderDraftBody } from "@/lib/orders/draft";
import type { FieldErrors, WizardStep } from "../wizard-steps";

const SAVE_DELAY_MS = 700;

export type SaveStatus = "saved" | "unsaved" | "saving" | "conflict" | "failed";

/** Why the last save did not land: no answer, another tab's save, or the server's own words. */
export type SaveError = { kind: "noAnswer" } | { kind: "conflict" } | { kind: "refused"; message: string };

export interface DraftSnapshot {
  id: string;
  version: number;
  body: OrderDraftBody;
  status: SaveStatus;
  error: SaveError | null;
  /** Errors the order interface reported for this draft (quote or placement), by JSON pointer. */
  apiErrors: FieldErrors;
  updatedAt: string;
}

/** The draft as a step page read it from the server. */
export interface InitialDraft {
  id: string;
  version: number;
  body: OrderDraftBody;
  updatedAt: string;
}

/** One draft's state and its save queue. */
export class DraftSaver {
  private snapshot: DraftSnapshot;
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inflight: Promise<void> | null = null;
  private dirty = false;
  private step: WizardStep;

  constructor(initial: InitialDraft, step: WizardStep) {
    this.snapshot = { ...initial, status: "saved", error: null, apiErrors: {} };
    this.step = step;
  }

  get = (): DraftSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<DraftSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  get isIdle(): boolean {
    return !this.dirty && this.inflight === null;
  }

  setStep(step: WizardStep) {
    this.step = step;
  }

  /** A newer copy from the server (after "load the latest", or another tab's save seen on refresh). */
  adopt(server: { version: number; body: OrderDraftBody; updatedAt: string }) {
    if (server.version <= this.snapshot.version && this.snapshot.status !== "conflict") return;
    if (!this.isIdle && this.snapshot.status !== "conflict") return;
    this.dirty = false;
    this.set({ version: server.version, body: server.body, updatedAt: server.updatedAt, status: "saved", error: null, apiErrors: {} });
  }

  /**
   * Changes the body and saves it shortly after. `touched` names the members changed (JSON
   * pointers); the API's errors about them no longer apply and are dropped.
   */
  update(recipe: (body: OrderDraftBody) => OrderDraftBody, touched: string[] = []) {
    if (this.snapshot.status === "conflict") return;
    const apiErrors = touched.length
      ? Object.fromEntries(Object.entries(this.snapshot.apiErrors).filter(([p]) => !touched.some((t) => p === t || p.startsWith(`${t}/`))))
      : this.snapshot.apiErrors;
    this.dirty = true;
    this.set({ body: recipe(this.snapshot.body), status: "unsaved", apiErrors });
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS);
  }

  setApiErrors(apiErrors: FieldErrors) {
    this.set({ apiErrors });
  }

  /** Saves now what is unsaved and waits for every save; true when the server has it all. */
  async flush(): Promise<boolean> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.inflight || this.dirty) {
      if (this.inflight) {
        await this.inflight;
        continue;
      }
      if (this.snapshot.status === "conflict") return false;
      this.inflight = this.saveOnce().finally(() => {
        this.inflight = null;
      });
    }
    return this.snapshot.status === "saved";
  }

  private async saveOnce(): Promise<void> {
    const body = this.snapshot.body;
    this.dirty = false;
    this.set({ status: "saving", error: null });
    let result: Awaited<ReturnType<typeof saveOrderDraft>>;
    try {
      result = await saveOrderDraft({ id: this.snapshot.id, version: this.snapshot.version, step: this.step, body });
    } catch {
      this.dirty = true;
      this.set({ status: "failed", error: { kind: "noAnswer" } });
      return;
    }
    if (result.ok) {
      this.set({ version: result.data.version, updatedAt: result.data.updatedAt, status: this.dirty ? "unsaved" : "saved" });
      return;
    }
    if (result.code === "draft_changed") {
      this.dirty = false;
      this.set({ status: "conflict", error: { kind: "conflict" } });
      return;
    }
    // Kept as unsaved: the next change or "Next" tries again.
    this.dirty = true;
    this.set({ status: "failed", error: { kind: "refused", message: result.error } });
  }
}

const DraftStoreContext = createContext<Map<string, DraftSaver> | null>(null);

export function DraftStoreProvider({ children }: { children: ReactNode }) {
  const [savers] = useState(() => new Map<string, DraftSaver>());
  return <DraftStoreContext.Provider value={savers}>{children}</DraftStoreContext.Provider>;
}

/** The draft as the step shows it, and its saver. */
export function useDraft(initial: InitialDraft, step: WizardStep): { draft: DraftSnapshot; saver: DraftSaver } {
  const savers = useContext(DraftStoreContext);
  if (!savers) throw new Error("useDraft needs a DraftStoreProvider (the /orders/new layout)");
  // The saver this step found held (the user came from another step) or a new one from the page.
  const [current] = useState(() => {
    const held = savers.get(initial.id);
    if (held) return held;
    const created = new DraftSaver(initial, step);
    savers.set(initial.id, created);
    return created;
  });
  useEffect(() => {
    current.setStep(step);
    current.adopt(initial);
  }, [current, initial, step]);
  // Leaving a step (browser back, a link) with a change not yet saved: save it now.
  useEffect(() => () => void current.flush(), [current]);
  const draft = useSyncExternalStore(current.subscribe, current.get, current.get);
  return { draft, saver: current };
}
