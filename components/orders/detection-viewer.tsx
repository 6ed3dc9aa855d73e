"use client";
// The larger view of a reviewed photo: the photo as large as the screen allows, with what the
// vision model detected drawn over it and a switch to hide the boxes, a link to the original, and
// the detections counted in words. A native modal <dialog>: the page behind is inert (focus stays
// inside), Escape closes, focus goes back to the thumbnail that opened it, and the dialog is named
// by its heading.
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, type RefObject } from "react";
import { buttonClasses } from "@/components/ui/button";
import { describeDetections, type Detection } from "./check-evidence";
import { DetectionOverlay } from "./detection-overlay";
import { useOrderWords } from "./use-order-words";

export function DetectionViewer({
  open,
  onClose,
  returnFocusTo,
  src,
  fallbackSrc,
  originalHref,
  title,
  detections,
}: {
  open: boolean;
  onClose: () => void;
  returnFocusTo: RefObject<HTMLElement | null>;
  /** The photo to show large (the original); `fallbackSrc` (the thumbnail) where the browser cannot show it (a HEIC). */
  src: string;
  fallbackSrc: string;
  originalHref: string;
  title: string;
  detections: Detection[];
}) {
  const t = useTranslations("orders.evidence");
  const words = useOrderWords();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  const [showBoxes, setShowBoxes] = useState(true);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      close.current?.focus();
    }
    if (!open && d.open) d.close();
  }, [open]);

  const seen = describeDetections(detections, words);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={seen ? `${id}-seen` : undefined}
      data-testid="detection-viewer"
      onClose={() => {
        onClose();
        returnFocusTo.current?.focus();
      }}
      className="m-auto max-h-[calc(100dvh-1rem)] w-[calc(100vw-1rem)] max-w-6xl rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/80"
    >
      {open ? (
        <div className="flex max-h-[calc(100dvh-1rem)] flex-col">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-3">
            <h2 id={`${id}-title`} className="me-auto min-w-0 text-base font-semibold">
              {title}
            </h2>
            {detections.length > 0 ? (
              <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
                <input
                  type="checkbox"
                  role="switch"
                  checked={showBoxes}
                  onChange={(e) => setShowBoxes(e.target.checked)}
                  className="size-4 accent-emerald-700"
                />
                {t("showDetected")}
              </label>
            ) : null}
            <a
              href={originalHref}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center text-sm font-medium text-emerald-800 underline underline-offset-2 hover:text-emerald-900 focus-visible:outline-2 focus-visible:outline-emerald-600"
            >
              {t("original")}
              <span className="sr-only"> {t("opensOriginal")}</span>
            </a>
            <button ref={close} type="button" className={buttonClasses({ variant: "secondary" })} onClick={() => dialog.current?.close()}>
              {t("close")}
            </button>
          </div>
          <div className="flex min-h-0 flex-1 items-center justify-center overflow-auto bg-slate-950 p-2">
            <div className="relative inline-block max-w-full">
              {/* eslint-disable-next-line @next/next/no-img-element -- signed CDN URLs from our own origin */}
              <img
                src={failed ? fallbackSrc : src}
                alt={title}
                onError={() => setFailed(true)}
                className="block h-auto max-h-[calc(100dvh-10rem)] w-auto max-w-full"
              />
              {showBoxes ? <DetectionOverlay detections={detections} size="md" /> : null}
            </div>
          </div>
          {seen ? (
            <p id={`${id}-seen`} className="px-4 py-2 text-sm text-slate-700">
              {t("outlined", { what: seen })}
            </p>
          ) : null}
        </div>
      ) : null}
    </dialog>
  );
}
