import type { Knex } from 'knex';
import { isUuid } from '../../domain/ids';
import type { MerchantSettings } from '../../domain/merchant-settings';
import type { Db } from '../knex';
import { prepared } from '../prepared';
import { CARD_VAULT_COLUMNS, type CardVaultRecord } from '../tables/card-vault';
import { CHARGE_COLUMNS, type ChargeRecord } from '../tables/charges';
import { type ChargeIntent, ChargeRequestChangedError, ExternalOrderTakenError } from './charges';
import { merchantSettingsOf } from './merchants';

/**
 * A processor call's intent recorded as sent, in ONE statement, alone (captures, voids, reversals)
 * or with the reads a card charge's send needs (docs/architecture.md, "Money invariants").
 */

/** A statement's SQL and its bindings, to be sent alone or as part of a larger one. */
interface StatementParts {
  sql: string;
  bindings: Knex.RawBinding[];
}

/**
 * The intent recorded as sent, in ONE statement (nothing runs between a call's intent and its
 * send, so the ledger writes them together; the row is durable before the call): a new row is
 * inserted `sent`; the row this (order, kind, attempt) already has is marked sent again, its key
 * kept (a re-run sends the same key), unless it is answered or reversed, which stays as it is, or
 * is a card charge of another amount, currency or card (then nothing is sent: ChargeRequestChanged).
 * Never for an orderId that is not its externalOrderId's order, once that order exists (two
 * evaluates restarting an unevaluated id at once: the run that lost must not charge).
 *
 * These are the statement's CTEs, ending with `charge`, the row; a statement that reads more with
 * it (recordChargeSendingReading) adds its own select. The CTEs all see the snapshot
 * from before the statement, so `resent` finds only a row written before, and the last branch of
 * `charge` only one that `resent` left as it was.
 */
function chargeSendingParts(intent: ChargeIntent, now: Date): StatementParts {
  // A charge names its card by the vault's fingerprint (the same card in any order or token).
  // (Vault tokens are UUIDs; anything else names no vaulted card.)
  const token = intent.request?.cardToken ?? null;
  const card = token && isUuid(token) ? token : null;
  const columns = CHARGE_COLUMNS.join(', ');
  const sameCall = 'order_id = ? and kind = ? and attempt = ?';
  const call = [intent.orderId, intent.kind, intent.attempt];
  return {
    sql: `with inserted as (
       insert into charges (id, order_id, merchant_id, external_order_id, kind, attempt, amount, currency, state, request,
                            created_at, attempted_at, sent_at, card_fingerprint)
       select ?, ?, ?, ?, ?, ?, ?, ?, 'sent', ?::jsonb, ?, ?, ?,
              (select fingerprint from card_vault where merchant_id = ? and token = ?::uuid)
       where not exists (select 1 from orders where merchant_id = ? and external_order_id = ? and id <> ?)
       on conflict (order_id, kind, attempt) do nothing
       returning ${columns}
     ), resent as (
       update charges set state = 'sent', sent_at = ?
       where ${sameCall} and state in ('intent', 'sent', 'unknown')
         and (request is null or ?::text is null or (amount = ? and currency = ? and request->>'cardToken' = ?))
       returning ${columns}
     ), charge as (
       select ${columns} from inserted
       union all select ${columns} from resent
       union all select ${columns} from charges where ${sameCall} and not exists (select 1 from resent)
     )`,
    bindings: [
      intent.id,
      intent.orderId,
      intent.merchantId,
      intent.externalOrderId,
      intent.kind,
      intent.attempt,
      intent.amount,
      intent.currency,
      intent.request ? JSON.stringify(intent.request) : null,
      now,
      intent.request ? (intent.attemptedAt ?? now) : null,
      now,
      intent.merchantId,
      card,
      intent.merchantId,
      intent.externalOrderId,
      intent.orderId,
      now,
      ...call,
      token,
      intent.amount,
      intent.currency,
      token,
      ...call,
    ],
  };
}

/**
 * Runs a sending statement (chargeSendingParts and what reads with it): what it answers beside its
 * one row, or ExternalOrderTakenError. A statement that found no row may have met a second send of
 * the same call inserting it at that moment (its insert waited, then did nothing, and the snapshot
 * showed no row): sent once more, it finds that row.
 */
async function sendingRow<T extends { row: ChargeRecord }>(
  run: () => Promise<T | undefined>,
  intent: ChargeIntent,
): Promise<T> {
  const sent = (await run()) ?? (await run());
  if (!sent) throw new ExternalOrderTakenError(`order ${intent.orderId} is not the order of its externalOrderId`);
  if (sent.row.merchant_id !== intent.merchantId)
    throw new Error(`charge ${intent.kind} ${intent.attempt} of order ${intent.orderId} is not this merchant's`);
  if (isAnotherRequest(sent.row, intent))
    throw new ChargeRequestChangedError(
      `charge ${intent.kind} ${intent.attempt} of order ${intent.orderId} was sent with another amount, currency or card`,
    );
  return sent;
}

/**
 * A card charge's row made for another request than this one: its key must not carry this one
 * (the processor would refuse it, or once it forgot the key, charge it while the first stands).
 */
function isAnotherRequest(row: ChargeRecord, intent: ChargeIntent): boolean {
  if (!row.request || !intent.request) return false;
  return (
    row.amount !== intent.amount ||
    row.currency !== intent.currency ||
    row.request.cardToken !== intent.request.cardToken
  );
}

/** The intent recorded as sent (chargeSendingParts), alone: its row. */
export async function recordChargeSending(db: Db, intent: ChargeIntent, now: Date): Promise<ChargeRecord> {
  const { sql, bindings } = chargeSendingParts(intent, now);
  const { row } = await sendingRow(async () => {
    const { rows } = await prepared(
      db.raw<{ rows: ChargeRecord[] }>(`${sql} select ${CHARGE_COLUMNS.join(', ')} from charge`, bindings),
    );
    return rows[0] && { row: rows[0] };
  }, intent);
  return row;
}

/** What a card charge reads before it is sent: the card's vault row (none: no such card) and the settings. */
export interface ChargeSendReads {
  vaultRow: CardVaultRecord | undefined;
  settings: MerchantSettings;
}

/** Charge columns as this statement names them beside the vault's (both have `merchant_id`, `created_at`). */
const CHARGE_AS = CHARGE_COLUMNS.map((c) => [c, `charge_${c}`] as const);

/**
 * The intent recorded as sent (chargeSendingParts) with the reads its send needs, in ONE statement
 * (one round trip instead of four): the select reads the merchant's vaulted card `cardToken`
 * (native columns: its sealed number stays bytes) and the merchant's settings, beside the row. The
 * reads see the snapshot from before the statement, which the ledger's writes do not change. A
 * token that is no UUID names no vaulted card.
 */
export async function recordChargeSendingReading(
  db: Db,
  intent: ChargeIntent,
  now: Date,
  ask: { merchantId: string; cardToken: string },
): Promise<{ row: ChargeRecord; reads: ChargeSendReads }> {
  const sending = chargeSendingParts(intent, now);
  const vaultJoin = db('card_vault as v').select(CARD_VAULT_COLUMNS).where('v.merchant_id', ask.merchantId);
  if (isUuid(ask.cardToken)) vaultJoin.where('v.token', ask.cardToken);
  else vaultJoin.whereRaw('false');
  const vault = vaultJoin.toSQL();
  const { row, card, settings } = await sendingRow(async () => {
    const { rows } = await prepared(
      db.raw<{ rows: Record<string, unknown>[] }>(
        `${sending.sql}
         select ${CHARGE_AS.map(([c, as]) => `c.${c} as ${as}`).join(', ')},
                ${CARD_VAULT_COLUMNS.map((c) => `v.${c}`).join(', ')},
                (select to_jsonb(s) from merchant_settings s where s.merchant_id = ?) as settings
         from charge c left join lateral (${vault.sql} limit 1) as v on true`,
        [...sending.bindings, ask.merchantId, ...vault.bindings],
      ),
    );
    const got = rows[0];
    if (!got) return undefined;
    const row = Object.fromEntries(CHARGE_AS.map(([c, as]) => [c, got[as]])) as unknown as ChargeRecord;
    const card = Object.fromEntries(CARD_VAULT_COLUMNS.map((c) => [c, got[c]])) as Partial<CardVaultRecord>;
    return { row, card, settings: got.settings };
  }, intent);
  return {
    row,
    reads: {
      vaultRow: card.token ? (card as CardVaultRecord) : undefined,
      settings: merchantSettingsOf(settings),
    },
  };
}
