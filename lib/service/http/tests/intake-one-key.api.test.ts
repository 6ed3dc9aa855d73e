// One way in for a field photo (issue 32, DESIGN §7): the same photo sent again for the same
// target by the same zoomer, through either door (tus at /field/uploads, multipart at
// /missions/{id}/submissions and /field/assignments/{id}/photo), one after the other, at the same
// moment, or while QA checks the first copy, makes exactly one submission; every answer names it,
// and QA approves it (never "a duplicate of itself"). Another zoomer's identical bytes are a
// duplicate. Also: tus answers carry the rate-limit headers and answer only documented statuses;
// taking a task you hold does not extend the reservation.
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Upload as TusUpload } from "@tus/server";
import { eq } from "drizzle-orm";
import { Upload } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignments, submissions } from "@/lib/db/schema";
import { runQa } from "@/lib/service/qa/run-qa";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { confirm, createOrder, orderPartner } from "./orders-client";
import { createZoomer, photo, submitPhotos, waitForDecision } from "./photos";

const LIMITS = { rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } };
const UPLOADS = "/api/v1/field/uploads";

const encodeMetadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value, "utf8").toString("base64")}`)
    .join(",");

type Door = "tus" | "multipart";
type Zoomer = { id: string; token: string };

/** What a door answered: the status and the submission it names (tus: Submission-Id; multipart: the body's id). */
interface Sent {
  status: number;
  submissionId: string | null;
  headers: Headers;
  text: string;
}

/** tus creation-with-upload: the whole photo in the POST. */
async function sendTus(api: TestClient, token: string, target: string, bytes: Uint8Array, extra: Record<string, string> = {}): Promise<Sent> {
  const response = await fetch(`${api.service.url}${UPLOADS}`, {
    method: "POST",
    headers: {
      "tus-resumable": "1.0.0",
      authorization: `Bearer ${token}`,
      "content-type": "application/offset+octet-stream",
      "upload-length": String(bytes.length),
      "upload-metadata": encodeMetadata({ target, filename: "same.jpg", ...extra }),
    },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, submissionId: response.headers.get("submission-id"), headers: response.headers, text: await response.text() };
}

/** Multipart: to the mission's submissions, or to a task's photo route. */
async function sendMultipart(api: TestClient, token: string, target: string, bytes: Uint8Array): Promise<Sent> {
  if (target.startsWith("mission_")) {
    const res = await submitPhotos(api, token, target, [{ bytes, name: "same.jpg" }]);
    return { status: res.status, submissionId: typeof res.body.id === "string" ? res.body.id : null, headers: res.headers, text: res.text };
  }
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "same.jpg");
  const response = await fetch(`${api.service.url}/api/v1/field/assignments/${target}/photo`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  const body = (text ? JSON.parse(text) : {}) as { id?: unknown };
  return { status: response.status, submissionId: typeof body.id === "string" ? body.id : null, headers: response.headers, text };
}

const send = (door: Door, api: TestClient, token: string, target: string, bytes: Uint8Array) =>
  door === "tus" ? sendTus(api, token, target, bytes) : sendMultipart(api, token, target, bytes);

/** The answer a door gives for a photo received: tus 201 (creation-with-upload), multipart 202. */
const RECEIVED: Record<Door, number> = { tus: 201, multipart: 202 };

const PAIRS: [Door, Door][] = [
  ["tus", "tus"],
  ["tus", "multipart"],
  ["multipart", "tus"],
  ["multipart", "multipart"],
];

function suite(name: string) {
  describe(name, () => {
    let service: TestService;
    let api: TestClient;
    let partner: Awaited<ReturnType<TestClient["partner"]>>;
    let zoomer: Zoomer;
    let seed = 3200;

    beforeAll(async () => {
      service = await startTestService(LIMITS, { worker: true });
      api = new TestClient(service);
      partner = await api.partner();
      zoomer = await createZoomer(api);
    });
    afterAll(() => service.close());

    const submissionsOf = (missionId: string) => service.runtime.ctx.db.select().from(submissions).where(eq(submissions.missionId, missionId));

    for (const [first, second] of PAIRS) {
      it(`${first} then ${second}: one submission, both answers name it, approved`, async () => {
        const mission = await api.createMission(partner.token);
        const bytes = await photo({ seed: seed++ });
        const a = await send(first, api, zoomer.token, mission.id, bytes);
        expect(a.status, a.text).toBe(RECEIVED[first]);
        const b = await send(second, api, zoomer.token, mission.id, bytes);
        expect(b.status, b.text).toBe(RECEIVED[second]);
        expect(a.submissionId).toMatch(/^sub_/);
        expect(b.submissionId).toBe(a.submissionId);
        expect(await submissionsOf(mission.id)).toHaveLength(1);
        const decided = await waitForDecision(api, partner.token, a.submissionId ?? "");
        expect(decided.status, decided.reasons.join(" ")).toBe("approved");
        // Sent once more after the verdict: still that one.
        expect((await send(first, api, zoomer.token, mission.id, bytes)).submissionId).toBe(a.submissionId);
        expect(await submissionsOf(mission.id)).toHaveLength(1);
      });

      it(`${first} and ${second} at the same moment: one submission, both answers name it, approved`, async () => {
        const mission = await api.createMission(partner.token);
        const bytes = await photo({ seed: seed++ });
        const [a, b] = await Promise.all([send(first, api, zoomer.token, mission.id, bytes), send(second, api, zoomer.token, mission.id, bytes)]);
        expect(a.status, a.text).toBe(RECEIVED[first]);
        expect(b.status, b.text).toBe(RECEIVED[second]);
        expect(a.submissionId).toMatch(/^sub_/);
        expect(b.submissionId).toBe(a.submissionId);
        expect(await submissionsOf(mission.id)).toHaveLength(1);
        const counted = await api.request<{ submissions: number }>("GET", `/api/v1/missions/${mission.id}`, { token: partner.token });
        expect(counted.body.submissions).toBe(1);
        expect((await waitForDecision(api, partner.token, a.submissionId ?? "")).status).toBe("approved");
      });
    }

    it("four copies through both doors at once: one submission", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: seed++ });
      const answers = await Promise.all((["tus", "multipart", "tus", "multipart"] as const).map((door) => send(door, api, zoomer.token, mission.id, bytes)));
      const ids = new Set(answers.map((answer) => answer.submissionId));
      expect(ids.size, answers.map((answer) => `${answer.status} ${answer.text}`).join("\n")).toBe(1);
      expect(await submissionsOf(mission.id)).toHaveLength(1);
      expect((await waitForDecision(api, partner.token, answers[0]?.submissionId ?? "")).status).toBe("approved");
    });

    it("tus-js-client (as the phone sends) then multipart: the client hears the Submission-Id the multipart body names", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: seed++ });
      const viaClient = await new Promise<string | null>((resolve, reject) => {
        let submissionId: string | null = null;
        const upload = new Upload(bytes, {
          endpoint: `${service.url}${UPLOADS}`,
          headers: { authorization: `Bearer ${zoomer.token}` },
          metadata: { target: mission.id, filename: "phone.jpg", angle: "front" },
          uploadDataDuringCreation: false,
          // Two PATCHes, as on a phone with small chunks.
          chunkSize: Math.ceil(bytes.length / 2),
          retryDelays: [],
          onAfterResponse: (_request, response) => {
            submissionId = response.getHeader("Submission-Id") ?? submissionId;
          },
          onSuccess: () => resolve(submissionId),
          onError: reject,
        });
        upload.start();
      });
      expect(viaClient).toMatch(/^sub_/);
      const again = await sendMultipart(api, zoomer.token, mission.id, bytes);
      expect(again.status, again.text).toBe(202);
      expect(again.submissionId).toBe(viaClient);
      expect(await submissionsOf(mission.id)).toHaveLength(1);
      expect((await waitForDecision(api, partner.token, viaClient ?? "")).status).toBe("approved");
    });

    it("several photos in one multipart request: the same set, in any order, is the same submission; another set is another", async () => {
      const mission = await api.createMission(partner.token);
      const [x, y, z] = await Promise.all([photo({ seed: seed++ }), photo({ seed: seed++ }), photo({ seed: seed++ })]);
      const first = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: x }, { bytes: y }]);
      expect(first.status, first.text).toBe(202);
      const reordered = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: y }, { bytes: x }]);
      expect(reordered.status).toBe(202);
      expect(reordered.body.id).toBe(first.body.id);
      const other = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: x }, { bytes: z }]);
      expect(other.status).toBe(202);
      expect(other.body.id).not.toBe(first.body.id);
      expect(await submissionsOf(mission.id)).toHaveLength(2);
    });

    it("another zoomer's identical bytes (through either door) are a submission of their own, rejected as a duplicate", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: seed++ });
      const mine = await sendTus(api, zoomer.token, mission.id, bytes);
      expect((await waitForDecision(api, partner.token, mine.submissionId ?? "")).status).toBe("approved");
      for (const door of ["tus", "multipart"] as const) {
        const other = await createZoomer(api);
        const theirs = await send(door, api, other.token, mission.id, bytes);
        expect(theirs.status, theirs.text).toBe(RECEIVED[door]);
        expect(theirs.submissionId).toMatch(/^sub_/);
        expect(theirs.submissionId).not.toBe(mine.submissionId);
        const decided = await waitForDecision(api, partner.token, theirs.submissionId ?? "");
        expect(decided.status).toBe("rejected");
        expect(decided.reasons.join(" ")).toMatch(/same photo was already submitted/);
        // The other zoomer's second copy is their one submission again, not a third.
        expect((await send(door === "tus" ? "multipart" : "tus", api, other.token, mission.id, bytes)).submissionId).toBe(theirs.submissionId);
      }
      expect(await submissionsOf(mission.id)).toHaveLength(3);
    });

    it("a repeat after the mission completed still names its submission; a new photo is refused", async () => {
      const missionId = (await api.createMission(partner.token, { required_images: 1 })).id;
      const bytes = await photo({ seed: seed++ });
      const first = await sendMultipart(api, zoomer.token, missionId, bytes);
      expect((await waitForDecision(api, partner.token, first.submissionId ?? "")).status).toBe("approved");
      const mission = await api.request<{ status: string }>("GET", `/api/v1/missions/${missionId}`, { token: partner.token });
      expect(mission.body.status).toBe("completed");
      const again = await sendMultipart(api, zoomer.token, missionId, bytes);
      expect(again.status, again.text).toBe(202);
      expect(again.submissionId).toBe(first.submissionId);
      const fresh = await sendMultipart(api, zoomer.token, missionId, await photo({ seed: seed++ }));
      expect(fresh.status).toBe(409);
      expect(JSON.parse(fresh.text)).toMatchObject({ code: "mission_not_active" });
      const stranger = await createZoomer(api);
      // Someone who never sent anything there is refused before the body is looked at.
      expect((await sendMultipart(api, stranger.token, missionId, bytes)).status).toBe(409);
    });

    it("an order task: tus and the task's photo route, one after the other and at once, make one submission; the task keeps it", async () => {
      const partnerOrders = await orderPartner(api);
      const target = { lat: 43.7731, lng: 11.256 };
      const order = await createOrder(api, partnerOrders.apiKey, {
        requirements: { angles: ["overview", "front"] },
        locations: [{ location_id: "loc_one_key", name: "One Key Square", coordinates: target }],
      });
      expect((await confirm(api, partnerOrders.apiKey, order.id)).body.status).toBe("in_progress");
      const tasks = await api.request<{ data: { id: string; angle: string }[] }>(
        "GET",
        `/api/v1/field/assignments?lat=${target.lat}&lng=${target.lng}&radius_km=1`,
        { token: zoomer.token },
      );
      const [one, two] = tasks.body.data;
      expect(one && two).toBeTruthy();
      for (const [i, task] of [one, two].entries()) {
        expect((await api.request("POST", `/api/v1/field/assignments/${task?.id ?? ""}/take`, { token: zoomer.token })).status).toBe(200);
        const bytes = await photo({ lat: target.lat - 0.0002, lng: target.lng, directionDeg: 0, seed: seed++ });
        const taskId = task?.id ?? "";
        const [a, b] =
          i === 0
            ? [await sendTus(api, zoomer.token, taskId, bytes), await sendMultipart(api, zoomer.token, taskId, bytes)]
            : await Promise.all([sendMultipart(api, zoomer.token, taskId, bytes), sendTus(api, zoomer.token, taskId, bytes)]);
        expect(a.status, a.text).toBe(i === 0 ? 201 : 202);
        expect(b.status, b.text).toBe(i === 0 ? 202 : 201);
        expect(a.submissionId).toMatch(/^sub_/);
        expect(b.submissionId).toBe(a.submissionId);
        // The task was submitted by the first copy; the same photo again still names it, another is refused.
        expect((await sendMultipart(api, zoomer.token, taskId, bytes)).submissionId).toBe(a.submissionId);
        const another = await sendMultipart(
          api,
          zoomer.token,
          taskId,
          await photo({ lat: target.lat - 0.0002, lng: target.lng, directionDeg: 0, seed: seed++ }),
        );
        expect(another.status).toBe(409);
        const held = await api.request<{ submission_id: string }>("GET", `/api/v1/field/assignments/${taskId}`, { token: zoomer.token });
        expect(held.body.submission_id).toBe(a.submissionId);
        const [row] = await service.runtime.ctx.db.select({ missionId: assignments.missionId }).from(assignments).where(eq(assignments.id, taskId));
        // One submission per task so far: this one and the one before it.
        expect(await submissionsOf(row?.missionId ?? "")).toHaveLength(i + 1);
      }
    });

    it("taking a task you hold answers it unchanged: the reservation is not extended", async () => {
      const partnerOrders = await orderPartner(api);
      const target = { lat: 43.7741, lng: 11.257 };
      const order = await createOrder(api, partnerOrders.apiKey, {
        requirements: { angles: ["overview"] },
        locations: [{ location_id: "loc_take", name: "Take Square", coordinates: target }],
      });
      expect((await confirm(api, partnerOrders.apiKey, order.id)).body.status).toBe("in_progress");
      const other = await createZoomer(api);
      const tasks = await api.request<{ data: { id: string }[] }>("GET", `/api/v1/field/assignments?lat=${target.lat}&lng=${target.lng}&radius_km=0.5`, {
        token: zoomer.token,
      });
      const taskId = tasks.body.data[0]?.id ?? "";
      const taken = await api.request<{ status: string; reserved_until: string }>("POST", `/api/v1/field/assignments/${taskId}/take`, { token: zoomer.token });
      expect(taken.status, taken.text).toBe(200);
      expect(taken.body.status).toBe("reserved");
      await new Promise((r) => setTimeout(r, 1100));
      for (let i = 0; i < 3; i++) {
        const again = await api.request<{ status: string; reserved_until: string }>("POST", `/api/v1/field/assignments/${taskId}/take`, {
          token: zoomer.token,
        });
        expect(again.status, again.text).toBe(200);
        expect(again.body).toMatchObject({ status: "reserved", reserved_until: taken.body.reserved_until });
      }
      // Still the holder's: another zoomer cannot take it.
      expect((await api.request("POST", `/api/v1/field/assignments/${taskId}/take`, { token: other.token })).status).toBe(409);
    });
  });
}

suite("one intake key behind both doors");

describe("a repeat while QA checks the first copy", () => {
  // No worker: QA is run here, by the function the worker runs, at the moment the test chooses.
  let service: TestService;
  let api: TestClient;
  beforeAll(async () => {
    service = await startTestService(LIMITS);
    api = new TestClient(service);
  });
  afterAll(() => service.close());

  it("names the first submission while it waits for QA and while QA runs, through either door; QA approves it", async () => {
    const partner = await api.partner();
    const zoomer = await createZoomer(api);
    const mission = await api.createMission(partner.token);
    const bytes = await photo({ seed: 3300 });
    const first = await sendTus(api, zoomer.token, mission.id, bytes);
    expect(first.status, first.text).toBe(201);
    const id = first.submissionId ?? "";
    // Waiting for QA: the repeat's answer shows it as it stands, received.
    const waiting = await sendMultipart(api, zoomer.token, mission.id, bytes);
    expect(waiting.submissionId).toBe(id);
    expect(JSON.parse(waiting.text)).toMatchObject({ id, status: "received" });
    // QA running while two more copies arrive, one through each door.
    const [, viaTus, viaMultipart] = await Promise.all([
      runQa(service.runtime.ctx, id),
      sendTus(api, zoomer.token, mission.id, bytes),
      sendMultipart(api, zoomer.token, mission.id, bytes),
    ]);
    expect(viaTus.submissionId).toBe(id);
    expect(viaMultipart.submissionId).toBe(id);
    const rows = await service.runtime.ctx.db.select().from(submissions).where(eq(submissions.missionId, mission.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("approved");
    const decided = await waitForDecision(api, partner.token, id);
    expect(decided.status, decided.reasons.join(" ")).toBe("approved");
  });
});

describe("tus answers: rate-limit headers, documented statuses", () => {
  let service: TestService;
  let api: TestClient;
  beforeAll(async () => {
    service = await startTestService();
    api = new TestClient(service);
  });
  afterAll(() => service.close());

  it("every tus answer to a zoomer carries X-RateLimit-*, and each status is one the OpenAPI documents for its operation", async () => {
    const partner = await api.partner();
    const zoomer = await createZoomer(api);
    const mission = await api.createMission(partner.token);
    const document = (await api.request<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>("GET", "/api/v1/openapi.json")).body;
    const documented = (method: string, path: string) => Object.keys(document.paths[path]?.[method]?.responses ?? {}).map(Number);
    const bytes = await photo({ seed: 3400 });
    const call = async (method: string, url: string, headers: Record<string, string>, body?: Uint8Array) => {
      const response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${zoomer.token}`, ...headers },
        body: body ? new Uint8Array(body) : undefined,
      });
      const text = await response.text();
      for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"])
        expect(response.headers.get(name), `${method} ${response.status} ${name}`).toMatch(/^\d+$/);
      expect(response.headers.get("x-request-id")).toBeTruthy();
      if (response.status >= 400 && method !== "HEAD")
        expect(response.headers.get("content-type"), `${method} ${response.status} ${text}`).toMatch(/problem\+json/);
      return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as { code?: string }) : {} };
    };
    const octet = { "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream" };
    const create = await call("POST", `${service.url}${UPLOADS}`, {
      ...octet,
      "upload-length": String(bytes.length),
      "upload-metadata": encodeMetadata({ target: mission.id, angle: "front" }),
    });
    expect(create.status).toBe(201);
    const url = create.headers.get("location") ?? "";
    const item = `${UPLOADS}/{id}`;
    const answers: [string, string, Awaited<ReturnType<typeof call>>][] = [
      ["post", UPLOADS, create],
      [
        "post",
        UPLOADS,
        await call("POST", `${service.url}${UPLOADS}`, { "upload-length": String(bytes.length), "upload-metadata": encodeMetadata({ target: mission.id }) }),
      ],
      ["head", item, await call("HEAD", url, { "tus-resumable": "1.0.0" })],
      ["head", item, await call("HEAD", url, {})],
      ["patch", item, await call("PATCH", url, octet, bytes.subarray(0, 100))],
      ["patch", item, await call("PATCH", url, { ...octet, "upload-offset": "5" }, bytes.subarray(5, 100))],
      ["patch", item, await call("PATCH", url, { "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "image/jpeg" }, bytes.subarray(0, 100))],
      ["patch", item, await call("PATCH", url, { ...octet, "upload-offset": "0" }, bytes.subarray(0, 100))],
      ["patch", item, await call("PATCH", url, { ...octet, "upload-offset": "100" }, bytes.subarray(100))],
      ["delete", item, await call("DELETE", url, { "tus-resumable": "1.0.0" })],
    ];
    expect(answers.map(([, , answer]) => answer.status)).toEqual([201, 412, 200, 412, 400, 409, 415, 204, 204, 204]);
    expect(answers[4]?.[2].body.code).toBe("upload_offset_required");
    expect(answers[5]?.[2].body.code).toBe("upload_offset_mismatch");
    expect(answers[1]?.[2].headers.get("tus-version")).toBe("1.0.0");
    expect(answers[8]?.[2].headers.get("submission-id")).toMatch(/^sub_/);
    for (const [method, path, answer] of answers) expect(documented(method, path), `${method} ${path} ${answer.status}`).toContain(answer.status);
  });
});

describe("a finished tus upload on local disk is written once", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(LIMITS);
  });
  afterAll(() => service.close());

  it("is hashed where it lies and handed to the photo store as a second name of the same file (no copy)", async () => {
    const { ctx } = service.runtime;
    const bytes = await photo({ seed: 3500 });
    const id = "upl_written_once";
    await ctx.fieldUploads.datastore.create(new TusUpload({ id, size: bytes.length, offset: 0 }));
    await ctx.fieldUploads.datastore.write(Readable.from([bytes]), id, 0);
    const file = await ctx.fieldUploads.finishedFile(id, "once.jpg");
    expect(file.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(file.size).toBe(bytes.length);
    const [original, handed] = await Promise.all([stat(join(ctx.config.dataDir, "tus-uploads", id)), stat(file.tempPath)]);
    expect(handed.ino).toBe(original.ino);
    expect(handed.nlink).toBe(2);
    expect(handed.mode & 0o777).toBe(0o600);
  });
});
