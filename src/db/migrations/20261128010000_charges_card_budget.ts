import type { Knex } from 'knex';

/**
 * The card networks count a merchant's retries per card, across orders (docs/network-rules.md):
 * each charge row names its card by the vault's fingerprint (one per card and merchant, whatever
 * token or order), when the attempt was made on the workflow's clock, and Mastercard's Merchant
 * Advice Code of a decline. The partial index serves the rolling count of a card's declines.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('charges', (t) => {
    t.text('card_fingerprint').nullable();
    t.timestamp('attempted_at', { useTz: true }).nullable();
    t.text('merchant_advice_code').nullable();
  });
  await knex.raw(
    `create index charges_card_declines on charges (merchant_id, card_fingerprint, attempted_at)
     where result = 'declined' and kind in ('sale', 'authorization')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists charges_card_declines');
  await knex.schema.alterTable('charges', (t) => {
    t.dropColumn('card_fingerprint');
    t.dropColumn('attempted_at');
    t.dropColumn('merchant_advice_code');
  });
}
