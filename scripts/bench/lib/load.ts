// Load generation with autocannon, run programmatically in the runner's process (the servers are
// child processes). One warm-up run whose figures are discarded (none when warmupSeconds is 0),
// then the measured run. GET by default; a RequestShape sends another method with a body and
// headers made fresh for every request (e.g. an Idempotency-Key).
import autocannon from "autocannon";
import { loadAverage1m, nearestRank } from "./interleave";

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

/** What to send when it is not a plain GET: the same body every time, some headers per request. */
export interface RequestShape {
  method: "GET" | "POST";
  body?: string;
  /** Called for every request; merged over the fixed headers (e.g. a fresh Idempotency-Key). */
  perRequestHeaders?: () => Record<string, string>;
}

const GET: RequestShape = { method: "GET" };

export interface LatencySummary {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface Measurement {
  /** False when any response was not 2xx, or a request errored or timed out. */
  valid: boolean;
  invalidReason?: string;
  /** Mean of autocannon's per-second request counts. */
  requestsPerSecond: number;
  totalRequests: number;
  /** Milliseconds, sub-millisecond precision (see LatencySamples). */
  latencyMs: LatencySummary;
  counts: {
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
    resets: number;
  };
  statusCodes: Record<string, number>;
  bytesPerSecond: number;
  durationSeconds: number;
  warmup: { requests: number; valid: boolean; invalidReason?: string };
  /** 1-minute load average right after the run: shows when something else used the machine. */
  loadAverage1mAfter: number;
}

/**
 * Every response time, kept at full precision. autocannon's own latency histogram records whole
 * milliseconds, which reads 0 or 1 ms for a bare server and would make a "p99 ratio" meaningless.
 */
class LatencySamples {
  private values = new Float64Array(1 << 16);
  private size = 0;

  add(ms: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = ms;
  }

  summary(): LatencySummary {
    const sorted = this.values.slice(0, this.size).sort();
    const at = (p: number) => nearestRank(sorted, p);
    const total = sorted.reduce((sum, v) => sum + v, 0);
    return {
      mean: sorted.length ? total / sorted.length : 0,
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: sorted[sorted.length - 1] ?? 0,
    };
  }
}

interface Run {
  result: autocannon.Result;
  latency: LatencySummary;
}

function runOnce(url: string, headers: Record<string, string>, connections: number, seconds: number, shape: RequestShape): Promise<Run> {
  const samples = new LatencySamples();
  const fresh = shape.perRequestHeaders;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: shape.method,
        headers,
        ...(shape.body === undefined ? {} : { body: shape.body }),
        // With setupRequest autocannon rebuilds the request bytes before every request; without,
        // it sends prebuilt bytes. The rebuild costs the load generator, for every target alike.
        ...(fresh
          ? {
              requests: [
                {
                  setupRequest: (request: autocannon.Request) => ({ ...request, headers: { ...request.headers, ...fresh() } }),
                },
              ],
            }
          : {}),
        connections,
        pipelining: 1,
        duration: seconds,
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ result, latency: samples.summary() });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      // Latency of successful responses only, as autocannon does; failures make the run invalid anyway.
      if (statusCode >= 200 && statusCode < 300) samples.add(responseTime);
    });
  });
}

/** Why a run cannot be reported as a number, or undefined when every request got a 2xx. */
function invalidity(result: autocannon.Result): string | undefined {
  const problems: string[] = [];
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses`);
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  if (result["2xx"] === 0) problems.push("no successful response");
  return problems.length ? problems.join(", ") : undefined;
}

function statusCodes(result: autocannon.Result): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) codes[code] = stats.count ?? 0;
  return codes;
}

/** Warm-up (JIT, caches, connection pools), then the measured run with the same request. */
export async function measure(url: string, headers: Record<string, string>, settings: LoadSettings, shape: RequestShape = GET): Promise<Measurement> {
  const warm = settings.warmupSeconds > 0 ? await runOnce(url, headers, settings.connections, settings.warmupSeconds, shape) : undefined;
  const { result, latency } = await runOnce(url, headers, settings.connections, settings.durationSeconds, shape);
  const reason = invalidity(result);
  const warmReason = warm ? invalidity(warm.result) : undefined;
  return {
    valid: reason === undefined,
    ...(reason ? { invalidReason: reason } : {}),
    requestsPerSecond: result.requests.mean,
    totalRequests: result.requests.total,
    latencyMs: latency,
    counts: {
      "2xx": result["2xx"],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      resets: result.resets,
    },
    statusCodes: statusCodes(result),
    bytesPerSecond: result.throughput.mean,
    durationSeconds: result.duration,
    warmup: {
      requests: warm?.result.requests.total ?? 0,
      valid: warmReason === undefined,
      ...(warmReason ? { invalidReason: warmReason } : {}),
    },
    loadAverage1mAfter: loadAverage1m(),
  };
}
