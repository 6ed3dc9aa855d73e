// The `orders` and `vocabulary` catalogues' translators for the pure helpers' tests, in any catalogue
// language (messages/<locale>/<namespace>.json over English, as the app loads it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator } from "next-intl";
import { mergeMessages } from "@/lib/i18n/catalogue";
import type { Messages } from "@/lib/i18n/pseudo";
import type { Translate, Words } from "./translate";

const read = (locale: string, namespace = "orders") =>
  JSON.parse(readFileSync(join(import.meta.dirname, `../../messages/${locale}/${namespace}.json`), "utf8")) as Messages;
const catalogueOf = (catalogue: string, namespace: string) =>
  catalogue === "en" ? read("en", namespace) : mergeMessages(read("en", namespace), read(catalogue, namespace));

export function testWords(catalogue: string, locale: string): Words & { has: (key: string) => boolean } {
  const messages = { orders: catalogueOf(catalogue, "orders"), vocabulary: catalogueOf(catalogue, "vocabulary") };
  const translate = createTranslator({ locale, messages, namespace: "orders" });
  const translateVocabulary = createTranslator({ locale, messages, namespace: "vocabulary" });
  const t: Translate = (key, values) => translate(key as never, values as never);
  const vocabulary: Translate = (key, values) => translateVocabulary(key as never, values as never);
  return { t, vocabulary, locale, has: (key) => translate.has(key as never) };
}
