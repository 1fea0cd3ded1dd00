import { SCOPES } from '../../domain/scopes';
import type { Db } from '../knex';
import { type ApiKeyRow, createApiKey } from './api-keys';

export interface PartnerRow {
  id: string;
  name: string;
  created_at: Date;
}

export function partnerView(row: PartnerRow) {
  return { pid: row.id, name: row.name, createdAt: row.created_at.toISOString() };
}

/**
 * A new partner and its first API key (every scope), in one transaction: a partner never exists
 * without a credential to act with. The key's secret is returned this once; only its hash is kept.
 */
export async function createPartnerWithKey(
  db: Db,
  input: { name: string; keyName: string; environment: string },
): Promise<{ partner: PartnerRow; key: ApiKeyRow; secret: string }> {
  return db.transaction(async (trx) => {
    const [partner] = (await trx('partners').insert({ name: input.name }).returning('*')) as PartnerRow[];
    const { row: key, secret } = await createApiKey(trx, {
      ownerType: 'partner',
      partnerId: (partner as PartnerRow).id,
      merchantId: null,
      name: input.keyName,
      scopes: [...SCOPES],
      environment: input.environment,
    });
    return { partner: partner as PartnerRow, key, secret };
  });
}
