import type { Knex } from 'knex';

/**
 * A tokenization with the public tokenization key vaults a token of its own, even for a card the
 * merchant has vaulted before (src/db/repositories/card-vault.ts): it must neither change another
 * token's expiry nor tell who sent it whether the card is known. So a card may have several rows
 * per merchant; they share its fingerprint (the retry budget counts the card once), which is now
 * an index, not a unique one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('card_vault', (t) => {
    t.dropUnique(['merchant_id', 'fingerprint']);
    t.index(['merchant_id', 'fingerprint'], 'card_vault_merchant_fingerprint');
  });
}

/** Fails while a card has several tokens of one merchant: merge them first. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('card_vault', (t) => {
    t.dropIndex(['merchant_id', 'fingerprint'], 'card_vault_merchant_fingerprint');
    t.unique(['merchant_id', 'fingerprint']);
  });
}
