// The order wizard's steps, and how a draft and the API's answers relate to them: which step an
// error's JSON pointer belongs to, what each step still lacks, and the create-order body a draft
// becomes. Pure functions (tests beside), shared by the step pages, the review and the actions.
import type { DraftLocation, OrderDraftBody } from "@/lib/orders/draft";
import { WIZARD_STEPS, type WizardStep } from "@/lib/orders/wizard-steps";

export { WIZARD_STEPS, type WizardStep };

export const STEP_LABELS: Record<WizardStep, string> = {
  locations: "Locations",
  what: "What to shoot",
  when: "When",
  delivery: "Delivery",
  review: "Review and pay",
};

export function isWizardStep(value: unknown): value is WizardStep {
  return typeof value === "string" && (WIZARD_STEPS as readonly string[]).includes(value);
}

export function stepHref(step: WizardStep, draftId: string): string {
  return `/orders/new/${step}?draft=${encodeURIComponent(draftId)}`;
}

export function neighbourSteps(step: WizardStep): { previous: WizardStep | null; next: WizardStep | null } {
  const i = WIZARD_STEPS.indexOf(step);
  return { previous: WIZARD_STEPS[i - 1] ?? null, next: WIZARD_STEPS[i + 1] ?? null };
}

/**
 * The step where the member an API error points at is edited: /locations/** on the map, except a
 * location's own angles (what to shoot); /category, /requirements/**, /client_reference and
 * /description on "what"; /recurring/** on "when"; /delivery/** on "delivery"; the rest (the body
 * as a whole, payment, quota) on the review.
 */
export function stepOfPointer(pointer: string): WizardStep {
  if (/^\/locations\/\d+\/requirements(\/|$)/.test(pointer)) return "what";
  if (pointer === "/locations" || pointer.startsWith("/locations/")) return "locations";
  if (/^\/(category|requirements|client_reference|description)(\/|$)/.test(pointer)) return "what";
  if (pointer === "/recurring" || pointer.startsWith("/recurring/")) return "when";
  if (pointer === "/delivery" || pointer.startsWith("/delivery/")) return "delivery";
  return "review";
}

export type FieldErrors = Record<string, string[]>;

/** The errors of one step, keyed by pointer (in the order the API gave them). */
export function errorsOfStep(errors: FieldErrors, step: WizardStep): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([pointer]) => stepOfPointer(pointer) === step));
}

/** Messages for a member and everything under it ("/delivery/webhook_url", "/recurring"…). */
export function messagesAt(errors: FieldErrors, pointer: string, { exact = false } = {}): string[] | undefined {
  const messages = Object.entries(errors)
    .filter(([p]) => p === pointer || (!exact && p.startsWith(`${pointer}/`)))
    .flatMap(([, m]) => m);
  return messages.length > 0 ? [...new Set(messages)] : undefined;
}

const MEMBER_WORDS: Record<string, string> = {
  lat: "latitude",
  lng: "longitude",
  name: "name",
  location_id: "id",
  angles: "angles",
  time_of_day: "time of day",
  minimum_crowd: "crowd",
  brand_match: "brand",
  webhook_url: "webhook URL",
  frequency: "frequency",
  day_of_week: "day of the week",
  deliver_before: "deliver-before day",
  season: "season",
  time_window: "time window",
  event_dates: "event dates",
  category: "category",
  client_reference: "reference",
  description: "description",
};

/** "/locations/3/coordinates/lat" → "Location 4 (Duomo), latitude"; for error summaries. */
export function describePointer(pointer: string, locations: readonly DraftLocation[] = []): string {
  const parts = pointer.split("/").filter(Boolean);
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    if (part === "locations" && /^\d+$/.test(parts[i + 1] ?? "")) {
      const index = Number(parts[i + 1]);
      const name = locations[index]?.name;
      words.push(`Location ${index + 1}${name ? ` (${name})` : ""}`);
      i++;
    } else if (/^\d+$/.test(part)) {
      words.push(`item ${Number(part) + 1}`);
    } else if (MEMBER_WORDS[part]) {
      words.push(MEMBER_WORDS[part]);
    }
  }
  const last = words.at(-1);
  return last === undefined ? "The order" : [...new Set(words)].join(", ").replace(/^./, (c) => c.toUpperCase());
}

const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/**
 * What a step still needs before the order can be priced, keyed by the pointer the API would use
 * (so the same field shows it). Only what the form can know: the API has the last word.
 */
export function stepProblems(body: OrderDraftBody, step: WizardStep): FieldErrors {
  const problems: FieldErrors = {};
  const add = (pointer: string, message: string) => (problems[pointer] ??= []).push(message);
  const locations = body.locations ?? [];
  if (step === "locations" || step === "review") {
    if (locations.length === 0) add("/locations", "Add at least one location: click the map, search a place or import a file.");
    locations.forEach((l, i) => {
      if (!l.name.trim()) add(`/locations/${i}/name`, "Name the location.");
    });
  }
  if (step === "what" || step === "review") {
    if (!body.category) add("/category", "Choose what kind of place this is.");
    const orderAngles = body.requirements?.angles ?? [];
    locations.forEach((l, i) => {
      const angles = l.requirements?.angles ?? orderAngles;
      if (angles.length === 0) add(`/locations/${i}/requirements/angles`, `Choose at least one angle for ${l.name || `location ${i + 1}`}.`);
    });
    if (locations.length === 0 && orderAngles.length === 0) add("/requirements/angles", "Choose at least one angle.");
  }
  if (step === "when" || step === "review") {
    const r = body.recurring;
    if (r?.enabled) {
      if (!r.frequency && !r.event_nights_only) add("/recurring/frequency", "Say how often: daily, weekly or monthly.");
      if (r.frequency === "weekly" && r.day_of_week === undefined) add("/recurring/day_of_week", "Choose the day of the week.");
      if (r.event_nights_only && (r.event_dates?.length ?? 0) === 0) add("/recurring/event_dates", "Add the event dates.");
    }
  }
  if (step === "delivery" || step === "review") {
    const url = body.delivery?.webhook_url;
    if (url !== undefined) {
      if (!url.trim()) add("/delivery/webhook_url", "Enter the URL that should receive the photos, or choose dashboard only.");
      else if (!HTTP_URL.test(url.trim())) add("/delivery/webhook_url", "Enter a full http:// or https:// URL.");
    }
  }
  return problems;
}

/** The angles a location is photographed from: its own, else the order's. */
export function anglesOf(location: DraftLocation, body: OrderDraftBody) {
  return location.requirements?.angles ?? body.requirements?.angles ?? [];
}
