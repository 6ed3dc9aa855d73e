"use client";
// A task's requirements: where (the radius and the direction the server checks) and when (the
// window, the light and the deadline in the place's own time, written the zoomer's way: task-format.ts TimeStyle).
import { RelativeTime } from "@/components/ui/local-time";
import { formatRelative } from "@/components/ui/format-time";
import { useNow } from "@/components/ui/use-now";
import { formatStamp, formatWindow, hoursText, sceneTexts, timeOfDayText, whereText, windowPhase, zoneLabel } from "./task-format";
import type { FieldTask } from "./types";

export function TaskWhen({ task, compact = false }: { task: FieldTask; compact?: boolean }) {
  const zone = zoneLabel(task.location.time_zone);
  const style = { timeZone: task.location.time_zone };
  const scene = sceneTexts(task.requirements);
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 ${compact ? "text-xs" : "text-sm"} text-slate-700`} data-testid="task-requirements">
      {!compact && (
        <>
          <dt className="font-medium text-slate-500">Where</dt>
          <dd data-testid="task-where">{whereText(task)}</dd>
        </>
      )}
      <dt className="font-medium text-slate-500">When</dt>
      <dd>
        {task.window ? (
          <>
            {formatWindow(task.window, style)} ({zone})
            <WindowPhase window={task.window} />
          </>
        ) : task.time_of_day ? (
          "Before the deadline, at the time of day below"
        ) : (
          "Any time of day"
        )}
      </dd>
      {task.time_of_day && (
        <>
          <dt className="font-medium text-slate-500">Light</dt>
          <dd data-testid="task-time-of-day">
            {timeOfDayText(task.time_of_day, task.location.time_zone, { withDay: !task.window })}
            {/* A cycle's window is already the sun's, so its phase above says it; one-off work says it here. */}
            {!task.window && task.time_of_day.starts_at && task.time_of_day.ends_at && <WindowPhase window={{ starts_at: task.time_of_day.starts_at, ends_at: task.time_of_day.ends_at }} />}
          </dd>
        </>
      )}
      {task.requirements.time_window && (
        <>
          <dt className="font-medium text-slate-500">Hours</dt>
          <dd data-testid="task-hours">{hoursText(task.requirements.time_window)}</dd>
        </>
      )}
      {!compact && scene.crowd && (
        <>
          <dt className="font-medium text-slate-500">Crowd</dt>
          <dd data-testid="task-crowd">{scene.crowd}</dd>
        </>
      )}
      {!compact && scene.brand && (
        <>
          <dt className="font-medium text-slate-500">Brand</dt>
          <dd data-testid="task-brand">{scene.brand}</dd>
        </>
      )}
      <dt className="font-medium text-slate-500">Deadline</dt>
      <dd>
        {formatStamp(task.deadline_at, style) ?? task.deadline_local} ({zone})
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

/** " · open now" / " · opens in 5 h" / " · closed", kept current. */
function WindowPhase({ window }: { window: { starts_at: string; ends_at: string } }) {
  const now = useNow();
  if (now === null) return null;
  const phase = windowPhase(window, now);
  if (phase === "open") return <span className="font-medium text-emerald-800"> · open now</span>;
  if (phase === "before") return <span> · opens {formatRelative(window.starts_at, now)}</span>;
  return <span className="font-medium text-red-800"> · closed</span>;
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
