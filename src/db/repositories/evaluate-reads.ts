import type { Knex } from 'knex';
import type { MerchantSettings } from '../../domain/merchant-settings';
import { NETWORK_RULES_LOOKBACK_MS } from '../../domain/network-rules';
import type { CardDecline } from '../../domain/retry-budget';
import { rowFromJson } from '../json-row';
import type { Db } from '../knex';
import type { CardVaultRecord } from '../tables/card-vault';
import { ORDER_INSTANTS } from '../tables/orders';
import { cardDeclinesQuery, declineOf } from './card-declines';
import { type VaultedCard, vaultedCardView } from './card-vault';
import { merchantSettingsOf } from './merchants';
import type { OrderRow } from './orders';
import { SENSE_SESSION_INSTANTS, type SenseSessionRow } from './sense-sessions';

/** What an evaluate reads before it claims its key: the order it continues, its card, its widget session. */
export interface EvaluateRows {
  settings: MerchantSettings;
  existing: OrderRow | undefined;
  tokenCard: VaultedCard | undefined;
  /** The token card's declines the networks' rules count (docs/network-rules.md); [] without one. */
  tokenCardDeclines: CardDecline[];
  senseSession: SenseSessionRow | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The card's clear fields only: the sealed number never leaves Postgres on this path. */
type ClearCard = Pick<CardVaultRecord, 'token' | 'brand' | 'bin' | 'last4' | 'expiry_month' | 'expiry_year'>;

/**
 * One statement, each read a scalar subquery answering its row as JSON (null when none, or when
 * not asked: a token or senseKey that is no UUID is bound as null and matches nothing).
 */
const READS = `
select
  (select to_jsonb(s) from merchant_settings s where s.merchant_id = :merchant) as settings,
  (select to_jsonb(o) from orders o
    where o.merchant_id = :merchant and o.external_order_id = :externalOrderId limit 1) as existing,
  (select to_jsonb(c) from (
    select token, brand, bin, last4, expiry_month, expiry_year from card_vault
    where token = cast(:token as uuid) and merchant_id = :merchant limit 1) c) as token_card,
  (select to_jsonb(ss) from sense_sessions ss
    where ss.merchant_id = :merchant and ss.sense_key = cast(:senseKey as uuid) limit 1) as sense_session,
  (select coalesce(jsonb_agg(to_jsonb(d)), cast('[]' as jsonb)) from :declines as d) as token_card_declines`;

type Json = Record<string, unknown> | null;

/** The reads' one row, as Postgres answers it (each column the JSON of its row, or null). */
export interface EvaluateReadsRow {
  settings: Json;
  existing: Json;
  token_card: Json;
  sense_session: Json;
  token_card_declines: Array<Parameters<typeof declineOf>[0]> | null;
}

export interface EvaluateReadsAsk {
  merchantId: string;
  externalOrderId: string;
  token?: string | undefined;
  senseKey?: string | undefined;
  now: Date;
}

/**
 * The evaluate's reads as one select of one row: the merchant's settings, its order with this
 * externalOrderId, the merchant's vaulted card `token` and that card's declines within the
 * networks' lookback before `now` (so the first evaluate brings the card's retry budget to the
 * workflow: one local activity less), its widget session `senseKey`. Sent alone
 * (readEvaluateRows) or inside the idempotency claim's statement (src/idempotency/run-once.ts).
 */
export function evaluateReadsQuery(db: Db, ask: EvaluateReadsAsk): Knex.Raw<{ rows: EvaluateReadsRow[] }> {
  const uuidOrNull = (value: string | undefined) => (value !== undefined && UUID.test(value) ? value : null);
  const token = uuidOrNull(ask.token);
  const fingerprint = db('card_vault').select('fingerprint').where('merchant_id', ask.merchantId).limit(1);
  if (token) fingerprint.where('token', token);
  else fingerprint.whereRaw('false');
  const since = new Date(ask.now.getTime() - NETWORK_RULES_LOOKBACK_MS);
  return db.raw<{ rows: EvaluateReadsRow[] }>(READS, {
    merchant: ask.merchantId,
    externalOrderId: ask.externalOrderId,
    token,
    senseKey: uuidOrNull(ask.senseKey),
    declines: cardDeclinesQuery(db, ask.merchantId, fingerprint, since),
  });
}

/**
 * The reads' row as the evaluate uses it: the same rows, typed the same, as merchantSettingsOf,
 * findMerchantOrderByExternalId, findVaultedCard, cardDeclines and findSenseSession give.
 */
export function evaluateRowsOf(row: EvaluateReadsRow | undefined): EvaluateRows {
  const card = rowFromJson<ClearCard>(row?.token_card, []);
  return {
    settings: merchantSettingsOf(row?.settings),
    existing: rowFromJson<OrderRow>(row?.existing, ORDER_INSTANTS),
    tokenCard: card ? vaultedCardView(card as CardVaultRecord) : undefined,
    tokenCardDeclines: card ? (row?.token_card_declines ?? []).map(declineOf) : [],
    senseSession: rowFromJson<SenseSessionRow>(row?.sense_session, SENSE_SESSION_INSTANTS),
  };
}

/** The evaluate's reads (evaluateReadsQuery's) in one round trip of their own. */
export async function readEvaluateRows(reads: Knex.Raw<{ rows: EvaluateReadsRow[] }>): Promise<EvaluateRows> {
  return evaluateRowsOf((await reads).rows[0]);
}
