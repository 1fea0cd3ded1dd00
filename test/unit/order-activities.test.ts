import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createOrderActivities } from '../../src/activities/orders';
import { createProcessorActivities } from '../../src/activities/processor';
import type { Db } from '../../src/db/knex';
import type { ChargeInput, PersistOrderInput } from '../../src/domain/orders/contracts';
import { FAILURE } from '../../src/domain/orders/failures';
import { createSandboxAdapter } from '../../src/processors/sandbox-adapter';
import { draftOf } from '../../src/workflows/order/evaluate';
import { Order } from '../../src/workflows/order/order';
import { evaluateInput } from '../helpers/orders';

const ONE = randomUUID();

/** An order's state as the workflow persists it after its first evaluate. */
function anOrderState(): PersistOrderInput['state'] {
  const at = new Date();
  const start = {
    orderId: randomUUID(),
    orderSessionKey: randomUUID(),
    merchantId: randomUUID(),
    partnerId: randomUUID(),
    externalOrderId: `shop-${randomUUID()}`,
    isTestMode: true,
  };
  const card = { token: randomUUID(), brand: 'visa' as const, bin: '411111', last4: '1111' };
  return { ...draftOf(new Order(start), evaluateInput(card, at), at), status: 'Declined', version: 1 };
}

/** A knex stand-in whose every query fails as Postgres would, with this SQLSTATE or socket error. */
function failingDb(error: { code: string; message: string }): Db {
  const fail = () => {
    const rejected = Promise.reject(Object.assign(new Error(error.message), { code: error.code }));
    rejected.catch(() => undefined); // awaited by the activity; never an unhandled rejection here
    return rejected;
  };
  // Every builder call returns the failing query itself, which is awaited like knex's builder.
  const query = (): Promise<never> & Record<string, unknown> => {
    const q = fail() as Promise<never> & Record<string, unknown>;
    for (const method of ['where', 'first', 'insert', 'onConflict', 'merge', 'ignore', 'select', 'options']) {
      q[method] = () => q;
    }
    q.toSQL = () => ({ sql: 'select 1', bindings: [] });
    return q;
  };
  return Object.assign(() => query(), { transaction: () => fail(), raw: () => query() }) as unknown as Db;
}

const charge: ChargeInput = {
  idempotencyKey: randomUUID(),
  orderId: randomUUID(),
  externalOrderId: `shop-${randomUUID()}`,
  merchantId: randomUUID(),
  cardToken: randomUUID(),
  amount: 1999,
  currency: 'USD',
  mode: 'sale',
  flow: 'CIT',
  attempt: 1,
  threeDSecure: null,
};

async function failureOf(run: () => Promise<unknown>): Promise<ApplicationFailure> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

/**
 * Activities in a mock activity context (no worker, no Postgres): how database failures leave
 * them (retried StoreUnavailable vs never-retried PersistenceRejected), and the processor's
 * idempotency keys.
 */
describe('order and processor activities', () => {
  const env = new MockActivityEnvironment();

  it('a charge that cannot reach Postgres (its ledger intent, the vault) is StoreUnavailable (retried), never "processor unavailable"', async () => {
    const processor = createProcessorActivities({
      db: failingDb({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }),
      vaultKeys: [],
      environment: 'sandbox',
    });
    const failure = await failureOf(() => env.run(processor.processorCharge, charge));
    expect(failure.type).toBe(FAILURE.storeUnavailable);
    expect(failure.nonRetryable).toBe(false);
  });

  it('a write Postgres refuses for its data (SQLSTATE 22021, 23505) is PersistenceRejected, never retried', async () => {
    for (const code of ['22021', '23505']) {
      const orders = createOrderActivities({ db: failingDb({ code, message: 'refused' }) });
      const failure = await failureOf(() =>
        env.run(orders.persistOrder, { state: anOrderState(), transition: null, events: [] }),
      );
      expect(failure.type).toBe(FAILURE.persistenceRejected);
      expect(failure.nonRetryable).toBe(true);
      expect(failure.message).toContain(`SQLSTATE ${code}`);
    }
  });

  it('a serialization failure or a lost connection mid-write is StoreUnavailable (retried)', async () => {
    for (const code of ['40001', '08006', '57P01']) {
      const orders = createOrderActivities({ db: failingDb({ code, message: 'transient' }) });
      const failure = await failureOf(() =>
        env.run(orders.persistOrder, { state: anOrderState(), transition: null, events: [] }),
      );
      expect(failure.type).toBe(FAILURE.storeUnavailable);
    }
  });

  it('the same capture key gives the same capture id; another key another (as a processor honours keys)', async () => {
    const sandbox = createSandboxAdapter('sandbox');
    const capture = (idempotencyKey: string) =>
      sandbox.capture({ idempotencyKey, authorizationId: 'auth', amount: 100, currency: 'USD' });
    const [a, b, c] = await Promise.all([capture(ONE), capture(ONE), capture(randomUUID())]);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});
