"use client";
// One open mission: send it photos and watch their QA verdict arrive.
import { useCallback, useEffect, useRef, useState } from "react";
import { startPoll } from "@/lib/field/poll";
import { MissionOutline } from "./mission-outline";
import { PhotoPicker, UploadProgress, usePhotoUpload } from "./photo-upload";
import { problemDetail } from "./problem-detail";
import type { Position } from "./types";

export interface OpenMission {
  id: string;
  title: string;
  description: string;
  bounds: { type: "Polygon"; coordinates: number[][][] };
  required_images: number;
  images_still_needed: number;
  distance_m: number;
}

interface FieldSubmission {
  id: string;
  status: "received" | "processing" | "approved" | "rejected";
  reasons: string[];
  image_count: number;
  thumbnails: (string | null)[];
}

const ANGLES = ["front", "entrance", "interior", "overview", "storefront", "facilities", "parking_lot"] as const;

export function SubmitPhotos({ mission, position, onBack }: { mission: OpenMission; position: Position | null; onBack: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [angle, setAngle] = useState<string>("");
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [submission, setSubmission] = useState<FieldSubmission | null>(null);
  const { progress, uploading, send } = usePhotoUpload<FieldSubmission>();
  const [waitingForSignal, setWaitingForSignal] = useState(false);
  const stopPoll = useRef<(() => void) | null>(null);

  useEffect(() => () => stopPoll.current?.(), []);

  // The verdict comes within seconds; a lost signal meanwhile only delays it (lib/field/poll.ts).
  const follow = useCallback((id: string) => {
    stopPoll.current?.();
    stopPoll.current = startPoll({
      intervalMs: 1000,
      check: async () => {
        const res = await fetch(`/field/api/submissions/${id}`, { cache: "no-store" });
        if (!res.ok) {
          setError(await problemDetail(res));
          return "done";
        }
        const body = (await res.json()) as FieldSubmission;
        setSubmission(body);
        return body.status === "received" || body.status === "processing" ? "again" : "done";
      },
      onError: () => setWaitingForSignal(true),
      onRecovered: () => setWaitingForSignal(false),
    });
  }, []);

  const upload = async () => {
    setError(null);
    const form = new FormData();
    for (const file of files) form.append("photos", file, file.name);
    if (angle) form.append("angle", angle);
    if (note.trim()) form.append("note", note.trim());
    const result = await send(`/field/api/missions/${mission.id}/submissions`, form);
    if (!result.ok) return setError(result.error);
    setSubmission({ ...result.body, thumbnails: [] });
    follow(result.body.id);
  };

  return (
    <section className="flex flex-col gap-4" aria-labelledby="submit-heading">
      <button type="button" onClick={onBack} className="self-start text-sm text-slate-600 underline focus-visible:outline-2 focus-visible:outline-emerald-600">← All missions</button>
      <div className="flex gap-3">
        <MissionOutline bounds={mission.bounds} position={position} title={mission.title} />
        <div>
          <h1 id="submit-heading" className="text-lg font-semibold">{mission.title}</h1>
          <p className="text-sm text-slate-600">{mission.description}</p>
        </div>
      </div>

      {!submission && (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void upload();
          }}
        >
          <PhotoPicker label="Photos (JPEG, with location on)" multiple files={files} onChange={setFiles} />
          <label className="flex flex-col gap-1 text-sm font-medium">
            What do they show? <span className="font-normal text-slate-500">(optional)</span>
            <select value={angle} onChange={(e) => setAngle(e.target.value)} className="rounded-md border border-slate-300 px-3 py-2 text-base">
              <option value="">—</option>
              {ANGLES.map((a) => (
                <option key={a} value={a}>{a.replaceAll("_", " ")}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Note <span className="font-normal text-slate-500">(optional)</span>
            <textarea value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} rows={2} className="rounded-md border border-slate-300 px-3 py-2 text-base" />
          </label>
          <UploadProgress progress={progress} />
          {error && <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{error}</p>}
          <button type="submit" disabled={files.length === 0 || uploading} className="rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60">
            Send {files.length > 1 ? `${files.length} photos` : "photo"}
          </button>
        </form>
      )}

      {submission && <Verdict submission={submission} waitingForSignal={waitingForSignal} onAnother={() => { setSubmission(null); setFiles([]); }} />}
    </section>
  );
}

function Verdict({ submission, waitingForSignal, onAnother }: { submission: FieldSubmission; waitingForSignal: boolean; onAnother: () => void }) {
  const pending = submission.status === "received" || submission.status === "processing";
  return (
    <div className="flex flex-col gap-3" aria-live="polite" data-testid="verdict" data-status={submission.status}>
      {pending && <p className="rounded-md bg-slate-50 p-4 text-slate-700">Received. Checking your photos…</p>}
      {pending && waitingForSignal && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="verdict-waiting">
          No signal: the verdict will show as soon as the connection is back.
        </p>
      )}
      {submission.status === "approved" && <p className="rounded-md bg-emerald-50 p-4 font-semibold text-emerald-900">✓ Approved — thank you!</p>}
      {submission.status === "rejected" && (
        <div className="rounded-md bg-red-50 p-4 text-red-900">
          <p className="font-semibold">Not accepted</p>
          <ul className="mt-2 list-disc pl-5 text-sm">
            {submission.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </div>
      )}
      {submission.thumbnails.length > 0 && (
        <div className="flex gap-2">
          {submission.thumbnails.map((t, i) =>
            t ? (
              // eslint-disable-next-line @next/next/no-img-element -- signed CDN URLs, already sized thumbnails
              <img key={t} src={t} alt={`Photo ${i + 1}`} className="h-20 w-20 rounded-md object-cover" />
            ) : null,
          )}
        </div>
      )}
      {!pending && (
        <button type="button" onClick={onAnother} className="rounded-md border border-emerald-700 px-4 py-3 font-semibold text-emerald-800 hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-emerald-700">
          Send more photos
        </button>
      )}
    </div>
  );
}
