// The app's entry points (scripts/api-server.ts, scripts/worker.ts) as real child processes for
// tests that signal them: node itself with tsx as a loader, so a SIGKILL really kills the app (the
// tsx CLI would run it in a grandchild that outlives the signal).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export interface AppProcess {
  process: ChildProcess;
  /** Everything written to stdout and stderr so far (the reason when it does not start). */
  output(): string;
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

export function startAppProcess(script: string, env: Record<string, string>): AppProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, DEMO: "off", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

/** Resolves when `url`/api/health answers; a cold start (tsx, migrations) takes seconds on a loaded machine. */
export async function waitForHealth(url: string, child: AppProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`exited early (${child.process.exitCode}): ${child.output()}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`did not start: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** SIGKILL, and wait until the process is gone. */
export async function killHard(child: AppProcess): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill("SIGKILL");
  await child.exited;
}
