// How well text read from a photo (OCR) contains a brand name. Signs are read imperfectly — a
// letter lost to a reflection, an O read as 0, words split across lines — so the brand is compared,
// spaces and accents aside, with every stretch of the text of about its length, and the best
// similarity (1 − edit distance / length) is the score.

/** A brand counts as found from this similarity: one wrong letter in a ten-letter name passes. */
export const BRAND_MATCH_MIN_SIMILARITY = 0.8;

/** Letters and digits only, upper case, accents removed; OCR's usual digit-for-letter swaps undone. */
export function normaliseForBrand(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
}

// The digit/letter swaps OCR makes on signs, compared as equal (a brand may contain real digits).
const LOOKALIKE: Record<string, string> = { "0": "O", "1": "I", "5": "S", "8": "B" };
const same = (a: string, b: string) => a === b || LOOKALIKE[a] === b || LOOKALIKE[b] === a;

/** Edit distance of `needle` against the best-fitting substring of `haystack` (Sellers' algorithm). */
function bestSubstringDistance(needle: string, haystack: string): { distance: number; end: number } {
  let previous = Array.from({ length: needle.length + 1 }, (_, i) => i);
  let best = { distance: needle.length, end: 0 };
  for (let j = 1; j <= haystack.length; j++) {
    const current = [0];
    for (let i = 1; i <= needle.length; i++) {
      const substitution = (previous[i - 1] ?? 0) + (same(needle[i - 1] ?? "", haystack[j - 1] ?? "") ? 0 : 1);
      current[i] = Math.min(substitution, (previous[i] ?? 0) + 1, (current[i - 1] ?? 0) + 1);
    }
    const distance = current[needle.length] ?? needle.length;
    if (distance < best.distance) best = { distance, end: j };
    previous = current;
  }
  return best;
}

export interface BrandMatch {
  /** 0–1: 1 is the brand letter for letter. */
  similarity: number;
  /** The stretch of normalised text that matched best (null when nothing was read). */
  found: string | null;
}

export function brandMatch(text: string, brand: string): BrandMatch {
  const needle = normaliseForBrand(brand);
  const haystack = normaliseForBrand(text);
  if (!needle || !haystack) return { similarity: 0, found: null };
  const { distance, end } = bestSubstringDistance(needle, haystack);
  const similarity = Math.max(0, 1 - distance / needle.length);
  const start = Math.max(0, end - needle.length);
  return { similarity: Math.round(similarity * 1000) / 1000, found: similarity > 0 ? haystack.slice(start, end) : null };
}
