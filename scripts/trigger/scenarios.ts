import { randomUUID } from 'node:crypto';
import type { EventName } from '../../src/domain/webhooks/event-names';
import type { ApiAnswer, apiSession } from '../listen/api-session';

type Session = ReturnType<typeof apiSession>;

/** What a scenario works with: the merchant's session and, for some events, more credentials. */
export interface TriggerContext {
  merchant: Session;
  /** The partner's session (application events); throws a message for the user when unknown. */
  partner(): Session;
  /** A back-office call with the sandbox's operator token; throws when unknown. */
  admin(path: string, body?: unknown): Promise<ApiAnswer>;
  /** A challenge report (no bearer: the orderSessionKey authorizes it). */
  challenge(orderSessionKey: string, result: 'attempted' | 'passed' | 'failed'): Promise<ApiAnswer>;
  /** The merchant's id (from the credentials file, else the API key's own record). */
  mid(): Promise<string>;
  say(line: string): void;
}

/** Where the event will show: in whose feed, and which order or application it is about. */
export interface Triggered {
  feed: 'merchant' | 'partner';
  orderId?: string;
  applicationId?: string;
  /** How long the event may take to be recorded after the calls (an expiry waits for its window). */
  expectedWithinMs?: number;
}

interface Scenario {
  /** One line for --list: the real calls made. */
  how: string;
  run(ctx: TriggerContext): Promise<Triggered>;
}

/** Sandbox cards (docs/sandbox.md) each scenario relies on. */
const APPROVES = '4111111111111111';
const CHALLENGES = '4000000000003220';
const INSUFFICIENT_FUNDS = '4000000000009995';
/** An async MIT rescue whose window ends this soon expires (its first retry would be 1 min in). */
const EXPIRY_WINDOW_MS = 10_000;

/** A refusal or unexpected answer, said plainly: the call, the status and the error identifier. */
export class TriggerStepFailed extends Error {}

function expectStatus(answer: ApiAnswer, status: number, what: string): ApiAnswer {
  if (answer.status !== status) {
    const error = answer.body?.error;
    const detail = error ? `${error.id} ${error.name}: ${error.message}` : JSON.stringify(answer.body);
    throw new TriggerStepFailed(`${what} answered HTTP ${answer.status} (${detail})`);
  }
  return answer;
}

/** A sandbox evaluate: 15.00 USD declined with 51, retried on `card`; the outcome must be `outcome`. */
async function evaluate(
  ctx: TriggerContext,
  outcome: string,
  card: string,
  extra: Record<string, unknown> = {},
): Promise<{ orderId: string; orderSessionKey: string }> {
  const externalOrderId = `trigger-${Date.now()}-${randomUUID().slice(0, 8)}`;
  const answer = expectStatus(
    await ctx.merchant.call('POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId,
      transaction: { amount: 1500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: card, expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 5 },
      ...extra,
    }),
    200,
    'POST /v1/evaluate',
  );
  if (answer.body.outcome !== outcome) {
    throw new TriggerStepFailed(`POST /v1/evaluate answered ${answer.body.outcome}, not ${outcome}`);
  }
  ctx.say(`POST /v1/evaluate ${externalOrderId} -> ${outcome}, order ${answer.body.orderId}`);
  return { orderId: answer.body.orderId, orderSessionKey: answer.body.orderSessionKey };
}

const completedOrder = (ctx: TriggerContext) => evaluate(ctx, 'APPROVED', APPROVES);

/** AUTHORIZATION needs the merchant's authorize capability: turned on (and said) when off. */
async function authorizedOrder(ctx: TriggerContext) {
  const mid = await ctx.mid();
  const settings = expectStatus(
    await ctx.merchant.call('GET', `/v1/merchants/${mid}/settings`),
    200,
    'GET /v1/merchants/{mid}/settings',
  );
  if (settings.body.authorizeCapability !== true) {
    const path = `/v1/merchants/${mid}/settings`;
    expectStatus(await ctx.merchant.call('PUT', path, { authorizeCapability: true }), 200, `PUT ${path}`);
    ctx.say(`PUT ${path} { authorizeCapability: true } (AUTHORIZATION evaluates need it)`);
  }
  return evaluate(ctx, 'CAPTUREREQUIRED', APPROVES, { transactionType: 'AUTHORIZATION' });
}

async function challengedOrder(ctx: TriggerContext, result?: 'attempted' | 'passed' | 'failed'): Promise<Triggered> {
  const order = await evaluate(ctx, 'CHALLENGE', CHALLENGES);
  if (result) {
    const path = `/v1/challenges/{orderSessionKey}/${result}`;
    expectStatus(await ctx.challenge(order.orderSessionKey, result), 200, `POST ${path}`);
    ctx.say(`POST ${path} -> 200`);
  }
  return { feed: 'merchant', orderId: order.orderId };
}

async function dispute(ctx: TriggerContext, kind: 'chargebacks' | 'early-warnings') {
  const order = await completedOrder(ctx);
  const path = `/v1/admin/orders/${order.orderId}/${kind}`;
  const answer = expectStatus(await ctx.admin(path, { reason: 'Triggered by npm run trigger' }), 201, `POST ${path}`);
  ctx.say(`POST ${path} -> 201, ${answer.body.id}`);
  return { order, disputeId: answer.body.id as string };
}

/** A partner application moved along `steps` (partner calls, then the operators' decisions). */
async function application(
  ctx: TriggerContext,
  steps: Array<'submit' | 'cancel' | 'approve' | 'decline' | 'convert'>,
): Promise<Triggered> {
  const created = expectStatus(
    await ctx.partner().call('POST', '/v1/applications', {
      // Base 36: a 13-digit timestamp passes Luhn one time in ten, and names refuse card numbers.
      business: { legalName: `Trigger Test ${Date.now().toString(36)}`, contactEmail: 'trigger@example.com' },
    }),
    201,
    'POST /v1/applications',
  );
  const id = created.body.id as string;
  ctx.say(`POST /v1/applications -> 201, application ${id}`);
  for (const step of steps) {
    const byPartner = step === 'submit' || step === 'cancel';
    const path = byPartner ? `/v1/applications/${id}/${step}` : `/v1/admin/applications/${id}/${step}`;
    const answer = byPartner ? await ctx.partner().call('POST', path, {}) : await ctx.admin(path);
    expectStatus(answer, 200, `POST ${path}`);
    ctx.say(`POST ${path} -> ${answer.body.status}`);
  }
  return { feed: 'partner', applicationId: id };
}

/**
 * Each event and the real sandbox calls that make it happen (the interface's "Sandbox triggers",
 * docs/webhooks.md "Triggering events"). Nothing is written around the API: what a merchant's
 * integration would do produces the event, so it comes with real EventData.
 */
export const SCENARIOS: Record<EventName, Scenario> = {
  'order.completed': {
    how: 'CIT evaluate with the approving card',
    run: async (ctx) => ({ feed: 'merchant', orderId: (await completedOrder(ctx)).orderId }),
  },
  'order.refunded': {
    how: 'CIT evaluate with the approving card, then a full refund',
    run: async (ctx) => {
      const order = await completedOrder(ctx);
      const path = `/v1/orders/${order.orderId}/refund`;
      const refund = expectStatus(await ctx.merchant.call('POST', path, {}), 200, `POST ${path}`);
      ctx.say(`POST ${path} -> ${refund.body.orderStatusName}, transaction ${refund.body.transactionId}`);
      return { feed: 'merchant', orderId: order.orderId };
    },
  },
  'order.capturerequired': {
    how: 'AUTHORIZATION evaluate (turns on the authorize capability if off)',
    run: async (ctx) => ({ feed: 'merchant', orderId: (await authorizedOrder(ctx)).orderId }),
  },
  'order.cancelled': {
    how: 'AUTHORIZATION evaluate, then cancel with an empty body',
    run: async (ctx) => {
      const order = await authorizedOrder(ctx);
      const path = `/v1/orders/${order.orderId}/cancel`;
      expectStatus(await ctx.merchant.call('POST', path, {}), 200, `POST ${path}`);
      ctx.say(`POST ${path} -> 200`);
      return { feed: 'merchant', orderId: order.orderId };
    },
  },
  'order.expired': {
    how: `async MIT evaluate (insufficient-funds card) whose expiryDateUtc is ${EXPIRY_WINDOW_MS / 1000} s away`,
    run: async (ctx) => {
      const expiryDateUtc = new Date(Date.now() + EXPIRY_WINDOW_MS).toISOString();
      const order = await evaluate(ctx, 'SUBMITTED', INSUFFICIENT_FUNDS, { isMIT: true, expiryDateUtc });
      ctx.say(`the rescue window ends at ${expiryDateUtc}`);
      return { feed: 'merchant', orderId: order.orderId, expectedWithinMs: EXPIRY_WINDOW_MS };
    },
  },
  'challenge.presented': {
    how: 'CIT evaluate with the challenge card (the order then waits 15 min for a report)',
    run: (ctx) => challengedOrder(ctx),
  },
  'challenge.attempted': {
    how: 'CIT evaluate with the challenge card, then the challenge reports attempted',
    run: (ctx) => challengedOrder(ctx, 'attempted'),
  },
  'challenge.passed': {
    how: 'CIT evaluate with the challenge card, then the challenge reports passed (order.completed follows)',
    run: (ctx) => challengedOrder(ctx, 'passed'),
  },
  'challenge.failed': {
    how: 'CIT evaluate with the challenge card, then the challenge reports failed',
    run: (ctx) => challengedOrder(ctx, 'failed'),
  },
  'payment.chargeback.received': {
    how: 'approved CIT evaluate, then a chargeback through the back office (operator token)',
    run: async (ctx) => ({ feed: 'merchant', orderId: (await dispute(ctx, 'chargebacks')).order.orderId }),
  },
  'payment.chargeback.reversed': {
    how: 'approved CIT evaluate, a chargeback, then its reversal (operator token)',
    run: async (ctx) => {
      const { order, disputeId } = await dispute(ctx, 'chargebacks');
      const path = `/v1/admin/chargebacks/${disputeId}/reverse`;
      expectStatus(await ctx.admin(path), 200, `POST ${path}`);
      ctx.say(`POST ${path} -> 200`);
      return { feed: 'merchant', orderId: order.orderId };
    },
  },
  'payment.early_warning.received': {
    how: 'approved CIT evaluate, then an early warning through the back office (operator token)',
    run: async (ctx) => ({ feed: 'merchant', orderId: (await dispute(ctx, 'early-warnings')).order.orderId }),
  },
  'application.submitted': {
    how: 'partner creates an application and submits it',
    run: (ctx) => application(ctx, ['submit']),
  },
  'application.canceled': {
    how: 'partner creates an application and cancels it',
    run: (ctx) => application(ctx, ['cancel']),
  },
  'application.approved': {
    how: 'partner submits an application, an operator approves it',
    run: (ctx) => application(ctx, ['submit', 'approve']),
  },
  'application.declined': {
    how: 'partner submits an application, an operator declines it',
    run: (ctx) => application(ctx, ['submit', 'decline']),
  },
  'application.converted': {
    how: 'partner submits an application, an operator approves and converts it (a new sandbox merchant)',
    run: (ctx) => application(ctx, ['submit', 'approve', 'convert']),
  },
};
