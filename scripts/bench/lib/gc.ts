// A full garbage collection on demand, without asking every caller to start node with
// --expose-gc: the flag is set at run time and the gc function taken from a fresh context
// (V8 installs it on contexts created after the flag is set). Used before timed rounds and
// memory baselines so that earlier garbage is not counted against what is measured next.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | null | undefined;

function resolveGc(): (() => void) | null {
  const existing: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === "function") return () => void existing();
  setFlagsFromString("--expose-gc");
  const fromContext: unknown = runInNewContext("gc");
  return typeof fromContext === "function" ? () => void fromContext() : null;
}

/** Collects garbage if the runtime allows it; reports whether it did. */
export function forceGc(): boolean {
  if (collect === undefined) collect = resolveGc();
  if (!collect) return false;
  collect();
  return true;
}
