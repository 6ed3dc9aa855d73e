// The pseudo-locale: English with accented letters and ~40 % more length, so a hard-coded (still
// plain) string or a label cut short stands out in tests. ICU arguments and tags stay untouched.

const ACCENTS: Record<string, string> = {
  a: "á",
  e: "é",
  i: "í",
  o: "ö",
  u: "ü",
  c: "ç",
  n: "ñ",
  y: "ý",
  A: "Å",
  E: "É",
  I: "Î",
  O: "Ö",
  U: "Û",
  C: "Ç",
  N: "Ñ",
  Y: "Ý",
};

/** Accents letters outside {…} arguments and <tags>, then pads the text by ~40 % inside [ ] ("[Séñd phötö ~~~~]"). */
export function pseudoLocalise(text: string): string {
  let depth = 0;
  let inTag = false;
  let letters = 0;
  let out = "";
  for (const ch of text) {
    if (ch === "{") depth += 1;
    if (ch === "}") depth -= 1;
    // In an ICU plural or select, the words inside the branches ({…} at depth ≥ 2 after the keyword) are text again.
    if (ch === "<" && depth === 0) inTag = true;
    const translatable = !inTag && (depth === 0 || depth % 2 === 0);
    if (ch === ">" && inTag) inTag = false;
    if (translatable && /\p{L}/u.test(ch)) letters += 1;
    out += translatable ? (ACCENTS[ch] ?? ch) : ch;
  }
  // Padding as short "words", so it wraps where a long translation's words would.
  const padding = "~".repeat(Math.ceil(letters * 0.4)).replace(/~{4}(?=~)/g, "~~~~ ");
  return letters ? `[${out} ${padding}]` : out;
}

export type Messages = { [key: string]: string | Messages };

export function pseudoCatalogue(messages: Messages): Messages {
  return Object.fromEntries(
    Object.entries(messages).map(([key, value]) => [key, key === "_meta" ? value : typeof value === "string" ? pseudoLocalise(value) : pseudoCatalogue(value)]),
  );
}
