import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listen } from '../../src/api/server';
import { createDb, type Db } from '../../src/db/knex';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { vaultTestCard } from '../helpers/orders';
import { startTestStack, type TestStack } from '../helpers/stack';

/**
 * The payments budget of POST /v1/evaluate, whose token is taken in the idempotency claim's
 * statement (issue 32): one budget across API processes, and a merchant's bucket row held locked
 * (a slow holder, the merchant's evaluates queued behind it) never fails an evaluate: past its
 * lock wait the process's own buckets decide, as when the shared limits fail (docs/rate-limits.md).
 * The API's clock is paused: no bucket refills during a test.
 */

const BURST = 3;

describe('the payments budget taken with the idempotency claim', () => {
  let stack: TestStack;
  let second: Server;
  let secondBase: string;
  /** Another connection, the one that holds a bucket's row locked. */
  let locker: Db;

  beforeAll(async () => {
    stack = await startTestStack({ env: { RATE_LIMIT_BURST: String(BURST), RATE_LIMIT_PER_SECOND: '1' } });
    stack.clock.pause();
    // A second API process on the same database (its own app, buckets and lease; the same clock).
    second = await listen(
      {
        config: stack.config,
        db: stack.db,
        temporal: stack.connection,
        temporalClient: stack.client,
        logger: stack.logs.logger,
        clock: stack.clock,
      },
      '127.0.0.1',
      0,
      stack.config.http,
    );
    secondBase = `http://127.0.0.1:${(second.address() as AddressInfo).port}`;
    locker = createDb(stack.databaseUrl, 1);
  });
  afterAll(async () => {
    await locker?.destroy();
    if (second) await closeServer(second);
    await stack?.stop();
  });

  /** A merchant with a bearer token and a vaulted card: `evaluate(base)` sends one CIT evaluate. */
  async function payingMerchant() {
    const m = await seedMerchant(stack.db);
    const token = await accessToken(stack.baseUrl, await seedKey(stack.db, m));
    const card = await vaultTestCard(stack.db, m.mid, '4111111111111111', stack.config.vaultKeys);
    const evaluate = async (base: string) => {
      const started = Date.now();
      const answer = await callApi(base, token, 'POST', '/v1/evaluate', {
        idempotencyKey: randomUUID(),
        externalOrderId: `rl-${randomUUID()}`,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: { token: card.token },
      });
      return { ...answer, ms: Date.now() - started };
    };
    /** The merchant's shared bucket as stored (the clock is paused: what it holds now). */
    const bucketTokens = async () => {
      const row = await locker('rate_limit_buckets')
        .where({ key: `merchant:${m.mid}` })
        .first('tokens');
      return Number(row?.tokens);
    };
    return { mid: m.mid, evaluate, bucketTokens };
  }

  const summary = (answers: Array<{ status: number; headers: Headers; body: { error?: { id: string } } }>) =>
    answers.map((a) => [a.status, a.body.error?.id, a.headers.get('ratelimit-remaining')].filter((p) => p).join(' '));

  it("holds one merchant's evaluates to one budget across two API processes", async () => {
    const merchant = await payingMerchant();
    const answers = [];
    for (let i = 0; i < BURST + 1; i++) answers.push(await merchant.evaluate(i % 2 ? secondBase : stack.baseUrl));
    // Not BURST per process: the shared bucket decided every one.
    expect(summary(answers)).toEqual(['200 2', '200 1', '200 0', '429 429001 0']);
    expect(Number(answers[BURST]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await merchant.bucketTokens()).toBe(0);
  });

  it("answers evaluates while the merchant's bucket row is locked, limited by the process's own buckets", async () => {
    const merchant = await payingMerchant();
    expect(summary([await merchant.evaluate(stack.baseUrl)])).toEqual(['200 2']);

    const holder = await locker.transaction();
    const whileLocked = [];
    try {
      const held = await holder('rate_limit_buckets')
        .where({ key: `merchant:${merchant.mid}` })
        .forUpdate()
        .first('tokens');
      expect(held?.tokens).toBe(2);
      for (let i = 0; i < BURST + 1; i++) whileLocked.push(await merchant.evaluate(stack.baseUrl));
    } finally {
      await holder.rollback();
    }
    // The shared bucket had 2 tokens: 3 answers of 200 are the process's own full bucket, and it
    // too refuses once spent. None is a 503: the claim did not wait on the row past its bound.
    expect(summary(whileLocked)).toEqual(['200 2', '200 1', '200 0', '429 429001 0']);
    // Within the edge's 1.5 s deadline plus the bucket's lock wait; generous for a loaded machine.
    for (const answer of whileLocked) expect(answer.ms).toBeLessThan(4_000);
    expect(await merchant.bucketTokens()).toBe(2); // no evaluate took the shared token

    // Released, the shared bucket decides again once the process's fallback window has passed:
    // its own bucket is spent, so a 200 can only be the shared bucket's, which loses a token.
    await eventually(
      () => merchant.evaluate(stack.baseUrl),
      (answer) => answer.status === 200,
      { describe: "an evaluate allowed by the merchant's shared bucket again", intervalMs: 250, timeoutMs: 15_000 },
    );
    expect(await merchant.bucketTokens()).toBe(1);
  });
});
