"use client";
// The photos on this phone that the server has not judged yet (and those just judged): each with
// its state — waiting for signal, sending 42 %, checking, approved, rejected with the reasons and
// a retake — so the zoomer sees that nothing is lost.
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { OutboxView } from "@/lib/field/outbox";
import { useInstructionLines, useServerText } from "@/components/ui/use-server-text";
import { refusalRepeats, type ReasonCode } from "@/lib/field/outbox-state";
import { outboxTitle } from "./task-format";
import { useAngleLabel } from "@/components/ui/use-angle-label";
import { useOutbox } from "./use-outbox";

function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

function Thumbnail({ photo, name }: { photo: Blob; name: string }) {
  const t = useTranslations("field.outbox");
  // A HEIC shows only where the browser decodes it (Safari): elsewhere a neutral tile with its name, never a broken image.
  const [undecodable, setUndecodable] = useState(false);
  // The blob's URL lives as long as the image shows it (a ref callback with cleanup, React 19).
  const show = useCallback(
    (img: HTMLImageElement | null) => {
      if (!img) return;
      const url = URL.createObjectURL(photo);
      img.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [photo],
  );
  if (undecodable) {
    return (
      <div
        role="img"
        aria-label={t("cannotShow", { name })}
        data-testid="outbox-placeholder"
        className="flex h-16 w-16 shrink-0 flex-col items-center justify-center gap-0.5 overflow-hidden rounded-md bg-slate-200 p-1 text-slate-600"
      >
        <span aria-hidden className="text-lg leading-none">
          ▣
        </span>
        <span aria-hidden className="w-full truncate text-center text-[10px] leading-tight" dir="auto">
          {name}
        </span>
      </div>
    );
  }
  // eslint-disable-next-line @next/next/no-img-element -- a local blob, not an optimisable URL
  return <img ref={show} alt={t("yourPhoto")} onError={() => setUndecodable(true)} className="h-16 w-16 shrink-0 rounded-md bg-slate-200 object-cover" />;
}

const button = "rounded-md border px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700";

/** Why a photo was not accepted, in the reader's language when every reason has a code ("Photo 2: …" for one of several). */
function useReasonLines(): (codes: ReasonCode[] | undefined, english: string[]) => string[] {
  const t = useTranslations("field.outbox");
  const lines = useInstructionLines();
  return (codes, english) => {
    if (!codes || codes.length === 0) return english;
    const said = lines(codes, english);
    if (said === english) return english;
    return said.map((reason, i) => {
      const photo = codes[i]?.photo;
      return photo === undefined ? reason : t("photoReason", { n: photo, reason });
    });
  };
}

function EntryState({ entry, online, onRetake }: { entry: OutboxView; online: boolean; onRetake?: () => void }) {
  const { outbox } = useOutbox();
  const t = useTranslations("field.outbox");
  const serverText = useServerText();
  const reasonLines = useReasonLines();
  const { state } = entry;
  switch (state.phase) {
    case "waiting":
      return (
        <p className="text-sm text-amber-900">
          {/* The server's reason is a whole sentence that already says the photo waits here; the short statuses say where it is. */}
          {online && state.lastError !== null
            ? serverText(state.lastErrorCode, state.lastError)
            : t("keptHere", { status: online ? t("waitingToSend") : t("waitingForSignal") })}
        </p>
      );
    case "sending":
      return (
        <div className="flex flex-col gap-1">
          <ProgressBar value={entry.percent ?? 0} max={100} label={t("uploadProgress")} />
          <span className="text-sm text-slate-700">{t("sending", { percent: entry.percent ?? 0 })}</span>
        </div>
      );
    case "checking":
      return (
        <div className="flex flex-col gap-1 text-sm text-slate-700">
          <p>{t("received")}</p>
          {entry.verdictWaitsForSignal && (
            <p className="text-amber-900" data-testid="verdict-waiting">
              {t("verdictWaits")}
            </p>
          )}
        </div>
      );
    case "approved":
      return (
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-sm font-semibold text-emerald-800">{t("approved")}</p>
          <button type="button" className={`${button} border-slate-300 text-slate-700`} onClick={() => void outbox?.remove(entry.id)}>
            {t("done")}
          </button>
        </div>
      );
    case "rejected":
      return (
        <div className="flex flex-col gap-2 text-sm text-red-900">
          <p className="font-semibold">{t("notAccepted")}</p>
          <ul className="list-disc ps-5">
            {reasonLines(state.reasonCodes, state.reasons).map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
          <div className="flex gap-2">
            {onRetake && (
              <button
                type="button"
                className={`${button} border-emerald-700 bg-emerald-700 text-white`}
                onClick={() => void outbox?.remove(entry.id).then(onRetake)}
              >
                {t("retake")}
              </button>
            )}
            <button type="button" className={`${button} border-slate-300 text-slate-700`} onClick={() => void outbox?.remove(entry.id)}>
              {t("dismiss")}
            </button>
          </div>
        </div>
      );
    case "refused": {
      // A refusal about the photo itself can only repeat: no retry, and the server's hint stays in view.
      const said = serverText(state.errorCode, state.error);
      return (
        <div className="flex flex-col gap-2 text-sm text-red-900">
          <p>{t("notSent", { error: said })}</p>
          {said !== state.error && (
            <p className="break-words text-slate-700" data-testid="server-hint">
              {t("serverHint")}{" "}
              <span dir="ltr" lang="en">
                {state.error}
              </span>
            </p>
          )}
          <div className="flex gap-2">
            {!refusalRepeats(state) && (
              <button type="button" className={`${button} border-slate-300 text-slate-700`} onClick={() => void outbox?.retry(entry.id)}>
                {t("tryAgain")}
              </button>
            )}
            <button type="button" className={`${button} border-slate-300 text-slate-700`} onClick={() => void outbox?.remove(entry.id)}>
              {t("remove")}
            </button>
          </div>
        </div>
      );
    }
  }
}

export function OutboxList({ entries, heading, onRetake }: { entries: readonly OutboxView[]; heading: string; onRetake?: () => void }) {
  const online = useOnline();
  const angleLabel = useAngleLabel();
  if (entries.length === 0) return null;
  return (
    <section aria-label={heading} className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">{heading}</h2>
      <ul className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200" aria-live="polite">
        {entries.map((entry) => (
          <li key={entry.id} className="flex gap-3 p-3" data-testid="outbox-entry" data-phase={entry.state.phase}>
            <Thumbnail photo={entry.photo} name={entry.filename} />
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              {/* Wrapped, not cut: on a phone a long mission title would hide the angle at its end. */}
              <p className="break-words text-sm font-medium text-slate-900">{outboxTitle(entry.target.title, entry.angle ? angleLabel(entry.angle) : null)}</p>
              <EntryState entry={entry} online={online} onRetake={onRetake} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The header's count of photos still waiting (not sent, sending, or being checked). */
export function OutboxCount() {
  const { entries } = useOutbox();
  const online = useOnline();
  const t = useTranslations("field");
  const waiting = entries.filter((e) => e.state.phase === "waiting" || e.state.phase === "sending" || e.state.phase === "checking").length;
  return (
    <span className="flex items-center gap-2 text-sm" data-testid="outbox-count" data-count={waiting}>
      {!online && <span className="rounded-full bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">{t("offline")}</span>}
      {waiting > 0 && <span className="rounded-full bg-white/20 px-2 py-0.5 text-xs font-semibold">{t("photosWaiting", { count: waiting })}</span>}
    </span>
  );
}
