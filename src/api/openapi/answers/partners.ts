import { z } from 'zod';
import { APPLICATION_STATUSES } from '../../../domain/applications';
import { EVENT_DATA } from '../webhooks';
import { tokenizationKeyWithKey } from './keys';
import { site } from './merchants';

/**
 * Tokenization, challenges, partner applications and disputes as the routes answer them
 * (src/api/routes/tokenize.ts, challenges.ts, applications.ts, admin.ts).
 */
const uuid = z.uuid();
const instant = z.iso.datetime({ offset: true });
const brand = z.enum(['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb']);

export const vaultedCard = z
  .looseObject({
    token: z.string().describe('Send it as `paymentMethod.token` (or `card.token`) to POST /v1/evaluate.'),
    brand,
    bin: z.string().describe('The first six digits.'),
    last4: z.string(),
    expiryMonth: z.number().int(),
    expiryYear: z.number().int(),
  })
  .meta({ id: 'VaultedCard' });

/** The answer to Spreedly's dialect: ActiveMerchant reads `transaction.payment_method.token`. */
export const spreedlyVaultedCard = z
  .looseObject({
    transaction: z.looseObject({
      succeeded: z.literal(true),
      on_test_gateway: z.boolean(),
      created_at: instant,
      updated_at: instant,
      payment_method_added: z.literal(true),
      payment_method: z.looseObject({
        token: z.string(),
        created_at: instant,
        updated_at: instant,
        test: z.boolean(),
        last_four_digits: z.string(),
        first_six_digits: z.string(),
        card_type: brand,
        first_name: z.string().nullable(),
        last_name: z.string().nullable(),
        month: z.number().int(),
        year: z.number().int(),
        payment_method_type: z.literal('credit_card'),
        verification_value: z.null(),
        number: z.null(),
      }),
    }),
    success: z.literal(true),
    result: z.null(),
    status: z.null(),
    statusCode: z.null(),
    errors: z.array(z.unknown()),
    customProperties: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'SpreedlyVaultedCard' });

export const tokenizeAnswer = z.union([vaultedCard, spreedlyVaultedCard]);

export const challengeAnswer = z
  .looseObject({
    orderId: uuid,
    status: z.number().int().describe("The order's status number."),
    statusName: z.string(),
    outcome: z.string().nullable(),
  })
  .meta({ id: 'ChallengeAnswer' });

export const application = z
  .looseObject({
    id: uuid,
    pid: uuid,
    status: z.enum(APPLICATION_STATUSES),
    business: z.looseObject({
      legalName: z.string(),
      contactEmail: z.string(),
      website: z.string().optional(),
      country: z.string().optional(),
      siteOrigins: z.array(z.string()).optional(),
    }),
    mid: uuid.nullable().describe('Set on conversion.'),
    decisionReason: z.string().nullable(),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'Application', description: 'docs/webhooks.md#partner-applications.' });

export const applicationList = z.object({ data: z.array(application) }).meta({ id: 'ApplicationList' });

export const convertedApplication = application
  .extend({ merchant: z.looseObject({ mid: uuid, site, tokenizationKey: tokenizationKeyWithKey }) })
  .meta({
    id: 'ConvertedApplication',
    description: "The application, and this once the new merchant's site and tokenization key (with `key`).",
  });

export const dispute = z
  .looseObject({
    id: uuid,
    kind: z.enum(['chargeback', 'early_warning']),
    orderId: uuid.optional(),
    status: z.enum(['received', 'reversed']),
    eventData: z.union([
      EVENT_DATA['payment.chargeback.received'],
      EVENT_DATA['payment.chargeback.reversed'],
      EVENT_DATA['payment.early_warning.received'],
    ]),
  })
  .meta({ id: 'Dispute' });
