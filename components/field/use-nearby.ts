"use client";
// A list the field page reads near the zoomer (missions, tasks): loading, error or its rows, and a
// reload that keeps showing the rows it has until the fresh ones arrive. Each answer is kept on
// the phone (lib/field/device-store.ts); without signal the kept rows show with the time they were
// fetched ("as of 14:32"), and they are fetched again as soon as the browser is online. Kept per
// zoomer (`owner`): another zoomer on the same phone never reads them.
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { backoffDelay } from "@/lib/field/backoff";
import { loadNearby, saveNearby, type NearbyKind } from "@/lib/field/device-store";
import { useProblemWords } from "./problem-detail";

export type Nearby<T> =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "error"; error: string }
  /** `savedAt`: the rows are the phone's copy from that time (no signal), null when fresh. */
  | { status: "ready"; data: T[]; refreshing: boolean; savedAt: string | null };

interface Loaded<T> {
  url: string;
  version: number;
  data?: T[];
  savedAt?: string | null;
  /** The server's problem (said in the reader's words when shown), or no server at all. */
  error?: { status: number; body: string } | "no_server";
}

export function useNearby<T>(url: string | null, kind: NearbyKind, owner: string): Nearby<T> & { reload: () => void } {
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const failures = useRef(0);
  const t = useTranslations("field.home");
  const problemWords = useProblemWords();

  useEffect(() => {
    window.addEventListener("online", reload);
    return () => window.removeEventListener("online", reload);
  }, [reload]);

  useEffect(() => {
    if (!url) return;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const fromDevice = async () => {
      const saved = await loadNearby<T>(kind, owner).catch(() => null);
      if (cancelled) return;
      setLoaded(saved ? { url, version, data: saved.rows, savedAt: saved.savedAt } : { url, version, error: "no_server" });
    };
    void (async () => {
      try {
        const res = await fetch(url, { cache: "no-store" });
        if (cancelled) return;
        if (!res.ok) {
          const error = { status: res.status, body: await res.text() };
          if (!cancelled) setLoaded({ url, version, error });
          return;
        }
        const body = (await res.json()) as { data: T[] };
        if (cancelled) return;
        failures.current = 0;
        setLoaded({ url, version, data: body.data, savedAt: null });
        void saveNearby({ kind, owner, url, rows: body.data, savedAt: new Date().toISOString() }).catch(() => {});
      } catch {
        await fromDevice();
        // The `online` event is not the whole story (a captive portal, one bar): ask again by itself.
        if (!cancelled) retry = setTimeout(reload, backoffDelay(failures.current++, { baseMs: 2000, maxMs: 60_000 }));
      }
    })();
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [url, kind, owner, version, reload]);

  if (!url) return { status: "idle", reload };
  const current = loaded?.url === url;
  const fresh = current && loaded.version === version;
  if (current && loaded.data) return { status: "ready", data: loaded.data, refreshing: !fresh, savedAt: loaded.savedAt ?? null, reload };
  if (fresh && loaded.error !== undefined)
    return { status: "error", error: loaded.error === "no_server" ? t("noServer") : problemWords(loaded.error.status, loaded.error.body), reload };
  return { status: "loading", reload };
}
