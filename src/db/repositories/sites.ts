import type { Db } from '../knex';
import type { SiteRecord } from '../tables/sites';

/** A row of `sites` (its columns: src/db/tables/sites.ts). */
export type SiteRow = SiteRecord;

export function siteView(row: SiteRow) {
  return {
    siteId: row.id,
    mid: row.merchant_id,
    name: row.name,
    allowedOrigins: row.allowed_origins,
    createdAt: row.created_at.toISOString(),
  };
}

export async function listSites(db: Db, merchantId: string): Promise<SiteRow[]> {
  return db('sites').where({ merchant_id: merchantId }).orderBy('created_at', 'asc');
}

export async function createSite(
  db: Db,
  input: { merchantId: string; name: string; allowedOrigins: string[] },
): Promise<SiteRow> {
  const [row] = await db('sites')
    .insert({ merchant_id: input.merchantId, name: input.name, allowed_origins: input.allowedOrigins })
    .returning('*');
  return row as SiteRow;
}

/** The site only when it belongs to that merchant: the widget's MID and siteId must go together. */
export async function findMerchantSite(db: Db, merchantId: string, siteId: string): Promise<SiteRow | undefined> {
  return db('sites').where({ id: siteId, merchant_id: merchantId }).first();
}

/** Changes what `change` names; the widget's CORS check reads the origins on every request. */
export async function updateSite(
  db: Db,
  siteId: string,
  change: { name?: string; allowedOrigins?: string[] },
): Promise<SiteRow> {
  const [row] = await db('sites')
    .where({ id: siteId })
    .update({
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.allowedOrigins !== undefined ? { allowed_origins: change.allowedOrigins } : {}),
    })
    .returning('*');
  return row as SiteRow;
}
