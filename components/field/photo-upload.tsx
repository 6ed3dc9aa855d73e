"use client";
// Sending photos from the phone, shared by missions and tasks: the file picker (the camera on a
// phone), the upload with its progress, and the progress bar.
import { useCallback, useEffect, useRef, useState } from "react";
import { ProgressBar } from "@/components/ui/progress-bar";
import { problemDetail } from "./problem-detail";

export type UploadResult<T> = { ok: true; body: T } | { ok: false; error: string };

/**
 * POSTs a multipart form and reports how much of it has gone (0–100, null when idle). Through
 * XMLHttpRequest, not fetch: only it reports upload progress. An upload still running when the
 * component goes away is aborted.
 */
export function usePhotoUpload<T>() {
  const [progress, setProgress] = useState<number | null>(null);
  const current = useRef<XMLHttpRequest | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const send = useCallback(
    (url: string, form: FormData) =>
      new Promise<UploadResult<T>>((resolve) => {
        const xhr = new XMLHttpRequest();
        current.current = xhr;
        xhr.open("POST", url);
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
        };
        xhr.onload = () => {
          current.current = null;
          setProgress(null);
          if (xhr.status === 202) resolve({ ok: true, body: JSON.parse(xhr.responseText) as T });
          else void problemDetail(xhr).then((error) => resolve({ ok: false, error }));
        };
        xhr.onerror = () => {
          current.current = null;
          setProgress(null);
          resolve({ ok: false, error: "The upload did not reach the server. Check your connection and try again — nothing was sent." });
        };
        setProgress(0);
        xhr.send(form);
      }),
    [],
  );

  return { progress, uploading: progress !== null, send };
}

/** The bar and the percentage while an upload runs; screen readers hear that it started, not every percent. */
export function UploadProgress({ progress }: { progress: number | null }) {
  if (progress === null) return null;
  return (
    <div className="flex flex-col gap-1">
      <ProgressBar value={progress} max={100} label="Upload progress" />
      <span className="text-sm text-slate-600" aria-hidden>
        Uploading… {progress}%
      </span>
      <span role="status" className="sr-only">
        Uploading your photo
      </span>
    </div>
  );
}

/** The picker: JPEG only, the back camera on a phone. */
export function PhotoPicker({ label, multiple = false, files, onChange }: { label: string; multiple?: boolean; files: File[]; onChange: (files: File[]) => void }) {
  return (
    <>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {label}
        <input
          type="file"
          name="photos"
          accept="image/jpeg"
          capture="environment"
          multiple={multiple}
          required
          onChange={(e) => onChange([...(e.target.files ?? [])])}
          className="text-base file:mr-3 file:rounded-md file:border-0 file:bg-emerald-700 file:px-3 file:py-2 file:text-white"
        />
      </label>
      {files.length > 0 && (
        <p className="text-sm text-slate-600">
          {multiple ? `${files.length} photo${files.length === 1 ? "" : "s"}, ` : ""}
          {(files.reduce((n, f) => n + f.size, 0) / 1_048_576).toFixed(1)} MB
        </p>
      )}
    </>
  );
}
