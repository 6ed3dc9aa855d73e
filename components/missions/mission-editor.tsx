"use client";
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState, useTransition, type FormEvent } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { Field, fieldAria, TextArea, TextInput } from "@/components/ui/field";
import { useDraftPolygon } from "@/components/map/use-draft-polygon";
import { createMission, updateMission } from "@/lib/dashboard/mission-actions";
import { describeDraft } from "@/lib/geo/describe-draft";
import { useMeasures } from "@/components/dashboard/use-measures";
import { importPolygonGeoJson } from "@/lib/geo/import-geojson";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { describePointer } from "./describe-pointer";
import { draftIssueText } from "./draft-issue-text";
import type { FitRequest } from "./mission-draw-map";
import { FormError } from "@/components/ui/states";

const MissionDrawMap = dynamic(() => import("./mission-draw-map").then((m) => m.MissionDrawMap), {
  ssr: false,
  // A still box, not a pulsing skeleton: an animation keeps the compositor drawing every frame
  // while the map's own start-up needs the CPU (measured by the map-points benchmark).
  loading: () => <div aria-hidden className="h-full min-h-[28rem] w-full bg-slate-100" />,
});

export interface MissionDraft {
  title: string;
  description: string;
  required_images: number;
  bounds: PolygonGeometry;
}

type Mode = { kind: "create" } | { kind: "edit"; id: string };

/** Draw or edit a mission: the polygon on the map, live area and validity, the details beside it. */
export function MissionEditor({ mode, initial, geocoder }: { mode: Mode; initial?: MissionDraft; geocoder: boolean }) {
  const t = useTranslations("missions.editor");
  const tIssues = useTranslations("missions.editor.issues");
  const measures = useMeasures();
  const router = useRouter();
  const draft = useDraftPolygon(initial?.bounds ?? null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [fit, setFit] = useState<FitRequest | null>(null);
  const [submittedBounds, setSubmittedBounds] = useState<PolygonGeometry | null>(null);
  const [pending, startTransition] = useTransition();
  const description = useMemo(() => (draft.value ? describeDraft(draft.value) : null), [draft.value]);

  // The API's errors about the bounds concern the polygon as submitted; after an edit they are stale.
  const boundsFieldErrors = useMemo(
    () => (draft.value === submittedBounds ? Object.entries(fieldErrors).filter(([pointer]) => pointer.startsWith("/bounds")) : []),
    [draft.value, submittedBounds, fieldErrors],
  );

  const problemVertices = useMemo(() => {
    const fromApi = boundsFieldErrors.flatMap(([pointer]) => {
      const match = /^\/bounds\/coordinates\/0\/(\d+)/.exec(pointer);
      return match ? [Number(match[1])] : [];
    });
    return [...(description?.issues.flatMap((issue) => issue.vertices) ?? []), ...fromApi];
  }, [description, boundsFieldErrors]);

  const boundsErrors = boundsFieldErrors.flatMap(([pointer, messages]) => messages.map((m) => `${describePointer(pointer)}${m}`));

  async function onImport(file: File | undefined) {
    setImportError(null);
    if (!file) return;
    if (file.size > 5 * 1024 * 1024) {
      setImportError(t("tooLarge"));
      return;
    }
    const result = importPolygonGeoJson(await file.text());
    if (result.ok) {
      draft.set(result.polygon);
      setFit((previous) => ({ key: (previous?.key ?? 0) + 1, polygon: result.polygon }));
    } else setImportError(result.error);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setFieldErrors({});
    if (!draft.value) {
      setFieldErrors({ "/bounds": [t("drawFirst")] });
      return;
    }
    const data = new FormData(event.currentTarget);
    const values = {
      title: String(data.get("title") ?? ""),
      description: String(data.get("description") ?? ""),
      required_images: Number(data.get("required_images")),
      bounds: draft.value,
    };
    setSubmittedBounds(draft.value);
    startTransition(async () => {
      const result = mode.kind === "create" ? await createMission(values) : await updateMission({ id: mode.id, changes: values });
      if (result.ok) {
        router.push(`/missions/${result.data.id}`);
        return;
      }
      setFormError(result.error);
      // The API's pointers are relative to the body; the edit action wraps it in `changes`.
      const errors: Record<string, string[]> = {};
      for (const [pointer, messages] of Object.entries(result.fieldErrors ?? {})) errors[pointer.replace(/^\/changes/, "")] = messages;
      setFieldErrors(errors);
    });
  }

  const titleErrors = fieldErrors["/title"];
  const descriptionErrors = fieldErrors["/description"];
  const requiredErrors = fieldErrors["/required_images"];

  return (
    <form onSubmit={onSubmit} className="grid gap-6 lg:grid-cols-[22rem_1fr]" noValidate aria-label={mode.kind === "create" ? t("formNew") : t("formEdit")}>
      <div className="flex flex-col gap-4">
        {formError ? <FormError>{formError}</FormError> : null}
        <Field id="title" label={t("title")} errors={titleErrors}>
          <TextInput name="title" defaultValue={initial?.title} required maxLength={200} {...fieldAria("title", titleErrors, false)} />
        </Field>
        <Field id="description" label={t("description")} hint={t("descriptionHint")} errors={descriptionErrors}>
          <TextArea name="description" rows={4} defaultValue={initial?.description} maxLength={5000} {...fieldAria("description", descriptionErrors, true)} />
        </Field>
        <Field id="required_images" label={t("required")} hint={t("requiredHint", { min: 1, max: 10_000 })} errors={requiredErrors}>
          <TextInput
            name="required_images"
            type="number"
            inputMode="numeric"
            min={1}
            max={10_000}
            step={1}
            defaultValue={initial?.required_images ?? 20}
            required
            {...fieldAria("required_images", requiredErrors, true)}
          />
        </Field>

        <section aria-labelledby="area-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="area-heading" className="text-sm font-semibold text-slate-900">
            {t("area")}
          </h2>
          {description ? (
            <dl className="grid grid-cols-2 gap-2 text-sm" aria-live="polite">
              <div>
                <dt className="text-xs text-slate-500">{t("areaLabel")}</dt>
                <dd className="font-medium tabular-nums" data-testid="draft-area">
                  {description.areaM2 === null ? "—" : measures.area(description.areaM2)}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t("vertices")}</dt>
                <dd className="font-medium tabular-nums" data-testid="draft-vertices">
                  {description.vertexCount}
                </dd>
              </div>
            </dl>
          ) : (
            <p className="text-sm text-slate-600">{t("drawHint")}</p>
          )}
          {description && description.issues.length > 0 ? (
            <ul role="alert" className="flex flex-col gap-1 text-sm text-red-800" data-testid="draft-issues">
              {description.issues.map((issue) => (
                <li key={issue.message}>{draftIssueText(issue, tIssues, measures.area)}</li>
              ))}
            </ul>
          ) : description ? (
            <p className="text-sm text-emerald-800" data-testid="draft-valid">
              {t("valid")}
            </p>
          ) : null}
          {boundsErrors.length > 0 ? (
            <ul role="alert" className="flex flex-col gap-1 text-sm font-medium text-red-800" data-testid="bounds-errors">
              {boundsErrors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
          <label className="mt-1 flex flex-col gap-1 text-sm">
            <span className="font-medium text-slate-800">{t("import")}</span>
            <input
              type="file"
              accept=".geojson,.json,application/geo+json,application/json"
              onChange={(e) => void onImport(e.target.files?.[0])}
              className="text-sm file:me-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
            />
          </label>
          {importError ? (
            <p role="alert" className="text-sm text-red-800">
              {importError}
            </p>
          ) : null}
        </section>

        <div className="flex gap-2">
          <Button type="submit" disabled={pending || (description !== null && !description.valid)}>
            {pending ? t("saving") : mode.kind === "create" ? t("create") : t("save")}
          </Button>
          <Link href={mode.kind === "create" ? "/missions" : `/missions/${mode.id}`} className={buttonClasses({ variant: "ghost" })}>
            {t("cancel")}
          </Link>
        </div>
      </div>
      <div className="relative h-[60vh] min-h-[28rem] overflow-hidden rounded-lg border border-slate-200 lg:h-[calc(100vh-12rem)]">
        <MissionDrawMap draft={draft} fit={fit} problemVertices={problemVertices} missionId={mode.kind === "edit" ? mode.id : undefined} geocoder={geocoder} />
      </div>
    </form>
  );
}
