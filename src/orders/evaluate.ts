import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { vaultCard } from '../db/repositories/card-vault';
import {
  type EvaluateReadsRow,
  type EvaluateRows,
  evaluateReadsQuery,
  evaluateRowsOf,
  readEvaluateRows,
} from '../db/repositories/evaluate-reads';
import { findMerchantSite } from '../db/repositories/sites';
import { checkCardForVault } from '../domain/card-checks';
import { EVALUATE_EXPIRY_GRACE_MS } from '../domain/cards';
import { orderSettingsOf } from '../domain/merchant-settings';
import type { EvaluateInput } from '../domain/orders/contracts';
import type { EvaluateRequest } from '../domain/orders/evaluate-request';
import { OrderFailure } from '../domain/orders/order-failure';
import { orderWorkflowId } from '../domain/orders/workflow-ids';
import { retryBudget } from '../domain/retry-budget';
import { scoreTransaction } from '../domain/scoring';
import { requestCardFingerprint } from '../domain/vault-cipher';
import type { Acting, OrderDeps } from './deps';
import { judgeDeviceSignals, signalSenseKey } from './device-signals';
import type { EvaluateDecision } from './evaluate-decision';
import { asOrdersCard, closedOrderEvaluate, refuseDifferentPayment } from './further-evaluate';
import { newAttemptOn } from './new-attempt';
import { CLOSED } from './order-client';
import { evaluateAfterUnevaluatedRun } from './unevaluated-run';

const MAX_RESCUE_WINDOW_MS = 21 * 24 * 3_600_000;

export interface EvaluatePlan {
  /** The request as hashed for idempotency: a raw card number enters only as its fingerprint. */
  hashed: unknown;
  /** The evaluate's reads (one select), sent in the idempotency claim's statement. */
  reads: Knex.Raw;
  /**
   * The checks that need the reads' row (undefined: not read yet, then read here) or the clock:
   * windows, capability, the site, the card. Throws the 4xx that refuses the evaluate.
   */
  check(row: unknown): Promise<void>;
  /** Once checked: vaults the card and sends the evaluate to the order's workflow: its decision. */
  run(): Promise<EvaluateDecision>;
}

const invalid = (field: string, problem: string) => new OrderFailure({ reason: 'validation_failed', field, problem });

/**
 * POST /v1/evaluate as a use case: what needs no database (the merchant named, the card number's
 * checks, the request as hashed for idempotency); then — under the caller's idempotency key, whose
 * claim carries the reads — the checks that need the database or the clock, the card vaulted and
 * the evaluate sent to the order's workflow, whose decision is the answer.
 */
export function planEvaluate(deps: OrderDeps, acting: Acting, body: EvaluateRequest): EvaluatePlan {
  const { db } = deps;
  const { merchantId } = acting;
  const now = deps.clock.now();
  const externalOrderId = body.externalOrderId;
  // FlexCharge's evaluate names the merchant and site: they must be the credential's own.
  if (body.mid && body.mid.toLowerCase() !== merchantId.toLowerCase())
    throw new OrderFailure({
      reason: 'merchant_forbidden',
      field: 'mid',
      problem: 'is not the merchant of this access token',
    });
  const pm = body.paymentMethod;
  const rawCard =
    'cardNumber' in pm
      ? {
          ...checkCardForVault(
            { cardNumber: pm.cardNumber, expiryMonth: pm.expiryMonth, expiryYear: pm.expiryYear },
            deps.environment,
            new Date(now.getTime() - EVALUATE_EXPIRY_GRACE_MS),
            'paymentMethod',
          ),
          expiryMonth: pm.expiryMonth,
          expiryYear: pm.expiryYear,
        }
      : undefined;

  // Hashed for idempotency: no card number (its fingerprint), no CVV, no holder name, payer minimised.
  const { cvvPresent: _cvv, ...request } = body;
  const hashed = {
    ...request,
    paymentMethod:
      'cardNumber' in pm
        ? {
            expiryMonth: pm.expiryMonth,
            expiryYear: pm.expiryYear,
            ...(rawCard ? { card: requestCardFingerprint(rawCard.pan, merchantId, deps.vaultKeys) } : {}),
          }
        : { token: pm.token },
    payer: body.payer ? minimisedPayer(body.payer) : undefined,
  };
  // Built once: sent in the claim's statement, or on its own when the claim could not carry it.
  const reads = evaluateReadsQuery(db, {
    merchantId,
    externalOrderId,
    token: 'token' in pm ? pm.token : undefined,
    senseKey: signalSenseKey(body.senseKey),
    now,
  });
  let checked: Checked | undefined;

  async function check(row: unknown): Promise<void> {
    // The site from the process's cache, beside the reads when they were not sent with the claim.
    const [site, { settings, existing, tokenCard, tokenCardDeclines, senseSession }] = await Promise.all([
      body.siteId
        ? (deps.settings?.merchantSite(merchantId, body.siteId) ?? findMerchantSite(db, merchantId, body.siteId))
        : undefined,
      row ? evaluateRowsOf(row as EvaluateReadsRow) : readEvaluateRows(reads),
    ]);
    const signals = judgeDeviceSignals(senseSession, { externalOrderId }, now);
    if (body.siteId && !site)
      throw new OrderFailure({
        reason: 'merchant_forbidden',
        field: 'siteId',
        problem: 'is not a site of this merchant',
      });
    const declinedAt = body.transaction.declinedAtUtc ? new Date(body.transaction.declinedAtUtc) : now;
    if (declinedAt.getTime() > now.getTime() + 5 * 60_000)
      throw invalid('transaction.declinedAtUtc', 'must not be in the future');
    if (body.expiryDateUtc) {
      const expiry = Date.parse(body.expiryDateUtc);
      // A further evaluate of an existing order may come after its window (Sync MIT: DECLINED).
      if (!existing && expiry <= now.getTime()) throw invalid('expiryDateUtc', 'must be in the future');
      if (expiry > declinedAt.getTime() + MAX_RESCUE_WINDOW_MS)
        throw invalid('expiryDateUtc', 'must be at most 21 days after the original decline');
    }
    if (body.transactionType === 'AUTHORIZATION' && !settings.authorizeCapability)
      throw new OrderFailure({ reason: 'authorize_capability_required' });
    if ('token' in pm && !tokenCard) throw invalid(pm.tokenField, 'no such token for this merchant');
    checked = { settings, existing, tokenCard, tokenCardDeclines, signals, declinedAt };
  }

  async function run(): Promise<EvaluateDecision> {
    if (!checked) throw new Error('evaluate run before its checks');
    const { settings, existing, tokenCard, tokenCardDeclines, signals, declinedAt } = checked;
    // Under the idempotency key (a reused key with another payload is refused first), before the workflow.
    const sentCard = rawCard ? { pan: rawCard.pan } : tokenCard && { token: tokenCard.token };
    if (existing) await refuseDifferentPayment(deps, merchantId, existing, body, sentCard);
    const sent = rawCard ? (await vaultCard(db, { merchantId, ...rawCard }, deps.vaultKeys)).card : tokenCard;
    if (!sent) throw invalid('paymentMethod', 'token or cardNumber is required');
    const card = existing ? await asOrdersCard(db, merchantId, existing, sent) : sent;
    const flow = !body.isMIT ? 'CIT' : settings.mitEvaluation === 'sync' ? 'SYNC_MIT' : 'ASYNC_MIT';
    const input: EvaluateInput = {
      receivedAtUtc: now.toISOString(),
      idempotencyKey: body.idempotencyKey,
      flow,
      transactionType: body.transactionType,
      isMIT: body.isMIT,
      isRecurring: body.isRecurring,
      intervalCount: body.subscription?.intervalCount ?? null,
      attemptCount: body.attemptCount ?? null,
      expiryDateUtc: body.expiryDateUtc ?? null,
      declinedAtUtc: declinedAt.toISOString(),
      amount: body.transaction.amount,
      currency: body.transaction.currency,
      responseCode: body.transaction.responseCode ?? null,
      card: { token: card.token, brand: card.brand, bin: card.bin, last4: card.last4 },
      senseKey: body.senseKey ?? null,
      siteId: body.siteId ?? null,
      threeDSecure: body.threeDSecure ?? null,
      cvvPresent: body.cvvPresent,
      settings: orderSettingsOf(settings),
      scored: scoreTransaction(
        {
          ...(body.cvvPresent !== undefined ? { cvvPresent: body.cvvPresent } : {}),
          amount: body.transaction.amount,
          responseCode: body.transaction.responseCode ?? null,
          attemptCount: body.attemptCount ?? null,
          isMIT: body.isMIT,
          isRecurring: body.isRecurring,
        },
        signals,
      ),
      // A vaulted token's budget comes read; a card number's card may be new, so the workflow reads it.
      ...(tokenCard && sent === tokenCard
        ? { cardBudget: retryBudget(card.brand, deps.networkRegion, tokenCardDeclines, now.getTime()) }
        : {}),
    };
    const owner = { merchantId, partnerId: acting.partnerId, isTestMode: deps.environment === 'sandbox' };
    let result = await deps.workflows.evaluate(owner, externalOrderId, input);
    if (result === CLOSED) {
      const attempt = await newAttemptOn(deps, merchantId, externalOrderId, body.attemptCount);
      result = attempt
        ? await deps.workflows.evaluate(owner, externalOrderId, input, attempt)
        : await evaluateAfterUnevaluatedRun(deps, owner, externalOrderId, input);
    }
    if (result === CLOSED) return closedOrderEvaluate(deps, merchantId, body, sentCard);
    if (result.kind === 'rescue_unavailable') throw new OrderFailure({ reason: 'rescue_unavailable' });
    // Accepted: its retries may now wait behind evaluates (not awaited: a scheduling hint).
    if (flow === 'ASYNC_MIT' && result.outcome === 'SUBMITTED')
      void deps.acceptedRescues.lowerPriority(orderWorkflowId(merchantId, externalOrderId), merchantId);
    return {
      orderId: result.orderId,
      orderSessionKey: result.orderSessionKey,
      senseKey: body.senseKey ?? null,
      externalOrderId,
      outcome: result.outcome,
      status: result.status,
    };
  }
  return { hashed, reads, check, run };
}

/** What the checks found, for the run. */
interface Checked extends Omit<EvaluateRows, 'senseSession'> {
  signals: ReturnType<typeof judgeDeviceSignals>;
  declinedAt: Date;
}

/** Payer data is minimised before it is hashed or kept: a hash of the e-mail, the IP's network. */
function minimisedPayer(payer: { email?: string; ipAddress?: string }) {
  return {
    email: payer.email ? createHash('sha256').update(payer.email.trim().toLowerCase()).digest('hex') : undefined,
    ipAddress: payer.ipAddress,
  };
}
