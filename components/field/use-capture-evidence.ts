"use client";
// The phone's own evidence for a photo, ready the moment it is taken: the position the browser
// reports (with its accuracy), kept fresh while the zoomer is on a task or mission; the compass
// heading where the browser grants it (DeviceOrientationEvent: iOS's webkitCompassHeading, or an
// absolute alpha elsewhere); and the time.
import { useCallback, useEffect, useRef } from "react";
import type { CaptureEvidence } from "@/lib/field/outbox-state";

type OrientationWithCompass = DeviceOrientationEvent & { webkitCompassHeading?: number };
type OrientationPermission = { requestPermission?: () => Promise<"granted" | "denied"> };

/** The compass heading (degrees clockwise from north) an orientation event gives, if any. */
function headingOf(event: OrientationWithCompass): number | null {
  if (typeof event.webkitCompassHeading === "number") return event.webkitCompassHeading;
  if (event.absolute && typeof event.alpha === "number") return (360 - event.alpha) % 360;
  return null;
}

export function useCaptureEvidence(): { capture: () => CaptureEvidence; askCompass: () => void } {
  const position = useRef<CaptureEvidence["position"]>(null);
  const heading = useRef<number | null>(null);

  useEffect(() => {
    if (!("geolocation" in navigator)) return;
    const watch = navigator.geolocation.watchPosition(
      (p) => {
        position.current = { lat: p.coords.latitude, lng: p.coords.longitude, accuracy_m: p.coords.accuracy };
      },
      () => {},
      { enableHighAccuracy: true, maximumAge: 30_000 },
    );
    return () => navigator.geolocation.clearWatch(watch);
  }, []);

  useEffect(() => {
    const onOrientation = (e: Event) => {
      const h = headingOf(e as OrientationWithCompass);
      if (h !== null) heading.current = h;
    };
    // Chrome's absolute event where it exists; Safari's plain one carries webkitCompassHeading.
    const type = "ondeviceorientationabsolute" in window ? "deviceorientationabsolute" : "deviceorientation";
    window.addEventListener(type, onOrientation);
    return () => window.removeEventListener(type, onOrientation);
  }, []);

  /** iOS asks for the compass only from a tap: call from the photo picker's click. */
  const askCompass = useCallback(() => {
    const permission = (globalThis.DeviceOrientationEvent as unknown as OrientationPermission | undefined)?.requestPermission;
    if (typeof permission === "function") void permission().catch(() => {});
  }, []);

  const capture = useCallback((): CaptureEvidence => ({ position: position.current, heading_deg: heading.current, captured_at: new Date().toISOString() }), []);

  return { capture, askCompass };
}
