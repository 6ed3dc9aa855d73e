// GET /orders/reports/on-time: per calendar month (UTC) of an organisation, how many of its
// locations (each location of each cycle) were delivered, how many by their promise (deliver_by)
// and how many after it — read from the delivery promises, in one grouped statement.
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import type { OnTimeReport } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";

export interface ReportOnTimeOptions {
  orgId: string;
  /** YYYY-MM; default 11 months before `to`. */
  from?: string;
  /** YYYY-MM, included; default the month of `now`. */
  to?: string;
  now?: Date;
}

const monthOf = (d: Date) => d.toISOString().slice(0, 7);
const startOf = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
const addMonths = (month: string, n: number) => {
  const d = startOf(month);
  d.setUTCMonth(d.getUTCMonth() + n);
  return monthOf(d);
};

export async function reportOnTime(ctx: Pick<ServiceContext, "db">, { orgId, from, to, now = new Date() }: ReportOnTimeOptions): Promise<OnTimeReport> {
  const last = to ?? (from ? addMonths(from, 11) : monthOf(now));
  const first = from ?? addMonths(last, -11);
  const months: string[] = [];
  for (let m = first; m <= last; m = addMonths(m, 1)) months.push(m);
  const rows = await queryRows<{ month: string; delivered: number | string; on_time: number | string; late: number | string }>(
    ctx.db,
    sql`select to_char(date_trunc('month', delivered_at at time zone 'UTC'), 'YYYY-MM') as month,
          count(*) as delivered,
          count(*) filter (where status = 'delivered_on_time') as on_time,
          count(*) filter (where status = 'delivered_late') as late
        from delivery_promises
        where org_id = ${orgId} and delivered_at is not null
          and delivered_at >= ${startOf(first).toISOString()}::timestamptz and delivered_at < ${startOf(addMonths(last, 1)).toISOString()}::timestamptz
        group by 1`,
  );
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  return {
    months: months.map((month) => {
      const row = byMonth.get(month);
      const delivered = Number(row?.delivered ?? 0);
      const onTime = Number(row?.on_time ?? 0);
      return {
        month,
        locations_delivered: delivered,
        delivered_on_time: onTime,
        delivered_late: Number(row?.late ?? 0),
        on_time_share: delivered > 0 ? Math.round((onTime / delivered) * 1000) / 1000 : null,
      };
    }),
  };
}
