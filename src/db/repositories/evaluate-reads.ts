import type pg from 'pg';
import type { MerchantSettings } from '../../domain/merchant-settings';
import type { Db } from '../knex';
import type { CardVaultRecord } from '../tables/card-vault';
import { type VaultedCard, vaultedCardView } from './card-vault';
import { merchantSettingsOf } from './merchants';
import type { OrderRow } from './orders';
import type { SenseSessionRow } from './sense-sessions';

/** What an evaluate reads before it claims its key: the order it continues, its card, its widget session. */
export interface EvaluateRows {
  settings: MerchantSettings;
  existing: OrderRow | undefined;
  tokenCard: VaultedCard | undefined;
  senseSession: SenseSessionRow | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A text value as SQL with nothing in it to escape: its UTF-8 bytes in hex. The reads below go
 * as one simple query (several statements, one round trip), which takes no bind parameters.
 */
function literal(value: string): string {
  return `convert_from(decode('${Buffer.from(value, 'utf8').toString('hex')}', 'hex'), 'UTF8')`;
}

/**
 * The evaluate's reads in one round trip: the merchant's settings, its order with this externalOrderId, the
 * merchant's vaulted card `token`, its widget session `senseKey` (each read only when asked and
 * well-formed; the same rows, typed the same, as findMerchantOrderByExternalId, findVaultedCard
 * and findSenseSession give).
 */
export async function readEvaluateRows(
  db: Db,
  ask: { merchantId: string; externalOrderId: string; token?: string | undefined; senseKey?: string | undefined },
): Promise<EvaluateRows> {
  if (!UUID.test(ask.merchantId)) throw new Error('merchantId must be a UUID');
  const merchant = `${literal(ask.merchantId)}::uuid`;
  const statements: Array<keyof EvaluateRows> = ['settings', 'existing'];
  const sql = [
    `select * from merchant_settings where merchant_id = ${merchant}`,
    `select * from orders where merchant_id = ${merchant} and external_order_id = ${literal(ask.externalOrderId)} limit 1`,
  ];
  if (ask.token !== undefined && UUID.test(ask.token)) {
    statements.push('tokenCard');
    sql.push(
      `select * from card_vault where token = ${literal(ask.token)}::uuid and merchant_id = ${merchant} limit 1`,
    );
  }
  if (ask.senseKey !== undefined && UUID.test(ask.senseKey)) {
    statements.push('senseSession');
    sql.push(
      `select * from sense_sessions where merchant_id = ${merchant} and sense_key = ${literal(ask.senseKey)}::uuid limit 1`,
    );
  }
  const answer = (await db.raw(sql.join(';\n'))) as pg.QueryResult | pg.QueryResult[];
  const results = Array.isArray(answer) ? answer : [answer];
  const rowOf = (name: keyof EvaluateRows) => results[statements.indexOf(name)]?.rows[0];
  const card = statements.includes('tokenCard') ? (rowOf('tokenCard') as CardVaultRecord | undefined) : undefined;
  return {
    settings: merchantSettingsOf(rowOf('settings')),
    existing: rowOf('existing') as OrderRow | undefined,
    tokenCard: card ? vaultedCardView(card) : undefined,
    senseSession: statements.includes('senseSession')
      ? (rowOf('senseSession') as SenseSessionRow | undefined)
      : undefined,
  };
}
