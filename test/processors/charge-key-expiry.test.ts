import { randomBytes, randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createProcessorActivities } from '../../src/activities/processor';
import { KEY_RESEND_LIMIT_MS } from '../../src/domain/orders/charge-attempts';
import type { ChargeInput } from '../../src/domain/orders/contracts';
import { FAILURE } from '../../src/domain/orders/failures';
import { SANDBOX_CARDS_BY_BEHAVIOUR } from '../../src/domain/sandbox-cards';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { seedMerchant } from '../helpers/fixtures';
import { vaultTestCard } from '../helpers/orders';

/**
 * The charges ledger never sends a card charge again under a key older than KEY_RESEND_LIMIT_MS
 * (src/activities/charge-ledger.ts): Stripe forgets a key after 24 hours and would charge anew.
 * The workflow's schedule keeps within it; this holds when a timer fires hours late (workers or
 * Temporal down), at a cancel or at the window's end. Real Postgres, the sandbox processor.
 */
describe('a card charge first sent too long ago is not sent again under its key', () => {
  let database: TestDatabase;
  let merchantId: string;
  const keys = [{ id: 'k1', key: randomBytes(32) }];
  const env = new MockActivityEnvironment();
  let processor: ReturnType<typeof createProcessorActivities>;
  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (await seedMerchant(database.db)).mid;
    processor = createProcessorActivities({ db: database.db, vaultKeys: keys, environment: 'sandbox' });
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** An async MIT retry's charge of a card the sandbox approves. */
  async function retryCharge(): Promise<ChargeInput> {
    const card = await vaultTestCard(database.db, merchantId, SANDBOX_CARDS_BY_BEHAVIOUR.approves.visa, keys);
    return {
      idempotencyKey: randomUUID(),
      orderId: randomUUID(),
      externalOrderId: `shop-${randomUUID()}`,
      merchantId,
      cardToken: card.token,
      amount: 1999,
      currency: 'USD',
      mode: 'sale',
      flow: 'ASYNC_MIT',
      attempt: 2,
      threeDSecure: null,
      attemptedAtUtc: new Date().toISOString(),
    };
  }
  const charge = (input: ChargeInput) => env.run(processor.processorCharge, input);
  const row = (id: string) => database.db('charges').where({ id }).first();
  /** The row's first send moved `ms` into the past, and its answer lost (a send that timed out). */
  const sentAgo = (id: string, ms: number) =>
    database
      .db('charges')
      .where({ id })
      .update({ created_at: new Date(Date.now() - ms), state: 'unknown', result: null, answered_at: null });

  it('within the limit it is sent again and answered; past it, refused unsent and left unknown', async () => {
    const within = await retryCharge();
    await charge(within);
    await sentAgo(within.idempotencyKey, KEY_RESEND_LIMIT_MS - 60_000);
    await expect(charge(within)).resolves.toMatchObject({ result: 'approved' });
    expect(await row(within.idempotencyKey)).toMatchObject({ state: 'answered', result: 'approved' });

    const past = await retryCharge();
    await charge(past);
    await sentAgo(past.idempotencyKey, KEY_RESEND_LIMIT_MS + 60_000);
    await expect(charge(past)).rejects.toMatchObject({ type: FAILURE.chargeKeyExpired, nonRetryable: true });
    // Not answered: the sandbox approves this card, so a send would have recorded an approval.
    expect(await row(past.idempotencyKey)).toMatchObject({ state: 'unknown', result: null, answered_at: null });
  });
});
