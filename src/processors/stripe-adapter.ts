import Stripe from 'stripe';
import type { Logger } from '../logger';
import { type ChargeOutcome, type ChargeRequest, type ProcessorPort, ProcessorRefusal } from './port';
import type { StripeSettings } from './settings';
import { isStripeAuthorization, stripeAmount } from './stripe-amounts';
import { declineFromStripe } from './stripe-declines';

type StripeErrorLike = Error & {
  type?: string;
  /** The PaymentIntent in its state now, on an error about its state (payment_intent_unexpected_state). */
  payment_intent?: { status?: string };
  code?: string;
  decline_code?: string;
  advice_code?: string;
  network_decline_code?: string;
  network_advice_code?: string;
  requestId?: string;
};

/**
 * The Stripe adapter (docs/processors.md): one PaymentMethod from the vaulted card data, then one
 * PaymentIntent confirmed at once; `capture_method: manual` to authorize (AUTHORIZATION, Sync
 * MIT), `off_session` for merchant-initiated charges. Every call carries the activity's
 * idempotency key, so a re-run gets Stripe's first answer and never charges twice.
 *
 * Errors: a card_error is a decline; a request Stripe refuses (bad request, bad key, idempotency
 * conflict) is "unavailable" (nothing was charged, retrying the same request cannot help);
 * transport failures, rate limits and Stripe's own 5xx are thrown, so the activity is retried
 * with the same key.
 */
export function createStripeAdapter(settings: StripeSettings, logger?: Logger): ProcessorPort {
  const stripe = new Stripe(settings.apiSecret, {
    ...(settings.host ? { host: settings.host } : {}),
    ...(settings.port ? { port: settings.port } : {}),
    ...(settings.protocol ? { protocol: settings.protocol } : {}),
    timeout: settings.timeoutMs,
    // Temporal retries the activity with the same idempotency key; no second retry loop here.
    maxNetworkRetries: 0,
    appInfo: { name: 'payment-rescue-service' },
  });

  async function charge(request: ChargeRequest, manualCapture: boolean): Promise<ChargeOutcome> {
    const key = request.idempotencyKey;
    const amount = stripeAmount(request.amount, request.currency);
    if (amount === undefined) {
      // Refused here as Stripe would refuse it: nothing is sent, nothing charged.
      logger?.error({ processor: 'stripe', call: 'charge', idempotencyKey: key }, 'amount Stripe cannot take exactly');
      return { result: 'unavailable' };
    }
    let intent: Stripe.PaymentIntent;
    try {
      const paymentMethod = await stripe.paymentMethods.create(
        {
          type: 'card',
          card: { number: request.card.pan, exp_month: request.card.expiryMonth, exp_year: request.card.expiryYear },
        },
        { idempotencyKey: `${key}:payment-method` },
      );
      intent = await stripe.paymentIntents.create(
        {
          amount,
          currency: request.currency.toLowerCase(),
          payment_method: paymentMethod.id,
          allowed_payment_method_types: ['card'],
          confirm: true,
          capture_method: manualCapture ? 'manual' : 'automatic',
          // The cardholder is not present for a merchant-initiated charge: Stripe then declines
          // rather than asking for authentication it cannot get.
          ...(request.flow === 'CIT' ? {} : { off_session: true }),
          metadata: { attempt: key },
        },
        { idempotencyKey: key },
      );
    } catch (err) {
      return answerOf(err as StripeErrorLike, 'charge', key);
    }
    if (intent.status === 'processing') intent = await settledIntent(intent, key);
    return outcomeOf(intent);
  }

  /**
   * A PaymentIntent still `processing` may yet succeed: it is no "nothing was charged". Its state
   * is read afresh (the key's replay repeats the first answer); still processing, it is thrown, so
   * the activity is retried under the same key and, unanswered within its bound, settled later as
   * any unanswered charge (docs/processors.md). A failed read is thrown too: the intent exists.
   */
  async function settledIntent(intent: Stripe.PaymentIntent, key: string): Promise<Stripe.PaymentIntent> {
    const now = await stripe.paymentIntents.retrieve(intent.id);
    if (now.status !== 'processing') return now;
    logger?.warn({ processor: 'stripe', paymentIntent: intent.id, idempotencyKey: key }, 'charge still processing');
    throw new Error(`Stripe PaymentIntent ${intent.id} is still processing: its outcome is not known yet`);
  }

  function outcomeOf(intent: Stripe.PaymentIntent): ChargeOutcome {
    switch (intent.status) {
      case 'succeeded':
      case 'requires_capture':
        return { result: 'approved', authorizationId: intent.id };
      case 'requires_action':
        return { result: 'challenge_required' };
      case 'requires_payment_method': {
        // Confirmed and refused: the last error says why (a decline without one is "do not honour").
        const error = intent.last_payment_error;
        return declineFromStripe(error ?? { decline_code: 'generic_decline' });
      }
      default:
        // canceled, requires_confirmation: nothing was charged, and nothing will be.
        logger?.warn({ processor: 'stripe', paymentIntent: intent.id, status: intent.status }, 'unexpected state');
        return { result: 'unavailable' };
    }
  }

  function answerOf(err: StripeErrorLike, call: string, key: string): ChargeOutcome {
    const detail = { processor: 'stripe', call, idempotencyKey: key, type: err.type, code: err.code };
    if (err.type === 'StripeCardError') {
      const decline = declineFromStripe(err);
      logger?.info({ ...detail, declineCode: err.decline_code, adviceCode: err.advice_code }, 'card declined');
      return decline;
    }
    if (isTransient(err)) throw err;
    logger?.error({ ...detail, requestId: err.requestId }, 'Stripe refused the request');
    return { result: 'unavailable' };
  }

  /**
   * Capture, void and refund throw on every failure, so the activity is retried with the same key
   * until Stripe answers; a refusal (not worth the same request again) is logged as an error and
   * thrown as a ProcessorRefusal: the call then ends refused, never retried (a void of an
   * authorization cancelled already excepted: done; docs/processors.md, "Open points").
   */
  async function settle<T>(call: string, key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const e = err as StripeErrorLike;
      if (!(err instanceof AmountNotTaken) && isTransient(e)) throw err;
      // Our key refused (401, 403: rotated, revoked, too restricted) says nothing of this request:
      // retried until an operator fixes the key, never the processor's refusal.
      const ourKey = e.type === 'StripeAuthenticationError' || e.type === 'StripePermissionError';
      const detail = { processor: 'stripe', call, idempotencyKey: key, type: e.type, code: e.code };
      logger?.error(detail, ourKey ? 'Stripe refused our API key' : 'Stripe refused the request');
      if (ourKey) throw err;
      throw new ProcessorRefusal(`Stripe refused the ${call}`, err instanceof AmountNotTaken ? 'amount' : e.code);
    }
  }

  return {
    name: 'stripe',
    sale: (request) => charge(request, false),
    authorize: (request) => charge(request, true),
    capture: ({ idempotencyKey, authorizationId, amount, currency }) =>
      settle('capture', idempotencyKey, async () => {
        const intent = await stripe.paymentIntents.capture(
          authorizationId,
          { amount_to_capture: exactly(amount, currency) },
          { idempotencyKey },
        );
        const chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
        return { captureId: chargeId ?? intent.id };
      }),
    void: ({ idempotencyKey, authorizationId }) =>
      settle('void', idempotencyKey, async () => {
        try {
          await stripe.paymentIntents.cancel(authorizationId, {}, { idempotencyKey });
        } catch (err) {
          // Released already (Stripe lets an uncaptured authorization lapse after 7 days, or it was
          // cancelled at Stripe): what the void was for is done.
          if (!isCancelledAlready(err as StripeErrorLike)) throw err;
          logger?.info({ processor: 'stripe', call: 'void', idempotencyKey }, 'authorization already released');
        }
      }),
    refund: ({ refundId, authorizationId, amount, currency }) =>
      settle('refund', refundId, async () => {
        // A refund scheduled before refunds carried their currency: the PaymentIntent's own.
        const of = currency ?? (await stripe.paymentIntents.retrieve(authorizationId)).currency;
        const refund = await stripe.refunds.create(
          { payment_intent: authorizationId, amount: exactly(amount, of) },
          { idempotencyKey: refundId },
        );
        return { processorReference: refund.id };
      }),
    issued: isStripeAuthorization,
  };
}

/** An amount Stripe cannot take exactly: refused for good, as Stripe would (the API refuses it first). */
class AmountNotTaken extends Error {
  override name = 'AmountNotTaken';
}

/** Stripe's amount for a capture or refund; one it cannot take exactly is refused (thrown). */
function exactly(amount: number, currency: string): number {
  const scaled = stripeAmount(amount, currency);
  if (scaled === undefined)
    throw new AmountNotTaken(`Stripe cannot take ${amount} ${currency.toUpperCase()} minor units exactly`);
  return scaled;
}

/** A cancel refused because the PaymentIntent is cancelled already. */
function isCancelledAlready(err: StripeErrorLike): boolean {
  return err.code === 'payment_intent_unexpected_state' && err.payment_intent?.status === 'canceled';
}

/**
 * Worth the same request again: the network, Stripe's rate limit or Stripe's own failure; or a
 * 409 `idempotency_key_in_use`: an earlier try under this key (one cut off by its timeout) is
 * still running at Stripe, which saves no answer for the conflict and may yet charge.
 */
function isTransient(err: StripeErrorLike): boolean {
  return (
    err.code === 'idempotency_key_in_use' ||
    err.type === 'StripeConnectionError' ||
    err.type === 'StripeRateLimitError' ||
    err.type === 'StripeAPIError' ||
    !err.type?.startsWith('Stripe')
  );
}
