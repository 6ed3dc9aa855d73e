// The local OCR analyser on real JPEGs: a street scene with a shop sign (drawn by the demo's photo
// maker with a system font) is read by Tesseract, and the brand found or not; through
// runAnalysisChecks, the checks it cannot judge stay not evaluated with the reason.
import { afterAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { BRAND_MATCH_MIN_SIMILARITY } from "./brand-match";
import { runAnalysisChecks } from "./checks";
import { OcrAnalyser } from "./ocr-analyser";

const analyser = new OcrAnalyser();
afterAll(() => analyser.close());

// Tesseract starts in ≈2 s and reads a photo in ≈1 s on an idle core; a loaded CI machine is slower.
const OCR_TIMEOUT_MS = 120_000;

describe("OcrAnalyser", () => {
  it(
    "finds the brand on a shop sign in the photo",
    async () => {
      const image = await makePhoto({ sign: "Gelateria dei Neri", seed: 7 });
      const out = await runAnalysisChecks(analyser, { image, checks: ["brand_match"], brand: "Gelateria dei Neri" }, { timeoutMs: OCR_TIMEOUT_MS });
      expect(out.brand_match).toMatchObject({ status: "passed", passed: true, value: "GELATERIADEINERI" });
      expect(out.brand_match?.score).toBeGreaterThanOrEqual(BRAND_MATCH_MIN_SIMILARITY);
      expect(out.brand_match?.extra).toMatchObject({ analyser: "local OCR", similarity_threshold: BRAND_MATCH_MIN_SIMILARITY });
    },
    OCR_TIMEOUT_MS,
  );

  it(
    "fails a photo whose sign names another shop, with the instruction to frame the sign",
    async () => {
      const image = await makePhoto({ sign: "Farmacia Comunale", seed: 8 });
      const out = await runAnalysisChecks(analyser, { image, checks: ["brand_match"], brand: "Gelateria dei Neri" }, { timeoutMs: OCR_TIMEOUT_MS });
      expect(out.brand_match).toMatchObject({ status: "failed", passed: false });
      expect(out.brand_match?.score).toBeLessThan(BRAND_MATCH_MIN_SIMILARITY);
      expect(out.brand_match?.instruction).toMatch(/Gelateria dei Neri.*in the frame and readable/);
    },
    OCR_TIMEOUT_MS,
  );

  it("leaves what it cannot judge (crowd, obstruction) not evaluated, saying why, without reading the photo", async () => {
    const image = await makePhoto({ seed: 9 });
    const out = await runAnalysisChecks(analyser, { image, checks: ["obstruction", "minimum_crowd"], crowd: "high" });
    expect(out.obstruction).toMatchObject({ status: "not_evaluated", passed: false });
    expect(out.obstruction?.message).toMatch(/local OCR analyser reads text only.*was not checked\./);
    // How to configure the analyser is for the operator (docs/operations.md), not for an API or dashboard reader.
    expect(out.obstruction?.message).not.toContain("ANALYSER_URL");
    expect(out.minimum_crowd).toMatchObject({ status: "not_evaluated", passed: false });
  });
});
