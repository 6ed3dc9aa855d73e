"use client";
// The sentence to show for a failed field request: the problem's stable `code` in the reader's
// language (codes.problem.<code>), else the API's problem+json `detail` (English, for integrators).
import { useCallback } from "react";
import { useServerText } from "@/components/ui/use-server-text";
import { problemCode, problemText } from "@/lib/field/transport";

export type ProblemWords = (status: number, body: string) => string;

/** How this page says a problem: its code in the reader's words, else its English detail. */
export function useProblemWords(): ProblemWords {
  const serverText = useServerText();
  return useCallback((status, body) => serverText(problemCode(status, body), problemText(status, body)), [serverText]);
}

export async function problemDetail(response: Response | XMLHttpRequest, words: ProblemWords = problemText): Promise<string> {
  const text = response instanceof Response ? await response.text() : response.responseText;
  return words(response.status, text);
}
