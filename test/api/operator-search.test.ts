import { randomUUID } from 'node:crypto';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';

const nextYear = new Date().getUTCFullYear() + 1;

/**
 * Issue 13 (operator search): an operator finds an order in the Temporal UI by the orderId or
 * confirmationId a merchant quotes, and tells in-flight orders from settled ones, through the
 * same visibility query the UI runs; the workflow's summary reads well in the list.
 */
describe('operators find orders by the ids merchants quote', () => {
  jest.setTimeout(60_000);
  let stack: TestStack;
  let token: string;

  beforeAll(async () => {
    stack = await startTestStack();
    token = await accessToken(stack.baseUrl, await seedKey(stack.db, await seedMerchant(stack.db)));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function list(query: string) {
    const found = [];
    for await (const wf of stack.client.workflow.list({ query })) found.push(wf);
    return found;
  }

  /** Visibility is eventually consistent: ask until it answers what the order says. */
  const listUntil = (query: string, count: number) =>
    eventually(
      () => list(query),
      (found) => found.length === count,
      { describe: `${count} workflow(s) for ${query}`, timeoutMs: 10_000 },
    );

  it('by FcOrderId and FcConfirmationId; FcLifecycle settled once completed; a static summary', async () => {
    const externalOrderId = `shop-${randomUUID()}`;
    const evaluated = await callApi(stack.baseUrl, token, 'POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear },
    });
    expect(evaluated.body).toMatchObject({ outcome: 'APPROVED' });
    const order = await callApi(stack.baseUrl, token, 'GET', `/v1/orders/${evaluated.body.orderId}`);

    const [byOrderId] = await listUntil(
      `FcOrderId = "${evaluated.body.orderId}" AND FcLifecycle = "settled" AND ExecutionStatus = "Completed"`,
      1,
    );
    expect(byOrderId?.workflowId).toContain(externalOrderId);
    await listUntil(`FcConfirmationId = "${order.body.confirmationId}"`, 1);
    expect(await list(`FcOrderId = "${evaluated.body.orderId}" AND FcLifecycle = "in_flight"`)).toHaveLength(0);

    const described = await stack.client.workflow.getHandle(byOrderId?.workflowId ?? '').describe();
    expect(await described.staticSummary()).toBe(`CIT order ${externalOrderId}: 2500 USD (minor units)`);
  });
});
