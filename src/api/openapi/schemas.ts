import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorName } from '../../domain/errors';
import { SCOPES } from '../../domain/scopes';

/**
 * The response bodies the reference documents, in one place. The handlers build these bodies
 * (src/api/order-answers.ts, src/db/repositories/*View); these schemas describe them for readers
 * and generated clients (loose objects: a field added later does not break a client).
 */
const uuid = z.uuid();
export const instant = z.iso.datetime({ offset: true });
const nullableInstant = instant.nullable();

export const errorBody = z
  .object({
    title: z.string().describe('The message (what FlexCharge clients read).'),
    TraceId: z.string().describe('The request id, also in the x-request-id header.'),
    responseMessage: z.string().optional().describe('Refusals by the order state (409004-409008).'),
    error: z.looseObject({
      id: z
        .string()
        .regex(/^\d{6}$/)
        .describe('Six digits: the HTTP status, then three naming the error.'),
      name: z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorName, ...ErrorName[]]),
      message: z.string(),
      field: z.string().optional().describe('The request field at fault (dotted path).'),
      problems: z
        .array(z.object({ field: z.string(), message: z.string() }))
        .optional()
        .describe('Every validation problem at once (400002).'),
      doc_url: z
        .string()
        .describe("The error's row on the API's error page (`/docs/errors#<id>`, relative to the API)."),
      requestId: z.string(),
    }),
  })
  .meta({ id: 'Error', description: 'The one error shape (docs/errors.md).' });

export const oauthErrorBody = z
  .object({
    error: z.string(),
    error_description: z.string(),
    id: z.string().regex(/^\d{6}$/),
    name: z.string(),
    field: z.string().optional(),
    error_uri: z.string().describe("The error's row on the API's error page, relative to the API (RFC 6749)."),
    doc_url: z.string().describe('The same link, named as in the other errors.'),
    requestId: z.string(),
  })
  .meta({ id: 'OAuthError', description: 'The token endpoint keeps the RFC 6749 shape, plus our identifier.' });

const outcome = z.enum(['APPROVED', 'DECLINED', 'CHALLENGE', 'SUBMITTED', 'CAPTUREREQUIRED']);

/** commandAnswer (src/api/order-answers.ts): the envelope FlexCharge clients judge a command by. */
const commandEnvelope = {
  status: z.string().describe('The outcome word (APPROVED, DECLINED, ...).'),
  success: z.literal(true),
  result: z.literal('Success'),
  statusCode: z.null(),
  errors: z.array(z.unknown()),
  customProperties: z.record(z.string(), z.unknown()),
  orderStatus: z.number().int().describe("The order's status number."),
  orderStatusName: z.string().describe("The order's status name."),
};

export const evaluateAnswer = z
  .looseObject({
    orderId: uuid,
    orderSessionKey: uuid,
    senseKey: z.string().nullable(),
    externalOrderId: z.string(),
    outcome,
    ...commandEnvelope,
  })
  .meta({ id: 'EvaluateAnswer' });

export const refundAnswer = z
  .looseObject({
    orderId: uuid,
    orderSessionKey: uuid,
    transactionId: uuid,
    amount: z.number().int().describe('Minor units.'),
    refundedAmount: z.number().int().describe('Refunded total, minor units.'),
    currency: z.string(),
    ...commandEnvelope,
  })
  .meta({ id: 'RefundAnswer' });

export const order = z
  .looseObject({
    id: uuid,
    orderId: uuid,
    orderSessionKey: uuid
      .optional()
      .describe('Absent when read through a dashboard link: the key reports a challenge result (docs/dashboard.md).'),
    externalOrderId: z.string(),
    confirmationId: z.string().nullable(),
    senseKey: z.string().nullable(),
    status: z.number().int(),
    statusName: z.string(),
    outcome: z.string().nullable(),
    flow: z.string(),
    transactionType: z.enum(['SALE', 'AUTHORIZATION']),
    isMIT: z.boolean(),
    isRecurring: z.boolean(),
    isTestMode: z.boolean(),
    currency: z.string(),
    amounts: z.object({
      requested: z.number().int(),
      authorized: z.number().int().nullable(),
      captured: z.number().int().nullable(),
      refunded: z.number().int().nullable(),
    }),
    card: z.object({ brand: z.string().nullable(), last4: z.string().nullable() }),
    rescueWindowEndsAtUtc: nullableInstant,
    captureBeforeUtc: nullableInstant,
    scoring: z.object({
      score: z.number().nullable(),
      reasons: z.array(z.string()).nullable(),
      deviceSignalsUsed: z.boolean().nullable(),
    }),
    createdAtUtc: nullableInstant,
    updatedAtUtc: nullableInstant,
    completedAtUtc: nullableInstant,
    cancelledAtUtc: nullableInstant,
    expiredAtUtc: nullableInstant,
    attempts: z
      .array(
        z.object({
          attempt: z.number().int(),
          kind: z.enum(['sale', 'authorization', 'capture', 'void', 'reversal']),
          state: z.enum(['intent', 'sent', 'answered', 'reversed', 'unknown']),
          result: z.string().nullable(),
          networkCode: z.string().nullable(),
          advice: z.string().nullable(),
          createdAtUtc: instant,
          answeredAtUtc: nullableInstant,
        }),
      )
      .meta({ description: 'Every processor call of the order, from the charges ledger (docs/orders.md).' }),
    retryBudget: z
      .object({ used: z.number().int(), limit: z.number().int(), resetsAt: nullableInstant })
      .nullable()
      .optional()
      .meta({
        description:
          "GET /v1/orders/{id} (and POST /v1/outcome) only: the card's retry budget at the merchant across its orders (`used` declines of the binding network limit `limit`, the oldest leaving its window at `resetsAt`; docs/network-rules.md); null when the card is not in the vault.",
      }),
  })
  .meta({ id: 'Order', description: 'GET /v1/orders/{id}: `status` is the number, `statusName` the word.' });

export const captureAnswer = order
  .omit({ statusName: true })
  .extend(commandEnvelope)
  .meta({ id: 'CaptureAnswer', description: 'The order, with the command envelope (`status: "APPROVED"`).' });

export const accessToken = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    scope: z.string().describe(`Space-separated: ${SCOPES.join(', ')}.`),
  })
  .meta({ id: 'AccessToken' });

/** The token request; parsed by hand in src/api/routes/oauth-token.ts (form or JSON, or Basic auth). */
export const tokenRequest = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  scope: z.string().optional(),
});

export const webhookEndpoint = z
  .looseObject({
    id: uuid,
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    mid: uuid.nullable(),
    pid: uuid.nullable(),
    failingSince: nullableInstant,
    disabledAt: nullableInstant,
    disabledReason: z.string().nullable(),
    secretActivatesAt: nullableInstant.optional().describe('When a rotated secret starts signing.'),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'WebhookEndpoint' });
export const webhookEndpointWithSecret = webhookEndpoint
  .extend({ secret: z.string().describe('Base64 of 32 bytes; shown only on creation and rotation.') })
  .meta({ id: 'WebhookEndpointWithSecret' });
