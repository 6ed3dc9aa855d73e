// Against a geocoder the test starts on loopback: the real fetch, the real parsing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { searchGeocoder } from "./search-geocoder";

let server: Server;
let origin: string;
const seen: URL[] = [];
let answer: { status: number; body: string; delayMs?: number } = { status: 200, body: "[]" };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(new URL(req.url ?? "/", "http://127.0.0.1"));
    const reply = () => res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
    if (answer.delayMs) setTimeout(reply, answer.delayMs);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("searchGeocoder", () => {
  it("reads Nominatim's answer and sends the query, a limit and the JSON format", async () => {
    answer = {
      status: 200,
      body: JSON.stringify([
        {
          display_name: "Ponte Vecchio, Firenze, Italia",
          lat: "43.7679",
          lon: "11.2531",
          boundingbox: ["43.7675", "43.7683", "11.2526", "11.2536"],
          osm_id: 1,
        },
      ]),
    };
    const result = await searchGeocoder({ url: `${origin}/search`, query: "  ponte vecchio " });
    expect(result).toEqual({
      ok: true,
      places: [{ name: "Ponte Vecchio, Firenze, Italia", lat: 43.7679, lng: 11.2531, bbox: [11.2526, 43.7675, 11.2536, 43.7683] }],
    });
    const request = seen.at(-1);
    expect(request?.pathname).toBe("/search");
    expect(request?.searchParams.get("q")).toBe("ponte vecchio");
    expect(request?.searchParams.get("limit")).toBe("5");
    expect(request?.searchParams.get("format")).toBe("jsonv2");
  });

  it("reads Photon's GeoJSON answer", async () => {
    answer = {
      status: 200,
      body: JSON.stringify({
        type: "FeatureCollection",
        features: [
          {
            type: "Feature",
            geometry: { type: "Point", coordinates: [11.2558, 43.7696] },
            properties: { name: "Firenze", state: "Toscana", country: "Italia", extent: [11.15, 43.83, 11.34, 43.72] },
          },
        ],
      }),
    };
    const result = await searchGeocoder({ url: `${origin}/api?lang=it`, query: "firenze" });
    expect(result).toEqual({ ok: true, places: [{ name: "Firenze, Toscana, Italia", lat: 43.7696, lng: 11.2558, bbox: [11.15, 43.72, 11.34, 43.83] }] });
    expect(seen.at(-1)?.searchParams.get("lang")).toBe("it");
  });

  it("does not call the geocoder for a query shorter than two characters", async () => {
    const before = seen.length;
    expect(await searchGeocoder({ url: `${origin}/search`, query: " a " })).toEqual({ ok: true, places: [] });
    expect(seen).toHaveLength(before);
  });

  it("reports an error status, an answer it cannot read and a timeout as unavailable", async () => {
    answer = { status: 503, body: "{}" };
    expect(await searchGeocoder({ url: `${origin}/search`, query: "firenze" })).toEqual({ ok: false, reason: "The geocoder answered 503." });
    answer = { status: 200, body: JSON.stringify({ results: [] }) };
    expect(await searchGeocoder({ url: `${origin}/search`, query: "firenze" })).toEqual({ ok: false, reason: "The geocoder's answer was not understood." });
    answer = { status: 200, body: JSON.stringify([{ display_name: "Nowhere", lat: "95", lon: "0" }]) };
    expect((await searchGeocoder({ url: `${origin}/search`, query: "firenze" })).ok).toBe(false);
    answer = { status: 200, body: "[]", delayMs: 500 };
    expect(await searchGeocoder({ url: `${origin}/search`, query: "firenze", timeoutMs: 50 })).toEqual({
      ok: false,
      reason: "The geocoder did not answer in time.",
    });
  });
});
