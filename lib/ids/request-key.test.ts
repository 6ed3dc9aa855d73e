import { describe, expect, it } from "vitest";
import { newRequestKey } from "./request-key";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newRequestKey", () => {
  it("is a v4 UUID, in a secure context and outside one", () => {
    const secure = Object.getOwnPropertyDescriptor(globalThis, "isSecureContext");
    try {
      Object.defineProperty(globalThis, "isSecureContext", { value: false, configurable: true });
      const plain = newRequestKey();
      expect(plain).toMatch(V4);
      Object.defineProperty(globalThis, "isSecureContext", { value: true, configurable: true });
      expect(newRequestKey()).toMatch(V4);
      expect(newRequestKey()).not.toBe(plain);
    } finally {
      if (secure) Object.defineProperty(globalThis, "isSecureContext", secure);
      else delete (globalThis as { isSecureContext?: boolean }).isSecureContext;
    }
  });
});
