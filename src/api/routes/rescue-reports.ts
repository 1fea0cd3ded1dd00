import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import type { Clock } from '../../domain/clock';
import { type RescueReport, type RescueReportRequest, rescueReport } from '../../reports/rescue-report';
import { rescueReportCsv } from '../../reports/rescue-report-csv';
import { payingMerchant } from '../access';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

const DAY_MS = 86_400_000;
/** Without `from`, a report covers the 30 days before `to`. */
const DEFAULT_DAYS = 30;
/** The longest range one report covers. */
export const MAX_REPORT_DAYS = 366;
const GROUPINGS = ['day', 'declineCode', 'flow', 'currency'] as const;

/** Years 0000 and past 9999 pass the format (an offset can carry 9999-12-31 over) but no Postgres date. */
const REPORTABLE = { from: 0, to: Date.UTC(10_000, 0, 1) };
const isoTime = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 timestamp such as 2025-03-14T09:26:53Z' })
  .refine((v) => Date.parse(v) >= REPORTABLE.from && Date.parse(v) < REPORTABLE.to, {
    message: 'must be an ISO 8601 timestamp from 1970 on, before the year 10000',
  });

/** Query of GET /v1/reports/rescues (docs/reports.md). */
export const rescueReportQuery = z.object({
  from: isoTime
    .optional()
    .describe(`Orders created at or after this instant; default \`to\` minus ${DEFAULT_DAYS} days.`),
  to: isoTime.optional().describe('Orders created before this instant (exclusive); default now.'),
  groupBy: z.enum(GROUPINGS).default('day').describe('day (UTC, of creation), declineCode, flow or currency.'),
  format: z.enum(['json', 'csv']).default('json').describe('`csv`: the figures as text/csv (docs/reports.md).'),
});

/** Query of GET /v1/admin/reports/rescues: the same, across merchants, narrowed to a partner or merchant. */
export const adminRescueReportQuery = rescueReportQuery.extend({
  partnerId: z.uuid().optional().describe("Only this partner's merchants."),
  merchantId: z.uuid().optional().describe("Only this merchant's orders."),
});

/** The range after defaults: `from` before `to`, at most MAX_REPORT_DAYS apart. */
const resolvedRange = z
  .object({ from: z.date(), to: z.date() })
  .refine((r) => r.from < r.to, { path: ['to'], message: 'must be later than from' })
  .refine((r) => r.to.getTime() - r.from.getTime() <= MAX_REPORT_DAYS * DAY_MS, {
    path: ['to'],
    message: `must be at most ${MAX_REPORT_DAYS} days after from`,
  });

export function reportRange(q: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const to = q.to ? new Date(q.to) : now;
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - DEFAULT_DAYS * DAY_MS);
  return parseInput(resolvedRange, { from, to });
}

/** Answers the report as JSON (without its CSV rows) or as the CSV export. */
export function answerReport(ctx: Context, report: RescueReport, format: 'json' | 'csv'): void {
  if (format === 'csv') {
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('content-disposition', `attachment; filename="rescues-${report.groupBy}.csv"`);
    ctx.body = rescueReportCsv(report);
    return;
  }
  const { byCurrency: _rows, ...body } = report;
  ctx.body = body;
}

/**
 * GET /v1/reports/rescues: the calling merchant's rescue report. A merchant key with the
 * `payments` scope, as GET /v1/orders: a merchant counts its own orders only.
 */
export function rescueReportRoutes(deps: { db: Db; clock: Clock; rateLimit: Middleware }): Router {
  const router = apiRouter();
  router.get('/v1/reports/rescues', deps.rateLimit, async (ctx) => {
    const merchantId = payingMerchant(principalOf(ctx.state));
    const q = parseInput(rescueReportQuery, ctx.query);
    const request: RescueReportRequest = {
      scope: { merchantId },
      ...reportRange(q, deps.clock.now()),
      groupBy: q.groupBy,
      withMerchant: false,
      medians: q.format === 'csv' ? 'currencies' : 'groups',
    };
    answerReport(ctx, await rescueReport(deps.db, request), q.format);
  });
  return router;
}
