import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldName, indexPlaces, placesFromGeoJson, searchPlaces } from "./place-search";

const index = indexPlaces(placesFromGeoJson(JSON.parse(readFileSync(join(process.cwd(), "public", "basemap", "places.geojson"), "utf8"))));

describe("place search over the bundled basemap places", () => {
  it("reads thousands of places from the file the offline basemap uses", () => {
    expect(index.places.length).toBeGreaterThan(5000);
  });

  it("finds a city by the start of its name, without accents or case", () => {
    const florence = searchPlaces(index, "floren").find((p) => p.name === "Florence");
    expect(florence?.lat).toBeCloseTo(43.77, 1);
    expect(searchPlaces(index, "florence")[0]?.name).toBe("Florence");
    expect(searchPlaces(index, "SAO PAULO")[0]?.name).toBe("São Paulo");
  });

  it("puts names that start with the query before names that only contain it", () => {
    const names = searchPlaces(index, "york", 20).map((p) => foldName(p.name));
    expect(names[0]?.startsWith("york")).toBe(true);
    expect(names).toContain("new york city");
  });

  it("needs two characters", () => {
    expect(searchPlaces(index, "f")).toEqual([]);
  });
});
