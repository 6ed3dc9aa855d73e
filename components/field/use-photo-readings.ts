"use client";
// What the phone reads from each chosen photo (EXIF, SHA-256, sharpness and exposure on a scaled
// copy: lib/field/read-photo.ts), for the checks before sending; a photo still being read is absent.
import { useEffect, useState } from "react";
import { readPhoto, type PhotoReading } from "@/lib/field/read-photo";

export function usePhotoReadings(files: readonly File[]): ReadonlyMap<File, PhotoReading> {
  const [readings, setReadings] = useState<ReadonlyMap<File, PhotoReading>>(new Map());
  useEffect(() => {
    let cancelled = false;
    // One photo after the other: a phone decoding several large photos at once runs out of memory.
    void (async () => {
      for (const file of files) {
        const reading = await readPhoto(file).catch(() => null);
        if (cancelled) return;
        if (reading) setReadings((previous) => new Map([...previous].filter(([kept]) => files.includes(kept))).set(file, reading));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [files]);
  return readings;
}
