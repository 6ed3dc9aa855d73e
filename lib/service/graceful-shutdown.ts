// Stopping on SIGTERM the way an orchestrator expects: stop taking connections, let requests and
// jobs in flight finish, close the database — all within a bounded time, after which whatever is
// left is cut and the process exits non-zero. A second signal cuts at once.
import type { Server } from "node:http";
import { log } from "@/lib/log";

/** Closes the listener and waits for open requests; after `timeoutMs` cuts the connections left. Resolves true when drained. */
export function closeServer(server: Server, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve(false);
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve(true);
    });
    // Keep-alive connections with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
}

/**
 * A repeat of the signal this soon after the first is the same request delivered twice, not an
 * operator insisting: Ctrl-C on `npm start` signals the terminal's whole process group, and npm and
 * the tsx CLI each pass it on to the app as well.
 */
const RELAYED_WITHIN_MS = 1_000;

/** What `exitOnTermination` tells its process: whether a signal has asked it to stop. */
export interface Termination {
  readonly requested: boolean;
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT, then exits: 0 when it finished in time, 1 when
 * `timeoutMs` passed first or it failed. A second signal more than a second after the first exits
 * at once (1). Install it before the process starts its work (the database, the worker): a signal
 * during the start is then a stop like any other, and `stop` waits for the start to finish; a
 * process that has not started serving yet reads `requested` and does not start.
 */
export function exitOnTermination(name: string, stop: () => Promise<void>, { timeoutMs }: { timeoutMs: number }): Termination {
  let stopping = false;
  let started = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (Date.now() - started < RELAYED_WITHIN_MS) {
        log.info(`${name}: ${signal} again within a second (passed on by a parent process), still draining`);
        return;
      }
      log.warn(`${name}: second ${signal}, exiting now`);
      process.exit(1);
    }
    stopping = true;
    started = Date.now();
    log.info(`${name}: ${signal} received, draining`, { timeout_ms: timeoutMs });
    const deadline = setTimeout(() => {
      log.error(`${name}: not drained within ${timeoutMs} ms, exiting`);
      process.exit(1);
    }, timeoutMs + 2_000);
    deadline.unref();
    stop().then(
      () => {
        log.info(`${name}: stopped`, { drain_ms: Date.now() - started });
        process.exit(0);
      },
      (error: unknown) => {
        log.error(`${name}: stop failed`, {}, error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return {
    get requested() {
      return stopping;
    },
  };
}
