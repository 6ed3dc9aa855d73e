// Loading a catalogue: messages/<locale>/<namespace>.json over English, so a string a catalogue lacks
// (the dashboard in a field-only language, a key added since) reads in English rather than as a key.
import type { AppLocale } from "./locales";
import { NAMESPACES, type Namespace } from "./namespaces";
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

async function importNamespace(locale: AppLocale, namespace: Namespace): Promise<Messages> {
  const mod = (await import(`../../messages/${locale}/${namespace}.json`)) as { default: Messages };
  return mod.default;
}

async function importCatalogue(locale: AppLocale): Promise<Messages> {
  const parts = await Promise.all(NAMESPACES.map(async (ns) => [ns, await importNamespace(locale, ns)] as const));
  return Object.fromEntries(parts);
}

/** The namespaces of `messages` a part of the app sends to the browser. */
export function pickNamespaces(messages: Messages, namespaces: readonly Namespace[]): Messages {
  return Object.fromEntries(namespaces.flatMap((ns) => (messages[ns] === undefined ? [] : [[ns, messages[ns]]])));
}

export async function loadMessages(catalogue: AppLocale | "en-XA"): Promise<Messages> {
  const english = await importCatalogue("en");
  if (catalogue === "en") return english;
  if (catalogue === "en-XA") return pseudoCatalogue(english);
  return mergeMessages(english, await importCatalogue(catalogue));
}
