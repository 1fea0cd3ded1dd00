import type { Knex } from 'knex';
import type { CardDecline } from '../../domain/retry-budget';
import type { Db } from '../knex';

/**
 * The declines of a card in the charges ledger that the networks' rules count (docs/network-rules.md):
 * by its vault fingerprint (or a subquery answering it), so every order and token of the card
 * counts; sales and authorizations after `since`, oldest first. A query, so that a statement can
 * hold it (src/db/repositories/evaluate-reads.ts).
 */
export function cardDeclinesQuery(
  db: Db,
  merchantId: string,
  cardFingerprint: string | Knex.QueryBuilder,
  since: Date,
) {
  return db('charges')
    .select('attempted_at', 'network_code', 'merchant_advice_code')
    .where({ merchant_id: merchantId, result: 'declined' })
    .where('card_fingerprint', cardFingerprint)
    .whereIn('kind', ['sale', 'authorization'])
    .where('attempted_at', '>', since)
    .orderBy('attempted_at');
}

/** A card's declines as the rules read them (`cardDeclinesQuery`). */
export async function cardDeclines(
  db: Db,
  merchantId: string,
  cardFingerprint: string,
  since: Date,
): Promise<CardDecline[]> {
  const rows = await cardDeclinesQuery(db, merchantId, cardFingerprint, since);
  return rows.flatMap((r) => (r.attempted_at ? [declineOf({ ...r, attempted_at: r.attempted_at })] : []));
}

/** One row of `cardDeclinesQuery` (its instant as a Date, or as JSON's text) as the rules read it. */
export function declineOf(row: {
  attempted_at: Date | string;
  network_code: string | null;
  merchant_advice_code: string | null;
}): CardDecline {
  return {
    at: new Date(row.attempted_at).getTime(),
    networkCode: row.network_code,
    merchantAdviceCode: row.merchant_advice_code,
  };
}
