"use client";
// One open mission: photos go into the phone's outbox at once (with the angle, the note and the
// phone's evidence) and are sent from there when there is signal; their states and verdicts show
// below the form.
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { DuplicatePhotoError } from "@/lib/field/outbox";
import type { CaptureEvidence } from "@/lib/field/outbox-state";
import { missionChecksBeforeSending, sameOutboxPhoto } from "@/lib/field/pre-send-checks";
import { sha256Hex } from "@/lib/field/read-photo";
import { MissionOutline } from "./mission-outline";
import { TEXT_BUTTON } from "./tap-target";
import { OutboxList } from "./outbox-list";
import { PhotoPicker } from "./photo-upload";
import { PreSendChecks } from "./pre-send-checks";
import type { Position } from "./types";
import { useAngleLabel } from "@/components/ui/use-angle-label";
import { useCaptureEvidence } from "./use-capture-evidence";
import { useOutbox } from "./use-outbox";
import { usePhotoReadings } from "./use-photo-readings";

export interface OpenMission {
  id: string;
  title: string;
  description: string;
  bounds: { type: "Polygon"; coordinates: number[][][] };
  required_images: number;
  images_still_needed: number;
  distance_m: number;
}

const ANGLES = ["front", "entrance", "interior", "overview", "storefront", "facilities", "parking_lot"] as const;

export function SubmitPhotos({ mission, position, onBack }: { mission: OpenMission; position: Position | null; onBack: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [angle, setAngle] = useState<string>("");
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const { outbox, entries } = useOutbox((e) => e.target.kind === "mission" && e.target.id === mission.id);
  // The same photo is kept once, whichever task or mission it was kept for.
  const { entries: everyPhoto } = useOutbox();
  const { capture, askCompass } = useCaptureEvidence();
  // The phone's evidence when the photos were taken (chosen), checked before they are sent.
  const [evidence, setEvidence] = useState<CaptureEvidence | null>(null);
  const readings = usePhotoReadings(files);
  const picker = useRef<HTMLDivElement>(null);
  const t = useTranslations("field.missions");
  const angleLabel = useAngleLabel();
  const [skipped, setSkipped] = useState<string[]>([]);

  const keep = async () => {
    if (!outbox) return;
    setError(null);
    setSaving(true);
    const already: string[] = [];
    try {
      const kept = evidence ?? capture();
      for (const file of files) {
        const sha256 = readings.get(file)?.sha256 ?? (await sha256Hex(file));
        try {
          await outbox.add({
            target: { kind: "mission", id: mission.id, title: mission.title },
            angle: angle || null,
            note: note.trim() || null,
            filename: file.name,
            photo: file,
            sha256,
            evidence: kept,
          });
        } catch (e) {
          // Already on this phone: the first copy stays and goes once; the others are still kept.
          if (!(e instanceof DuplicatePhotoError)) throw e;
          already.push(file.name);
        }
      }
      setFiles([]);
      setEvidence(null);
      setNote("");
      setFormKey((k) => k + 1);
    } catch {
      setError(t("storageFull"));
    } finally {
      setSkipped(already);
      setSaving(false);
    }
  };

  return (
    <section className="flex flex-col gap-4" aria-labelledby="submit-heading">
      <button type="button" onClick={onBack} className={`${TEXT_BUTTON} self-start text-slate-600`}>
        {t("back")}
      </button>
      <div className="flex gap-3">
        <MissionOutline bounds={mission.bounds} position={position} title={mission.title} />
        <div>
          <h1 id="submit-heading" className="text-lg font-semibold">
            {mission.title}
          </h1>
          <p className="text-sm text-slate-600">{mission.description}</p>
        </div>
      </div>

      <form
        key={formKey}
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void keep();
        }}
      >
        <div ref={picker} onClickCapture={askCompass}>
          <PhotoPicker
            label={t("photosLabel")}
            multiple
            files={files}
            onChange={(chosen) => {
              setFiles(chosen);
              setSkipped([]);
              setEvidence(chosen.length > 0 ? capture() : null);
            }}
          />
        </div>
        {evidence &&
          files.map((file) => {
            const reading = readings.get(file) ?? null;
            return (
              <PreSendChecks
                key={`${file.name}-${file.size}-${file.lastModified}`}
                photoName={files.length > 1 ? file.name : undefined}
                checks={missionChecksBeforeSending(mission, { evidence, reading, sameAs: sameOutboxPhoto(reading?.sha256, everyPhoto) })}
              />
            );
          })}
        <label className="flex flex-col gap-1 text-sm font-medium">
          <span>
            {t("whatShown")} <span className="font-normal text-slate-500">{t("optional")}</span>
          </span>
          <select value={angle} onChange={(e) => setAngle(e.target.value)} className="rounded-md border border-slate-300 px-3 py-2 text-base">
            <option value="">—</option>
            {ANGLES.map((a) => (
              <option key={a} value={a}>
                {angleLabel(a)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          <span>
            {t("note")} <span className="font-normal text-slate-500">{t("optional")}</span>
          </span>
          <textarea
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={2000}
            rows={2}
            className="rounded-md border border-slate-300 px-3 py-2 text-base"
          />
        </label>
        {skipped.length > 0 && (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="duplicate-photo">
            {t("duplicates", { names: skipped.join(", ") })}
          </p>
        )}
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <button
          type="submit"
          disabled={files.length === 0 || saving || !outbox}
          className="rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60"
        >
          {t("send", { count: files.length })}
        </button>
        <p className="text-xs text-slate-500">{t("keptOnPhone")}</p>
      </form>

      <OutboxList entries={entries} heading={t("yourPhotos")} onRetake={() => picker.current?.querySelector("input")?.focus()} />
    </section>
  );
}
