import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const expiryMonth = z.number().int().min(1).max(12);
const expiryYear = z.number().int().min(2000).max(2099);

/** The card of an evaluate, normalised: a vault token, or a card number to vault. */
export type EvaluateCard =
  | { token: string; tokenField: 'paymentMethod.token' | 'paymentMethod.cardNumber'; cvvPresent: boolean }
  | { cardNumber: string; expiryMonth: number; expiryYear: number; cvvPresent: boolean };

/**
 * paymentMethod of an evaluate, in either dialect: a vault token (`token`, or `cardNumber` holding
 * one), or a card number with its expiry. The verification value leaves only as `cvvPresent`.
 */
export const paymentMethod = z
  .object({
    token: z.uuid('must be a token from /v1/tokenize').optional(),
    /** FlexCharge: true when cardNumber carries a vault token instead of a card number. */
    Token: z.boolean().optional(),
    cardNumber: z.string().max(64).optional(),
    expiryMonth: expiryMonth.optional(),
    expiryYear: expiryYear.optional(),
    expirationMonth: expiryMonth.optional(),
    expirationYear: expiryYear.optional(),
    holderName: z.string().max(100).optional(),
    verificationValue: z.union([z.string().max(8), z.number().int().nonnegative()]).optional(),
  })
  .transform((pm, ctx): EvaluateCard => {
    const cvvPresent = pm.verificationValue !== undefined && String(pm.verificationValue).trim() !== '';
    // A vault token sent as cardNumber: with Token:true (ActiveMerchant), or as a bare GUID (Node sample).
    const tokenInNumber = pm.cardNumber !== undefined && (pm.Token === true || UUID.test(pm.cardNumber.trim()));
    if (pm.token && pm.cardNumber) {
      ctx.addIssue({ code: 'custom', message: 'send either token or cardNumber, not both' });
      return z.NEVER;
    }
    if (pm.token) return { token: pm.token, tokenField: 'paymentMethod.token', cvvPresent };
    if (pm.cardNumber !== undefined && tokenInNumber) {
      const token = pm.cardNumber.trim();
      if (!UUID.test(token)) {
        ctx.addIssue({ code: 'custom', path: ['cardNumber'], message: 'must be a token from /v1/tokenize' });
        return z.NEVER;
      }
      return { token, tokenField: 'paymentMethod.cardNumber', cvvPresent };
    }
    if (pm.cardNumber === undefined) {
      ctx.addIssue({ code: 'custom', message: 'token or cardNumber is required' });
      return z.NEVER;
    }
    const month = pm.expiryMonth ?? pm.expirationMonth;
    const year = pm.expiryYear ?? pm.expirationYear;
    if (month === undefined || year === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [month === undefined ? 'expiryMonth' : 'expiryYear'],
        message: 'is required with cardNumber',
      });
      return z.NEVER;
    }
    return { cardNumber: pm.cardNumber, expiryMonth: month, expiryYear: year, cvvPresent };
  });
