import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator, type AbstractIntlMessages } from "next-intl";
import { describe, expect, it } from "vitest";
import { noResultsMessage, searchPlaceholder, type SearchWords } from "./search-status";

const wordsIn = (locale: string): SearchWords => {
  const messages = JSON.parse(readFileSync(join(import.meta.dirname, `../../messages/${locale}/dashboard.json`), "utf8")) as AbstractIntlMessages;
  // The catalogue's keys are only known at run time here.
  const t = createTranslator({ locale, messages }) as unknown as (key: string, values?: { query: string }) => string;
  return (key, values) => t(`map.search.${key}`, values);
};

describe("the map search's words", () => {
  const t = wordsIn("en");

  it("says plainly that only cities and towns are searched without a geocoder", () => {
    const text = noResultsMessage("Duomo", { geocoder: false, geocoderFailed: false }, t);
    expect(text).toContain("Nothing called “Duomo” was found.");
    expect(text).toContain("Only cities and towns are searched here");
    expect(text).toContain("lat, lng");
    expect(searchPlaceholder(false, t)).toBe("City, town or lat, lng");
  });

  it("says so too when the configured geocoder is unavailable, and less when it answered", () => {
    expect(noResultsMessage("Duomo", { geocoder: true, geocoderFailed: true }, t)).toContain(
      "The address search is unavailable just now, so only cities and towns",
    );
    expect(noResultsMessage("Duomo", { geocoder: true, geocoderFailed: false }, t)).not.toContain("cities and towns");
    expect(searchPlaceholder(true, t)).toBe("Place, address or lat, lng");
  });

  it("speaks the reader's language", () => {
    expect(noResultsMessage("Duomo", { geocoder: false, geocoderFailed: false }, wordsIn("de"))).toContain("„Duomo“");
  });
});
