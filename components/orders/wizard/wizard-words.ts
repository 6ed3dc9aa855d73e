"use client";
// The wizard's codes in the reader's words: what a step still lacks (wizard-steps' StepProblem)
// and where an error points ("Location 2 (Duomo), latitude"), from messages/<locale>/wizard.json.
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import type { DraftLocation } from "@/lib/orders/draft";
import { describePointer, wordProblems, type FieldErrors, type StepProblem, type StepProblems } from "../wizard-steps";

/**
 * A user's text (a place's name, a URL) set apart from the sentence around it (U+2068 … U+2069),
 * so a Latin name keeps its own direction inside an Arabic sentence, and the other way round.
 */
export const isolate = (text: string): string => `\u2068${text}\u2069`;

/** Words a step's problems, keyed by pointer like the API's errors. */
export function useProblemWords(): (problems: StepProblems) => FieldErrors {
  const t = useTranslations("wizard.problems");
  return useCallback(
    (problems: StepProblems) =>
      wordProblems(problems, (p: StepProblem) =>
        p.code === "noAnglesFor" ? t(p.code, { location: p.location ? isolate(p.location) : t("locationNumber", { number: p.number }) }) : t(p.code),
      ),
    [t],
  );
}

/** Words where a pointer points, for the review's list of problems. */
export function usePointerWords(locations: readonly DraftLocation[]): (pointer: string) => string {
  const t = useTranslations("wizard.pointer");
  const locale = useLocale();
  return useCallback(
    (pointer: string) => {
      const words = describePointer(pointer, locations).map((part) =>
        part.kind === "location"
          ? part.name
            ? t("namedLocation", { number: part.number, name: isolate(part.name) })
            : t("location", { number: part.number })
          : part.kind === "item"
            ? t("item", { number: part.number })
            : t(`members.${part.member}`),
      );
      const text = words.length === 0 ? t("order") : words.join(", ");
      return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
    },
    [t, locale, locations],
  );
}
