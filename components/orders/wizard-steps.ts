// The order wizard's steps, and how a draft and the API's answers relate to them: which step an
// error's JSON pointer belongs to, what each step still lacks, and the create-order body a draft
// becomes. Pure functions (tests beside), shared by the step pages, the review and the actions.
// What a step lacks comes back as codes with their parameters; the steps word them in the
// reader's language (messages/<locale>/wizard.json, "problems").
import type { DraftLocation, OrderDraftBody } from "@/lib/orders/draft";
import { WIZARD_STEPS, type WizardStep } from "@/lib/orders/wizard-steps";

export { WIZARD_STEPS, type WizardStep };

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

/** The draft members an error summary names (wizard.json "members"); the others are left out. */
const MEMBERS = new Set([
  "lat",
  "lng",
  "name",
  "location_id",
  "angles",
  "time_of_day",
  "minimum_crowd",
  "brand_match",
  "webhook_url",
  "frequency",
  "day_of_week",
  "deliver_before",
  "season",
  "time_window",
  "event_dates",
  "category",
  "client_reference",
  "description",
]);

/** One part of a pointer's description: a location (number, name), an item of a list, or a member. */
export type PointerPart = { kind: "location"; number: number; name: string } | { kind: "item"; number: number } | { kind: "member"; member: string };

/**
 * "/locations/3/coordinates/lat" → location 4 (Duomo), then the member lat; for error summaries,
 * which word the parts ("Location 4 (Duomo), latitude"). Empty: the order as a whole.
 */
export function describePointer(pointer: string, locations: readonly DraftLocation[] = []): PointerPart[] {
  const parts = pointer.split("/").filter(Boolean);
  const out: PointerPart[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    if (part === "locations" && /^\d+$/.test(parts[i + 1] ?? "")) {
      const index = Number(parts[i + 1]);
      out.push({ kind: "location", number: index + 1, name: locations[index]?.name ?? "" });
      i++;
    } else if (/^\d+$/.test(part)) {
      out.push({ kind: "item", number: Number(part) + 1 });
    } else if (MEMBERS.has(part) && !out.some((p) => p.kind === "member" && p.member === part)) {
      out.push({ kind: "member", member: part });
    }
  }
  return out;
}

/** Something a step still lacks, as a code (wizard.json "problems.<code>") and its parameters. */
export type StepProblem =
  | {
      code: "noLocations" | "unnamedLocation" | "noCategory" | "noAngles" | "noFrequency" | "noWeekday" | "noEventDates" | "noWebhookUrl" | "webhookUrlNotHttp";
    }
  | { code: "noAnglesFor"; location: string; number: number };
// noAnglesFor: the location's name, or "" for an unnamed one (then its number is said instead).

export type StepProblems = Record<string, StepProblem[]>;

/** The problems in words, keyed as the API's errors are, so the two can be shown together. */
export function wordProblems(problems: StepProblems, say: (problem: StepProblem) => string): FieldErrors {
  return Object.fromEntries(Object.entries(problems).map(([pointer, list]) => [pointer, list.map(say)]));
}

const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/**
 * What a step still needs before the order can be priced, keyed by the pointer the API would use
 * (so the same field shows it). Only what the form can know: the API has the last word.
 */
export function stepProblems(body: OrderDraftBody, step: WizardStep): StepProblems {
  const problems: StepProblems = {};
  const add = (pointer: string, problem: StepProblem) => (problems[pointer] ??= []).push(problem);
  const locations = body.locations ?? [];
  if (step === "locations" || step === "review") {
    if (locations.length === 0) add("/locations", { code: "noLocations" });
    locations.forEach((l, i) => {
      if (!l.name.trim()) add(`/locations/${i}/name`, { code: "unnamedLocation" });
    });
  }
  if (step === "what" || step === "review") {
    if (!body.category) add("/category", { code: "noCategory" });
    const orderAngles = body.requirements?.angles ?? [];
    locations.forEach((l, i) => {
      const angles = l.requirements?.angles ?? orderAngles;
      if (angles.length === 0) add(`/locations/${i}/requirements/angles`, { code: "noAnglesFor", location: l.name.trim(), number: i + 1 });
    });
    if (locations.length === 0 && orderAngles.length === 0) add("/requirements/angles", { code: "noAngles" });
  }
  if (step === "when" || step === "review") {
    const r = body.recurring;
    if (r?.enabled) {
      if (!r.frequency && !r.event_nights_only) add("/recurring/frequency", { code: "noFrequency" });
      if (r.frequency === "weekly" && r.day_of_week === undefined) add("/recurring/day_of_week", { code: "noWeekday" });
      if (r.event_nights_only && (r.event_dates?.length ?? 0) === 0) add("/recurring/event_dates", { code: "noEventDates" });
    }
  }
  if (step === "delivery" || step === "review") {
    const url = body.delivery?.webhook_url;
    if (url !== undefined) {
      if (!url.trim()) add("/delivery/webhook_url", { code: "noWebhookUrl" });
      else if (!HTTP_URL.test(url.trim())) add("/delivery/webhook_url", { code: "webhookUrlNotHttp" });
    }
  }
  return problems;
}
