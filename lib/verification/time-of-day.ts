/**
 * The time_of_day verification check: the sun at the photo's capture instant and place (daylight,
 * midday, evening) and the order's local time window. Pure (no clock, no I/O, no zod), so the
 * service's verification (lib/service/verification/checks.ts, which re-exports it) and the field
 * page's checks before sending (lib/field/pre-send-checks.ts) call the very same function.
 */
import { nearestSunset, solarNoon, sunAltitudeDeg, sunriseSunset, SUNRISE_ALTITUDE_DEG, TIME_OF_DAY_RULES } from "@/lib/geo/sun";
import { localParts } from "@/lib/geo/time-zone";
import type { TimeOfDay } from "@/lib/orders/vocabulary";
import { parseTimeWindow } from "@/lib/orders/recurrence-rule";
import { fmt, judged, notEvaluated, round1, type CheckResult, type Localisable } from "./place-checks";

export const hhmm = (instant: Date, timeZone: string) => {
  const p = localParts(instant, timeZone);
  return `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
};

// ---------------------------------------------------------------------------------------------
// time_of_day

export interface TimeOfDayCheckInput {
  capturedAt: Date | null;
  lat: number;
  lng: number;
  /** The location's IANA zone, in which the time window is read. */
  timeZone: string;
  timeOfDay?: TimeOfDay;
  /** "HH:MM-HH:MM" local; an end before the start runs past midnight. */
  timeWindow?: string;
}

const TIME_OF_DAY_PHRASE: Record<TimeOfDay, string> = { daylight: "in daylight", midday: "around midday", evening: "in the evening" };

interface Condition {
  ok: boolean;
  threshold: string;
  detail: string;
  instruction: string;
  coded: Localisable;
}

/**
 * The sun at the capture instant and place (daylight: above the horizon; midday: within 2 h of
 * solar noon; evening: from 1 h before sunset to 2 h after) and the local time window, each when
 * asked. A yes/no check (score 1 or 0): a photo outside what was ordered does not partly count.
 *
 * @throws RangeError for a malformed time window (orders are validated before they get here).
 */
export function checkTimeOfDay(input: TimeOfDayCheckInput): CheckResult {
  const { capturedAt, lat, lng, timeZone, timeOfDay, timeWindow } = input;
  const window = timeWindow === undefined ? null : parseTimeWindow(timeWindow);
  if (timeWindow !== undefined && !window) throw new RangeError(`Not a time window (HH:MM-HH:MM): ${JSON.stringify(timeWindow)}`);
  if (!timeOfDay && !window)
    return notEvaluated("time_of_day", "The order asks for no particular time of day.", null, undefined, { code: "time_of_day.not_asked", params: {} });

  const asked = [timeOfDay, window ? `${window.start}-${window.end} local time` : null].filter(Boolean).join(", ");
  const wanted = [timeOfDay ? TIME_OF_DAY_PHRASE[timeOfDay] : null, window ? `between ${window.start} and ${window.end} local time` : null]
    .filter(Boolean)
    .join(" and ");
  if (!capturedAt || !Number.isFinite(capturedAt.getTime())) {
    return judged("time_of_day", false, {
      score: 0,
      value: null,
      threshold: asked,
      message: "The photo does not say when it was taken, so its time of day cannot be checked.",
      instruction: `Take the photo with the phone's camera app, so it records the time, ${wanted}.`,
      coded: { message: { code: "time_of_day.no_time", params: {} }, instructions: [{ code: "time_of_day.use_camera_app", params: {} }] },
    });
  }

  const local = hhmm(capturedAt, timeZone);
  const altitude = round1(sunAltitudeDeg(capturedAt, lat, lng));
  const extra: Record<string, unknown> = { sun_altitude_deg: altitude, local_time: local, time_zone: timeZone };
  const conditions: Condition[] = [];
  if (timeOfDay) conditions.push(sunCondition(timeOfDay, capturedAt, lat, lng, timeZone, altitude, extra));
  if (window) {
    const p = localParts(capturedAt, timeZone);
    const minute = p.hour * 60 + p.minute;
    const [sh = 0, sm = 0] = window.start.split(":").map(Number);
    const [eh = 0, em = 0] = window.end.split(":").map(Number);
    const start = sh * 60 + sm;
    const end = eh * 60 + em;
    // Start inclusive, end exclusive, like the order cycle's window; past midnight it wraps.
    const inside = window.crossesMidnight ? minute >= start || minute < end : minute >= start && minute < end;
    conditions.push({
      ok: inside,
      threshold: `${window.start}-${window.end} local`,
      detail: `${local} local time is ${inside ? "inside" : "outside"} the ${window.start}-${window.end} window`,
      instruction: `Come back between ${window.start} and ${window.end} local time.`,
      coded: { code: "time_of_day.come_back_window", params: { from: window.start, to: window.end } },
    });
  }

  const passed = conditions.every((c) => c.ok);
  return judged("time_of_day", passed, {
    score: passed ? 1 : 0,
    // The sun's altitude when the order asked about the sun, else the local time the window is read in.
    value: timeOfDay ? altitude : local,
    threshold: conditions.map((c) => c.threshold).join("; "),
    message: `Taken at ${local} local time (${timeZone}), sun at ${fmt(altitude)}°: ${conditions.map((c) => c.detail).join("; ")}.`,
    instruction: conditions
      .filter((c) => !c.ok)
      .map((c) => c.instruction)
      .join(" "),
    extra,
    coded: {
      message: { code: "time_of_day.taken_at", params: { local_time: local, time_zone: timeZone } },
      instructions: conditions.filter((c) => !c.ok).map((c) => c.coded),
    },
  });
}

function sunCondition(timeOfDay: TimeOfDay, at: Date, lat: number, lng: number, timeZone: string, altitude: number, extra: Record<string, unknown>): Condition {
  switch (timeOfDay) {
    case "daylight": {
      const ok = altitude > SUNRISE_ALTITUDE_DEG;
      const day = sunriseSunset(at, lat, lng);
      const when =
        day.sunrise && day.sunset
          ? `between sunrise (${hhmm(day.sunrise, timeZone)}) and sunset (${hhmm(day.sunset, timeZone)}) local time`
          : day.polar === "night"
            ? "when the sun is up (it does not rise here at this time of year)"
            : "when the sun is up";
      return {
        ok,
        threshold: `daylight: sun above ${SUNRISE_ALTITUDE_DEG}°`,
        detail: ok ? "in daylight" : "the sun was down",
        instruction: `Come back in daylight, ${when}.`,
        coded:
          day.sunrise && day.sunset
            ? { code: "time_of_day.come_back_daylight", params: { sunrise: hhmm(day.sunrise, timeZone), sunset: hhmm(day.sunset, timeZone) } }
            : { code: "time_of_day.come_back_sun_up", params: {} },
      };
    }
    case "midday": {
      const noon = solarNoon(at, lat, lng);
      const hours = TIME_OF_DAY_RULES.middayHours;
      const offH = Math.abs(at.getTime() - noon.getTime()) / 3_600_000;
      const ok = offH <= hours;
      const from = hhmm(new Date(noon.getTime() - hours * 3_600_000), timeZone);
      const to = hhmm(new Date(noon.getTime() + hours * 3_600_000), timeZone);
      extra.solar_noon = noon.toISOString();
      return {
        ok,
        threshold: `midday: ${from}-${to} local (solar noon ${hhmm(noon, timeZone)} ± ${hours} h)`,
        detail: `${fmt(offH)} h from solar noon (${hhmm(noon, timeZone)})`,
        instruction: `Come back around midday, between ${from} and ${to} local time (solar noon is at ${hhmm(noon, timeZone)}).`,
        coded: { code: "time_of_day.come_back_midday", params: { from, to, noon: hhmm(noon, timeZone) } },
      };
    }
    case "evening": {
      const sunset = nearestSunset(at, lat, lng);
      if (!sunset) {
        return {
          ok: false,
          threshold: "evening: around sunset",
          detail: "the sun does not set here on this date, so there is no evening",
          instruction: "The sun does not set here at this time of year, so an evening photo cannot be taken now.",
          coded: { code: "time_of_day.no_evening", params: {} },
        };
      }
      const before = TIME_OF_DAY_RULES.eveningBeforeSunsetHours * 3_600_000;
      const after = TIME_OF_DAY_RULES.eveningAfterSunsetHours * 3_600_000;
      const ok = at.getTime() >= sunset.getTime() - before && at.getTime() <= sunset.getTime() + after;
      const from = hhmm(new Date(sunset.getTime() - before), timeZone);
      const to = hhmm(new Date(sunset.getTime() + after), timeZone);
      extra.sunset = sunset.toISOString();
      return {
        ok,
        threshold: `evening: ${from}-${to} local (sunset ${hhmm(sunset, timeZone)} −${TIME_OF_DAY_RULES.eveningBeforeSunsetHours} h/+${TIME_OF_DAY_RULES.eveningAfterSunsetHours} h)`,
        detail: ok ? `in the evening (sunset ${hhmm(sunset, timeZone)})` : `not in the evening (sunset ${hhmm(sunset, timeZone)})`,
        instruction: `Come back in the evening, between ${from} and ${to} local time (sunset is at ${hhmm(sunset, timeZone)}).`,
        coded: { code: "time_of_day.come_back_evening", params: { from, to, sunset: hhmm(sunset, timeZone) } },
      };
    }
  }
}
