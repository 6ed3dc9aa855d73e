"use client";
// Order tasks near the zoomer — each one angle of one ordered place — with the ones they hold first.
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { RetryButton } from "./mission-list";
import { MAX_RETAKES } from "./task-format";
import { useAngleDescription, useAngleLabel } from "@/components/ui/use-angle-label";
import { RetakeInstructions, TaskWhen } from "./task-facts";
import { wayTo } from "./task-geometry";
import { TaskMap } from "./task-map";
import type { FieldTask, Position } from "./types";
import type { Nearby } from "./use-nearby";
import { WayToTarget } from "./way-to-target";

export function TaskList({
  tasks,
  position,
  radiusKm,
  onSelect,
  onRetry,
}: {
  tasks: Nearby<FieldTask>;
  position: Position;
  radiusKm: number;
  onSelect: (task: FieldTask) => void;
  onRetry: () => void;
}) {
  const t = useTranslations("field.tasks");
  if (tasks.status === "idle") return null;
  if (tasks.status === "loading") return <LoadingRows rows={3} label={t("loading")} />;
  if (tasks.status === "error") {
    return (
      <ErrorState title={t("loadError")} action={<RetryButton onClick={onRetry} />}>
        {tasks.error}
      </ErrorState>
    );
  }
  const mine = tasks.data.filter((t) => t.status === "reserved" || t.status === "submitted" || t.status === "held_for_review");
  const open = tasks.data.filter((t) => t.status === "open");
  return (
    <div className="flex flex-col gap-4" aria-busy={tasks.refreshing}>
      {mine.length > 0 && <TaskGroup title={t("yours")} tasks={mine} position={position} onSelect={onSelect} />}
      {open.length > 0 ? (
        <TaskGroup title={t("open")} tasks={open} position={position} onSelect={onSelect} />
      ) : (
        <EmptyState title={t("emptyTitle")}>{t("emptyBody", { radius: radiusKm })}</EmptyState>
      )}
    </div>
  );
}

function TaskGroup({ title, tasks, position, onSelect }: { title: string; tasks: FieldTask[]; position: Position; onSelect: (task: FieldTask) => void }) {
  return (
    <section className="flex flex-col gap-2" aria-label={title}>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
      <ul className="flex flex-col gap-3">
        {tasks.map((task) => (
          <TaskCard key={task.id} task={task} position={position} onSelect={() => onSelect(task)} />
        ))}
      </ul>
    </section>
  );
}

export function TaskBadges({ task }: { task: FieldTask }) {
  const t = useTranslations("field.tasks");
  return (
    <span className="flex flex-wrap gap-1">
      {task.status === "reserved" && <Badge tone="info">{t("takenByYou")}</Badge>}
      {task.status === "submitted" && <Badge tone="warning">{t("checking")}</Badge>}
      {/* Held for review: the zoomer is told only that a person is looking at it. */}
      {task.status === "held_for_review" && <Badge tone="info">{t("needsReview")}</Badge>}
      {task.attempt > 0 && <Badge tone="warning">{t("retakeOf", { attempt: task.attempt, max: MAX_RETAKES })}</Badge>}
    </span>
  );
}

function TaskCard({ task, position, onSelect }: { task: FieldTask; position: Position; onSelect: () => void }) {
  const angleLabel = useAngleLabel();
  const angleDescription = useAngleDescription();
  return (
    <li
      className="relative flex gap-3 rounded-lg border border-slate-200 p-3 hover:border-emerald-600 has-[button:focus-visible]:outline-2 has-[button:focus-visible]:outline-offset-2 has-[button:focus-visible]:outline-emerald-600"
      data-testid="field-task"
    >
      <TaskMap target={task.location} name={task.location.name} position={position} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h3 className="font-semibold leading-snug">
          {/* The whole card is the button's target (after:inset-0); its name stays short. */}
          <button type="button" onClick={onSelect} className="text-start after:absolute after:inset-0 after:content-[''] focus-visible:outline-none">
            <bdi translate="no">{task.location.name}</bdi>
            <span className="sr-only">, {angleLabel(task.angle)}</span>
          </button>
        </h3>
        <TaskBadges task={task} />
        <p className="text-sm text-slate-700">
          <span className="font-medium">{angleLabel(task.angle)}</span> — {angleDescription(task.angle, task.angle_description)}
        </p>
        <WayToTarget way={wayTo(task.location, position, task)} className="text-sm text-slate-900" />
        <TaskWhen task={task} compact />
        <RetakeInstructions task={task} />
      </div>
    </li>
  );
}
