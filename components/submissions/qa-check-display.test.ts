import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { QA_CHECKS } from "@/lib/schemas/qa";
import { qaCheckLabel, qaFigure, type QaWords } from "./qa-check-display";
import type { QaCheck } from "./types";

/** The dashboard catalogue's QA words in a language, as the page reads them. */
function words(catalogue: string, locale: string): QaWords {
  const dashboard = JSON.parse(readFileSync(join(import.meta.dirname, `../../messages/${catalogue}/dashboard.json`), "utf8")) as Record<string, never>;
  const errors: string[] = [];
  const translate = createTranslator({ locale, messages: { dashboard }, namespace: "dashboard", onError: (e) => errors.push(e.message) });
  return {
    locale,
    t: (key, values) => {
      const out = translate(`submissions.qa.${key}` as never, values as never);
      if (errors.length > 0) throw new Error(errors.join("; "));
      return out;
    },
  };
}

const en = words("en", "en-GB");
const passed = (check: QaCheck["check"], value: QaCheck["value"], threshold: QaCheck["threshold"] = null): QaCheck => ({
  check,
  passed: true,
  value,
  threshold,
  message: "",
});
const shown = (c: QaCheck, w: QaWords = en) => {
  const f = qaFigure(c, w);
  return [f.measured, f.threshold].filter(Boolean).join(" · ");
};

describe("qaFigure", () => {
  it("words passed checks with their units, never as raw values", () => {
    expect(shown(passed("decodable", true))).toBe("the pixels decode");
    expect(shown(passed("exif_present", true))).toBe("camera metadata found");
    expect(shown(passed("gps_present", "45.4642,9.19"))).toBe("45.46420° N, 9.19000° E");
    expect(shown(passed("gps_present", "-33.8568,-70.6483"))).toBe("33.85680° S, 70.64830° W");
    expect(shown(passed("inside_bounds", 0, 31.4))).toBe("inside the area · 31.4 m allowed");
    expect(shown(passed("inside_bounds", 12.25, 31.4))).toBe("12.3 m outside the area · 31.4 m allowed");
    expect(shown(passed("resolution", 3000, 480))).toBe("shorter side 3,000 px · at least 480 px");
    expect(shown(passed("sharpness", 152.34, 40))).toBe("sharpness 152.3 · at least 40");
    expect(shown(passed("exposure", 120, "35–225"))).toBe("mean brightness 120 of 255 · 35–225 allowed");
    expect(shown(passed("duplicate", null, 4))).toBe("no earlier photo alike · a repeat differs in 4 of 64 hash bits or fewer");
  });

  it("never shows the raw forms the API records", () => {
    const raw = [
      passed("decodable", true),
      passed("exif_present", true),
      passed("inside_bounds", 0, 31.4),
      passed("duplicate", null, 4),
      passed("capture_time", "2026-11-27T10:00:00.000Z"),
    ].map((c) => shown(c));
    for (const text of raw) {
      expect(text).not.toMatch(/^(true|false)$/);
      expect(text).not.toContain("—");
      expect(text).not.toMatch(/^\d+(\.\d+)? \/ /);
    }
  });

  it("words a capture time against the side of the window it missed", () => {
    const early: QaCheck = { check: "capture_time", passed: false, value: "2026-01-01T10:00:00Z", threshold: "2026-11-27T09:00:00.000Z", message: "" };
    expect(qaFigure(early, en).measured).toMatch(/^taken 1 Jan/);
    expect(qaFigure(early, en).threshold).toMatch(/^not before 27 Nov/);
    const late: QaCheck = { ...early, value: "2027-01-01T10:00:00Z" };
    expect(qaFigure(late, en).threshold).toMatch(/^not after 27 Nov/);
  });

  it("says what a failed check found", () => {
    expect(shown({ check: "duplicate", passed: false, value: "img_abc", threshold: 4, message: "" })).toMatch(/^repeats img_abc/);
    expect(shown({ check: "gps_present", passed: false, value: null, threshold: null, message: "" })).toBe("no position recorded");
  });

  it("says labels, figures and hemispheres in the reader's language, numbers in the reader's format", () => {
    const de = words("de", "de");
    expect(QA_CHECKS.map((c) => qaCheckLabel(c, de))).not.toContain("Decodable image");
    expect(qaCheckLabel("duplicate", de)).toBe("Kein Duplikat");
    expect(shown(passed("gps_present", "45.4642,9.19"), de)).toBe("45,46420° N, 9,19000° O");
    expect(shown(passed("inside_bounds", 12.25, 31.4), de)).toBe("12,3 m außerhalb des Gebiets · 31,4 m erlaubt");
    const es = words("es", "es");
    expect(qaCheckLabel("inside_bounds", es)).toBe("Dentro del área de la misión");
    expect(shown(passed("gps_present", "-33.8568,-70.6483"), es)).toBe("33,85680° S, 70,64830° O");
    const ja = words("ja", "ja");
    expect(shown(passed("gps_present", "35.6586,139.7454"), ja)).toBe("北緯35.65860°、東経139.74540°");
    const ar = words("ar", "ar");
    expect(shown(passed("gps_present", "45.4642,9.19"), ar)).toMatch(/شمالًا، .*شرقًا$/);
  });

  it("has a label and words for every check in every dashboard language", () => {
    for (const [catalogue, locale] of [
      ["en", "en-GB"],
      ["es", "es"],
      ["fr", "fr"],
      ["de", "de"],
      ["pt", "pt"],
      ["it", "it"],
      ["ja", "ja"],
      ["ar", "ar"],
    ] as const) {
      const w = words(catalogue, locale);
      const samples: QaCheck[] = [
        passed("decodable", false),
        passed("exif_present", false),
        passed("gps_present", null),
        passed("inside_bounds", null, 31.4),
        passed("capture_time", "2026-01-01T10:00:00Z", "2026-11-27T09:00:00Z"),
        passed("capture_time", null),
        passed("resolution", null, 480),
        passed("sharpness", 10, 40),
        passed("exposure", null, "35–225"),
        passed("duplicate", "img_1", 4),
      ];
      for (const c of QA_CHECKS) expect(qaCheckLabel(c, w), `${catalogue} ${c}`).not.toBe("");
      for (const c of samples) expect(shown(c, w), `${catalogue} ${c.check}`).not.toMatch(/dashboard\.|figures\./);
    }
  });
});
