import { isUuid } from '../../domain/ids';
import type { MerchantSettings } from '../../domain/merchant-settings';
import type { Db } from '../knex';
import { prepared } from '../prepared';
import { CARD_VAULT_COLUMNS, type CardVaultRecord } from '../tables/card-vault';
import { markChargeSentWrite } from './charges';
import { merchantSettingsOf } from './merchants';

/** What a card charge reads before it is sent: the card's vault row (none: no such card) and the settings. */
export interface ChargeSendReads {
  vaultRow: CardVaultRecord | undefined;
  settings: MerchantSettings;
}

/**
 * markChargeSent with the reads its send needs, in ONE statement (one round trip instead of
 * three): the update is a data-modifying CTE, the select reads the merchant's vaulted card
 * `cardToken` (native columns: its sealed number stays bytes) and the merchant's settings. The
 * reads see the snapshot from before the statement, which the update does not change. A token
 * that is no UUID names no vaulted card.
 */
export async function markChargeSentReading(
  db: Db,
  id: string,
  now: Date,
  ask: { merchantId: string; cardToken: string },
): Promise<ChargeSendReads> {
  const sent = markChargeSentWrite(db, id, now).toSQL();
  const vaultJoin = db('card_vault as v').select(CARD_VAULT_COLUMNS).where('v.merchant_id', ask.merchantId);
  if (isUuid(ask.cardToken)) vaultJoin.where('v.token', ask.cardToken);
  else vaultJoin.whereRaw('false');
  const vault = vaultJoin.toSQL();
  const { rows } = await prepared(
    db.raw<{ rows: Array<Partial<CardVaultRecord> & { settings: unknown }> }>(
      `with sent as (${sent.sql})
       select ${CARD_VAULT_COLUMNS.map((c) => `v.${c}`).join(', ')},
              (select to_jsonb(s) from merchant_settings s where s.merchant_id = ?) as settings
       from (select 1) as one left join lateral (${vault.sql} limit 1) as v on true`,
      [...sent.bindings, ask.merchantId, ...vault.bindings],
    ),
  );
  const { settings, ...card } = rows[0] ?? { settings: null };
  return {
    vaultRow: card.token ? (card as CardVaultRecord) : undefined,
    settings: merchantSettingsOf(settings),
  };
}
