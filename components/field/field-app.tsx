"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { signOut } from "@/app/field/actions";
import { MissionOutline } from "./mission-outline";

interface OpenMission {
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

type Position = { lat: number; lng: number; source: "gps" | "demo" };

const DEMO_POSITION: Position = { lat: 43.7712, lng: 11.2555, source: "demo" };
const ANGLES = ["front", "entrance", "interior", "overview", "storefront", "facilities", "parking_lot"] as const;

function describeDistance(m: number) {
  if (m === 0) return "You are inside the area";
  return m < 1000 ? `${m} m away` : `${(m / 1000).toFixed(1)} km away`;
}

async function problemDetail(response: Response | XMLHttpRequest): Promise<string> {
  const text = response instanceof Response ? await response.text() : response.responseText;
  try {
    const body = JSON.parse(text) as { detail?: string };
    return body.detail ?? `Request failed (${response.status}).`;
  } catch {
    return `Request failed (${response.status}).`;
  }
}

export function FieldApp() {
  const [position, setPositionState] = useState<Position | null>(null);
  const [locating, setLocating] = useState(false);
  const [missions, setMissions] = useState<OpenMission[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<OpenMission | null>(null);

  const setPosition = useCallback((next: Position | null) => {
    setMissions(null);
    setPositionState(next);
  }, []);

  const locate = useCallback(() => {
    setError(null);
    if (!("geolocation" in navigator)) {
      setError("This browser cannot share its location. Use the demo location instead.");
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setLocating(false);
        setPosition({ lat: p.coords.latitude, lng: p.coords.longitude, source: "gps" });
      },
      (e) => {
        setLocating(false);
        setError(`Location unavailable (${e.message || "permission denied"}). Use the demo location instead.`);
      },
      { enableHighAccuracy: true, timeout: 10_000 },
    );
  }, [setPosition]);

  useEffect(() => {
    if (!position) return;
    let cancelled = false;
    void (async () => {
      const res = await fetch(`/field/api/missions?lat=${position.lat}&lng=${position.lng}&radius_km=25`);
      if (cancelled) return;
      if (!res.ok) {
        setError(await problemDetail(res));
        setMissions([]);
        return;
      }
      setMissions(((await res.json()) as { data: OpenMission[] }).data);
    })();
    return () => {
      cancelled = true;
    };
  }, [position]);

  if (selected) return <SubmitPhotos mission={selected} position={position} onBack={() => setSelected(null)} />;

  return (
    <section className="flex flex-col gap-4" aria-labelledby="nearby-heading">
      <div className="flex items-center justify-between">
        <h1 id="nearby-heading" className="text-xl font-semibold">Missions near you</h1>
        <form action={signOut}>
          <button type="submit" className="text-sm text-slate-600 underline focus-visible:outline-2 focus-visible:outline-emerald-600">Sign out</button>
        </form>
      </div>
      {!position && (
        <div className="flex flex-col gap-2">
          <button type="button" onClick={locate} disabled={locating} className="rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60">
            {locating ? "Finding you…" : "Use my location"}
          </button>
          <button type="button" onClick={() => setPosition(DEMO_POSITION)} className="rounded-md border border-slate-300 px-4 py-3 font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700">
            Use the demo location (Florence)
          </button>
        </div>
      )}
      {error && <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{error}</p>}
      {position && (
        <p className="text-sm text-slate-600">
          {position.source === "gps" ? "Your location" : "Demo location"}: {position.lat.toFixed(4)}, {position.lng.toFixed(4)}{" "}
          <button type="button" className="underline" onClick={() => setPosition(null)}>change</button>
        </p>
      )}
      {position && missions === null && <p className="text-slate-600" aria-live="polite">Looking for open missions…</p>}
      {missions?.length === 0 && <p className="rounded-md bg-slate-50 p-4 text-slate-700">No open missions within 25 km. Try again later or somewhere else.</p>}
      <ul className="flex flex-col gap-3">
        {missions?.map((m) => (
          <li key={m.id}>
            <button type="button" onClick={() => setSelected(m)} className="flex w-full items-center gap-3 rounded-lg border border-slate-200 p-3 text-left hover:border-emerald-600 focus-visible:outline-2 focus-visible:outline-emerald-600" data-testid="open-mission">
              <MissionOutline bounds={m.bounds} position={position} title={m.title} />
              <span className="flex flex-col gap-1">
                <span className="font-semibold">{m.title}</span>
                <span className="text-sm text-slate-600">{describeDistance(m.distance_m)}</span>
                <span className="text-sm text-slate-600">{m.images_still_needed} of {m.required_images} photos still needed</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SubmitPhotos({ mission, position, onBack }: { mission: OpenMission; position: Position | null; onBack: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [angle, setAngle] = useState<string>("");
  const [note, setNote] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submission, setSubmission] = useState<FieldSubmission | null>(null);
  const poll = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (poll.current) clearTimeout(poll.current);
  }, []);

  const follow = useCallback((id: string) => {
    const check = async () => {
      const res = await fetch(`/field/api/submissions/${id}`);
      if (!res.ok) return setError(await problemDetail(res));
      const body = (await res.json()) as FieldSubmission;
      setSubmission(body);
      if (body.status === "received" || body.status === "processing") poll.current = setTimeout(check, 1000);
    };
    void check();
  }, []);

  const upload = () => {
    setError(null);
    const form = new FormData();
    for (const file of files) form.append("photos", file, file.name);
    if (angle) form.append("angle", angle);
    if (note.trim()) form.append("note", note.trim());
    // XMLHttpRequest, not fetch: only it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/field/api/missions/${mission.id}/submissions`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      setProgress(null);
      if (xhr.status === 202) {
        const body = JSON.parse(xhr.responseText) as FieldSubmission;
        setSubmission({ ...body, thumbnails: [] });
        follow(body.id);
      } else {
        void problemDetail(xhr).then(setError);
      }
    };
    xhr.onerror = () => {
      setProgress(null);
      setError("The upload did not reach the server. Check your connection and try again — nothing was sent.");
    };
    setProgress(0);
    xhr.send(form);
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
            upload();
          }}
        >
          <label className="flex flex-col gap-1 text-sm font-medium">
            Photos (JPEG, with location on)
            <input type="file" name="photos" accept="image/jpeg" capture="environment" multiple required onChange={(e) => setFiles([...(e.target.files ?? [])])} className="text-base file:mr-3 file:rounded-md file:border-0 file:bg-emerald-700 file:px-3 file:py-2 file:text-white" />
          </label>
          {files.length > 0 && <p className="text-sm text-slate-600">{files.length} photo{files.length === 1 ? "" : "s"}, {(files.reduce((n, f) => n + f.size, 0) / 1_048_576).toFixed(1)} MB</p>}
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
          {progress !== null && (
            <div className="flex flex-col gap-1" aria-live="polite">
              <progress max={100} value={progress} className="h-2 w-full accent-emerald-700" aria-label="Upload progress" />
              <span className="text-sm text-slate-600">Uploading… {progress}%</span>
            </div>
          )}
          {error && <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{error}</p>}
          <button type="submit" disabled={files.length === 0 || progress !== null} className="rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60">
            Send {files.length > 1 ? `${files.length} photos` : "photo"}
          </button>
        </form>
      )}

      {submission && <Verdict submission={submission} onAnother={() => { setSubmission(null); setFiles([]); }} />}
    </section>
  );
}

function Verdict({ submission, onAnother }: { submission: FieldSubmission; onAnother: () => void }) {
  const pending = submission.status === "received" || submission.status === "processing";
  return (
    <div className="flex flex-col gap-3" aria-live="polite" data-testid="verdict" data-status={submission.status}>
      {pending && <p className="rounded-md bg-slate-50 p-4 text-slate-700">Received. Checking your photos…</p>}
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
