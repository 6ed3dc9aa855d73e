import { describe, expect, it } from "vitest";
import { noResultsMessage, searchPlaceholder } from "./search-status";

describe("the map search's words", () => {
  it("says plainly that only cities and towns are searched without a geocoder", () => {
    const text = noResultsMessage("Duomo", { geocoder: false, geocoderFailed: false });
    expect(text).toContain("Nothing called “Duomo” was found.");
    expect(text).toContain("Only cities and towns are searched here");
    expect(text).toContain("lat, lng");
    expect(searchPlaceholder(false)).toBe("City, town or lat, lng");
  });

  it("says so too when the configured geocoder is unavailable, and less when it answered", () => {
    expect(noResultsMessage("Duomo", { geocoder: true, geocoderFailed: true })).toContain("The address search is unavailable just now, so only cities and towns");
    expect(noResultsMessage("Duomo", { geocoder: true, geocoderFailed: false })).not.toContain("cities and towns");
    expect(searchPlaceholder(true)).toBe("Place, address or lat, lng");
  });
});
