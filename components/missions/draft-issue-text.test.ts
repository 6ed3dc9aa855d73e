import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator, type AbstractIntlMessages } from "next-intl";
import { describe, expect, it } from "vitest";
import { describeDraft } from "@/lib/geo/describe-draft";
import { formatAreaIn } from "@/lib/geo/format-measure";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { draftIssueText, type IssueWords } from "./draft-issue-text";

const wordsIn = (locale: string): IssueWords => {
  const messages = JSON.parse(readFileSync(join(import.meta.dirname, `../../messages/${locale}/missions.json`), "utf8")) as AbstractIntlMessages;
  // The catalogue's keys are only known at run time here.
  const t = createTranslator({ locale, messages }) as unknown as (key: string, values?: Record<string, string | number>) => string;
  return (key, values) => t(`editor.issues.${key}`, values);
};

const bowtie: PolygonGeometry = {
  type: "Polygon",
  coordinates: [
    [
      [11.24, 43.76],
      [11.25, 43.77],
      [11.25, 43.76],
      [11.24, 43.77],
      [11.24, 43.76],
    ],
  ],
};
const tiny: PolygonGeometry = {
  type: "Polygon",
  coordinates: [
    [
      [11.24, 43.76],
      [11.24005, 43.76],
      [11.24005, 43.76005],
      [11.24, 43.76],
    ],
  ],
};

describe("draftIssueText", () => {
  it("says in English what describeDraft says", () => {
    for (const polygon of [bowtie, tiny]) {
      for (const issue of describeDraft(polygon).issues)
        expect(draftIssueText(issue, wordsIn("en"), (m2) => formatAreaIn(m2, "en-GB"))).toBe(issue.message.replace(/ (m²|km²)/g, "\u00a0$1"));
    }
  });

  it("speaks the reader's language, with the reader's units", () => {
    const [crossing] = describeDraft(bowtie).issues;
    if (!crossing) throw new Error("the bow-tie crosses itself");
    expect(draftIssueText(crossing, wordsIn("de"), (m2) => formatAreaIn(m2, "de"))).toBe(
      "Der Umriss kreuzt sich selbst: Die Kante von Eckpunkt 1 nach 2 kreuzt die Kante von Eckpunkt 3 nach 4.",
    );
    const [small] = describeDraft(tiny).issues;
    if (!small) throw new Error("the triangle is too small");
    expect(draftIssueText(small, wordsIn("de"), (m2) => formatAreaIn(m2, "de"))).toMatch(
      /^Die Fläche ist zu klein: \d+\u00a0m² \(das Minimum ist 100\u00a0m²\)\.$/,
    );
  });
});
