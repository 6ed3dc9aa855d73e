"use client";
import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import type { SubmissionImage } from "./types";

/**
 * Full-size viewer in a modal dialog: ← and → move between photos, Escape closes (native
 * <dialog> keeps focus inside and restores it on close).
 */
export function PhotoViewer({
  images,
  index,
  onIndexChange,
  onClose,
}: {
  images: SubmissionImage[];
  index: number | null;
  onIndexChange: (i: number) => void;
  onClose: () => void;
}) {
  const t = useTranslations("dashboard.submissions.viewer");
  const dialog = useRef<HTMLDialogElement>(null);
  const open = index !== null;
  const image = index !== null ? images[index] : undefined;

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  const go = (delta: number) => {
    if (index === null || images.length === 0) return;
    onIndexChange((index + delta + images.length) % images.length);
  };

  return (
    <dialog
      ref={dialog}
      aria-label={t("label")}
      onClose={onClose}
      onKeyDown={(e) => {
        if (e.key === "ArrowRight") go(1);
        if (e.key === "ArrowLeft") go(-1);
      }}
      className="m-auto h-[90vh] w-[92vw] max-w-6xl rounded-lg bg-slate-950 p-0 text-white backdrop:bg-slate-950/80"
    >
      {image ? (
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between gap-3 px-4 py-2 text-sm">
            <span aria-live="polite">
              {t("position", { number: (index ?? 0) + 1, count: images.length })}
              {image.original_name ? ` · ${image.original_name}` : ""}
            </span>
            <div className="flex gap-2">
              <a
                href={image.url}
                target="_blank"
                rel="noreferrer"
                className="rounded-md px-3 py-1.5 text-sm underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-white"
              >
                {t("original")}
              </a>
              <Button variant="secondary" size="sm" onClick={() => dialog.current?.close()}>
                {t("close")}
              </Button>
            </div>
          </div>
          <div className="relative flex min-h-0 flex-1 items-center justify-center">
            {/* Until QA made the JPEG preview, the original stands in only when a browser can show it (not a HEIC). */}
            {/* eslint-disable-next-line @next/next/no-img-element -- signed CDN URLs, sizes known only at runtime */}
            <img
              src={image.preview_url ?? (image.content_type === "image/jpeg" ? image.url : undefined)}
              alt={t("alt", { number: (index ?? 0) + 1 })}
              className="max-h-full max-w-full object-contain"
            />
            {images.length > 1 ? (
              <>
                <Button variant="secondary" size="sm" className="absolute start-3 top-1/2" aria-label={t("previous")} onClick={() => go(-1)}>
                  ←
                </Button>
                <Button variant="secondary" size="sm" className="absolute end-3 top-1/2" aria-label={t("next")} onClick={() => go(1)}>
                  →
                </Button>
              </>
            ) : null}
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
