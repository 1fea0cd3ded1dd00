import type { Knex } from 'knex';

/**
 * A row of `rescue_report_rollup`: one partner's orders created on one UTC day, by flow or decline
 * code and currency, kept by a trigger on `orders` (docs/reports.md). Read-only to the code.
 */
export interface RescueReportRollupRecord {
  partner_id: string;
  day: string;
  dimension: 'flow' | 'declineCode';
  key: string;
  currency: string;
  evaluated: number;
  approved: number;
  declined: number;
  submitted: number;
  rescued: number;
  expired: number;
  /** bigint: read as a string by node-postgres. */
  recovered: string;
  rescue_attempts: string;
}

/** Written only by the trigger: the code never inserts or updates it. */
export type RescueReportRollupTable = Knex.CompositeTableType<RescueReportRollupRecord, never, never>;
