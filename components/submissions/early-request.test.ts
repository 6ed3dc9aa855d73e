import { describe, expect, it } from "vitest";
import { earlyRequestScript, takeEarlyRequest } from "./early-request";

describe("earlyRequestScript", () => {
  it("starts the request and registers it under its URL", async () => {
    const url = "/dashboard-api/missions/mission_abc/submission-points?";
    const calls: [string, RequestInit][] = [];
    const scope: { window: Record<string, unknown>; fetch: (u: string, init: RequestInit) => Promise<Response> } = {
      window: {},
      fetch: (u, init) => {
        calls.push([u, init]);
        return Promise.resolve(new Response("{}"));
      },
    };
    new Function("window", "fetch", earlyRequestScript(url))(scope.window, scope.fetch);
    expect(calls).toEqual([[url, { cache: "no-store", credentials: "same-origin" }]]);
    const registered = scope.window.__pmEarlyRequests as Record<string, Promise<Response>>;
    expect(await (await takeEarlyRequest(url, { __pmEarlyRequests: registered }))?.text()).toBe("{}");
  });

  it("cannot be broken out of by the URL", () => {
    const script = earlyRequestScript("/dashboard-api/x</script><script>alert(1)//");
    expect(script).not.toContain("</script>");
    expect(script).toContain("\\u003c/script>");
  });

  it("refuses anything but a dashboard-proxy path", () => {
    expect(() => earlyRequestScript("https://elsewhere.example/points")).toThrow(/dashboard-proxy/);
    expect(() => earlyRequestScript("/api/v1/missions")).toThrow(/dashboard-proxy/);
  });
});

describe("takeEarlyRequest", () => {
  it("hands a pending request to the first caller only", () => {
    const pending = Promise.resolve(new Response(""));
    const scope = { __pmEarlyRequests: { "/dashboard-api/a": pending } };
    expect(takeEarlyRequest("/dashboard-api/a", scope)).toBe(pending);
    expect(takeEarlyRequest("/dashboard-api/a", scope)).toBeNull();
  });

  it("is null when nothing was started", () => {
    expect(takeEarlyRequest("/dashboard-api/a", {})).toBeNull();
  });
});
