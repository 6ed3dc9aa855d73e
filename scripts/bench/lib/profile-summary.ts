// Summarises a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time, top project
// functions by inclusive time, and time by area (package, node core, WebAssembly, GC).
// Used by `npm run bench -- --profile`; on its own file: scripts/bench/profile-summary.ts.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
}

export interface ProfileRow {
  name: string;
  where: string;
  area: string;
  ms: number;
  /** Share of the non-idle time. */
  percent: number;
}

export interface ProfileSummary {
  file: string;
  /** Only the samples of the last this-many ms were counted (undefined: the whole profile). */
  windowMs?: number;
  totalMs: number;
  idleMs: number;
  topSelf: ProfileRow[];
  topInclusiveProject: ProfileRow[];
  areas: { area: string; ms: number; percent: number }[];
  /** Time with the area anywhere on the stack: a package's own code plus what it calls (fs, crypto). */
  areasInclusive: { area: string; ms: number; percent: number }[];
}

function isCpuProfile(value: unknown): value is CpuProfile {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.nodes) && Array.isArray(v.samples) && Array.isArray(v.timeDeltas) && typeof v.endTime === "number";
}

const ROOT_URL = pathToFileURL(process.cwd()).href + "/";

/** Where a frame lives, as a short label: a package, node core, WebAssembly, or a project file. */
function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(V8 / native)";
  if (url.startsWith("wasm://")) return "WebAssembly (PGlite's Postgres)";
  if (url.startsWith("node:")) return "node core";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1] ?? ""}` : (rest[0] ?? url);
  }
  return url.startsWith(ROOT_URL) ? `project: ${url.slice(ROOT_URL.length)}` : url;
}

function whereOf(frame: CallFrame): string {
  if (!frame.url) return "";
  const short = frame.url.startsWith(ROOT_URL) ? frame.url.slice(ROOT_URL.length) : frame.url;
  // Line of the generated code; tsx emits project modules on one line, so there it says nothing.
  return frame.lineNumber > 0 ? `${short}:${frame.lineNumber + 1}` : short;
}

const areaGroup = (frame: CallFrame) => areaOf(frame).replace(/^project: .*/, "project (lib/, scripts/)");

const keyOf = (frame: CallFrame) => `${frame.functionName || "(anonymous)"}\u0000${whereOf(frame)}`;

/**
 * Self time per node id, in ms: each sample owns the time until the next sample. With `windowMs`,
 * only samples of the profile's last `windowMs` count, so start-up (module loading, migrations)
 * and the warm-up do not dilute the steady state under load.
 */
function selfTimes(profile: CpuProfile, windowMs: number | undefined): Map<number, number> {
  const self = new Map<number, number>();
  const from = windowMs === undefined ? -Infinity : profile.endTime - windowMs * 1000;
  let at = profile.endTime - profile.timeDeltas.reduce((sum, d) => sum + d, 0);
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const id = profile.samples[i];
    const delta = profile.timeDeltas[i + 1] ?? 0;
    if (id !== undefined && at >= from) self.set(id, (self.get(id) ?? 0) + delta / 1000);
  }
  return self;
}

function toRows(totals: Map<string, { frame: CallFrame; ms: number }>, busyMs: number, top: number): ProfileRow[] {
  return [...totals.values()]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map(({ frame, ms }) => ({
      name: frame.functionName || "(anonymous)",
      where: whereOf(frame),
      area: areaOf(frame),
      ms: Math.round(ms),
      percent: busyMs ? Math.round((ms / busyMs) * 1000) / 10 : 0,
    }));
}

/**
 * Inclusive time of project functions (self + callees), counted once per call stack even when a
 * function appears more than once on it (recursion, middleware chains).
 */
function inclusiveProject(profile: CpuProfile, self: Map<number, number>): Map<string, { frame: CallFrame; ms: number }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, { frame: CallFrame; ms: number }>();
  const childIds = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const visit = (node: ProfileNode, onStack: Set<string>): number => {
    const key = keyOf(node.callFrame);
    const fresh = !onStack.has(key);
    if (fresh) onStack.add(key);
    let total = self.get(node.id) ?? 0;
    for (const id of node.children ?? []) {
      const child = byId.get(id);
      if (child) total += visit(child, onStack);
    }
    if (fresh) {
      onStack.delete(key);
      if (areaOf(node.callFrame).startsWith("project: ")) {
        const entry = totals.get(key) ?? { frame: node.callFrame, ms: 0 };
        entry.ms += total;
        totals.set(key, entry);
      }
    }
    return total;
  };
  for (const root of profile.nodes.filter((n) => !childIds.has(n.id))) visit(root, new Set());
  return totals;
}

/** Per area, the self time of every node that has a frame of that area on its stack. */
function inclusiveAreas(profile: CpuProfile, self: Map<number, number>): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const childIds = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const totals = new Map<string, number>();
  const visit = (node: ProfileNode, above: ReadonlySet<string>) => {
    const areas = new Set(above).add(areaGroup(node.callFrame));
    const ms = self.get(node.id) ?? 0;
    if (node.callFrame.functionName !== "(idle)") for (const area of areas) totals.set(area, (totals.get(area) ?? 0) + ms);
    for (const id of node.children ?? []) {
      const child = byId.get(id);
      if (child) visit(child, areas);
    }
  };
  for (const root of profile.nodes.filter((n) => !childIds.has(n.id))) visit(root, new Set());
  totals.delete("(root)");
  return totals;
}

const areaRows = (totals: Map<string, number>, busyMs: number) =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([area, ms]) => ({
      area,
      ms: Math.round(ms),
      percent: busyMs ? Math.round((ms / busyMs) * 1000) / 10 : 0,
    }));

export function summariseProfile(file: string, options: { top?: number; windowMs?: number } = {}): ProfileSummary {
  const top = options.top ?? 25;
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!isCpuProfile(parsed)) throw new Error(`${file} is not a V8 CPU profile`);
  const self = selfTimes(parsed, options.windowMs);
  const selfByKey = new Map<string, { frame: CallFrame; ms: number }>();
  const byArea = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const node of parsed.nodes) {
    const ms = self.get(node.id) ?? 0;
    totalMs += ms;
    if (node.callFrame.functionName === "(idle)") {
      idleMs += ms;
      continue;
    }
    const key = keyOf(node.callFrame);
    const entry = selfByKey.get(key) ?? { frame: node.callFrame, ms: 0 };
    entry.ms += ms;
    selfByKey.set(key, entry);
    const area = areaGroup(node.callFrame);
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
  }
  const busyMs = totalMs - idleMs;
  return {
    file,
    ...(options.windowMs === undefined ? {} : { windowMs: options.windowMs }),
    totalMs: Math.round(totalMs),
    idleMs: Math.round(idleMs),
    topSelf: toRows(selfByKey, busyMs, top),
    topInclusiveProject: toRows(inclusiveProject(parsed, self), busyMs, top),
    areas: areaRows(byArea, busyMs),
    areasInclusive: areaRows(inclusiveAreas(parsed, self), busyMs),
  };
}

export function formatProfile(summary: ProfileSummary): string {
  const busy = summary.totalMs - summary.idleMs;
  const rows = (list: ProfileRow[]) => list.map((r) => `| ${r.percent}% | ${r.ms} | \`${r.name}\` | ${r.where || r.area} |`).join("\n");
  return [
    `CPU profile \`${summary.file}\`` +
      (summary.windowMs === undefined ? "" : `, last ${summary.windowMs / 1000} s`) +
      `: ${summary.totalMs} ms sampled, ${busy} ms busy (${summary.idleMs} ms idle). Percentages are of busy time.`,
    "",
    "**Time by area (self time)**",
    "",
    "| % busy | ms | area |",
    "|---:|---:|---|",
    ...summary.areas.slice(0, 15).map((a) => `| ${a.percent}% | ${a.ms} | ${a.area} |`),
    "",
    "**Time with the area on the stack** (its code plus what it calls: fs, crypto, WebAssembly; areas overlap)",
    "",
    "| % busy | ms | area |",
    "|---:|---:|---|",
    ...summary.areasInclusive.slice(0, 15).map((a) => `| ${a.percent}% | ${a.ms} | ${a.area} |`),
    "",
    "**Top functions by self time**",
    "",
    "| % busy | ms | function | where |",
    "|---:|---:|---|---|",
    rows(summary.topSelf),
    "",
    "**Project functions by inclusive time** (self + everything they call)",
    "",
    "| % busy | ms | function | where |",
    "|---:|---:|---|---|",
    rows(summary.topInclusiveProject),
  ].join("\n");
}
