import { SignJWT } from "jose";
import { DetailedError } from "tus-js-client";
import { describe, expect, it } from "vitest";
import { OUTBOX_OWNER_HEADER, outboxOwnerRefusal, sendsPhoto, waitingByOwner } from "./outbox-owner";
import { outboxEntry } from "./outbox-fixture";
import { sessionOfToken } from "@/lib/field-server/session-claims";
import { answerOutcome, ownerHeaders } from "./transport";
import { shouldRetry } from "./tus-transport";

describe("sendsPhoto", () => {
  it("is every request of a tus upload, a mission's multipart submission and a task's photo", () => {
    expect(sendsPhoto("/api/v1/field/uploads")).toBe(true);
    expect(sendsPhoto("/api/v1/field/uploads/upl_01abc")).toBe(true);
    expect(sendsPhoto("/api/v1/missions/mis_1/submissions")).toBe(true);
    expect(sendsPhoto("/api/v1/field/assignments/asg_1/photo")).toBe(true);
  });

  it("is not reading lists, a verdict, or taking a task", () => {
    expect(sendsPhoto("/api/v1/field/missions?lat=1&lng=2")).toBe(false);
    expect(sendsPhoto("/api/v1/field/submissions/sub_1")).toBe(false);
    expect(sendsPhoto("/api/v1/field/assignments/asg_1")).toBe(false);
    expect(sendsPhoto("/api/v1/field/assignments/asg_1/take")).toBe(false);
    expect(sendsPhoto("/api/v1/field/uploads/upl_1/extra")).toBe(false);
  });
});

describe("outboxOwnerRefusal", () => {
  it("lets the session's own photo through", () => {
    expect(outboxOwnerRefusal({ path: "/api/v1/field/uploads", owner: "usr_1", sessionOwner: "usr_1" })).toBeNull();
  });

  it("refuses another zoomer's photo, and a photo that names no owner, with 409 outbox_owner_mismatch", () => {
    expect(outboxOwnerRefusal({ path: "/api/v1/field/uploads/upl_1", owner: "usr_1", sessionOwner: "usr_2" })).toMatchObject({
      status: 409,
      code: "outbox_owner_mismatch",
    });
    expect(outboxOwnerRefusal({ path: "/api/v1/missions/mis_1/submissions", owner: null, sessionOwner: "usr_2" })).toMatchObject({
      status: 409,
      code: "outbox_owner_mismatch",
    });
    expect(outboxOwnerRefusal({ path: "/api/v1/field/assignments/asg_1/photo", owner: "", sessionOwner: "usr_2" })).toMatchObject({ status: 409 });
  });

  it("does not concern requests that send no photo", () => {
    expect(outboxOwnerRefusal({ path: "/api/v1/field/missions", owner: null, sessionOwner: "usr_2" })).toBeNull();
  });
});

describe("waitingByOwner", () => {
  it("counts the pending photos of each other owner, none of the signed-in zoomer's", () => {
    const entries = [{ owner: "usr_1", p: true }, { owner: "usr_1", p: true }, { owner: "usr_1", p: false }, { owner: "usr_2", p: true }, { p: true }];
    expect(waitingByOwner(entries, "usr_2", (e) => e.p)).toEqual([
      { owner: "usr_1", ownerName: null, count: 2 },
      { owner: null, ownerName: null, count: 1 },
    ]);
    expect(waitingByOwner(entries, null, (e) => e.p)).toEqual([
      { owner: "usr_1", ownerName: null, count: 2 },
      { owner: "usr_2", ownerName: null, count: 1 },
      { owner: null, ownerName: null, count: 1 },
    ]);
  });

  it("names each owner by the name stamped on their photos, the newest winning; never one without an owner", () => {
    const entries = [
      { owner: "usr_1", ownerName: "Ana", p: true },
      { owner: "usr_1", p: true },
      { owner: "usr_2", ownerName: "Bo", p: true },
      { owner: "usr_2", ownerName: "Bo Li", p: true },
      { owner: "usr_3", ownerName: "Cy", p: false },
      { ownerName: "Nobody's", p: true },
    ];
    expect(waitingByOwner(entries, null, (e) => e.p)).toEqual([
      { owner: "usr_1", ownerName: "Ana", count: 2 },
      { owner: "usr_2", ownerName: "Bo Li", count: 2 },
      { owner: null, ownerName: null, count: 1 },
    ]);
  });
});

describe("the owner on the wire", () => {
  it("every send names the entry's owner", () => {
    expect(ownerHeaders(outboxEntry({ owner: "usr_7" }))).toEqual({ [OUTBOX_OWNER_HEADER]: "usr_7" });
  });

  it("a 409 outbox_owner_mismatch is 'wait for the owner', not a refusal nor a lost signal", () => {
    const body = JSON.stringify({ status: 409, code: "outbox_owner_mismatch", detail: "another zoomer" });
    expect(answerOutcome(409, body, "no signal")).toEqual({
      kind: "wrong-owner",
      error: "another zoomer",
      code: { code: "problem.outbox_owner_mismatch", params: { status: 409 } },
    });
    expect(answerOutcome(409, JSON.stringify({ code: "conflict", detail: "x" }), "no signal").kind).toBe("refused");
    // The service's caps on unfinished uploads clear as they finish or expire: the photo waits, with the server's reason.
    for (const code of ["too_many_open_uploads", "upload_quota_exceeded"]) {
      expect(answerOutcome(409, JSON.stringify({ code, detail: "20 open" }), "no signal")).toEqual({
        kind: "lost-signal",
        error: "20 open",
        code: { code: `problem.${code}`, params: { status: 409 } },
      });
    }
    expect(answerOutcome(401, "{}", "no signal").kind).toBe("lost-signal");
    expect(answerOutcome(0, "", "no signal")).toMatchObject({ kind: "lost-signal", error: "no signal" });
  });

  it("tus does not retry a refusal for another owner by itself, but still retries a tus offset conflict", () => {
    const response = (status: number, body: string) => ({
      getStatus: () => status,
      getBody: () => body,
      getHeader: () => undefined,
      getUnderlyingObject: () => null,
    });
    const error = (status: number, body: string) => Object.assign(new DetailedError("failed"), { originalResponse: response(status, body) });
    expect(shouldRetry(error(409, JSON.stringify({ code: "outbox_owner_mismatch" })), true)).toBe(false);
    expect(shouldRetry(error(409, JSON.stringify({ code: "offset_mismatch" })), true)).toBe(true);
    expect(shouldRetry(error(503, ""), true)).toBe(true);
    expect(shouldRetry(error(503, ""), false)).toBe(false);
    expect(shouldRetry(error(415, ""), true)).toBe(false);
  });
});

describe("sessionOfToken", () => {
  const key = new TextEncoder().encode("a test key that is long enough for HS256");
  const token = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(key);

  it("reads the zoomer, their name and the end of the cookie (a minute before the token's)", async () => {
    expect(sessionOfToken(await token({ zoomer: "usr_1", zoomer_name: "Ana", client_id: "cli_1", exp: 2_000_000_000 }))).toEqual({
      zoomerId: "usr_1",
      zoomerName: "Ana",
      expiresAt: new Date((2_000_000_000 - 60) * 1000).toISOString(),
    });
  });

  it("has no name for a token issued before names were, or with an odd one, and keeps the session", async () => {
    expect(sessionOfToken(await token({ zoomer: "usr_1", client_id: "cli_1", exp: 2_000_000_000 }))).toMatchObject({ zoomerId: "usr_1", zoomerName: null });
    expect(sessionOfToken(await token({ zoomer: "usr_1", zoomer_name: 7, client_id: "cli_1", exp: 2_000_000_000 }))).toMatchObject({
      zoomerId: "usr_1",
      zoomerName: null,
    });
    expect(sessionOfToken(await token({ zoomer: "usr_1", zoomer_name: "   ", client_id: "cli_1", exp: 2_000_000_000 }))).toMatchObject({
      zoomerId: "usr_1",
      zoomerName: null,
    });
  });

  it("names the client for a token without a zoomer, and nobody for something else", async () => {
    expect(sessionOfToken(await token({ client_id: "cli_1", exp: 2_000_000_000 }))?.zoomerId).toBe("cli_1");
    expect(sessionOfToken(await token({ zoomer: "usr_1", exp: 2_000_000_000 }))).toBeNull();
    expect(sessionOfToken("not a token")).toBeNull();
  });
});
