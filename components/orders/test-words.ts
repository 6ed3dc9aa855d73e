// The `orders` catalogue's translator for the pure helpers' tests, in any catalogue language
// (messages/<locale>/orders.json over English, as the app loads it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator } from "next-intl";
import { mergeMessages } from "@/lib/i18n/catalogue";
import type { Messages } from "@/lib/i18n/pseudo";
import type { Translate, Words } from "./translate";

const read = (locale: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../messages/${locale}/orders.json`), "utf8")) as Messages;

export function testWords(catalogue: string, locale: string): Words & { has: (key: string) => boolean } {
  const orders = catalogue === "en" ? read("en") : mergeMessages(read("en"), read(catalogue));
  const translate = createTranslator({ locale, messages: { orders }, namespace: "orders" });
  const t: Translate = (key, values) => translate(key as never, values as never);
  return { t, locale, has: (key) => translate.has(key as never) };
}
