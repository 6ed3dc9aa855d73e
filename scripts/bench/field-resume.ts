// Benchmark: resumable field uploads (tus at /api/v1/field/uploads) against the standalone API,
// driven by tus-js-client — the client the field page uses — through a TCP proxy in this process
// that counts the bytes the client sends and can cut its connections like a lost signal.
//
// 1. Resume cost (goal ≤ 1.1): bytes sent for an 8 MB photo whose connection is cut three times
//    (after a quarter, half and three quarters of the photo's bytes have gone up, counted over
//    the whole transfer) ÷ bytes of one clean tus send of the same photo. Every byte on the wire
//    from the client counts: request lines, headers, the HEADs that find the offset, and the bytes
//    lost in flight. Clean and cut sends alternate, one pair per round.
// 2. Intake throughput (goal ≥ 0.8): the run's photos uploaded one at a time through tus
//    (tus-js-client's default: POST, then one PATCH; creation-with-upload, one POST, is measured
//    beside it as a diagnostic) ÷ the same photos through the multipart route
//    (POST /missions/{id}/submissions, one photo per request) — both until the service answers the
//    submission; the job worker is off (RUN_WORKER=false) so that QA does not run on either's clock.
//    In rounds of lib/rounds (order rotating, paired ratios). Each pass uses a fresh mission:
//    the same photo sent again to the same target is, by design, not a new submission.
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import * as tus from "tus-js-client";
import { makePhoto } from "@/lib/demo/make-photo";
import { fmt, roundsSection } from "./lib/file-report";
import { freePort, postJson, stringField } from "./lib/http";
import { createZoomer, exchangeClientCredentials } from "./lib/seed";
import { describePhotoSet, type PhotoSet } from "./lib/photo-set";
import type { Supervisor } from "./lib/processes";
import { median, measureRounds, type RoundSettings, type RoundsResult, type Variant } from "./lib/rounds";
import { interleave } from "./lib/interleave";
import { readAdminToken, startApi } from "./lib/targets";
import { defineBenchmark } from "./lib/benchmark";
import { fileBenchmarksHeader } from "./lib/file-report";

export const GOAL = { maxBytesRatio: 1.1, minThroughputRatio: 0.8 } as const;
const PHOTO_BYTES = 8 * 1024 * 1024;
const CUTS = [0.25, 0.5, 0.75];
const RETRY_DELAYS = [0, 100, 250, 500, 1000, 2000];

export interface FieldResumeOptions {
  supervisor: Supervisor;
  photos: PhotoSet;
  rounds: RoundSettings;
}

export interface FieldResumeResults {
  goal: string;
  inputs: string;
  resume: { cleanBytes: number[]; cutBytes: number[]; ratios: number[]; median: number; min: number; max: number; cutsMade: number[]; meetsGoal: boolean };
  settings: RoundSettings;
  throughput: RoundsResult;
}

/** A TCP proxy that counts client → server bytes and cuts every open connection when told. */
interface CountingProxy {
  url: string;
  upstreamBytes: number;
  /** Cut all connections once upstreamBytes reaches each of these (ascending); cleared after use. */
  cutAt: number[];
  cuts: number;
  close(): Promise<void>;
}

async function startCountingProxy(targetPort: number, listenPort: number): Promise<CountingProxy> {
  const sockets = new Set<Socket>();
  const proxy: CountingProxy = { url: "", upstreamBytes: 0, cutAt: [], cuts: 0, close: async () => undefined };
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("data", (chunk: Buffer) => {
      proxy.upstreamBytes += chunk.length;
      upstream.write(chunk);
      const next = proxy.cutAt[0];
      if (next !== undefined && proxy.upstreamBytes >= next) {
        proxy.cutAt.shift();
        proxy.cuts++;
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      }
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("close", drop);
    upstream.on("close", drop);
    client.on("error", drop);
    upstream.on("error", drop);
  });
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

interface Seeded {
  partnerToken: string;
  zoomerToken: string;
}

async function seed(url: string, admin: string): Promise<Seeded> {
  const org = await postJson(`${url}/api/admin/v1/orgs`, { name: "Benchmark partner" }, admin, 201);
  const client = await postJson(
    `${url}/api/admin/v1/orgs/${stringField(org, "id")}/clients`,
    { name: "benchmark", scopes: ["missions:read", "missions:write"] },
    admin,
    201,
  );
  const zoomer = await createZoomer(url, admin, "Benchmark zoomer");
  return { partnerToken: await exchangeClientCredentials(url, client), zoomerToken: await exchangeClientCredentials(url, zoomer) };
}

const SQUARE = {
  type: "Polygon",
  coordinates: [
    [
      [11.255, 43.768],
      [11.26, 43.768],
      [11.26, 43.773],
      [11.255, 43.773],
      [11.255, 43.768],
    ],
  ],
};

async function newMission(url: string, partnerToken: string): Promise<string> {
  return stringField(await postJson(`${url}/api/v1/missions`, { title: "Benchmark mission", bounds: SQUARE, required_images: 1 }, partnerToken, 201), "id");
}

/** One tus upload with tus-js-client (POST, then PATCH; retries resume from the server's offset). */
function tusUpload(endpoint: string, token: string, bytes: Buffer, metadata: Record<string, string>, uploadDataDuringCreation = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(bytes, {
      endpoint,
      uploadDataDuringCreation,
      headers: { authorization: `Bearer ${token}` },
      metadata,
      retryDelays: RETRY_DELAYS,
      storeFingerprintForResuming: false,
      onError: reject,
      onSuccess: (payload) => {
        const id = payload.lastResponse.getHeader("Submission-Id");
        if (id) resolve(id);
        else reject(new Error(`no Submission-Id (status ${payload.lastResponse.getStatus()}: ${payload.lastResponse.getBody()})`));
      },
    });
    upload.start();
  });
}

async function multipartUpload(url: string, token: string, missionId: string, bytes: Buffer, name: string): Promise<void> {
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), name);
  form.append("angle", "front");
  const res = await fetch(`${url}/api/v1/missions/${missionId}/submissions`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`multipart ${res.status}: ${text}`);
}

export async function runFieldResume(options: FieldResumeOptions): Promise<FieldResumeResults> {
  const log = (m: string) => console.error(`[bench] field-resume: ${m}`);
  // The proxy listens where the API says it is (its public origin), so the upload URLs it hands
  // out (tus Location) lead back through the proxy.
  const proxyPort = await freePort();
  const publicOrigin = `http://127.0.0.1:${proxyPort}`;
  const api = await startApi(options.supervisor, "standalone", {
    env: { PUBLIC_ORIGIN: publicOrigin, RUN_WORKER: "false", MAX_UPLOAD_BYTES: String(16 * 1024 * 1024) },
  });
  const proxy = await startCountingProxy(Number(new URL(api.url).port), proxyPort);
  try {
    const { partnerToken, zoomerToken } = await seed(proxy.url, readAdminToken(api));
    const endpoint = `${proxy.url}/api/v1/field/uploads`;

    // 1. Resume cost.
    const base = await makePhoto({ lat: 43.7705, lng: 11.2575, accuracyM: 5, capturedAt: new Date(), seed: 7 });
    const total = options.rounds.rounds;
    const sends = await interleave({
      rounds: total,
      warmupRounds: options.rounds.warmupRounds,
      targets: [{ name: "clean" }, { name: "cut" }],
      sample: async ({ name }) => {
        // A photo of its own per send (exactly once would otherwise answer a resend from the first).
        const missionId = await newMission(proxy.url, partnerToken);
        const photo = Buffer.concat([base, randomBytes(PHOTO_BYTES - base.length)]);
        proxy.upstreamBytes = 0;
        proxy.cuts = 0;
        proxy.cutAt = name === "cut" ? CUTS.map((f) => Math.round(f * photo.length)) : [];
        await tusUpload(endpoint, zoomerToken, photo, { target: missionId, angle: "front", filename: "big.jpg" });
        proxy.cutAt = [];
        return { bytes: proxy.upstreamBytes, cuts: proxy.cuts };
      },
      onSample: ({ name }, turn, sent) => {
        if (!turn.warmup) log(`round ${turn.round + 1}/${total} ${name}: ${sent.bytes} bytes sent${name === "cut" ? `, ${sent.cuts} cuts` : ""}`);
      },
    });
    const cleanBytes = sends.of("clean").map((s) => s.bytes);
    const cutBytes = sends.of("cut").map((s) => s.bytes);
    const cutsMade = sends.of("cut").map((s) => s.cuts);
    const ratios = cutBytes.map((b, i) => Math.round((b / (cleanBytes[i] ?? b)) * 1000) / 1000);
    const resumeMedian = median(ratios);

    // 2. Intake throughput on the run's photos.
    const files = options.photos.files.filter((f) => f.bytes <= 16 * 1024 * 1024).map((f) => ({ name: f.name, bytes: readFileSync(f.path) }));
    const work = { bytes: files.reduce((s, f) => s + f.bytes.length, 0), files: files.length };
    const variants: Variant[] = [
      {
        name: "multipart",
        label: "multipart POST /missions/{id}/submissions (baseline)",
        pass: async () => {
          const missionId = await newMission(proxy.url, partnerToken);
          for (const f of files) await multipartUpload(proxy.url, zoomerToken, missionId, f.bytes, f.name);
        },
      },
      {
        name: "tus",
        label: "tus-js-client POST + PATCH /field/uploads",
        pass: async () => {
          const missionId = await newMission(proxy.url, partnerToken);
          for (const f of files) await tusUpload(endpoint, zoomerToken, f.bytes, { target: missionId, angle: "front", filename: f.name });
        },
      },
      {
        name: "tus-one-request",
        label: "tus-js-client creation-with-upload (uploadDataDuringCreation: one POST)",
        pass: async () => {
          const missionId = await newMission(proxy.url, partnerToken);
          for (const f of files) await tusUpload(endpoint, zoomerToken, f.bytes, { target: missionId, angle: "front", filename: f.name }, true);
        },
      },
    ];
    // The goal is on tus-js-client's default (POST, then PATCH: what resumes best); one request per photo is shown beside it.
    const throughput = await measureRounds(variants, work, options.rounds, log, { min: GOAL.minThroughputRatio, on: "tus /" });
    // The service runs in its own process: this process's CPU time is the client's, not the intake's.
    throughput.cpuRatios = [];

    return {
      goal: `bytes sent with three cuts ÷ one clean send ≤ ${GOAL.maxBytesRatio}; tus intake throughput ÷ multipart ≥ ${GOAL.minThroughputRatio}`,
      inputs: `resume: an 8 MiB JPEG (makePhoto + random bytes after its end marker); throughput: ${describePhotoSet(options.photos)}`,
      resume: {
        cleanBytes,
        cutBytes,
        ratios,
        median: resumeMedian,
        min: Math.min(...ratios),
        max: Math.max(...ratios),
        cutsMade,
        meetsGoal: resumeMedian <= GOAL.maxBytesRatio,
      },
      settings: options.rounds,
      throughput,
    };
  } finally {
    await proxy.close();
  }
}

export function formatFieldResume(results: FieldResumeResults): string {
  const { resume } = results;
  return [
    "### field-resume: resumable uploads (tus) — resume cost and intake throughput",
    "",
    `Goal (issue 24): ${results.goal}.`,
    "",
    `Inputs: ${results.inputs}. Standalone API on the embedded database, local photo store, job worker off; tus-js-client in this process through a counting TCP proxy.`,
    "",
    "#### Bytes sent: three cuts ÷ one clean send",
    "",
    "| | median | (min–max) | goal | |",
    "|---|---:|---|---|---|",
    `| bytes with 3 cuts ÷ clean | ${fmt(resume.median, 3)} | (${fmt(resume.min, 3)}–${fmt(resume.max, 3)}) | ≤ ${GOAL.maxBytesRatio} | ${resume.meetsGoal ? "meets goal" : "**misses goal**"} |`,
    "",
    `Per round (clean / cut bytes → ratio): ${resume.cleanBytes.map((c, i) => `${fmt(c)} / ${fmt(resume.cutBytes[i] ?? 0)} → ${fmt(resume.ratios[i] ?? 0, 3)}`).join("; ")}. Cuts made per cut send: ${resume.cutsMade.join(", ")}.`,
    "",
    "#### Intake throughput: tus ÷ multipart, same photos",
    "",
    ...roundsSection(results.settings, results.throughput),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "field-resume",
  header: fileBenchmarksHeader,
  run: async ({ supervisor, options, photos }) => runFieldResume({ supervisor, photos: await photos(), rounds: options.rounds }),
  format: formatFieldResume,
});
