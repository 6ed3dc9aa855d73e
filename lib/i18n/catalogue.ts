// Loading a catalogue: messages/<locale>.json over English, so a string a catalogue lacks (the
// dashboard in a field-only language, a key added since) reads in English rather than as a key.
import type { AppLocale } from "./locales";
import { pseudoCatalogue, type Messages } from "./pseudo";

export interface CatalogueMeta {
  /** Whether a native speaker has reviewed the catalogue; false for machine-made ones. */
  reviewed: boolean;
}

function isMessages(value: unknown): value is Messages {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `over` laid onto `base`, key by key. */
export function mergeMessages(base: Messages, over: Messages): Messages {
  const out: Messages = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = out[key];
    out[key] = isMessages(value) && isMessages(under) ? mergeMessages(under, value) : value;
  }
  return out;
}

/** The catalogue's messages without its `_meta` record. */
export function withoutMeta(catalogue: Record<string, unknown>): Messages {
  const { _meta: _ignored, ...messages } = catalogue;
  void _ignored;
  return messages as Messages;
}

async function importCatalogue(locale: AppLocale): Promise<Messages> {
  const mod = (await import(`../../messages/${locale}.json`)) as { default: Record<string, unknown> };
  return withoutMeta(mod.default);
}

export async function loadMessages(catalogue: AppLocale | "en-XA"): Promise<Messages> {
  const english = await importCatalogue("en");
  if (catalogue === "en") return english;
  if (catalogue === "en-XA") return pseudoCatalogue(english);
  return mergeMessages(english, await importCatalogue(catalogue));
}
