"use client";
// The photo picker shared by missions and tasks (the camera on a phone); sending is the outbox's
// work (lib/field/outbox.ts).
import { useFormatter, useTranslations } from "next-intl";

/** The picker: JPEG only, the back camera on a phone. */
export function PhotoPicker({ label, multiple = false, files, onChange }: { label: string; multiple?: boolean; files: File[]; onChange: (files: File[]) => void }) {
  const t = useTranslations("field.missions");
  const format = useFormatter();
  const megabytes = files.reduce((n, f) => n + f.size, 0) / 1_048_576;
  // A small photo reads "0.04 MB", never "0.0 MB".
  const size = format.number(megabytes, megabytes > 0 && megabytes < 0.1 ? { maximumSignificantDigits: 1 } : { minimumFractionDigits: 1, maximumFractionDigits: 1 });
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
          className="text-base file:me-3 file:rounded-md file:border-0 file:bg-emerald-700 file:px-3 file:py-2 file:text-white"
        />
      </label>
      {files.length > 0 && (
        <p className="text-sm text-slate-600">
          {multiple ? t("pickedPhotos", { count: files.length, size }) : t("pickedSize", { size })}
        </p>
      )}
    </>
  );
}
