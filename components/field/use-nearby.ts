"use client";
// A list the field page reads near the zoomer (missions, tasks): loading, error or its rows, and a
// reload that keeps showing the rows it has until the fresh ones arrive.
import { useCallback, useEffect, useState } from "react";
import { problemDetail } from "./problem-detail";

export type Nearby<T> =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "error"; error: string }
  | { status: "ready"; data: T[]; refreshing: boolean };

interface Loaded<T> {
  url: string;
  version: number;
  data?: T[];
  error?: string;
}

export function useNearby<T>(url: string | null): Nearby<T> & { reload: () => void } {
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    if (!url) return;
    let cancelled = false;
    void (async () => {
      try {
        const res = await fetch(url, { cache: "no-store" });
        if (cancelled) return;
        if (!res.ok) {
          const error = await problemDetail(res);
          if (!cancelled) setLoaded({ url, version, error });
          return;
        }
        const body = (await res.json()) as { data: T[] };
        if (!cancelled) setLoaded({ url, version, data: body.data });
      } catch {
        if (!cancelled) setLoaded({ url, version, error: "The server could not be reached. Check your connection." });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [url, version]);

  if (!url) return { status: "idle", reload };
  const current = loaded?.url === url;
  const fresh = current && loaded.version === version;
  if (current && loaded.data) return { status: "ready", data: loaded.data, refreshing: !fresh, reload };
  if (fresh && loaded.error !== undefined) return { status: "error", error: loaded.error, reload };
  return { status: "loading", reload };
}
