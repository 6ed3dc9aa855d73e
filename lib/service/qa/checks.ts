// The QA checks of one image: pure functions from measured facts and thresholds to recorded
// verdicts, each with its figure and a sentence a person can act on.
import type { PolygonGeometry } from "@/lib/geo/polygon";
import type { ImageMeasurements } from "@/lib/photos/analyse-image";
import type { ExifSummary } from "@/lib/photos/read-exif";
import type { QaCheck, QaThresholds } from "@/lib/schemas/qa";
import { judgeExposure, judgeInsideBounds, judgeSharpness, qaVerdict as check } from "@/lib/verification/image-quality";
import type { Localisable } from "@/lib/verification/place-checks";

// The signed distance from a mission area is the one of lib/geo (the phone uses it before sending).
export { signedDistanceFromPolygonM as distanceOutsideBounds } from "@/lib/geo/distance-from-polygon";

export interface ImageFacts {
  /** Why decoding failed, or null when the pixels could be read. */
  decodeError: string | null;
  measurements: ImageMeasurements | null;
  exif: ExifSummary;
  /** The earlier image this one repeats (same bytes or a near-identical picture), if any. */
  duplicate: { imageId: string; kind: "exact" | "similar"; distance: number } | null;
}

export interface MissionFacts {
  bounds: PolygonGeometry;
  createdAt: Date;
}

export function checkImage(facts: ImageFacts, mission: MissionFacts, thresholds: QaThresholds, receivedAt: Date): QaCheck[] {
  const results: QaCheck[] = [];
  const { exif, measurements } = facts;

  results.push(
    facts.decodeError === null
      ? check("decodable", true, true, null, "The image decodes.", "qa.decodes")
      : check("decodable", false, false, null, `The image could not be decoded (${facts.decodeError}).`, "qa.not_decodable", { reason: facts.decodeError }),
  );

  results.push(
    exif.present
      ? check("exif_present", true, true, null, "EXIF metadata is present.", "qa.exif_present")
      : check(
          "exif_present",
          false,
          false,
          null,
          "The photo has no EXIF metadata; take it with the camera app, not a screenshot or an edited copy.",
          "qa.no_exif",
        ),
  );

  const gps = exif.gps;
  results.push(
    gps
      ? check("gps_present", true, `${gps.lat},${gps.lng}`, null, "The photo carries a GPS position.", "qa.gps_present")
      : check("gps_present", false, null, null, "The photo has no GPS position; turn on location for the camera.", "qa.no_gps"),
  );

  results.push(judgeInsideBounds(mission.bounds, gps, thresholds));

  results.push(captureTimeCheck(exif, mission, thresholds, receivedAt));

  if (measurements) {
    const shortEdge = Math.min(measurements.width, measurements.height);
    results.push(
      shortEdge >= thresholds.min_short_edge_px
        ? check(
            "resolution",
            true,
            shortEdge,
            thresholds.min_short_edge_px,
            `${measurements.width}×${measurements.height} px is enough.`,
            "qa.resolution_enough",
            { width: measurements.width, height: measurements.height },
          )
        : check(
            "resolution",
            false,
            shortEdge,
            thresholds.min_short_edge_px,
            `${measurements.width}×${measurements.height} px is too small: the shorter side must be at least ${thresholds.min_short_edge_px} px.`,
            "qa.resolution_too_small",
            { width: measurements.width, height: measurements.height, min: thresholds.min_short_edge_px },
          ),
    );
    results.push(judgeSharpness(measurements.sharpness, thresholds));
    results.push(judgeExposure(measurements.brightness, thresholds));
  } else {
    const why = "Not measured: the image could not be decoded.";
    results.push(check("resolution", false, null, thresholds.min_short_edge_px, why, "qa.not_measured"));
    results.push(check("sharpness", false, null, thresholds.min_sharpness, why, "qa.not_measured"));
    results.push(check("exposure", false, null, `${thresholds.min_brightness}–${thresholds.max_brightness}`, why, "qa.not_measured"));
  }

  results.push(
    facts.duplicate
      ? check(
          "duplicate",
          false,
          facts.duplicate.imageId,
          thresholds.duplicate_max_distance,
          facts.duplicate.kind === "exact"
            ? `The same photo was already submitted (${facts.duplicate.imageId}).`
            : `A near-identical photo was already submitted (${facts.duplicate.imageId}, ${facts.duplicate.distance} bits apart).`,
          facts.duplicate.kind === "exact" ? "qa.duplicate_exact" : "qa.duplicate_similar",
          { image_id: facts.duplicate.imageId, distance: facts.duplicate.distance },
        )
      : check("duplicate", true, null, thresholds.duplicate_max_distance, "Not a repeat of an earlier photo.", "qa.not_duplicate"),
  );
  return results;
}

function captureTimeCheck(exif: ExifSummary, mission: MissionFacts, thresholds: QaThresholds, receivedAt: Date): QaCheck {
  if (!exif.captured_at) return check("capture_time", false, null, null, "The photo does not say when it was taken.", "qa.no_capture_time");
  const captured = Date.parse(exif.captured_at);
  // Without an offset the camera's local time was read as UTC; the true time may be up to 14 h off.
  const slackMs = exif.captured_at_source === "assumed_utc" ? 14 * 3600_000 : 0;
  const earliest = mission.createdAt.getTime() - thresholds.capture_time_tolerance_s * 1000 - slackMs;
  const latest = receivedAt.getTime() + thresholds.max_clock_skew_s * 1000 + slackMs;
  if (captured < earliest) {
    return check(
      "capture_time",
      false,
      exif.captured_at,
      new Date(earliest).toISOString(),
      `Taken ${exif.captured_at}, before the mission was created: an old photo.`,
      "qa.old_photo",
      { taken: exif.captured_at },
    );
  }
  if (captured > latest) {
    return check(
      "capture_time",
      false,
      exif.captured_at,
      new Date(latest).toISOString(),
      `Capture time ${exif.captured_at} is in the future: check the camera clock.`,
      "qa.future_time",
      { taken: exif.captured_at },
    );
  }
  return check("capture_time", true, exif.captured_at, null, "Taken while the mission was open.", "qa.taken_while_open");
}

/** The failed checks that are reasons, without repeating the consequences of a missing GPS or decode. */
function reasonChecks(checks: QaCheck[]): QaCheck[] {
  const failed = checks.filter((c) => !c.passed);
  const names = new Set(failed.map((c) => c.check));
  return failed
    .filter((c) => !(c.check === "inside_bounds" && names.has("gps_present")))
    .filter((c) => !(["resolution", "sharpness", "exposure"].includes(c.check) && names.has("decodable")));
}

/** Failed checks as reasons, without repeating the consequences of a missing GPS or decode. */
export function reasonsFrom(checks: QaCheck[]): string[] {
  return reasonChecks(checks).map((c) => c.message);
}

/** The same reasons as codes and figures (a check recorded before codes: its English as a `text` code). */
export function reasonCodesFrom(checks: QaCheck[]): Localisable[] {
  return reasonChecks(checks).map((c) => (c.code ? { code: c.code, params: c.params ?? {} } : { code: "text", params: { text: c.message } }));
}
