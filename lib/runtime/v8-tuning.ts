// V8 settings for the service's processes, imported first by each entry point (scripts/server.ts,
// scripts/api-server.ts, scripts/worker.ts) so they apply before the rest of the app loads.
//
// Allocation-site pretenuring off. V8 watches each place that creates objects, and when most of
// one place's objects once outlived a young-generation collection — as they do while the app
// starts, migrates and fills its caches — it creates that place's objects in the old generation
// from then on. In a service most objects live for one request; once such a place is on the hot
// path, each request leaves a few kilobytes in the old generation, every young collection
// scans them (20–55 ms instead of 2–5 ms, one every ~160 ms under load) and a full collection
// follows about every second. Measured on the mission read (docs/benchmarks.md, 2026-11-30
// evening): 15.0 thousand requests a second with a p99 of 18.9 ms with pretenuring, 22.2 thousand
// and 4.5 ms without it. V8 consults the flag when it weighs that feedback at each collection;
// set before the app's modules load, no place is ever moved to the old generation.
import { setFlagsFromString } from "node:v8";

export const SERVICE_V8_FLAGS = ["--no-allocation-site-pretenuring"] as const;

for (const flag of SERVICE_V8_FLAGS) setFlagsFromString(flag);
