"use client";
// The signed-in field page: where the zoomer stands, then two kinds of work near them — order
// tasks (take one, shoot one angle, verified) and open missions (anyone may send photos). The page
// belongs to the session's zoomer: their outbox, their kept lists; when the session ends it asks
// them to sign in again and keeps their photos.
import "@/lib/schemas/zod-without-eval";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { signOut } from "@/lib/field-server/field-actions";
import { loadPosition, savePosition, forgetPosition } from "@/lib/field/device-store";
import { forgetThisZoomer } from "@/lib/field/forget-zoomer";
import { serviceReachable } from "@/lib/field/reachability";
import type { FieldSession } from "@/lib/field/outbox-owner";
import { MissionList } from "./mission-list";
import { OthersWaiting } from "./others-waiting";
import { OutboxList } from "./outbox-list";
import { SubmitPhotos, type OpenMission } from "./mission-submit";
import { TEXT_BUTTON } from "./tap-target";
import { TaskDetail } from "./task-detail";
import { TaskList } from "./task-list";
import { DEMO_POSITION, type FieldTask, type Position } from "./types";
import { useNearby } from "./use-nearby";
import { useOutbox, useOutboxOwner } from "./use-outbox";

export type FieldTab = "tasks" | "missions";

const RADIUS_KM = 25;
const TABS: { id: FieldTab; label: "tabTasks" | "tabMissions" }[] = [
  { id: "tasks", label: "tabTasks" },
  { id: "missions", label: "tabMissions" },
];

/** Whether the session has ended (its cookie's end has passed; a page kept offline may outlive it). */
function useSessionEnded(expiresAt: string): boolean {
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    const left = Math.max(0, Date.parse(expiresAt) - Date.now());
    // setTimeout holds at most about 24.8 days; a session is far shorter.
    const timer = setTimeout(() => setEnded(true), Math.min(left, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return ended;
}

export function FieldApp({ session, initialTab }: { session: FieldSession; initialTab: FieldTab }) {
  const ended = useSessionEnded(session.expiresAt);
  useOutboxOwner(ended ? null : session.zoomerId, session.zoomerName);
  if (ended) return <SessionEnded />;
  return <SignedIn owner={session.zoomerId} initialTab={initialTab} />;
}

/** The session ran out (with the page open, or kept offline): its photos stay, its lists are not shown. */
function SessionEnded() {
  const t = useTranslations("field.home");
  return (
    <section className="flex flex-col gap-4" aria-labelledby="session-ended">
      <h1 id="session-ended" className="text-xl font-semibold">
        {t("heading")}
      </h1>
      <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="session-ended">
        {t("sessionEnded")}
      </p>
      <OthersWaiting />
      {/* A full load: the server finds no session and shows the sign-in form. */}
      <a
        href="/field"
        className="rounded-md bg-emerald-700 px-4 py-3 text-center font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      >
        {t("signInAgain")}
      </a>
    </section>
  );
}

function SignedIn({ owner, initialTab }: { owner: string; initialTab: FieldTab }) {
  const [position, setPositionState] = useState<Position | null>(null);
  const [locating, setLocating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [tab, setTabState] = useState<FieldTab>(initialTab);
  const [selectedMission, setSelectedMission] = useState<OpenMission | null>(null);
  const [selectedTask, setSelectedTask] = useState<FieldTask | null>(null);
  const [confirmSignOut, setConfirmSignOut] = useState(false);
  const { outbox, entries: outboxEntries } = useOutbox();
  const tabRefs = useRef<Record<FieldTab, HTMLButtonElement | null>>({ tasks: null, missions: null });
  const t = useTranslations("field.home");
  const format = useFormatter();

  const setPosition = useCallback(
    (next: Position | null) => {
      setPositionState(next);
      void (next ? savePosition(next, owner) : forgetPosition()).catch(() => {});
    },
    [owner],
  );

  const near = position ? `lat=${position.lat}&lng=${position.lng}&radius_km=${RADIUS_KM}` : null;
  const missions = useNearby<OpenMission>(near && `/field/api/missions?${near}`, "missions", owner);
  const tasks = useNearby<FieldTask>(near && `/field/api/assignments?${near}&limit=50`, "tasks", owner);

  const setTab = useCallback((next: FieldTab) => {
    setTabState(next);
    // In the address too, so a refresh or a shared link opens the same list.
    const url = new URL(window.location.href);
    if (next === "missions") url.searchParams.delete("tab");
    else url.searchParams.set("tab", next);
    window.history.replaceState(null, "", url.href);
  }, []);

  const locate = useCallback(() => {
    setError(null);
    if (!("geolocation" in navigator)) {
      setError(t("noGeolocation"));
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
        setError(t("locationUnavailable", { reason: e.message || t("permissionDenied") }));
      },
      { enableHighAccuracy: true, timeout: 10_000 },
    );
  }, [setPosition, t]);

  // Where the zoomer stands, without a tap when they can be asked: with location permission
  // granted (a reload, a return) the page finds them at once, showing meanwhile where they last
  // stood; without signal (the browser says so, or the service does not answer), the place kept
  // on the phone with the lists kept for it. The place kept is this zoomer's own (device-store keys
  // it by owner).
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const saved = await loadPosition(owner).catch(() => null);
      if (!navigator.onLine) {
        if (!cancelled && saved) setPositionState((p) => p ?? saved);
        return;
      }
      const permission = await navigator.permissions?.query({ name: "geolocation" }).catch(() => null);
      if (cancelled) return;
      if (permission?.state !== "granted") {
        // Not allowed to locate: online, the zoomer chooses again; but "online" may be one bar or a
        // captive portal, so when the service does not answer, the kept place (and its lists) it is.
        if (saved && !(await serviceReachable()) && !cancelled) setPositionState((p) => p ?? saved);
        return;
      }
      if (saved?.source === "gps") setPositionState((p) => p ?? saved);
      locate();
    })();
    return () => {
      cancelled = true;
    };
    // Once per page: a later change of `locate` (another language) is no reason to ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [owner]);

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((x) => x.id === tab);
    // Arrow keys follow the page's direction: in a end-to-left page the next tab is to the left.
    const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
    const backward = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
    const step = e.key === forward ? 1 : e.key === backward ? -1 : 0;
    const target = e.key === "Home" ? TABS[0] : e.key === "End" ? TABS[TABS.length - 1] : step ? TABS[(index + step + TABS.length) % TABS.length] : undefined;
    if (!target) return;
    e.preventDefault();
    setTab(target.id);
    tabRefs.current[target.id]?.focus();
  };

  // Back from a mission or a task, keyboard and screen-reader users land on the list's tab again.
  const focusTab = () => requestAnimationFrame(() => tabRefs.current[tab]?.focus());

  if (selectedMission) {
    return (
      <SubmitPhotos
        mission={selectedMission}
        position={position}
        onBack={() => {
          setSelectedMission(null);
          missions.reload();
          focusTab();
        }}
      />
    );
  }
  if (selectedTask) {
    return (
      <TaskDetail
        key={selectedTask.id}
        initial={selectedTask}
        position={position}
        onOpen={setSelectedTask}
        onBack={(message) => {
          setSelectedTask(null);
          setNotice(message ?? null);
          tasks.reload();
          focusTab();
        }}
      />
    );
  }

  // Not yet with the server: these wait for this zoomer's next sign-in (a photo being checked is sent).
  const unsent = outboxEntries.filter((o) => o.state.phase === "waiting" || o.state.phase === "sending").length;
  // Sign-out keeps the photos not yet judged for this zoomer's next sign-in, and forgets the rest.
  const leave = async () => {
    await forgetThisZoomer(() => outbox?.forgetJudged(owner) ?? Promise.resolve());
    await signOut();
  };

  const counts: Record<FieldTab, number | null> = {
    tasks: tasks.status === "ready" ? tasks.data.length : null,
    missions: missions.status === "ready" ? missions.data.length : null,
  };

  return (
    <section className="flex flex-col gap-4" aria-labelledby="nearby-heading">
      <div className="flex items-center justify-between">
        <h1 id="nearby-heading" className="text-xl font-semibold">
          {t("heading")}
        </h1>
        {!confirmSignOut && (
          <button
            type="button"
            className={`${TEXT_BUTTON} text-slate-600`}
            onClick={() => {
              if (unsent > 0) setConfirmSignOut(true);
              else void leave();
            }}
          >
            {t("signOut")}
          </button>
        )}
      </div>
      {confirmSignOut && (
        <div
          role="alertdialog"
          aria-labelledby="sign-out-warning"
          className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="sign-out-warning"
        >
          <p id="sign-out-warning">{t("signOutWarning", { count: unsent })}</p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() => void leave()}
              className="rounded-md bg-emerald-700 px-3 py-2 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
            >
              {t("signOutKeep")}
            </button>
            <button
              type="button"
              onClick={() => setConfirmSignOut(false)}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
            >
              {t("staySignedIn")}
            </button>
          </div>
        </div>
      )}
      {!position && (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-slate-600">{t("shareLocation")}</p>
          <button
            type="button"
            onClick={locate}
            disabled={locating}
            className="rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60"
          >
            {locating ? t("locating") : t("useMyLocation")}
          </button>
          <button
            type="button"
            onClick={() => setPosition(DEMO_POSITION)}
            className="rounded-md border border-slate-300 px-4 py-3 font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
          >
            {t("useDemoLocation")}
          </button>
        </div>
      )}
      <OutboxList entries={outboxEntries} heading={t("photosOnPhone")} />
      <OthersWaiting />
      {error && (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" className="flex items-start justify-between gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {notice}
          <button type="button" onClick={() => setNotice(null)} className={`${TEXT_BUTTON} -my-3 shrink-0`}>
            {t("dismiss")}
          </button>
        </p>
      )}
      {position && (
        <>
          <p className="flex flex-wrap items-center gap-x-3 text-sm text-slate-600">
            <span>
              {t(position.source === "gps" ? "yourLocation" : "demoLocation", {
                lat: format.number(position.lat, { minimumFractionDigits: 4, maximumFractionDigits: 4 }),
                lng: format.number(position.lng, { minimumFractionDigits: 4, maximumFractionDigits: 4 }),
              })}
            </span>
            <button type="button" className={TEXT_BUTTON} onClick={() => setPosition(null)}>
              {t("change")}
            </button>
          </p>
          <SavedAt nearby={[tasks, missions]} />
          <div role="tablist" aria-label={t("heading")} className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1">
            {TABS.map((tabLabel) => (
              <button
                key={tabLabel.id}
                ref={(el) => {
                  tabRefs.current[tabLabel.id] = el;
                }}
                type="button"
                role="tab"
                id={`tab-${tabLabel.id}`}
                aria-selected={tab === tabLabel.id}
                aria-controls={`panel-${tabLabel.id}`}
                tabIndex={tab === tabLabel.id ? 0 : -1}
                onClick={() => setTab(tabLabel.id)}
                onKeyDown={onTabKey}
                className={`flex min-h-11 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 ${tab === tabLabel.id ? "bg-white text-emerald-800 shadow-sm" : "text-slate-600 hover:text-slate-900"}`}
              >
                {t(tabLabel.label)}
                {counts[tabLabel.id] !== null && (
                  <span className={`rounded-full px-2 text-xs ${tab === tabLabel.id ? "bg-emerald-100 text-emerald-900" : "bg-slate-200 text-slate-700"}`}>
                    {counts[tabLabel.id]}
                  </span>
                )}
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id="panel-tasks"
            aria-labelledby="tab-tasks"
            hidden={tab !== "tasks"}
            tabIndex={0}
            className="focus-visible:outline-2 focus-visible:outline-emerald-600"
          >
            <TaskList tasks={tasks} position={position} radiusKm={RADIUS_KM} onSelect={setSelectedTask} onRetry={tasks.reload} />
          </div>
          <div
            role="tabpanel"
            id="panel-missions"
            aria-labelledby="tab-missions"
            hidden={tab !== "missions"}
            tabIndex={0}
            className="focus-visible:outline-2 focus-visible:outline-emerald-600"
          >
            <MissionList missions={missions} position={position} radiusKm={RADIUS_KM} onSelect={setSelectedMission} onRetry={missions.reload} />
          </div>
        </>
      )}
    </section>
  );
}

/** Without signal the lists are the phone's copy: say from when, and that they refresh by themselves. */
function SavedAt({ nearby }: { nearby: { status: string; savedAt?: string | null }[] }) {
  const t = useTranslations("field.home");
  const locale = useLocale();
  const times = nearby.flatMap((n) => (n.status === "ready" && n.savedAt ? [n.savedAt] : []));
  if (times.length === 0) return null;
  const oldest = times.sort()[0] as string;
  return (
    <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="saved-at">
      {t.rich("savedAt", {
        clock: new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(new Date(oldest)),
        time: (chunks) => <time dateTime={oldest}>{chunks}</time>,
      })}
    </p>
  );
}
