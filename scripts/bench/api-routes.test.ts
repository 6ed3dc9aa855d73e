import { describe, expect, it } from "vitest";
import { firstDifference } from "./api-routes";

describe("firstDifference (does the peer send what we send?)", () => {
  it("sets the answer's moments aside: ISO instants and a signed URL's expiry", () => {
    const ours = '{"created_at":"2026-12-02T13:28:09.562Z","url":"https://x/p.jpg?exp=1764682089&sig=ab"}';
    const peer = '{"created_at":"2026-12-02T13:28:09.588Z","url":"https://x/p.jpg?exp=1764682090&sig=ab"}';
    expect(firstDifference(ours, peer)).toBeUndefined();
  });

  it("sets aside the id a quote gives a location sent without one, but not an id sent", () => {
    const located = (id: string) => `{"locations":[{"location_id":"${id}","name":"Ponte Vecchio"}]}`;
    expect(firstDifference(located("loc_06h3e7qgbpfsv0n6vr5f1eqqdr"), located("loc_06h3e7qge1a6r2jft77pp3yy88"))).toBeUndefined();
    expect(firstDifference(located("loc_duomo"), located("loc_uffizi"))).toMatch(/^at character 34: /);
  });

  it("names where a value differs, with what is around it", () => {
    const difference = firstDifference('{"basis":{"similar_tasks":92,"radius_km":25}}', '{"basis":{"similar_tasks":97,"radius_km":25}}');
    expect(difference).toMatch(/^at character 27: ours ".*similar_tasks\\":92,.*", the peer ".*similar_tasks\\":97,.*"$/);
  });

  it("names an answer that is longer than the other", () => {
    expect(firstDifference('{"data":[]}', '{"data":[1]}')).toMatch(/^at character 9: /);
  });
});
