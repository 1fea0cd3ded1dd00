import type { Db } from '../db/knex';
import { openRescues } from '../db/repositories/open-rescues';
import { rolledUpReportFigures } from '../db/repositories/rescue-report-rollup';
import {
  EMPTY_FIGURES,
  type FigureRow,
  type ReportGrouping,
  type ReportScope,
  reportFigures,
} from '../db/repositories/rescue-reports';
import { RETRY_OFFSETS_MS } from '../domain/orders/retry-schedule';

export type { ReportGrouping, ReportScope } from '../db/repositories/rescue-reports';

/** At most this many open rescues are listed (their count is always whole). */
export const OPEN_RESCUES_LISTED = 100;

/** Counts and rates of a set of orders (docs/reports.md, "What each figure counts"). */
export interface Figures {
  evaluated: number;
  approved: number;
  declined: number;
  submitted: number;
  rescued: number;
  expired: number;
  /** Captured minor units of the rescued orders, per currency (alphabetical). */
  recovered: Array<{ currency: string; amount: number }>;
  /** rescued / submitted. */
  rescueRate: number | null;
  /** Charge attempts of the rescued orders / rescued. */
  attemptsPerRescue: number | null;
  medianTimeToRescueSeconds: number | null;
}

export interface OpenRescue {
  orderId: string;
  /** Set on the operator's report only: whose order it is. */
  merchantId?: string;
  externalOrderId: string;
  amount: number;
  currency: string;
  attempts: number;
  nextAttemptAt: string;
}

/** One row of the CSV export: the orders of one group in one currency, or a currency's total. */
export interface CurrencyRow {
  row: 'group' | 'total';
  key: string;
  currency: string;
  figures: Figures;
}

export interface RescueReport {
  from: string;
  to: string;
  groupBy: ReportGrouping;
  totals: Figures;
  groups: Array<{ key: string } & Figures>;
  openRescues: { count: number; items: OpenRescue[] };
  /** The same orders split by currency too (the CSV's rows); not part of the JSON answer. */
  byCurrency: CurrencyRow[];
}

export interface RescueReportRequest {
  scope: ReportScope;
  from: Date;
  to: Date;
  groupBy: ReportGrouping;
  /** The operator's report names each open rescue's merchant. */
  withMerchant: boolean;
  /**
   * Whose medians the answer shows: the CSV's rows (per currency) or the JSON's groups and total.
   * Read from the rollup, only those are computed (each set of medians is a sort of the rescues).
   */
  medians: 'groups' | 'currencies';
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

function figuresOf(row: FigureRow, recovered: Figures['recovered']): Figures {
  return {
    evaluated: row.evaluated,
    approved: row.approved,
    declined: row.declined,
    submitted: row.submitted,
    rescued: row.rescued,
    expired: row.expired,
    recovered,
    rescueRate: ratio(row.rescued, row.submitted),
    attemptsPerRescue: ratio(row.rescueAttempts, row.rescued),
    medianTimeToRescueSeconds:
      row.medianTimeToRescueSeconds === null ? null : Math.round(row.medianTimeToRescueSeconds),
  };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What was recovered in each currency, from rows that split by currency (none recovered: left out). */
function recoveredOf(rows: FigureRow[]): Figures['recovered'] {
  return rows
    .filter((r) => r.recovered > 0)
    .map((r) => ({ currency: r.currency as string, amount: r.recovered }))
    .sort((a, b) => byText(a.currency, b.currency));
}

/**
 * The rescue report of the orders created in [from, to) in the scope: totals, one entry per group
 * (in key order: days ascending), per group and currency for the CSV, and the open rescues.
 */
export async function rescueReport(db: Db, request: RescueReportRequest): Promise<RescueReport> {
  const range = { ...request.scope, from: request.from, to: request.to };
  const [rows, open] = await Promise.all([
    // One merchant's orders are scanned (exact, current); more come from the rollup (docs/reports.md).
    range.merchantId
      ? reportFigures(db, range, request.groupBy)
      : rolledUpReportFigures(db, range, request.groupBy, request.medians),
    openRescues(db, range, RETRY_OFFSETS_MS, OPEN_RESCUES_LISTED),
  ]);
  const total = rows.find((r) => r.key === null && r.currency === null) ?? EMPTY_FIGURES;
  const perCurrency = rows.filter((r) => r.key === null && r.currency !== null);
  const perGroup = rows
    .filter((r) => r.key !== null && r.currency === null)
    .sort((a, b) => byText(a.key ?? '', b.key ?? ''));
  const perGroupAndCurrency = rows
    .filter((r) => r.key !== null && r.currency !== null)
    .sort((a, b) => byText(a.key ?? '', b.key ?? '') || byText(a.currency ?? '', b.currency ?? ''));

  const currencyFigures = (r: FigureRow) => figuresOf(r, recoveredOf([r]));
  return {
    from: request.from.toISOString(),
    to: request.to.toISOString(),
    groupBy: request.groupBy,
    totals: figuresOf(total, recoveredOf(perCurrency)),
    groups: perGroup.map((g) => ({
      key: g.key as string,
      ...figuresOf(g, recoveredOf(perGroupAndCurrency.filter((r) => r.key === g.key))),
    })),
    openRescues: {
      count: open.count,
      items: open.rows.map((r) => ({
        orderId: r.orderId,
        ...(request.withMerchant ? { merchantId: r.merchantId } : {}),
        externalOrderId: r.externalOrderId,
        amount: r.amount,
        currency: r.currency,
        attempts: r.attempts,
        nextAttemptAt: r.nextAttemptAt.toISOString(),
      })),
    },
    byCurrency: [
      ...perGroupAndCurrency.map((r) => ({
        row: 'group' as const,
        key: r.key as string,
        currency: r.currency as string,
        figures: currencyFigures(r),
      })),
      ...perCurrency
        .sort((a, b) => byText(a.currency ?? '', b.currency ?? ''))
        .map((r) => ({ row: 'total' as const, key: '', currency: r.currency as string, figures: currencyFigures(r) })),
    ],
  };
}
