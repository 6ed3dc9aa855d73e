// Child processes and temp dirs of a benchmark run, owned in one place so that every exit path
// (normal end, thrown error, Ctrl-C) can stop them all and remove what the run created.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SpawnSpec {
  /** Short label for messages and the log file name. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** The command line, for the report. */
  readonly commandLine: string;
  /** Resolves with the exit code (null when killed by a signal) once the direct child exits. */
  readonly exited: Promise<number | null>;
  hasExited(): boolean;
  /** Last lines of the combined stdout/stderr, to explain a failed start. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 8_000;

export class Supervisor {
  private readonly processes = new Set<ManagedProcess>();
  private readonly dirs = new Set<string>();
  private logDir: string | undefined;

  /** A fresh directory under the OS temp dir, removed by cleanup(). */
  tempDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), `bench-${prefix}-`));
    this.dirs.add(dir);
    return dir;
  }

  /** Removes a temp dir before cleanup() (a benchmark done with hundreds of MB of copies). */
  removeTempDir(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
    this.dirs.delete(dir);
  }

  spawn(spec: SpawnSpec): ManagedProcess {
    this.logDir ??= this.tempDir("logs");
    const logFile = join(this.logDir, `${spec.name}-${this.processes.size}.log`);
    // Output goes to a file, not a pipe: nobody reads a pipe during the load test, and a full
    // pipe buffer would block the server's writes to stdout.
    const fd = openSync(logFile, "w");
    // detached: the child leads its own process group, so the wrappers (tsx, next) and the
    // node processes they start are all stopped by one signal to the group, and a Ctrl-C in the
    // terminal reaches only this runner, which then stops them in order.
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ["ignore", fd, fd],
    });
    closeSync(fd);
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${spec.name}: ${spec.command}`);
    let exitedFlag = false;
    const exited = new Promise<number | null>((resolve) => {
      child.once("exit", (code) => {
        exitedFlag = true;
        resolve(code);
      });
      child.once("error", () => {
        exitedFlag = true;
        resolve(null);
      });
    });
    const managed: ManagedProcess = {
      name: spec.name,
      pid,
      commandLine: [spec.command, ...spec.args].join(" "),
      exited,
      hasExited: () => exitedFlag,
      logTail: (lines = 30) => tail(logFile, lines),
      stop: async () => {
        await stopGroup(pid, exited);
        this.processes.delete(managed);
      },
    };
    this.processes.add(managed);
    return managed;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.processes].map((p) => p.stop()));
  }

  /** Stops every child, then removes the temp dirs (a live PGlite would still write into them). */
  async cleanup(): Promise<void> {
    await this.stopAll();
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
    this.dirs.clear();
  }

  /** Last resort from a synchronous 'exit' handler: no waiting possible, so SIGKILL the groups. */
  killAllNow(): void {
    for (const p of this.processes) signalGroup(p.pid, "SIGKILL");
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no output)";
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the whole group is gone
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM to the group (the servers shut down cleanly, which also lets `--cpu-prof` write its
 * profile), wait until no process of the group is left, SIGKILL whatever outlives the grace time.
 */
async function stopGroup(pid: number, exited: Promise<number | null>): Promise<void> {
  if (!signalGroup(pid, "SIGTERM")) return;
  const deadline = Date.now() + STOP_GRACE_MS;
  await Promise.race([exited, sleep(STOP_GRACE_MS)]);
  while (signalGroup(pid, 0) && Date.now() < deadline) await sleep(50);
  signalGroup(pid, "SIGKILL");
}

/**
 * CPU time (ms, user + system, every thread) used so far by the processes of a process group (a
 * target and its wrappers), from /proc; undefined where there is none. Ticks of 10 ms (USER_HZ 100).
 */
export function groupCpuMs(pgid: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // After "(comm)": state ppid pgrp … utime (12th) stime (13th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}
