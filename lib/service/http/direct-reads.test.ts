// The direct reads stand in for app routes only while the app agrees: checked when the listener is made.
import { describe, expect, it } from "vitest";
import { checkDirectReads, type AppRoute } from "./direct-reads";

const APP: AppRoute[] = [
  { method: "ALL", path: "/*" },
  { method: "GET", path: "/api/v1/missions" },
  { method: "GET", path: "/api/v1/missions/:id" },
  { method: "PATCH", path: "/api/v1/missions/:id" },
  { method: "GET", path: "/api/v1/missions/:id/submissions" },
  { method: "GET", path: "/api/orders/v1/prices" },
  { method: "GET", path: "/api/orders/v1/orders" },
  { method: "GET", path: "/api/orders/v1/orders/:id" },
  { method: "GET", path: "/api/orders/v1/orders/:id/photos" },
  { method: "GET", path: "/api/orders/v1/orders/:id/photos.zip" },
  { method: "GET", path: "/api/orders/v1/orders/:id/missions" },
  { method: "POST", path: "/api/orders/v1/orders" },
  { method: "POST", path: "/api/orders/v1/orders/quote" },
  { method: "POST", path: "/api/orders/v1/orders/:id/confirm" },
];

describe("checkDirectReads", () => {
  it("accepts the app as it is", () => {
    expect(() => checkDirectReads(APP)).not.toThrow();
  });

  it("refuses when a route a direct read stands in for is gone", () => {
    expect(() => checkDirectReads(APP.filter((r) => r.path !== "/api/orders/v1/prices"))).toThrow(/no GET \/api\/orders\/v1\/prices/);
    expect(() => checkDirectReads(APP.filter((r) => r.path !== "/api/orders/v1/orders/quote"))).toThrow(/no POST \/api\/orders\/v1\/orders\/quote/);
  });

  it("refuses a POST route of the app that would also answer the quote's path", () => {
    expect(() => checkDirectReads([...APP, { method: "POST", path: "/api/orders/v1/orders/:id" }])).toThrow(/POST \/api\/orders\/v1\/orders\/:id also answers/);
  });

  it("refuses a static sibling that the direct read would take for an id", () => {
    expect(() => checkDirectReads([...APP, { method: "GET", path: "/api/v1/missions/export" }])).toThrow(/GET \/api\/v1\/missions\/export also answers/);
    // …and one before what follows the id.
    expect(() => checkDirectReads([...APP, { method: "GET", path: "/api/orders/v1/orders/drafts/photos" }])).toThrow(
      /GET \/api\/orders\/v1\/orders\/drafts\/photos also answers/,
    );
  });

  it("refuses middleware that the direct read would skip", () => {
    expect(() => checkDirectReads([...APP, { method: "ALL", path: "/api/v1/*" }])).toThrow(/ALL \/api\/v1\/\* also answers/);
    expect(() => checkDirectReads([...APP, { method: "ALL", path: "/api/orders/v1/prices" }])).toThrow(/middleware of its own/);
  });
});
