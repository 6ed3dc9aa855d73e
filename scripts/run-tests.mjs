#!/usr/bin/env node
// The whole test suite in one command (`npm test`), in this order:
//   1. vitest, projects unit and api, on the embedded database (PGlite, in memory);
//   2. vitest, project api again, on PostgreSQL, when TEST_DATABASE_URL is set;
//   3. Playwright, against a fresh production build served by `npm start` (playwright.config.ts).
//      The build runs in a snapshot of the working tree (tracked and untracked, not ignored, files
//      plus a hard-linked node_modules) in a temp dir, so it neither collides with another `next
//      build`/`npm start` in this tree nor changes under the tests when someone edits a file.
//      It is made once, at the start, while the vitest phases run (they mostly wait on servers
//      and processes; the build mostly computes), and reported as a phase of its own.
// Beside them from the start: `prettier --check .` (its output is shown at the end when it fails).
// TEST_CACHE_DIR=<dir> keeps Next's build cache there between runs (.ci/run sets it); unset, every
// build starts cold.
// Every phase runs even when an earlier one failed, so one run shows everything that is broken.
// Ends with one line `tests: N passed, M failed[, K skipped]` and a non-zero exit code when any
// phase failed (including a phase that could not run its tests at all) or any test failed.
//
// Usage: node scripts/run-tests.mjs [--no-e2e] [--no-pg] [--pg-beside] [--e2e-only] [--e2e-in-place] [--build-first] [vitest args...]
//   --no-e2e        skip the browser phase (quick local runs)
//   --no-pg         skip the PostgreSQL phase even when TEST_DATABASE_URL is set
//   --pg-beside     run the PostgreSQL phase at the same time as the PGlite one (its output is
//                   shown when it ends); not the default: both phases keep 2 cores busy on their own
//   --e2e-only      only the browser phase
//   --e2e-in-place  build and serve the app in this tree (.next) instead of a snapshot
//   --build-first   build before the vitest phases instead of beside them (to time them alone)
//   anything else goes to both vitest runs, e.g. `npm test -- --no-e2e polygon -t "closes the ring"`
import { spawn, spawnSync } from "node:child_process";
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const KNOWN = new Set(["--no-e2e", "--no-pg", "--pg-beside", "--e2e-only", "--e2e-in-place", "--build-first", "--help", "-h"]);
const argv = process.argv.slice(2).filter((a) => a !== "--");
const flags = new Set(argv.filter((a) => KNOWN.has(a)));
const vitestExtra = argv.filter((a) => !KNOWN.has(a));

if (flags.has("--help") || flags.has("-h")) {
  const header = readFileSync(fileURLToPath(import.meta.url), "utf8")
    .split("\n")
    .slice(1, 23);
  console.log(header.map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
  process.exit(0);
}

const runVitest = !flags.has("--e2e-only");
const runPg = runVitest && !flags.has("--no-pg") && Boolean(process.env.TEST_DATABASE_URL);
const runE2e = !flags.has("--no-e2e");

function bin(relative) {
  const path = join(root, relative);
  if (!existsSync(path)) throw new Error(`${relative} is missing: run \`npm ci\` first.`);
  return realpathSync(path);
}

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = (t) => paint("1", t);
const red = (t) => paint("31", t);
const green = (t) => paint("32", t);

function banner(text) {
  const line = "═".repeat(Math.max(10, 78 - text.length - 4));
  console.log(`\n${bold(`══ ${text} ${line}`)}\n`);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const maskUrl = (url) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");

// The children being run (a phase, and the build beside it), so a signal to this script reaches
// them (and Playwright can stop its server).
const running = new Set();
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    interrupted = true;
    // SIGINT: vitest, Playwright and next build shut down cleanly on it (Playwright stops the web server).
    const live = [...running].filter((child) => child.exitCode === null);
    if (live.length > 0) for (const child of live) child.kill("SIGINT");
    else process.exit(130);
  });
}

/** Runs a command to its end; its output goes to ours, or to the file `logFile` when given. */
function run(command, args, env, { cwd = root, logFile } = {}) {
  return new Promise((resolve) => {
    const out = logFile ? openSync(logFile, "a") : "inherit";
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", out, out] });
    if (typeof out === "number") closeSync(out);
    running.add(child);
    child.on("error", (error) => {
      console.error(red(`could not start ${command}: ${error.message}`));
      running.delete(child);
      resolve(127);
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** A free TCP port: the preferred one if nobody listens on it, else one the OS picks. */
function freePort(preferred) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const server = createServer();
      server.unref();
      server.once("error", () => resolve(undefined));
      server.listen(port, () => {
        const { port: got } = server.address();
        server.close(() => resolve(got));
      });
    });
  return tryPort(preferred).then((port) => port ?? tryPort(0));
}

const reportDir = mkdtempSync(join(tmpdir(), "run-tests-"));
/** Prettier's output, shown before the summary when it failed. */
const formatLog = join(reportDir, "format.log");
const phases = [];

/** A vitest run as a phase; with `logFile` its output goes there and is shown when it ends. */
async function vitestPhase(label, title, projects, env, reportName, { logFile } = {}) {
  banner(title);
  if (logFile) console.log(`(beside the phase above; its output follows when it ends)\n`);
  const report = join(reportDir, `${reportName}.json`);
  const args = [
    bin("node_modules/vitest/vitest.mjs"),
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    // A filter may leave a project without files: that is not a failure then.
    ...(vitestExtra.length > 0 ? ["--passWithNoTests"] : []),
    ...vitestExtra,
  ];
  const started = Date.now();
  const code = await run(process.execPath, args, env, { logFile });
  const ms = Date.now() - started;
  if (logFile) {
    banner(`${title}: its output`);
    console.log(readFileSync(logFile, "utf8"));
  }
  const json = readJson(report);
  const phase = { label, code, ms, passed: 0, failed: 0, skipped: 0, notes: [] };
  if (!json) {
    phase.notes.push("no JSON report (vitest did not get as far as running tests)");
  } else {
    phase.passed = json.numPassedTests ?? 0;
    phase.failed = json.numFailedTests ?? 0;
    phase.skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    const brokenFiles = (json.testResults ?? []).filter((f) => f.status === "failed" && (f.assertionResults ?? []).length === 0);
    if (brokenFiles.length > 0) {
      phase.notes.push(`${brokenFiles.length} test file(s) failed to run: ${brokenFiles.map((f) => f.name.replace(`${root}/`, "")).join(", ")}`);
    }
    // The failures again at the end, so the tail of a long log still names them.
    for (const file of json.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        // A test that passed on its retry (vitest.config.ts) keeps its first run's errors.
        const flaky = t.status === "passed" && (t.failureMessages ?? []).length > 0;
        if (t.status !== "failed" && !flaky) continue;
        const label = flaky ? "flaky (passed on retry)" : "failed";
        phase.notes.push(`${label}: ${file.name.replace(`${root}/`, "")} › ${t.fullName ?? t.title}`);
        const message = firstLine((t.failureMessages ?? [])[0]);
        if (message) phase.notes.push(`        ${message}`);
      }
    }
  }
  phases.push(phase);
}

/** The first non-empty line of a failure message, cut to a readable length. */
function firstLine(text) {
  const plain = String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "");
  const line =
    plain
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "";
  // Vitest's timeout error carries the stack of a placeholder error made where the test was declared.
  if (line === "Error: STACK_TRACE_ERROR") return "timed out (vitest gives a timeout the placeholder stack STACK_TRACE_ERROR)";
  return line.length > 240 ? `${line.slice(0, 237)}...` : line;
}

/**
 * A copy of the working tree to build and serve the app from: the files git would commit now
 * (tracked and untracked, minus ignored ones), node_modules hard-linked (same file system, about a
 * second), and the postinstall outputs (public/vendor) regenerated. Undefined when that is not
 * possible (no git, node_modules on another file system): the build then runs in place.
 */
function snapshotApp() {
  const list = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  if (list.status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "e2e-app-"));
  try {
    for (const file of list.stdout.split("\0").filter(Boolean)) {
      const from = join(root, file);
      if (!existsSync(from)) continue; // deleted in the working tree, not yet in the index
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(from, join(dir, file));
    }
    const link = spawnSync("cp", ["-al", join(root, "node_modules"), join(dir, "node_modules")], { stdio: "inherit" });
    if (link.status !== 0) throw new Error("could not hard-link node_modules");
    const postinstall = spawnSync("npm", ["run", "--if-present", "--silent", "postinstall"], { cwd: dir, stdio: "inherit" });
    if (postinstall.status !== 0) throw new Error("postinstall failed in the snapshot");
    return dir;
  } catch (error) {
    console.error(red(`cannot snapshot the tree (${error.message}); building in place`));
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/**
 * Next's build cache (.next/cache: Turbopack's persistent cache, keyed by file contents) carried
 * from one snapshot's build to the next through TEST_CACHE_DIR/next-build, as Next's docs advise
 * for CI: without TEST_CACHE_DIR every build starts cold. On this 2-core machine a cold build took
 * 79 s (133 s of CPU) and one with a kept cache 34 s (55 s), in another directory than the cache's.
 * `restored` says whether a cache was copied in; `keep()` puts the build's cache in its place.
 */
function buildCache(appDir) {
  if (!process.env.TEST_CACHE_DIR) return undefined;
  const kept = join(process.env.TEST_CACHE_DIR, "next-build");
  const inApp = join(appDir, ".next", "cache");
  let restored = false;
  if (existsSync(kept)) {
    mkdirSync(join(appDir, ".next"), { recursive: true });
    restored = spawnSync("cp", ["-r", kept, inApp]).status === 0;
  }
  console.log(restored ? `build cache: from ${kept}\n` : `build cache: none yet at ${kept}; kept there after this build\n`);
  return {
    restored,
    keep() {
      if (!existsSync(inApp)) return;
      // Turbopack's cache grows with each build (198 → 258 MB over four here): past 1 GiB it is
      // dropped, and the next build starts cold and writes a fresh one.
      const kilobytes = Number(spawnSync("du", ["-sk", inApp], { encoding: "utf8" }).stdout.split("\t")[0]);
      if (!(kilobytes < 1024 * 1024)) {
        rmSync(kept, { recursive: true, force: true });
        return;
      }
      const next = `${kept}.new`;
      rmSync(next, { recursive: true, force: true });
      mkdirSync(dirname(kept), { recursive: true });
      if (spawnSync("cp", ["-r", inApp, next]).status !== 0) return;
      rmSync(kept, { recursive: true, force: true });
      spawnSync("mv", [next, kept]);
    },
  };
}

/**
 * Starts the production build of the app for the browser phase: a snapshot of the tree (or the
 * tree itself with --e2e-in-place), `npm run build` in it with the environment the server gets
 * (e2e/support/app-env.json, the port and origin), its output in a log file that is shown when it
 * fails. Resolves to { port, appDir, ok } when done, after adding its phase to the summary.
 */
async function startBuild() {
  const port = await freePort(3210);
  const appDir = flags.has("--e2e-in-place") ? undefined : snapshotApp();
  const cwd = appDir ?? root;
  const log = join(reportDir, "build.log");
  const dataDir = mkdtempSync(join(tmpdir(), "e2e-build-data-"));
  const appEnv = JSON.parse(readFileSync(join(root, "e2e", "support", "app-env.json"), "utf8"));
  const env = { ...process.env, ...appEnv, PORT: String(port), PUBLIC_ORIGIN: `http://localhost:${port}`, DATA_DIR: dataDir };
  delete env.TEST_DATABASE_URL;
  console.log(`build: \`npm run build\` in ${cwd} (log: ${log}), beside the tests\n`);
  const started = Date.now();
  const cache = appDir ? buildCache(appDir) : undefined;
  let code = await run("npm", ["run", "build"], env, { cwd, logFile: log });
  if (code !== 0 && cache?.restored) {
    // A kept cache should never break a build; if it did, the tree's own verdict is a cold build.
    console.error(red(`the build failed with the kept build cache (exit ${code}); building again without it`));
    rmSync(join(cwd, ".next"), { recursive: true, force: true });
    code = await run("npm", ["run", "build"], env, { cwd, logFile: log });
  }
  if (code === 0) cache?.keep();
  const ms = Date.now() - started;
  rmSync(dataDir, { recursive: true, force: true });
  const phase = { label: "build (next build)", code, ms, passed: 0, failed: 0, skipped: 0, notes: [], build: true };
  if (code !== 0) {
    const tail = readFileSync(log, "utf8").trimEnd().split("\n").slice(-40).join("\n");
    console.error(red(`\nthe build failed (exit ${code}); the end of its log:\n`) + tail + "\n");
    phase.notes.push("the build failed: the end of its log is printed above, before the tests");
  }
  phases.push(phase);
  return { port, appDir, ok: code === 0 };
}

async function playwrightPhase(build) {
  const { port, appDir, ok } = await build;
  banner(`e2e: Playwright + Chromium against \`npm start\` (built beforehand) on port ${port}`);
  if (!ok) {
    phases.push({ label: "e2e (Playwright)", code: 1, ms: 0, passed: 0, failed: 0, skipped: 0, notes: ["not run: the build failed"] });
    if (appDir) rmSync(appDir, { recursive: true, force: true });
    return;
  }
  console.log(appDir ? `app snapshot (built and served from here): ${appDir}\n` : `serving in place: ${root}\n`);
  const report = join(root, "test-results", "e2e-results.json");
  rmSync(report, { force: true });
  const env = { ...process.env, E2E_PORT: String(port), E2E_PREBUILT: "1" };
  if (appDir) env.E2E_APP_DIR = appDir;
  else delete env.E2E_APP_DIR;
  // The app under test uses its own fresh embedded database; never the test PostgreSQL.
  delete env.TEST_DATABASE_URL;
  delete env.E2E_DATA_DIR;
  const started = Date.now();
  const code = await run(process.execPath, [bin("node_modules/@playwright/test/cli.js"), "test"], env);
  const ms = Date.now() - started;
  if (appDir) rmSync(appDir, { recursive: true, force: true });
  const json = readJson(report);
  const phase = { label: "e2e (Playwright)", code, ms, passed: 0, failed: 0, skipped: 0, notes: [] };
  if (!json) {
    phase.notes.push("no JSON report (Playwright did not get as far as running tests)");
  } else {
    const s = json.stats ?? {};
    phase.passed = (s.expected ?? 0) + (s.flaky ?? 0);
    phase.failed = s.unexpected ?? 0;
    phase.skipped = s.skipped ?? 0;
    if (s.flaky) phase.notes.push(`${s.flaky} flaky (passed on retry)`);
    for (const failure of playwrightFailures(json.suites ?? [], [])) phase.notes.push(failure);
    for (const error of json.errors ?? []) {
      phase.notes.push(`error: ${String(error.message ?? error).split("\n")[0]}`);
    }
  }
  phases.push(phase);
}

/** Lines naming each Playwright test that failed (after its retries), with its first error line. */
function playwrightFailures(suites, titles) {
  const out = [];
  for (const suite of suites) {
    const path = suite.title ? [...titles, suite.title] : titles;
    out.push(...playwrightFailures(suite.suites ?? [], path));
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        out.push(`failed: ${[...path, spec.title].join(" › ")}`);
        const results = test.results ?? [];
        const message = firstLine(results[results.length - 1]?.error?.message);
        if (message) out.push(`        ${message}`);
      }
    }
  }
  return out;
}

const withoutPg = { ...process.env };
delete withoutPg.TEST_DATABASE_URL;

try {
  // The build starts first and runs beside the vitest phases (or alone first with --build-first).
  let build;
  if (runE2e) {
    banner("build: the production app for the browser phase");
    build = startBuild();
    if (flags.has("--build-first")) await build;
  }
  // The layout check runs beside the tests (half a minute of one core); its output is shown at the
  // end. A tree Prettier would rewrite fails CI (npm run format fixes it).
  let format;
  if (runVitest && vitestExtra.length === 0) {
    const started = Date.now();
    format = run(process.execPath, [bin("node_modules/prettier/bin/prettier.cjs"), "--check", ".", "--log-level", "warn"], process.env, {
      logFile: formatLog,
    }).then((code) => {
      const phase = {
        label: "format (Prettier)",
        build: true,
        code,
        ms: Date.now() - started,
        passed: 0,
        failed: 0,
        skipped: 0,
        notes: code === 0 ? [] : ["files Prettier would change are listed above the summary: run `npm run format`"],
      };
      phases.push(phase);
      return phase;
    });
  }
  const pgPhase = (options) => {
    const url = process.env.TEST_DATABASE_URL;
    const title = `api on PostgreSQL (vitest, project api, TEST_DATABASE_URL=${maskUrl(url)})`;
    return vitestPhase("api on PostgreSQL", title, ["api"], process.env, "vitest-postgres", options);
  };
  const pgBeside = runPg && flags.has("--pg-beside");
  if (runVitest) {
    const pglite = vitestPhase("unit + api on PGlite", "unit + api on PGlite (vitest, projects unit and api)", ["unit", "api"], withoutPg, "vitest-pglite");
    if (pgBeside) await Promise.all([pglite, pgPhase({ logFile: join(reportDir, "vitest-postgres.log") })]);
    else await pglite;
  }
  if (runPg && !pgBeside && !interrupted) {
    await pgPhase();
  } else if (runVitest && !runPg && !interrupted) {
    phases.push({ label: "api on PostgreSQL", skippedPhase: flags.has("--no-pg") ? "--no-pg" : "TEST_DATABASE_URL not set" });
  }
  if (runE2e && !interrupted) await playwrightPhase(build);
  else if (build) await build;
  if (!runE2e) phases.push({ label: "e2e (Playwright)", skippedPhase: "--no-e2e" });
  if (format && (await format).code !== 0) {
    banner("format: prettier --check . (beside the tests)");
    console.log(readFileSync(formatLog, "utf8").trimEnd() || "(no output)");
  }
} finally {
  rmSync(reportDir, { recursive: true, force: true });
}

banner("summary");
let passed = 0;
let failed = 0;
let skipped = 0;
let phaseFailed = interrupted;
for (const p of phases) {
  if (p.skippedPhase) {
    console.log(`  ${p.label.padEnd(24)} not run (${p.skippedPhase})`);
    continue;
  }
  passed += p.passed;
  failed += p.failed;
  skipped += p.skipped;
  const ok = p.code === 0 && p.failed === 0 && p.notes.every((n) => !n.startsWith("no JSON"));
  if (!ok) phaseFailed = true;
  const counts = p.build ? "" : `${p.passed} passed, ${p.failed} failed${p.skipped ? `, ${p.skipped} skipped` : ""}`;
  const status = ok ? green("ok") : red(`FAILED (exit ${p.code})`);
  console.log(`  ${p.label.padEnd(24)} ${counts.padEnd(34)} ${seconds(p.ms).padStart(7)}  ${status}`);
  for (const note of p.notes) console.log(`  ${"".padEnd(24)} ${note}`);
}
if (interrupted) console.log(red("  interrupted"));
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(phaseFailed || failed > 0 ? 1 : 0);
