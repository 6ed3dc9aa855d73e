// A mission's progress as the dashboard shows it: approved images toward the target, never above
// it, and the ones approved past the target (submissions already in flight when the mission
// completed are still checked and kept) named as extra — "60 of 60 · 8 extra".
export interface MissionCounts {
  approved_images: number;
  required_images: number;
  /** From the API; derived from the other two when absent. */
  extra_images?: number;
}

export interface MissionProgress {
  /** Approved images that count toward the target: at most required_images. */
  counted: number;
  required: number;
  extra: number;
  /** "60 of 60 · 8 extra" */
  label: string;
  /** "60/60 · 8 extra", for table cells */
  short: string;
}

/** The words of the labels, in the reader's language (the page passes its translator's). */
export interface ProgressWords {
  label: (counted: number, required: number) => string;
  short: (counted: number, required: number) => string;
  extra: (extra: number) => string;
}

const ENGLISH: ProgressWords = {
  label: (counted, required) => `${counted} of ${required}`,
  short: (counted, required) => `${counted}/${required}`,
  extra: (extra) => `${extra} extra`,
};

export function missionProgress({ approved_images, required_images, extra_images }: MissionCounts, words: ProgressWords = ENGLISH): MissionProgress {
  const extra = extra_images ?? Math.max(0, approved_images - required_images);
  const counted = Math.min(approved_images - extra, required_images);
  const suffix = extra > 0 ? ` · ${words.extra(extra)}` : "";
  return {
    counted,
    required: required_images,
    extra,
    label: `${words.label(counted, required_images)}${suffix}`,
    short: `${words.short(counted, required_images)}${suffix}`,
  };
}

/** ProgressWords from a translator over the `missions.progress` messages. */
export function progressWords(t: (key: "label" | "short" | "extra", values: Record<string, number>) => string): ProgressWords {
  return {
    label: (counted, required) => t("label", { counted, required }),
    short: (counted, required) => t("short", { counted, required }),
    extra: (extra) => t("extra", { extra }),
  };
}
