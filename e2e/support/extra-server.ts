// A second instance of the built app (`npm start`'s scripts/server.ts) with its own environment,
// for specs that need a setting the shared test server must not have (a street style URL,
// imagery, a PMTiles archive). Loopback only; a fresh DATA_DIR and a known operator token.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ExtraServer {
  origin: string;
  dataDir: string;
  adminToken: string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the OS picks it, then it is released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForHealth(origin: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the extra server exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the extra server did not answer within ${timeoutMs} ms:\n${output()}`);
}

/** Starts the app with `env` on top of the test server's own settings; `prepare` fills DATA_DIR first. */
export async function startExtraServer(env: Record<string, string>, prepare?: (dataDir: string) => void): Promise<ExtraServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "photo-missions-e2e-extra-"));
  prepare?.(dataDir);
  const adminToken = randomBytes(24).toString("hex");
  let output = "";
  const child = spawn(join("node_modules", ".bin", "tsx"), ["scripts/server.ts"], {
    cwd: process.env.E2E_APP_DIR || ".",
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      DATABASE_URL: "",
      ADMIN_TOKEN: adminToken,
      DEMO: "off",
      NEXT_TELEMETRY_DISABLED: "1",
      MAP_BASEMAP: "offline",
      MAP_STYLE_URL: "",
      MAP_IMAGERY_URL: "",
      MAP_IMAGERY_ATTRIBUTION: "",
      PMTILES_PATH: "",
      PMTILES_URL: "",
      ...env,
    },
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // The whole process group: tsx runs the server in a child of its own.
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(origin, child, () => output, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, dataDir, adminToken, stop };
}
