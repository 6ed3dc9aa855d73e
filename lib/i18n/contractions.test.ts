// Grammar that a select branch can break: Spanish contracts "de el" to "del" and "a el" to "al";
// French "de le" to "du", "de les" to "des", "à le" to "au". A message that puts the preposition
// before a select whose branch begins with the article renders the uncontracted form, so each
// branch must carry its own preposition. Checked over every Spanish and French message, as
// written and as a select would join it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DIR = join(import.meta.dirname, "../../messages");

function strings(value: unknown, path: string, out: [string, string][]): [string, string][] {
  if (typeof value === "string") out.push([path, value]);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) strings(v, path ? `${path}.${k}` : k, out);
  return out;
}

// French "de le" is right before a verb ("de le modifier"), so only the select form is checked there.
const RULES: Record<string, { literal?: RegExp; beforeSelect: RegExp }> = {
  es: { literal: /(?<!\p{L})(de|a) el(?!\p{L})/iu, beforeSelect: /(?<!\p{L})(de|a) \{\w+, select,[^{]*\{el(?!\p{L})/iu },
  fr: { beforeSelect: /(?<!\p{L})(de|à) \{\w+, select,[^{]*\{(le|les)(?!\p{L})/iu },
};

describe.each(Object.keys(RULES))("contractions in %s", (locale) => {
  const rule = RULES[locale];
  const messages = readdirSync(join(DIR, locale))
    .filter((f) => f.endsWith(".json"))
    .flatMap((f) => strings(JSON.parse(readFileSync(join(DIR, locale, f), "utf8")), f.replace(/\.json$/, ""), []));

  it("has messages to check", () => expect(messages.length).toBeGreaterThan(100));

  it("never writes the preposition and the article apart", () => {
    const bad = messages.filter(([, m]) => rule !== undefined && (rule.literal?.test(m) === true || rule.beforeSelect.test(m))).map(([k, m]) => `${k}: ${m}`);
    expect(bad).toEqual([]);
  });
});
