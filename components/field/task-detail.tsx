"use client";
// One task: where and what to shoot, taking it, giving it back, sending its photo with progress,
// and the verification when it comes back (polled: QA and verification run after the upload).
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { startPoll } from "@/lib/field/poll";
import { isRetryableStatus } from "@/lib/field/transport";
import { DuplicatePhotoError } from "@/lib/field/outbox";
import { checksBeforeSending, sameOutboxPhoto } from "@/lib/field/pre-send-checks";
import { sha256Hex } from "@/lib/field/read-photo";
import type { CaptureEvidence } from "@/lib/field/outbox-state";
import { OutboxList } from "./outbox-list";
import { PreSendChecks } from "./pre-send-checks";
import { PhotoPicker } from "./photo-upload";
import { problemDetail, useProblemWords } from "./problem-detail";
import { FieldRelativeTime } from "./relative-time";
import { formatClock, zoneLabel } from "./task-format";
import { RetakeInstructions, TaskWhen } from "./task-facts";
import { wayTo } from "./task-geometry";
import { TaskBadges } from "./task-list";
import { TaskMap } from "./task-map";
import { TEXT_BUTTON } from "./tap-target";
import type { FieldTask, Position } from "./types";
import { useAngleDescription, useAngleLabel } from "@/components/ui/use-angle-label";
import { useCaptureEvidence } from "./use-capture-evidence";
import { useOutbox } from "./use-outbox";
import { usePhotoReadings } from "./use-photo-readings";
import { useTimeWords } from "./use-time-words";
import { VerificationResult } from "./verification-result";
import { WayToTarget } from "./way-to-target";

// Verification usually answers within seconds; a queue backed up for minutes is asked less often.
const POLL_MS = 1500;
const SLOW_POLL_MS = 5000;
const FAST_POLLS = 40;

const primary =
  "rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60";
const secondary =
  "rounded-md border border-slate-300 px-4 py-3 font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60";

export function TaskDetail({
  initial,
  position,
  onBack,
  onOpen,
}: {
  initial: FieldTask;
  position: Position | null;
  onBack: (notice?: string) => void;
  onOpen: (task: FieldTask) => void;
}) {
  const t = useTranslations("field.task");
  const problemWords = useProblemWords();
  const angleLabel = useAngleLabel();
  const angleDescription = useAngleDescription();
  const { words } = useTimeWords();
  const locale = useLocale();
  const [taskState, setTask] = useState(initial);
  const [busy, setBusy] = useState<"take" | "release" | "retake" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  // The phone's evidence when the photo was taken (chosen), checked before it is sent.
  const [evidence, setEvidence] = useState<CaptureEvidence | null>(null);
  const { outbox, entries } = useOutbox((e) => e.target.kind === "task" && e.target.id === initial.id);
  // The same photo is kept once, whichever task or mission it was kept for.
  const { entries: everyPhoto } = useOutbox();
  const { capture, askCompass } = useCaptureEvidence();
  const readings = usePhotoReadings(files);
  const chosen = files[0];
  const reading = chosen ? (readings.get(chosen) ?? null) : null;
  const sameAs = sameOutboxPhoto(reading?.sha256, everyPhoto);
  // Until the server has it, the photo is this task's outbox entry; after that the task shows it.
  const unsent = entries.filter((e) => e.state.phase === "waiting" || e.state.phase === "sending" || e.state.phase === "refused");
  const uploading = unsent.some((e) => e.state.phase === "sending");
  const received = entries.find((e) => e.state.phase === "checking" || e.state.phase === "approved" || e.state.phase === "rejected");
  // The outbox has sent the photo: the task is being checked (the poll below follows it).
  const task: FieldTask =
    received && "submissionId" in received.state && taskState.status === "reserved"
      ? { ...taskState, status: "submitted", submission_id: received.state.submissionId, reserved_until: null }
      : taskState;
  const heading = useRef<HTMLHeadingElement>(null);

  // Screen-reader and keyboard users start at the task, not at the button they pressed before.
  useEffect(() => heading.current?.focus(), []);

  const checking = task.status === "submitted" && !task.verification;
  const [waitingForSignal, setWaitingForSignal] = useState(false);
  // Asks until the verdict is there; a lost signal only delays it (lib/field/poll.ts).
  useEffect(() => {
    if (!checking) return;
    return startPoll({
      intervalMs: POLL_MS,
      slowAfter: FAST_POLLS,
      slowIntervalMs: SLOW_POLL_MS,
      check: async () => {
        const res = await fetch(`/field/api/assignments/${task.id}`, { cache: "no-store" });
        // A server that is down or busy is a lost signal too: ask again with backoff.
        if (isRetryableStatus(res.status)) throw new Error(`The server answered ${res.status}.`);
        if (!res.ok) {
          setError(await problemDetail(res, problemWords));
          return "done";
        }
        const next = (await res.json()) as FieldTask;
        setTask(next);
        return next.status === "submitted" && !next.verification ? "again" : "done";
      },
      onError: () => setWaitingForSignal(true),
      onRecovered: () => setWaitingForSignal(false),
    });
  }, [checking, task.id, problemWords]);

  const refresh = async () => {
    const res = await fetch(`/field/api/assignments/${task.id}`, { cache: "no-store" });
    if (res.ok) setTask((await res.json()) as FieldTask);
  };

  const take = async () => {
    setBusy("take");
    setError(null);
    try {
      const res = await fetch(`/field/api/assignments/${task.id}/take`, { method: "POST" });
      if (res.ok) setTask((await res.json()) as FieldTask);
      else setError(await problemDetail(res, problemWords));
    } catch {
      setError(t("unreachable"));
    } finally {
      setBusy(null);
    }
  };

  const release = async () => {
    setBusy("release");
    setError(null);
    try {
      const res = await fetch(`/field/api/assignments/${task.id}/release`, { method: "POST" });
      if (res.ok) return onBack(t("gaveBack", { name: task.location.name, angle: angleLabel(task.angle) }));
      setError(await problemDetail(res, problemWords));
      await refresh();
    } catch {
      setError(t("unreachable"));
    } finally {
      setBusy(null);
    }
  };

  const upload = async () => {
    const file = files[0];
    if (!file || !outbox) return;
    setError(null);
    try {
      const sha256 = reading?.sha256 ?? (await sha256Hex(file));
      await outbox.add({
        target: { kind: "task", id: task.id, title: task.location.name },
        angle: task.angle,
        note: null,
        filename: file.name,
        photo: file,
        sha256,
        evidence: evidence ?? capture(),
      });
      setFiles([]);
      setEvidence(null);
    } catch (e) {
      setError(e instanceof DuplicatePhotoError ? t("alreadyWaiting") : t("storageFull"));
    }
  };

  const openRetake = async () => {
    setBusy("retake");
    setError(null);
    try {
      // The retake is a new task at the same place: look for it there.
      const { lat, lng } = task.location;
      const res = await fetch(`/field/api/assignments?lat=${lat}&lng=${lng}&radius_km=1&limit=100`, { cache: "no-store" });
      if (!res.ok) return setError(await problemDetail(res, problemWords));
      const { data } = (await res.json()) as { data: FieldTask[] };
      const retake = data.find((r) => r.location.id === task.location.id && r.angle === task.angle && r.attempt === task.attempt + 1);
      // Distances in that answer are from the target itself: measure them from the zoomer instead.
      if (retake) onOpen({ ...retake, distance_m: null, bearing_deg: null });
      else setError(t("retakeTaken"));
    } catch {
      setError(t("unreachable"));
    } finally {
      setBusy(null);
    }
  };

  const way = wayTo(task.location, position, task);
  return (
    <section className="flex flex-col gap-4" aria-labelledby="task-heading" data-testid="task-detail" data-status={task.status}>
      <button type="button" onClick={() => onBack()} className={`${TEXT_BUTTON} self-start text-slate-600`}>
        {t("back")}
      </button>
      <header className="flex flex-col gap-1">
        <h1 id="task-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          <bdi translate="no">{task.location.name}</bdi>
        </h1>
        <p className="text-slate-700">
          <span className="font-semibold">{angleLabel(task.angle)}</span> — {angleDescription(task.angle, task.angle_description)}
        </p>
        <TaskBadges task={task} />
      </header>

      <RetakeInstructions task={task} headingLevel="h2" />

      <figure className="flex flex-col gap-1">
        <TaskMap target={task.location} name={task.location.name} position={position} size="lg" />
        <figcaption className="flex items-center justify-between gap-2 text-sm">
          <WayToTarget way={way} />
          <span className="flex items-center gap-3 text-xs text-slate-600" aria-hidden>
            <span className="flex items-center gap-1">
              <span className="inline-block h-2.5 w-2.5 rounded-full bg-blue-600" /> {t("you")}
            </span>
            <span className="flex items-center gap-1">
              <span className="inline-block h-2.5 w-2.5 rounded-full border-2 border-rose-700 bg-rose-100" /> {t("target")}
            </span>
          </span>
        </figcaption>
      </figure>

      <TaskWhen task={task} />

      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}

      {task.status === "open" && (
        <div className="flex flex-col gap-2">
          <button type="button" onClick={take} disabled={busy !== null} className={primary}>
            {busy === "take" ? t("taking") : t("take")}
          </button>
          <p className="text-sm text-slate-600">{t("takeNote")}</p>
        </div>
      )}

      {task.status === "reserved" && (
        <>
          <p className="rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-950" data-testid="reservation">
            {task.reserved_until
              ? t.rich("reservedUntil", {
                  clock:
                    formatClock(task.reserved_until, { timeZone: task.location.time_zone, locale }) ?? new Date(task.reserved_until).toLocaleTimeString(locale),
                  zone: zoneLabel(task.location.time_zone, words),
                  relative: () => (task.reserved_until ? <FieldRelativeTime iso={task.reserved_until} /> : null),
                  time: (chunks) => <time dateTime={task.reserved_until ?? undefined}>{chunks}</time>,
                })
              : t("reserved")}
          </p>
          <form
            className="flex flex-col gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              void upload();
            }}
          >
            <div onClickCapture={askCompass}>
              <PhotoPicker
                label={t("photoLabel")}
                files={files}
                onChange={(chosen) => {
                  setFiles(chosen);
                  setEvidence(chosen.length > 0 ? capture() : null);
                }}
              />
            </div>
            {evidence && <PreSendChecks checks={checksBeforeSending(task, { evidence, reading, sameAs })} />}
            <button type="submit" disabled={files.length === 0 || unsent.length > 0 || sameAs !== null || busy !== null || !outbox} className={primary}>
              {uploading ? t("sending") : t("send")}
            </button>
          </form>
          <OutboxList entries={unsent} heading={t("yourPhoto")} />
          <button type="button" onClick={release} disabled={unsent.length > 0 || busy !== null} className={secondary}>
            {busy === "release" ? t("givingBack") : t("giveBack")}
          </button>
        </>
      )}

      {checking && (
        <p className="flex items-center gap-2 rounded-md bg-slate-50 p-4 text-slate-700" data-testid="task-checking">
          <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-emerald-700" />
          {t("checking")}
        </p>
      )}
      {checking && waitingForSignal && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="verdict-waiting">
          {t("verdictWaits")}
        </p>
      )}

      {task.status === "cancelled" && <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-800">{t("cancelled")}</p>}

      {task.verification && <VerificationResult task={task} verification={task.verification} onOpenRetake={openRetake} findingRetake={busy === "retake"} />}

      {/* One short sentence for screen readers when the photo's fate changes. */}
      <p role="status" className="sr-only">
        {checking ? t("srChecking") : task.verification ? (task.verification.status === "approved" ? t("srApproved") : t("srRejected")) : ""}
      </p>
    </section>
  );
}
