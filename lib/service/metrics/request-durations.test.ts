import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestDurations } from "./request-durations";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OBSERVED: [string, string, number, number][] = [
  ["GET", "/api/v1/missions/{id}", 200, 0.0004],
  ["GET", "/api/v1/missions/{id}", 200, 0.001], // on a bound: counted in it (le is "less or equal")
  ["GET", "/api/v1/missions/{id}", 200, 0.03],
  ["GET", "/api/v1/missions/{id}", 404, 0.002],
  ["POST", "/api/v1/missions", 201, 12], // above every bound: +Inf only
  ["GET", 'a "quoted"\\route', 500, 0.2], // label values escaped as prom-client escapes them
];

/** Both registries' exposition: ours and prom-client's own Histogram fed the same requests. */
async function expositions(): Promise<{ ours: Registry; theirs: Registry }> {
  const ours = new Registry();
  const theirs = new Registry();
  const subject = new RequestDurations({ name: "requests_seconds", help: "Requests.", buckets: BUCKETS, registers: [ours] });
  const reference = new Histogram({
    name: "requests_seconds",
    help: "Requests.",
    labelNames: ["method", "route", "status"],
    buckets: BUCKETS,
    registers: [theirs],
  });
  for (const [method, route, status, seconds] of OBSERVED) {
    subject.record(method, route, status, seconds);
    reference.observe({ method, route, status: String(status) }, seconds);
  }
  return { ours, theirs };
}

describe("RequestDurations", () => {
  it("writes exactly what prom-client's Histogram writes for the same requests", async () => {
    const { ours, theirs } = await expositions();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('requests_seconds_bucket{le="0.001",method="GET",route="/api/v1/missions/{id}",status="200"} 2');
    expect(text).toContain('requests_seconds_bucket{le="+Inf",method="POST",route="/api/v1/missions",status="201"} 1');
    expect(text).toContain('requests_seconds_bucket{le="10",method="POST",route="/api/v1/missions",status="201"} 0');
  });

  it("gives the same JSON as prom-client's Histogram, and forgets everything on reset", async () => {
    const { ours, theirs } = await expositions();
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    ours.resetMetrics();
    expect(await ours.metrics()).toBe("# HELP requests_seconds Requests.\n# TYPE requests_seconds histogram\n");
  });
});
