import { describe, expect, it } from "vitest";
import { catalogueOf, directionOf, parseAcceptLanguage, resolveLocale, usesImperial } from "./locales";

describe("resolveLocale", () => {
  it("takes the first language of Accept-Language it has a catalogue for, keeping its region", () => {
    expect(resolveLocale({ acceptLanguage: "da, es-MX;q=0.9, en;q=0.5" })).toEqual({ locale: "es-MX", catalogue: "es" });
    expect(resolveLocale({ acceptLanguage: "en-US,en;q=0.9" })).toEqual({ locale: "en-US", catalogue: "en" });
    expect(resolveLocale({ acceptLanguage: "ar" })).toEqual({ locale: "ar", catalogue: "ar" });
  });

  it("prefers the account's setting, then the remembered cookie, then the header", () => {
    expect(resolveLocale({ account: "ja", cookie: "de", acceptLanguage: "es" }).catalogue).toBe("ja");
    expect(resolveLocale({ cookie: "de", acceptLanguage: "es" }).catalogue).toBe("de");
    // The header's region still applies to the cookie's language: the clock and units of en-US.
    expect(resolveLocale({ cookie: "en", acceptLanguage: "en-US" })).toEqual({ locale: "en-US", catalogue: "en" });
  });

  it("falls back to English for no header, an unknown language or a bad cookie", () => {
    expect(resolveLocale({})).toEqual({ locale: "en", catalogue: "en" });
    expect(resolveLocale({ acceptLanguage: "da, *;q=0.1" }).catalogue).toBe("en");
    expect(resolveLocale({ cookie: "not a locale", acceptLanguage: "" }).catalogue).toBe("en");
  });

  it("reads Simplified Chinese from zh-CN but not Traditional from zh-TW", () => {
    expect(catalogueOf("zh-CN")).toBe("zh");
    expect(catalogueOf("zh-TW")).toBeNull();
  });

  it("honours q-values", () => {
    expect(parseAcceptLanguage("fr;q=0.2, de;q=0.8, it")).toEqual(["it", "de", "fr"]);
  });
});

it("mirrors Arabic and Hebrew, and measures in miles only where the region does", () => {
  expect(directionOf("ar-EG")).toBe("rtl");
  expect(directionOf("he")).toBe("rtl");
  expect(directionOf("es")).toBe("ltr");
  expect(usesImperial("en-US")).toBe(true);
  expect(usesImperial("en-GB")).toBe(false);
  expect(usesImperial("en")).toBe(false);
});
