// Times as the webhook pages say them: "in 58 s", "3 min ago", "24 hours", "1.2 s".

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/**
 * `iso` relative to `nowMs`, at a precision that suits the distance. Written out rather than
 * through Intl.RelativeTimeFormat, whose short forms differ between ICU versions (server and
 * browser could disagree).
 */
export function formatRelative(iso: string, nowMs: number): string {
  const seconds = Math.round((Date.parse(iso) - nowMs) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 5) return seconds >= 0 ? "now" : "just now";
  const amount = abs < 60 ? `${abs} s` : abs < 3600 ? `${Math.round(abs / 60)} min` : abs < 86_400 ? `${Math.round(abs / 3600)} h` : plural(Math.round(abs / 86_400), "day");
  return seconds > 0 ? `in ${amount}` : `${amount} ago`;
}

/** A span of time in the largest unit that keeps it a whole, readable number ("24 hours", "3 days"). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 120) return plural(s, "second");
  if (s < 2 * 3600) return plural(Math.round(s / 60), "minute");
  if (s < 2 * 86_400) return plural(Math.round(s / 3600), "hour");
  return plural(Math.round(s / 86_400), "day");
}

/** A request's duration: milliseconds below a second, then seconds with one decimal. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const dateTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" });
const date = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => date.format(new Date(iso));
