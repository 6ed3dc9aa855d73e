import { DEFAULT_QA_THRESHOLDS, QaThresholdsSchema, type QaThresholds } from "@/lib/schemas/qa";

const PartialThresholds = QaThresholdsSchema.partial();

/** The thresholds in force for a mission: the defaults, overridden by what the mission set. */
export function effectiveThresholds(settings: unknown): QaThresholds {
  const parsed = PartialThresholds.safeParse(settings ?? {});
  return { ...DEFAULT_QA_THRESHOLDS, ...(parsed.success ? parsed.data : {}) };
}
