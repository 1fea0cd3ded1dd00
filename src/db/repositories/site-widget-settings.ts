import { DEFAULT_WIDGET_CONFIG, type WidgetConfig } from '../../domain/widget-config';
import type { Db } from '../knex';

/** The site's widget configuration; the defaults when it was never configured. */
export async function getWidgetConfig(db: Db, siteId: string): Promise<WidgetConfig> {
  const row = await db('site_widget_settings').where({ site_id: siteId }).first();
  if (!row) return structuredClone(DEFAULT_WIDGET_CONFIG);
  return {
    collect: {
      fingerprint: row.collect_fingerprint,
      interactions: row.collect_interactions,
      emailCapture: row.collect_email,
      formScraping: row.collect_forms,
      routeChanges: row.collect_route_changes,
    },
    selectors: { email: row.email_selectors, forms: row.form_selectors },
  };
}

/** Applies `change` to the current configuration under a per-site lock (no lost update). */
export async function updateWidgetConfig(
  db: Db,
  siteId: string,
  change: (current: WidgetConfig) => WidgetConfig,
  now: Date,
): Promise<WidgetConfig> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`site-widget:${siteId}`]);
    const next = change(await getWidgetConfig(trx, siteId));
    await trx('site_widget_settings')
      .insert({
        site_id: siteId,
        collect_fingerprint: next.collect.fingerprint,
        collect_interactions: next.collect.interactions,
        collect_email: next.collect.emailCapture,
        collect_forms: next.collect.formScraping,
        collect_route_changes: next.collect.routeChanges,
        email_selectors: next.selectors.email,
        form_selectors: next.selectors.forms,
        updated_at: now,
      })
      .onConflict('site_id')
      .merge();
    return next;
  });
}
