import { describe, expect, it } from "vitest";
import { isFieldShellRequest } from "./offline-caches";

const at = (path: string) => new URL(path, "https://example.test");

describe("isFieldShellRequest", () => {
  it("is the field page with or without its tab", () => {
    expect(isFieldShellRequest(at("/field"), new Headers())).toBe(true);
    expect(isFieldShellRequest(at("/field?tab=tasks"), new Headers())).toBe(true);
  });
  it("is never the zoomer's data, a server component payload or a server action", () => {
    expect(isFieldShellRequest(at("/field/api/assignments?lat=1&lng=2"), new Headers())).toBe(false);
    expect(isFieldShellRequest(at("/field?_rsc=abc"), new Headers())).toBe(false);
    expect(isFieldShellRequest(at("/field"), new Headers({ rsc: "1" }))).toBe(false);
    expect(isFieldShellRequest(at("/field"), new Headers({ "next-action": "x" }))).toBe(false);
    expect(isFieldShellRequest(at("/dashboard"), new Headers())).toBe(false);
  });
});
