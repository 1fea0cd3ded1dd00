import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Db } from '../../src/db/knex';
import { vaultCard } from '../../src/db/repositories/card-vault';
import { listOrderEvents } from '../../src/db/repositories/events';
import { checkCardNumber } from '../../src/domain/cards';
import { DEFAULT_MERCHANT_SETTINGS, type MerchantSettings } from '../../src/domain/merchant-settings';
import type { EvaluateInput, EvaluateResult } from '../../src/domain/orders/contracts';
import { orderWorkflowId } from '../../src/domain/orders/workflow-ids';
import { scoreTransaction } from '../../src/domain/scoring';
import type { VaultKey } from '../../src/domain/vault-cipher';
import { evaluateUpdate, orderWorkflow } from '../../src/workflows';
import { trackHistory } from './histories';

/** Vaults a sandbox test card for the merchant and returns the workflow's view of it. */
export async function vaultTestCard(
  db: Db,
  merchantId: string,
  pan: string,
  keys: VaultKey[],
): Promise<EvaluateInput['card']> {
  const check = checkCardNumber(pan);
  if (!check.ok) throw new Error(`not a card: ${check.problem}`);
  const { card } = await vaultCard(
    db,
    { merchantId, pan, brand: check.brand, expiryMonth: 12, expiryYear: 2090 },
    keys,
  );
  return { token: card.token, brand: card.brand, bin: card.bin, last4: card.last4 };
}

export function evaluateInput(
  card: EvaluateInput['card'],
  at: Date,
  overrides: Partial<Omit<EvaluateInput, 'settings'>> & { settings?: Partial<MerchantSettings> } = {},
): EvaluateInput {
  const { settings, scored, ...rest } = overrides;
  const input: Omit<EvaluateInput, 'scored'> = {
    receivedAtUtc: at.toISOString(),
    flow: 'CIT',
    transactionType: 'SALE',
    isMIT: false,
    isRecurring: false,
    intervalCount: null,
    attemptCount: 1,
    expiryDateUtc: null,
    declinedAtUtc: at.toISOString(),
    amount: 1999,
    currency: 'USD',
    responseCode: '51',
    card,
    senseKey: null,
    siteId: null,
    threeDSecure: null,
    ...rest,
    settings: { ...DEFAULT_MERCHANT_SETTINGS, ...settings },
  };
  // Scored as the API scores (src/orders/evaluate.ts), unless the test gives its own score.
  return { ...input, scored: scored ?? scoreTransaction(input, 'absent') };
}

/** Starts an order workflow and sends its first evaluate (as the API's Update-With-Start does). */
export async function startOrder(
  client: Client,
  taskQueue: string,
  owner: { mid: string; pid: string },
  input: EvaluateInput,
): Promise<{ result: EvaluateResult; workflowId: string; orderId: string }> {
  const externalOrderId = `ext-${randomUUID()}`;
  const orderId = randomUUID();
  const workflowId = orderWorkflowId(owner.mid, externalOrderId);
  const handle = await client.workflow.start(orderWorkflow, {
    taskQueue,
    workflowId,
    args: [
      {
        orderId,
        orderSessionKey: randomUUID(),
        merchantId: owner.mid,
        partnerId: owner.pid,
        externalOrderId,
        isTestMode: true,
        chargeRecordsDecision: true,
      },
    ],
  });
  trackHistory('order', workflowId);
  const result = await handle.executeUpdate(evaluateUpdate, { args: [input] });
  return { result, workflowId, orderId };
}

export async function eventNames(db: Db, orderId: string): Promise<string[]> {
  return (await listOrderEvents(db, orderId)).map((e) => e.name);
}

export { orderRow } from './order-row';
