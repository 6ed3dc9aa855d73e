// From the API's `recurring` member to the schedule module's rule: null for one-off orders.
import type { RecurringInput } from "@/lib/schemas/order";
import { parseDayOfMonth, type RecurrenceRule } from "./cycle-calendar";

export function recurrenceRuleOf(recurring: RecurringInput | null | undefined): RecurrenceRule | null {
  if (!recurring?.enabled) return null;
  return {
    // Event-night orders need no frequency: their cycles are the event dates.
    frequency: recurring.frequency ?? "daily",
    day_of_week: recurring.day_of_week,
    deliver_before: recurring.deliver_before === undefined ? undefined : (parseDayOfMonth(recurring.deliver_before) ?? undefined),
    season: recurring.season,
    time_window: recurring.time_window,
    event_nights_only: recurring.event_nights_only,
    event_dates: recurring.event_dates,
  };
}
