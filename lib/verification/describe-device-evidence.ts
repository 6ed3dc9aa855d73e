// The phone's evidence beside the photo's EXIF in plain words for reviewers (the dashboard's
// submission panel and order photo review). No zod and no other imports: these run in the
// dashboard's client bundle.

/** The reviewer's sentence: how far the phone said it was from where the photo's GPS says. */
export function describeDeviceDistance(distanceM: number | null): string | null {
  if (distanceM === null) return null;
  const text = distanceM >= 1000 ? `${(distanceM / 1000).toFixed(1)} km` : `${Math.round(distanceM)} m`;
  return `Phone reported ${text} from where the photo's GPS says`;
}

/** "sent 3 h 10 min after it was taken", for reviewers. */
export function describeCaptureToUpload(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds < 0) return "Sent before the time it says it was taken (a clock is wrong)";
  const minutes = Math.round(seconds / 60);
  const text =
    minutes < 1
      ? "under a minute"
      : minutes < 60
        ? `${minutes} min`
        : minutes < 48 * 60
          ? `${Math.floor(minutes / 60)} h ${minutes % 60} min`
          : `${Math.round(minutes / 1440)} days`;
  return `Sent ${text} after it was taken`;
}
