"use client";
// The photo picker shared by missions and tasks (the camera on a phone); sending is the outbox's
// work (lib/field/outbox.ts). A chosen file that is not a photo the service takes (by its first
// bytes: lib/field/photo-format.ts) is refused here, before anything is uploaded, and never handed on.
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { readPhotoFormat } from "@/lib/field/photo-format";

/** What the phone's camera writes: JPEG, or HEIC/HEIF (the iPhone's default). */
const ACCEPT = "image/jpeg,image/heic,image/heif";

/** The picker: JPEG and HEIC photos, the back camera on a phone; `onChange` gets only files that can be sent. */
export function PhotoPicker({
  label,
  multiple = false,
  files,
  onChange,
}: {
  label: string;
  multiple?: boolean;
  files: File[];
  onChange: (files: File[]) => void;
}) {
  const t = useTranslations("field.missions");
  const format = useFormatter();
  const [refused, setRefused] = useState<{ name: string; type: string | null }[]>([]);
  const megabytes = files.reduce((n, f) => n + f.size, 0) / 1_048_576;
  // A small photo reads "0.04 MB", never "0.0 MB".
  const size = format.number(
    megabytes,
    megabytes > 0 && megabytes < 0.1 ? { maximumSignificantDigits: 1 } : { minimumFractionDigits: 1, maximumFractionDigits: 1 },
  );
  const choose = async (chosen: File[]) => {
    const formats = await Promise.all(chosen.map((file) => readPhotoFormat(file).catch(() => ({ sendable: false as const, mime: null }))));
    setRefused(chosen.flatMap((file, i) => (formats[i]?.sendable ? [] : [{ name: file.name, type: formats[i]?.mime ?? null }])));
    onChange(chosen.filter((_, i) => formats[i]?.sendable));
  };
  return (
    <>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {label}
        <input
          type="file"
          name="photos"
          accept={ACCEPT}
          capture="environment"
          multiple={multiple}
          required
          onChange={(e) => void choose([...(e.target.files ?? [])])}
          className="text-base file:me-3 file:rounded-md file:border-0 file:bg-emerald-700 file:px-3 file:py-2 file:text-white"
        />
      </label>
      {refused.length > 0 && (
        <ul role="alert" data-testid="not-a-photo" className="flex flex-col gap-1 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {refused.map((r) => (
            <li key={r.name} className="break-words">
              {t("notAPhoto", { name: r.name, type: r.type ?? t("otherFile") })}
            </li>
          ))}
        </ul>
      )}
      {files.length > 0 && <p className="text-sm text-slate-600">{multiple ? t("pickedPhotos", { count: files.length, size }) : t("pickedSize", { size })}</p>}
    </>
  );
}
