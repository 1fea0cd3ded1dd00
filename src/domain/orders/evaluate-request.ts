import { z } from 'zod';
import { isCurrency } from '../money';

/**
 * The body of POST /v1/evaluate: the interface's fields exactly as named, and ours where it says
 * "other request fields: not shown" (docs/orders.md). Unknown fields are accepted and ignored.
 */
const isoUtc = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 UTC timestamp' });
const orderRef = z.string().trim().min(1).max(200);

export const evaluateRequest = z
  .object({
    idempotencyKey: z.uuid('must be a GUID'),
    externalOrderId: orderRef.optional(),
    /** The interface calls externalOrderId "orderId" in places: accepted as an alias. */
    orderId: orderRef.optional(),
    senseKey: z.string().trim().max(100).nullish(),
    isMIT: z.boolean().default(false),
    isRecurring: z.boolean().default(false),
    expiryDateUtc: isoUtc.nullish(),
    transactionType: z.enum(['SALE', 'AUTHORIZATION']).default('SALE'),
    subscription: z.object({ intervalCount: z.number().int().min(1).max(366).default(1) }).optional(),
    attemptCount: z.number().int().min(1).max(1000).optional(),
    threeDSecure: z.record(z.string(), z.unknown()).nullish(),
    transaction: z.object({
      amount: z.number().int('must be an integer in minor units').positive().max(100_000_000_000),
      currency: z.string().refine(isCurrency, 'must be an ISO 4217 currency code, such as USD'),
      responseCode: z.string().trim().min(1).max(8).optional(),
      declinedAtUtc: isoUtc.optional(),
    }),
    paymentMethod: z
      .object({
        token: z.uuid('must be a token from /v1/tokenize').optional(),
        cardNumber: z.string().max(32).optional(),
        expiryMonth: z.number().int().min(1).max(12).optional(),
        expiryYear: z.number().int().min(2000).max(2099).optional(),
        holderName: z.string().max(100).optional(),
      })
      .superRefine((pm, ctx) => {
        if (pm.token && pm.cardNumber)
          ctx.addIssue({ code: 'custom', message: 'send either token or cardNumber, not both' });
        else if (!pm.token && !pm.cardNumber)
          ctx.addIssue({ code: 'custom', message: 'token or cardNumber is required' });
        else if (pm.cardNumber && (pm.expiryMonth === undefined || pm.expiryYear === undefined)) {
          ctx.addIssue({
            code: 'custom',
            path: [pm.expiryMonth === undefined ? 'expiryMonth' : 'expiryYear'],
            message: 'is required with cardNumber',
          });
        }
      }),
    siteId: z.uuid().optional(),
    payer: z
      .object({ email: z.email().max(254).optional(), ipAddress: z.union([z.ipv4(), z.ipv6()]).optional() })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.externalOrderId && !body.orderId) {
      ctx.addIssue({ code: 'custom', path: ['externalOrderId'], message: 'is required (the merchant order id)' });
    } else if (body.externalOrderId && body.orderId && body.externalOrderId !== body.orderId) {
      ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'differs from externalOrderId; send one of them' });
    }
    if (body.isMIT && body.isRecurring && !body.subscription) {
      ctx.addIssue({
        code: 'custom',
        path: ['subscription'],
        message: 'is required when isMIT and isRecurring are both true',
      });
    }
  });

export type EvaluateRequest = z.infer<typeof evaluateRequest>;
