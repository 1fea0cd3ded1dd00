import type { Knex } from 'knex';
import type { Instant } from './columns';

/** A row of `site_widget_settings`: a site's widget collection settings (a site without one uses src/domain/widget-config.ts's defaults). */
export interface SiteWidgetSettingsRecord {
  site_id: string;
  collect_fingerprint: boolean;
  collect_interactions: boolean;
  collect_email: boolean;
  collect_forms: boolean;
  collect_route_changes: boolean;
  email_selectors: string[];
  form_selectors: string[];
  updated_at: Date;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type SiteWidgetSettingsInsert = Omit<
  SiteWidgetSettingsRecord,
  'email_selectors' | 'form_selectors' | 'updated_at'
> & {
  email_selectors?: string[];
  form_selectors?: string[];
  updated_at?: Instant;
};

export type SiteWidgetSettingsTable = Knex.CompositeTableType<
  SiteWidgetSettingsRecord,
  SiteWidgetSettingsInsert,
  Partial<SiteWidgetSettingsInsert>
>;
