import { z } from 'zod';
import { idempotencyKeyField } from '../ids';
import { isCurrency } from '../money';
import { paymentMethod } from './evaluate-card';

export type { EvaluateCard } from './evaluate-card';

/**
 * The body of POST /v1/evaluate: the interface's fields exactly as named, ours where it says
 * "other request fields: not shown" (docs/orders.md), and the FlexCharge dialect that
 * ActiveMerchant's gateway and the vendor's Node sample send (docs/compatibility.md). Both
 * dialects are parsed here and normalised by zod transforms into one internal shape,
 * `EvaluateRequest`, so the use case never sees which dialect the merchant spoke.
 *
 * - `null` is absent on every optional field, at any depth (the real clients send `null`).
 * - The card's verification value (CVV) leaves this parser only as `cvvPresent`: the value is
 *   never stored, logged, hashed into idempotency records or put in a workflow (PCI DSS).
 * - Unknown fields (`Source`, `ExtraData`, `orderItems`, `billingInformation`, ...) are accepted
 *   and dropped: personal data the service does not need is not kept.
 */
/** From 1970 on: a year-0000 instant, which the format allows, has no Postgres timestamp to be stored as. */
const isoUtc = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 UTC timestamp' })
  // Only a well-formed one is judged here (NaN passes): the format's own issue is the one reported.
  .refine((v) => !(Date.parse(v) < 0), { message: 'must be an ISO 8601 UTC timestamp from 1970 on' });
/** An externalOrderId as evaluate takes it: trimmed, 1 to 200 characters. */
export const orderRef = z.string().trim().min(1).max(200);
/** RFC 7231 HTTP-date (`Date#toUTCString`), as the vendor's Node sample writes expiryDateUtc. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * A copy without the `null` members of objects, at any depth (array elements are kept): the
 * FlexCharge clients send null for "absent". Iterative, so no nesting can exhaust the stack (the
 * body parser already caps it, json-structure.ts). Each object or array is copied into the slot
 * its parent's copy holds; Object.fromEntries keeps a `__proto__` key an own property.
 */
export function withoutNulls(value: unknown): unknown {
  const root: Record<string, unknown> = { value };
  const slots: Array<[Record<string, unknown>, string]> = [[root, 'value']];
  for (let slot = slots.pop(); slot; slot = slots.pop()) {
    const [holder, key] = slot;
    const current = holder[key];
    if (current === null || typeof current !== 'object') continue;
    const copy = (
      Array.isArray(current) ? [...current] : Object.fromEntries(Object.entries(current).filter(([, v]) => v !== null))
    ) as Record<string, unknown>;
    holder[key] = copy;
    for (const child of Object.keys(copy)) slots.push([copy, child]);
  }
  return root.value;
}

/** `SALE` or `AUTHORIZATION`: ours, or the FlexCharge words `Purchase` / `Authorization` in any case. */
const transactionType = z.string().transform((word, ctx) => {
  const upper = word.trim().toUpperCase();
  if (upper === 'SALE' || upper === 'PURCHASE') return 'SALE' as const;
  if (upper === 'AUTHORIZATION' || upper === 'AUTHORIZE') return 'AUTHORIZATION' as const;
  ctx.addIssue({ code: 'custom', message: 'must be SALE (or Purchase) or AUTHORIZATION' });
  return z.NEVER;
});

const expiryDate = z.union([
  isoUtc,
  z
    .string()
    .regex(HTTP_DATE)
    .transform((s, ctx) => {
      const at = new Date(s);
      // Date rolls "31 Feb" over to March and gives NaN for "01 Foo" or hour 99: neither is the date sent.
      if (Number.isNaN(at.getTime()) || at.toUTCString().slice(5) !== s.slice(5)) {
        ctx.addIssue({ code: 'custom', message: 'must be a real date (ISO 8601 UTC or an HTTP date)' });
        return z.NEVER;
      }
      return at.toISOString();
    }),
]);

const payer = z
  .object({
    /** "NA" is FlexCharge's placeholder for "the merchant has no e-mail": absent. */
    email: z
      .string()
      .max(254)
      .transform((e) => (e.trim().toUpperCase() === 'NA' || e.trim() === '' ? undefined : e.trim()))
      .pipe(z.email().optional())
      .optional(),
    ipAddress: z.union([z.ipv4(), z.ipv6()]).optional(),
  })
  .transform((p) => ({
    ...(p.email !== undefined ? { email: p.email } : {}),
    ...(p.ipAddress !== undefined ? { ipAddress: p.ipAddress } : {}),
  }));

const code = z.string().trim().max(16);

const wire = z
  .object({
    idempotencyKey: idempotencyKeyField,
    externalOrderId: orderRef.optional(),
    /** The interface (and FlexCharge) call externalOrderId "orderId": accepted as an alias. */
    orderId: orderRef.optional(),
    senseKey: z.string().trim().max(100).optional(),
    /** FlexCharge: the merchant and site of the credential; checked against the token. */
    mid: z.uuid('must be your merchant id (MID)').optional(),
    siteId: z.uuid('must be a site id of your merchant').optional(),
    isDeclined: z.boolean().optional(),
    isMIT: z.boolean().default(false),
    isRecurring: z.boolean().default(false),
    expiryDateUtc: expiryDate.optional(),
    transactionType: transactionType.optional(),
    subscription: z.object({ intervalCount: z.number().int().min(1).max(366).default(1) }).optional(),
    attemptCount: z.number().int().min(1).max(1000).optional(),
    threeDSecure: z.record(z.string(), z.unknown()).optional(),
    transaction: z.object({
      amount: z.number().int('must be an integer in minor units').positive().max(100_000_000_000),
      currency: z.string().refine(isCurrency, 'must be an ISO 4217 currency code, such as USD'),
      responseCode: z.string().trim().min(1).max(8).optional(),
      declinedAtUtc: isoUtc.optional(),
      // FlexCharge descriptive fields: accepted, not used for the decision and not kept.
      id: z.string().max(200).optional(),
      timezoneUtcOffset: z.union([z.string().max(10), z.number().min(-24).max(24)]).optional(),
      responseCodeSource: code.optional(),
      avsResultCode: code.optional(),
      cvvResultCode: code.optional(),
      cavvResultCode: code.optional(),
      cardNotPresent: z.boolean().optional(),
    }),
    paymentMethod,
    payer: payer.optional(),
  })
  .refine((b) => Boolean(b.externalOrderId ?? b.orderId), {
    path: ['externalOrderId'],
    message: "is required (the merchant's order id; orderId is accepted too)",
    when: () => true, // listed with the other problems, not after them
  })
  .refine((b) => !(b.externalOrderId && b.orderId && b.externalOrderId !== b.orderId), {
    path: ['orderId'],
    message: 'differs from externalOrderId; send one of them',
    when: () => true,
  })
  .refine((b) => !(b.isMIT === true && b.isRecurring === true && !b.subscription), {
    path: ['subscription'],
    message: 'is required when isMIT and isRecurring are both true (subscription.intervalCount, default 1)',
    when: () => true,
  });

export const evaluateRequest = z.preprocess(
  withoutNulls,
  wire.transform((b) => {
    const { cvvPresent, ...card } = b.paymentMethod;
    return {
      idempotencyKey: b.idempotencyKey,
      externalOrderId: (b.externalOrderId ?? b.orderId) as string,
      senseKey: b.senseKey,
      mid: b.mid,
      siteId: b.siteId,
      isMIT: b.isMIT,
      isRecurring: b.isRecurring,
      expiryDateUtc: b.expiryDateUtc,
      transactionType: b.transactionType ?? ('SALE' as const),
      subscription: b.subscription,
      attemptCount: b.attemptCount,
      threeDSecure: b.threeDSecure,
      transaction: {
        amount: b.transaction.amount,
        currency: b.transaction.currency,
        responseCode: b.transaction.responseCode,
        declinedAtUtc: b.transaction.declinedAtUtc,
      },
      paymentMethod: card,
      /** Whether a card verification value came with the request: a signal, never the value. */
      cvvPresent,
      payer: b.payer,
    };
  }),
);

export type EvaluateRequest = z.output<typeof evaluateRequest>;
