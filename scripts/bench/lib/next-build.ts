// `next start` needs a production build. Building takes minutes on two cores and rewrites .next/
// (shared with whoever else works in this tree), so by default the runner builds only when the
// build is missing or older than the sources it bundles; --build forces it, --no-build never builds.
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Supervisor } from "./processes";
import { ROOT } from "./targets";

export type BuildMode = "auto" | "always" | "never";

export interface BuildOutcome {
  /** Whether `next start` can be run. */
  usable: boolean;
  action: "built" | "reused" | "reused-stale" | "failed";
  reason: string;
  buildSeconds?: number;
}

const BUILD_ID = join(ROOT, ".next/BUILD_ID");
// Present while some `next build` runs (ours or a colleague's in the same tree); BUILD_ID is
// missing or about to change until it is gone.
const BUILD_LOCK = join(ROOT, ".next/lock");
const LOCK_WAIT_MS = 10 * 60_000;
// What ends up in the server bundle. Tests are left out: editing one must not force a rebuild.
const SOURCE_DIRS = ["app", "lib"];
const SOURCE_FILES = ["next.config.ts", "instrumentation.ts", "package-lock.json", "tsconfig.json"];
const isTest = (name: string) => /\.test\.tsx?$/.test(name) || name === "tests";

interface Newest {
  file: string;
  mtimeMs: number;
}

function newestIn(dir: string, newest: Newest): Newest {
  let current = newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (isTest(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) current = newestIn(path, current);
    else if (entry.isFile()) {
      const mtimeMs = statSync(path).mtimeMs;
      if (mtimeMs > current.mtimeMs) current = { file: path, mtimeMs };
    }
  }
  return current;
}

function newestSource(): Newest {
  let newest: Newest = { file: "", mtimeMs: 0 };
  for (const file of SOURCE_FILES.map((f) => join(ROOT, f)).filter((f) => existsSync(f))) {
    const mtimeMs = statSync(file).mtimeMs;
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  for (const dir of SOURCE_DIRS) newest = newestIn(join(ROOT, dir), newest);
  return newest;
}

/** Why the existing build cannot be trusted, or undefined when it is current. */
function staleness(): string | undefined {
  if (!existsSync(BUILD_ID)) return ".next/BUILD_ID does not exist";
  const built = statSync(BUILD_ID).mtimeMs;
  const newest = newestSource();
  if (newest.mtimeMs > built) return `${relative(ROOT, newest.file)} changed after the last build`;
  return undefined;
}

async function build(supervisor: Supervisor): Promise<BuildOutcome> {
  const started = Date.now();
  const child = supervisor.spawn({
    name: "next-build",
    // `npm run build`: next build, then the compressed copies of its static files that `npm start` sends.
    command: "npm",
    args: ["run", "build"],
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
  });
  const code = await child.exited;
  const buildSeconds = Math.round((Date.now() - started) / 1000);
  if (code === 0)
    return {
      usable: true,
      action: "built",
      reason: "next build succeeded",
      buildSeconds,
    };
  return {
    usable: false,
    action: "failed",
    reason: `next build exited with ${code}:\n${child.logTail(40)}`,
    buildSeconds,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for another process's `next build` to finish rather than racing it for .next/. */
async function waitForOtherBuild(): Promise<void> {
  if (!existsSync(BUILD_LOCK)) return;
  console.error("[bench] another `next build` is running in this tree (.next/lock); waiting for it…");
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (existsSync(BUILD_LOCK) && Date.now() < deadline) await sleep(1_000);
}

const NEXT_PROCESS = /next-server|next-build|\bnext\s+(start|build)\b/;

/** "Next build: <action> (<the reason's first line>)." for a report. */
export const describeBuild = (build: BuildOutcome): string => `Next build: ${build.action} (${build.reason.split("\n")[0] ?? ""}).`;

/**
 * Pids of Next servers or builds running from this tree (Linux /proc; elsewhere none are found).
 * A production server loads chunks from .next/ lazily: rebuilding under it breaks it, e.g. a
 * colleague's e2e run.
 */
function otherNextProcesses(): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (NEXT_PROCESS.test(cmdline) && realpathSync(`/proc/${entry}/cwd`) === realpathSync(ROOT)) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not readable: not ours to worry about
    }
  }
  return found;
}

export async function ensureNextBuild(supervisor: Supervisor, mode: BuildMode): Promise<BuildOutcome> {
  await waitForOtherBuild();
  const stale = staleness();
  const users = mode === "never" || (mode === "auto" && !stale) ? [] : otherNextProcesses();
  if (users.length && mode === "auto") {
    const why = `${stale ?? ""}, but Next process(es) ${users.join(", ")} use .next; not rebuilding under them (--build forces it)`;
    return existsSync(BUILD_ID) ? { usable: true, action: "reused-stale", reason: why } : { usable: false, action: "failed", reason: why };
  }
  if (users.length) console.error(`[bench] warning: --build while Next process(es) ${users.join(", ")} use .next`);
  if (mode === "never") {
    if (!existsSync(BUILD_ID))
      return {
        usable: false,
        action: "failed",
        reason: "--no-build, and there is no .next build",
      };
    return stale
      ? {
          usable: true,
          action: "reused-stale",
          reason: `--no-build although ${stale}`,
        }
      : {
          usable: true,
          action: "reused",
          reason: "the build is newer than every source file",
        };
  }
  if (mode === "auto" && !stale)
    return {
      usable: true,
      action: "reused",
      reason: "the build is newer than every source file",
    };
  console.error(`[bench] next build (${mode === "always" ? "--build" : stale}); this takes a while…`);
  return build(supervisor);
}
