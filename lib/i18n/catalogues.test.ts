// Every catalogue against the English one: no key of a namespace it covers missing, every message
// valid ICU, no argument English does not pass. A catalogue that lacks a key fails here, not in a
// zoomer's hands.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { CatalogueMeta } from "./catalogue";
import { DASHBOARD_LOCALES, LOCALES, type AppLocale } from "./locales";
import { FIELD_NAMESPACES, NAMESPACES } from "./namespaces";
import { pseudoCatalogue, pseudoLocalise, type Messages } from "./pseudo";

const DIR = join(import.meta.dirname, "../../messages");
const readJson = (file: string) => JSON.parse(readFileSync(join(DIR, file), "utf8")) as Record<string, unknown>;
/** messages/<locale>/<namespace>.json, each under its namespace's key. */
const read = (locale: string): Messages => Object.fromEntries(NAMESPACES.map((ns) => [ns, readJson(`${locale}/${ns}.json`) as Messages]));
const english = read("en");

/** "field.home.heading" → message, for every leaf. */
function leaves(messages: Messages, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

/** The {arguments} and <tags> a message uses. */
function placeholders(message: string): { args: Set<string>; tags: Set<string> } {
  // A plural's branch ("one {problem}") is text, not an argument.
  const args = new Set([...message.matchAll(/(?<!(?<!\p{L})(?:zero|one|two|few|many|other|=\d+)\s*)\{\s*([A-Za-z_]\w*)\s*[,}]/gu)].map((m) => m[1] ?? ""));
  const tags = new Set([...message.matchAll(/<([A-Za-z]\w*)>/g)].map((m) => m[1] ?? ""));
  return { args, tags };
}

/** Formats every message with stand-in values; returns the keys whose ICU does not parse or format. */
function brokenMessages(locale: string, messages: Messages): string[] {
  const errors: string[] = [];
  const t = createTranslator({ locale, messages, onError: (e) => errors.push(e.message), getMessageFallback: ({ key }) => `!${key}` });
  // The catalogue's keys are only known at run time here.
  const markup = t.markup as unknown as (key: string, values: Record<string, number | ((chunks: string) => string)>) => string;
  const broken: string[] = [];
  for (const [key, message] of leaves(messages)) {
    const { args, tags } = placeholders(message);
    const values: Record<string, number | ((chunks: string) => string)> = {};
    for (const a of args) values[a] = 2;
    for (const tag of tags) values[tag] = (chunks: string) => chunks;
    const before = errors.length;
    const out = markup(key, values);
    if (errors.length > before || out.startsWith("!")) broken.push(key);
  }
  return broken;
}

const englishLeaves = leaves(english);
const catalogues = readdirSync(DIR);

describe("message catalogues", () => {
  it("has one catalogue per supported locale, and no other", () => {
    expect([...catalogues].sort()).toEqual([...LOCALES].sort());
  });

  it("has a file for every namespace in every catalogue, and no other file", () => {
    const expected = [...NAMESPACES.map((ns) => `${ns}.json`), "_meta.json"].sort();
    for (const locale of catalogues) expect({ locale, files: readdirSync(join(DIR, locale)).sort() }).toEqual({ locale, files: expected });
  });

  it("English is valid ICU throughout", () => {
    expect(brokenMessages("en", english)).toEqual([]);
  });

  for (const locale of LOCALES.filter((l) => l !== "en")) {
    describe(locale, () => {
      const messages = read(locale);
      const own = leaves(messages);
      // The field page in every language; the dashboard in the dashboard's languages (others fall back to English there).
      const fieldPrefixes = FIELD_NAMESPACES.map((ns) => `${ns}.`);
      const required = [...englishLeaves.keys()].filter((k) => fieldPrefixes.some((p) => k.startsWith(p)) || DASHBOARD_LOCALES.includes(locale as AppLocale));

      it("records whether a native speaker reviewed it", () => {
        const meta = existsSync(join(DIR, locale, "_meta.json")) ? (readJson(`${locale}/_meta.json`) as Partial<CatalogueMeta>) : undefined;
        expect(typeof meta?.reviewed).toBe("boolean");
      });

      it("has every key of the English catalogue it covers", () => {
        expect(required.filter((k) => !own.has(k))).toEqual([]);
      });

      it("has no key English does not have", () => {
        expect([...own.keys()].filter((k) => !englishLeaves.has(k))).toEqual([]);
      });

      it("is valid ICU and uses only the arguments and tags English passes", () => {
        expect(brokenMessages(locale, messages)).toEqual([]);
        const strays = [...own].flatMap(([key, message]) => {
          const theirs = placeholders(message);
          const ours = placeholders(englishLeaves.get(key) ?? "");
          return [...[...theirs.args].filter((a) => !ours.args.has(a)), ...[...theirs.tags].filter((t) => !ours.tags.has(t))].map((a) => `${key}: ${a}`);
        });
        expect(strays).toEqual([]);
      });
    });
  }
});

describe("pseudo-locale", () => {
  it("accents and lengthens text by about 40 %, leaving arguments, plurals' keywords and tags intact", () => {
    expect(pseudoLocalise("Send photo")).toBe("[Séñd phötö ~~~~]");
    expect(pseudoLocalise("{count, plural, one {# photo} other {# photos}}")).toBe("[{count, plural, one {# phötö} other {# phötös}} ~~~~ ~]");
    expect(pseudoLocalise("<b>A retake</b> for {name}")).toBe("[<b>Å rétáké</b> för {name} ~~~~]");
  });

  it("is valid ICU for every English message", () => {
    expect(brokenMessages("en-XA", pseudoCatalogue(english))).toEqual([]);
  });
});
