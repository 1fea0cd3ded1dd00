import { randomUUID } from 'node:crypto';
import type { Db } from '../db/knex';
import { revealCard } from '../db/repositories/card-vault';
import { persistOrder } from '../db/repositories/orders';
import { findSenseSession } from '../db/repositories/sense-sessions';
import type { ChargeInput, ChargeResult, PersistOrderInput, ScoreInput, ScoreResult } from '../domain/orders/contracts';
import { simulateCharge } from '../domain/sandbox-processor';
import { scoreTransaction } from '../domain/scoring';
import { judgeSenseSession } from '../domain/sense-session';
import type { VaultKey } from '../domain/vault-cipher';
import { SENSE_KEY_PATTERN } from '../domain/widget-signals';

export interface OrderActivityDeps {
  db: Db;
  vaultKeys: VaultKey[];
  environment: string;
}

/** Activities of the order workflow: the read model, scoring and the processor. */
export function createOrderActivities(deps: OrderActivityDeps) {
  return {
    /** Durable write of one transition (state, transition, events, refund) in one transaction. */
    async persistOrder(input: PersistOrderInput): Promise<void> {
      await persistOrder(deps.db, input);
    },

    /**
     * Rules-based rescue score. Device signals count only from a fresh widget session of this
     * merchant whose bound externalOrderId, if any, is the evaluate's (src/domain/sense-session.ts).
     */
    async scoreTransaction(input: ScoreInput): Promise<ScoreResult> {
      const senseKey = input.senseKey?.toLowerCase();
      const session =
        senseKey && SENSE_KEY_PATTERN.test(senseKey)
          ? await findSenseSession(deps.db, input.merchantId, senseKey)
          : undefined;
      const verdict = judgeSenseSession(
        session && { lastSeenAt: session.last_seen_at, externalOrderId: session.external_order_id },
        { externalOrderId: input.externalOrderId },
        new Date(),
      );
      return scoreTransaction(input, verdict === 'fresh' ? 'fresh' : 'absent');
    },

    /** Charges (sale) or authorizes through the processor; the sandbox simulates the networks. */
    async processorCharge(input: ChargeInput): Promise<ChargeResult> {
      const pan = await revealCard(deps.db, input.merchantId, input.cardToken, deps.vaultKeys);
      if (!pan) return { result: 'hard_decline', code: '14' }; // no such card in this merchant's vault
      const simulated = simulateCharge(pan, input, deps.environment);
      return simulated.result === 'approved' ? { result: 'approved', authorizationId: randomUUID() } : simulated;
    },

    async processorCapture(input: { authorizationId: string; amount: number }): Promise<{ captureId: string }> {
      void input;
      return { captureId: randomUUID() };
    },

    async processorVoid(input: { authorizationId: string }): Promise<void> {
      void input;
    },

    async processorRefund(input: {
      authorizationId: string;
      amount: number;
      transactionId: string;
    }): Promise<{ processorReference: string }> {
      return { processorReference: `rf_${input.transactionId}` };
    },
  };
}

export type OrderActivities = ReturnType<typeof createOrderActivities>;
