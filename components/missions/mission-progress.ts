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

export function missionProgress({ approved_images, required_images, extra_images }: MissionCounts): MissionProgress {
  const extra = extra_images ?? Math.max(0, approved_images - required_images);
  const counted = Math.min(approved_images - extra, required_images);
  const suffix = extra > 0 ? ` · ${extra} extra` : "";
  return { counted, required: required_images, extra, label: `${counted} of ${required_images}${suffix}`, short: `${counted}/${required_images}${suffix}` };
}
