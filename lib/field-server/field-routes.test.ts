import { describe, expect, it } from "vitest";
import { FIELD_ROUTES, fieldAnswer, planFieldRequest, type FieldPlan } from "./field-routes";

const ORIGIN = "http://localhost:3000";

function plan(path: string, init: RequestInit & { duplex?: "half" } = {}): FieldPlan {
  return planFieldRequest(new Request(`${ORIGIN}${path}`, init));
}

function forwarded(path: string, init: RequestInit & { duplex?: "half" } = {}) {
  const result = plan(path, init);
  if (result.kind !== "forward") throw new Error(`${init.method ?? "GET"} ${path} was refused with ${result.response.status}`);
  return result;
}

async function refused(path: string, init: RequestInit = {}): Promise<{ status: number; allow: string | null; code: unknown }> {
  const result = plan(path, init);
  if (result.kind !== "refused") throw new Error(`${init.method ?? "GET"} ${path} was forwarded to ${result.servicePath}`);
  expect(result.response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await result.response.json()) as { code: unknown };
  return { status: result.response.status, allow: result.response.headers.get("allow"), code: body.code };
}

describe("planFieldRequest: the paths the page may reach", () => {
  it.each([
    ["POST", "/field/api/uploads", "/api/v1/field/uploads"],
    ["OPTIONS", "/field/api/uploads", "/api/v1/field/uploads"],
    ["HEAD", "/field/api/uploads/upl_06h0abc", "/api/v1/field/uploads/upl_06h0abc"],
    ["PATCH", "/field/api/uploads/upl_06h0abc", "/api/v1/field/uploads/upl_06h0abc"],
    ["DELETE", "/field/api/uploads/upl_06h0abc", "/api/v1/field/uploads/upl_06h0abc"],
    ["GET", "/field/api/uploads/upl_06h0abc", "/api/v1/field/uploads/upl_06h0abc"],
    ["POST", "/field/api/missions/mis_1/submissions", "/api/v1/missions/mis_1/submissions"],
    ["POST", "/field/api/assignments/asg_1/photo", "/api/v1/field/assignments/asg_1/photo"],
    ["GET", "/field/api/missions?lat=43.77&lng=11.25", "/api/v1/field/missions?lat=43.77&lng=11.25"],
    ["GET", "/field/api/assignments?lat=1&lng=2&radius_km=1&limit=100", "/api/v1/field/assignments?lat=1&lng=2&radius_km=1&limit=100"],
    ["GET", "/field/api/assignments/asg_1", "/api/v1/field/assignments/asg_1"],
    ["GET", "/field/api/submissions/sub_1", "/api/v1/field/submissions/sub_1"],
    ["POST", "/field/api/assignments/asg_1/take", "/api/v1/field/assignments/asg_1/take"],
    ["POST", "/field/api/assignments/asg_1/release", "/api/v1/field/assignments/asg_1/release"],
  ])("%s %s → %s", (method, path, service) => {
    const result = forwarded(path, { method });
    expect(result.servicePath).toBe(service);
    expect(result.init.method).toBe(method);
  });

  it("every listed route has a page path, methods and a service path under /api/v1", () => {
    expect(FIELD_ROUTES).toHaveLength(10);
    for (const route of FIELD_ROUTES) {
      expect(route.methods.length).toBeGreaterThan(0);
      expect(route.service).toMatch(/^\/api\/v1\//);
    }
  });
});

describe("planFieldRequest: everything else is refused before the service", () => {
  it.each([
    ["a path off the list", "/field/api/orders"],
    ["the service's own path", "/field/api/v1/field/uploads"],
    ["an operator path", "/field/api/admin/v1/orgs"],
    ["a dot-dot id", "/field/api/uploads/%2E%2E"],
    ["a dot-dot segment towards another route", "/field/api/missions/..%2F..%2Forders/submissions"],
    ["an encoded slash in an id", "/field/api/uploads/upl_1%2F..%2F..%2Fadmin"],
    ["an encoded slash, lower case", "/field/api/submissions/sub_1%2fx"],
    ["an encoded backslash", "/field/api/submissions/sub_1%5C..%5Cx"],
    ["a percent-encoded id", "/field/api/assignments/%61sg_1"],
    ["an empty id", "/field/api/assignments//take"],
    ["a trailing segment", "/field/api/assignments/asg_1/take/now"],
    ["a semicolon parameter", "/field/api/submissions/sub_1;x=1"],
    ["an over-long id", `/field/api/submissions/${"s".repeat(101)}`],
    ["nothing below /field/api", "/field/api/"],
  ])("%s → 404", async (_name, path) => {
    expect(await refused(path)).toEqual({ status: 404, allow: null, code: "not_found" });
  });

  it("a plain .. never gets here: the URL parser resolves it first (and then it is on the list or not)", async () => {
    expect(new URL(`${ORIGIN}/field/api/uploads/../missions`).pathname).toBe("/field/api/missions");
    expect(await refused("/field/api/uploads/../../admin")).toMatchObject({ status: 404 });
  });

  it.each([
    ["PUT", "/field/api/uploads", "POST, OPTIONS"],
    ["GET", "/field/api/uploads", "POST, OPTIONS"],
    ["POST", "/field/api/uploads/upl_1", "HEAD, PATCH, DELETE, GET"],
    ["DELETE", "/field/api/missions/mis_1/submissions", "POST"],
    ["GET", "/field/api/assignments/asg_1/take", "POST"],
    ["POST", "/field/api/missions", "GET"],
    ["PATCH", "/field/api/submissions/sub_1", "GET"],
  ])("%s %s → 405 (Allow: %s)", async (method, path, allow) => {
    expect(await refused(path, { method })).toEqual({ status: 405, allow, code: "method_not_allowed" });
  });
});

describe("planFieldRequest: what goes through", () => {
  it("only the listed query parameters", () => {
    expect(forwarded("/field/api/missions?lat=1&lng=2&limit=5&callback=x&token=y").servicePath).toBe("/api/v1/field/missions?lat=1&lng=2");
    expect(forwarded("/field/api/submissions/sub_1?debug=1").servicePath).toBe("/api/v1/field/submissions/sub_1");
  });

  it("the tus headers on tus routes, never the browser's cookie or an authorization of its own", () => {
    const result = forwarded("/field/api/uploads/upl_1", {
      method: "PATCH",
      headers: {
        "tus-resumable": "1.0.0",
        "upload-offset": "1048576",
        "content-type": "application/offset+octet-stream",
        cookie: "pm_field_session=tok",
        authorization: "Bearer someone-else",
        "x-forwarded-for": "10.0.0.1",
      },
      body: new Uint8Array(4),
    });
    const headers = new Headers(result.init.headers);
    expect(Object.fromEntries(headers)).toEqual({ "tus-resumable": "1.0.0", "upload-offset": "1048576", "content-type": "application/offset+octet-stream" });
  });

  it("no tus headers on the other routes", () => {
    const result = forwarded("/field/api/missions/mis_1/submissions", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", "upload-length": "5" },
      body: "--x--",
    });
    expect(Object.fromEntries(new Headers(result.init.headers))).toEqual({ "content-type": "multipart/form-data; boundary=x" });
  });

  it("streams a photo post's body on as it arrives (duplex half), and sends none for a GET", async () => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3])];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const result = forwarded("/field/api/assignments/asg_1/photo", {
      method: "POST",
      body,
      duplex: "half",
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    expect(result.init.duplex).toBe("half");
    expect(result.init.body).toBeInstanceOf(ReadableStream);
    expect(new Uint8Array(await new Response(result.init.body).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(forwarded("/field/api/assignments/asg_1").init.body).toBeUndefined();
  });
});

describe("fieldAnswer", () => {
  const tus = FIELD_ROUTES.find((route) => route.page === "uploads");
  const list = FIELD_ROUTES.find((route) => route.page === "missions");
  if (!tus || !list) throw new Error("routes missing");

  it("rewrites a tus Location to the page's path and passes the tus and rate-limit headers back", () => {
    const answer = new Response(null, {
      status: 201,
      headers: {
        location: "http://localhost:3000/api/v1/field/uploads/upl_06h0abc",
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "59",
        "x-ratelimit-reset": "30",
        "set-cookie": "a=b",
      },
    });
    const out = fieldAnswer(answer, { route: tus, method: "POST" });
    expect(out.status).toBe(201);
    expect(out.headers.get("location")).toBe("/field/api/uploads/upl_06h0abc");
    expect(out.headers.get("tus-resumable")).toBe("1.0.0");
    expect(out.headers.get("upload-offset")).toBe("0");
    expect(out.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(out.headers.get("set-cookie")).toBeNull();
  });

  it("drops a tus Location whose last segment is not an id", () => {
    const answer = new Response(null, { status: 201, headers: { location: "http://localhost:3000/api/v1/field/uploads/..%2Fx" } });
    expect(fieldAnswer(answer, { route: tus, method: "POST" }).headers.get("location")).toBeNull();
  });

  it("keeps the body and status of a JSON answer, and drops the body of a HEAD", async () => {
    const json = fieldAnswer(Response.json({ missions: [] }, { status: 200, headers: { "x-ratelimit-limit": "120" } }), { route: list, method: "GET" });
    expect(await json.json()).toEqual({ missions: [] });
    expect(json.headers.get("x-ratelimit-limit")).toBe("120");
    const head = fieldAnswer(new Response("ignored", { status: 200, headers: { "upload-offset": "42" } }), { route: tus, method: "HEAD" });
    expect(head.body).toBeNull();
    expect(head.headers.get("upload-offset")).toBe("42");
  });
});
