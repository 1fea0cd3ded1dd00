import type { Knex } from 'knex';
import type { ApplicationStatus } from '../../domain/applications';
import type { Instant } from './columns';

/** A row of `applications`: a partner's onboarding application for a merchant (docs/onboarding.md). */
export interface ApplicationRecord {
  id: string;
  partner_id: string;
  status: ApplicationStatus;
  /** What the partner applies with (docs/onboarding.md). */
  business: { legalName: string; contactEmail: string; website?: string; country?: string; siteOrigins?: string[] };
  merchant_id: string | null;
  decision_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type ApplicationInsert = Omit<
  ApplicationRecord,
  'id' | 'merchant_id' | 'decision_reason' | 'created_at' | 'updated_at'
> & {
  id?: string;
  merchant_id?: string | null;
  decision_reason?: string | null;
  created_at?: Instant;
  updated_at?: Instant;
};

export type ApplicationsTable = Knex.CompositeTableType<
  ApplicationRecord,
  ApplicationInsert,
  Partial<ApplicationInsert>
>;
