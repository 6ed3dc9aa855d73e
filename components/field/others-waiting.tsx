"use client";
// Photos on this phone that belong to other zoomers (one who signed out, or whose session ran
// out): the page says only how many wait and for whom — by the name stamped on them, never the
// zoomer's id (an operator's word); photos kept before names were say "the person who took them".
// No thumbnail, no place, no verdict. They are not sent with this session
// (lib/field/outbox-owner.ts); their owner sends them by signing in.
import { useTranslations } from "next-intl";
import { useOthersWaiting } from "./use-outbox";

export function OthersWaiting() {
  const others = useOthersWaiting();
  const t = useTranslations("field.outbox");
  if (others.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="others-waiting">
      {others.map(({ owner, ownerName, count }) => (
        <li key={owner ?? ""} data-owner={owner ?? ""} data-count={count} className="break-words">
          {ownerName ? t("waitingForOwner", { count, owner: ownerName }) : t("waitingForTaker", { count })}
        </li>
      ))}
    </ul>
  );
}
