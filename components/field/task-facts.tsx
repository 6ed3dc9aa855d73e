"use client";
// A task's when: the window and the deadline in the place's own time, and a reservation's end.
import { RelativeTime } from "@/components/ui/local-time";
import { formatLocalStamp, formatLocalWindow, zoneLabel } from "./task-format";
import type { FieldTask } from "./types";

export function TaskWhen({ task, compact = false }: { task: FieldTask; compact?: boolean }) {
  const zone = zoneLabel(task.location.time_zone);
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 ${compact ? "text-xs" : "text-sm"} text-slate-700`}>
      <dt className="font-medium text-slate-500">When</dt>
      <dd>{task.window ? `${formatLocalWindow(task.window.local)} (${zone})` : "Any time of day"}</dd>
      <dt className="font-medium text-slate-500">Deadline</dt>
      <dd>
        {formatLocalStamp(task.deadline_local)} ({zone})
        {!compact && (
          <>
            {" · "}
            <RelativeTime iso={task.deadline_at} />
          </>
        )}
      </dd>
    </dl>
  );
}

/** The instructions of a retake: what went wrong last time, to do differently now. */
export function RetakeInstructions({ task, headingLevel = "p" }: { task: FieldTask; headingLevel?: "h2" | "p" }) {
  if (task.attempt === 0 || task.instructions.length === 0) return null;
  const Heading = headingLevel;
  return (
    <div className="rounded-md border-l-4 border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="retake-instructions">
      <Heading className="font-semibold">Retake: do this differently</Heading>
      <ul className="mt-1 list-disc pl-5">
        {task.instructions.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
