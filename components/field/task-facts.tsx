"use client";
// A task's requirements: where (the radius and the direction the server checks) and when (the
// window, the light and the deadline in the place's own time, written the zoomer's way: task-format.ts TimeStyle).
import { useTranslations } from "next-intl";
import { useNow } from "@/components/ui/use-now";
import { FieldRelativeTime, useRelativeTime } from "./relative-time";
import { formatStamp, formatWindow, hoursText, sceneTexts, timeOfDayText, whereFigures, windowPhase, zoneLabel } from "./task-format";
import type { FieldTask } from "./types";
import { useInstructionLines } from "@/components/ui/use-server-text";
import { useTimeWords } from "./use-time-words";

export function TaskWhen({ task, compact = false }: { task: FieldTask; compact?: boolean }) {
  const t = useTranslations("field.tasks");
  const { locale, words } = useTimeWords();
  const zone = zoneLabel(task.location.time_zone, words);
  const style = { timeZone: task.location.time_zone, locale };
  const scene = sceneTexts(task.requirements, words);
  const where = whereFigures(task);
  const place = task.location.name;
  return (
    <dl
      className={`grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 break-words gap-y-0.5 ${compact ? "text-xs" : "text-sm"} text-slate-700`}
      data-testid="task-requirements"
    >
      {!compact && (
        <>
          <dt className="font-medium text-slate-500">{t("where")}</dt>
          <dd data-testid="task-where">
            {where.toleranceDeg !== null
              ? t("whereFacing", { radius: where.radiusM, place, tolerance: where.toleranceDeg })
              : t("whereWithin", { radius: where.radiusM, place })}
          </dd>
        </>
      )}
      <dt className="font-medium text-slate-500">{t("when")}</dt>
      <dd>
        {task.window ? (
          <>
            {formatWindow(task.window, style, words)} ({zone})
            <WindowPhase window={task.window} />
          </>
        ) : task.time_of_day ? (
          t("beforeDeadline")
        ) : (
          t("anyTime")
        )}
      </dd>
      {task.time_of_day && (
        <>
          <dt className="font-medium text-slate-500">{t("light")}</dt>
          <dd data-testid="task-time-of-day">
            {timeOfDayText(task.time_of_day, task.location.time_zone, { withDay: !task.window, locale, words })}
            {/* A cycle's window is already the sun's, so its phase above says it; one-off work says it here. */}
            {!task.window && task.time_of_day.starts_at && task.time_of_day.ends_at && (
              <WindowPhase window={{ starts_at: task.time_of_day.starts_at, ends_at: task.time_of_day.ends_at }} />
            )}
          </dd>
        </>
      )}
      {task.requirements.time_window && (
        <>
          <dt className="font-medium text-slate-500">{t("hours")}</dt>
          <dd data-testid="task-hours">{hoursText(task.requirements.time_window, { locale, words })}</dd>
        </>
      )}
      {!compact && scene.crowd && (
        <>
          <dt className="font-medium text-slate-500">{t("crowd")}</dt>
          <dd data-testid="task-crowd">{scene.crowd}</dd>
        </>
      )}
      {!compact && scene.brand && (
        <>
          <dt className="font-medium text-slate-500">{t("brand")}</dt>
          <dd data-testid="task-brand">{scene.brand}</dd>
        </>
      )}
      <dt className="font-medium text-slate-500">{t("deadline")}</dt>
      <dd>
        {formatStamp(task.deadline_at, style) ?? task.deadline_local} ({zone})
        {!compact && (
          <>
            {" · "}
            <FieldRelativeTime iso={task.deadline_at} />
          </>
        )}
      </dd>
    </dl>
  );
}

/** " · open now" / " · opens in 5 h" / " · closed", kept current. */
function WindowPhase({ window }: { window: { starts_at: string; ends_at: string } }) {
  const t = useTranslations("field.tasks");
  const now = useNow();
  const relative = useRelativeTime();
  if (now === null) return null;
  const phase = windowPhase(window, now);
  if (phase === "open") return <span className="font-medium text-emerald-800"> · {t("openNow")}</span>;
  if (phase === "before") return <span> · {t("opensIn", { when: relative(window.starts_at) ?? "" })}</span>;
  return <span className="font-medium text-red-800"> · {t("closed")}</span>;
}

/** The instructions of a retake: what went wrong last time, to do differently now. */
export function RetakeInstructions({ task, headingLevel = "p" }: { task: FieldTask; headingLevel?: "h2" | "p" }) {
  const t = useTranslations("field.tasks");
  const instructions = useInstructionLines()(task.instruction_codes, task.instructions);
  if (task.attempt === 0 || instructions.length === 0) return null;
  const Heading = headingLevel;
  return (
    <div className="rounded-md border-s-4 border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="retake-instructions">
      <Heading className="font-semibold">{t("retakeHeading")}</Heading>
      <ul className="mt-1 list-disc ps-5">
        {instructions.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
