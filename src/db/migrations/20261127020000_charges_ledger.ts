import type { Knex } from 'knex';

/**
 * The charges ledger (docs/architecture.md, "Money invariants"): one row per processor call an
 * order makes (its charges, and the capture, voids and reversals of them; refunds keep their own
 * ledger). The row is written as an intent before the processor is called, and its id is the
 * idempotency key the processor gets; the answer is recorded on it. (order, kind, attempt) is
 * unique, so a second intent for the same attempt cannot exist. No foreign key to `orders`: the
 * first charge's intent is written before the order it decides (hence its merchant and
 * externalOrderId on the row).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('charges', (t) => {
    t.uuid('id').primary();
    t.uuid('order_id').notNullable();
    t.uuid('merchant_id').notNullable();
    t.text('external_order_id').notNullable();
    t.text('kind').notNullable().checkIn(['sale', 'authorization', 'capture', 'void', 'reversal']);
    t.integer('attempt').notNullable().checkPositive();
    t.bigInteger('amount').notNullable();
    t.text('currency').notNullable();
    t.text('state').notNullable().checkIn(['intent', 'sent', 'answered', 'reversed', 'unknown']);
    t.text('result').nullable();
    t.text('network_code').nullable();
    t.text('advice').nullable();
    t.text('processor_decline_code').nullable();
    t.text('processor_reference').nullable();
    // What a charge was sent with (the card's vault token, never its number), to send it again
    // under its key when a run closed before recording its answer (src/orders/unevaluated-run.ts).
    t.jsonb('request').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.timestamp('answered_at', { useTz: true }).nullable();
    t.timestamp('reversed_at', { useTz: true }).nullable();
    t.unique(['order_id', 'kind', 'attempt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('charges');
}
