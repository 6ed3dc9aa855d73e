"use client";
// The order pages' words and formats in one place: the `orders` and `vocabulary` catalogues' translators and the
// dashboard's formatting locale (English reads en-GB), as the pure helpers take them (./translate.ts).
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatMoney } from "./order-progress";
import { formatDistance, type Translate, type Words } from "./translate";

export interface OrderWords extends Words {
  money: (cents: number, currency: string) => string;
  distance: (metres: number) => string;
  /** Whether the catalogue has the key (a check or signal the page has no name for yet reads as the API's). */
  has: (key: string) => boolean;
}

export function useOrderWords(): OrderWords {
  const translate = useTranslations("orders");
  const vocabularyOf = useTranslations("vocabulary");
  const locale = useFormatLocale();
  return useMemo(() => {
    const t: Translate = (key, values) => translate(key, values);
    const vocabulary: Translate = (key, values) => vocabularyOf(key, values);
    return {
      t,
      vocabulary,
      locale,
      has: (key: string) => translate.has(key),
      money: (cents: number, currency: string) => formatMoney(cents, currency, locale),
      distance: (metres: number) => formatDistance(metres, locale),
    };
  }, [translate, vocabularyOf, locale]);
}
