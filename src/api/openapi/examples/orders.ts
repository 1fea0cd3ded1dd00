import {
  APPROVING_CARD,
  CREATED_AT,
  IDEMPOTENCY_KEY,
  ORDER_ID,
  ORDER_SESSION_KEY,
  SENSE_KEY,
  UPDATED_AT,
} from './values';

/** Examples of docs/orders.md: one order, evaluated with the sandbox's approving Visa, captured, refunded. */
const envelope = { success: true, result: 'Success', statusCode: null, errors: [], customProperties: {} } as const;

export const evaluateRequest = {
  idempotencyKey: IDEMPOTENCY_KEY,
  externalOrderId: 'shop-1001',
  senseKey: SENSE_KEY,
  isDeclined: true,
  isMIT: false,
  transactionType: 'SALE',
  expiryDateUtc: '2025-03-21T09:26:53Z',
  transaction: { amount: 2500, currency: 'USD', responseCode: '51', declinedAtUtc: '2025-03-14T09:26:50Z' },
  paymentMethod: {
    cardNumber: APPROVING_CARD.cardNumber,
    expiryMonth: 12,
    expiryYear: 2030,
    holderName: 'Ada Lovelace',
    verificationValue: '123',
  },
  payer: { email: 'ada@example.com', ipAddress: '203.0.113.7' },
};

export const evaluateAnswer = {
  orderId: ORDER_ID,
  orderSessionKey: ORDER_SESSION_KEY,
  senseKey: SENSE_KEY,
  externalOrderId: 'shop-1001',
  outcome: 'APPROVED',
  status: 'APPROVED',
  orderStatus: 7,
  orderStatusName: 'SUCCESS',
  ...envelope,
};

export const order = {
  id: ORDER_ID,
  orderId: ORDER_ID,
  orderSessionKey: ORDER_SESSION_KEY,
  externalOrderId: 'shop-1001',
  confirmationId: 'PRS-7Q4K2M9X',
  senseKey: SENSE_KEY,
  status: 7,
  statusName: 'SUCCESS',
  outcome: 'APPROVED',
  flow: 'CIT',
  transactionType: 'SALE',
  isMIT: false,
  isRecurring: false,
  isTestMode: true,
  currency: 'USD',
  amounts: { requested: 2500, authorized: 2500, captured: 2500, refunded: 0 },
  card: { brand: APPROVING_CARD.brand, last4: APPROVING_CARD.last4 },
  rescueWindowEndsAtUtc: null,
  captureBeforeUtc: null,
  scoring: {
    score: 55,
    reasons: ['insufficient_funds:-5', 'low_amount:+5', 'device_signals:+5'],
    deviceSignalsUsed: true,
  },
  createdAtUtc: CREATED_AT,
  updatedAtUtc: UPDATED_AT,
  completedAtUtc: UPDATED_AT,
  cancelledAtUtc: null,
  expiredAtUtc: null,
  attempts: [
    {
      attempt: 1,
      kind: 'sale',
      state: 'answered',
      result: 'approved',
      networkCode: null,
      advice: null,
      createdAtUtc: UPDATED_AT,
      answeredAtUtc: UPDATED_AT,
    },
  ],
};

/** GET /v1/orders/{id}: the order with its card's retry budget (docs/network-rules.md). */
export const orderLookup = {
  ...order,
  retryBudget: { used: 1, limit: 15, resetsAt: '2026-12-21T09:14:03.000Z' },
};

export const captureRequest = {
  idempotencyKey: '7e9a1c3b-5d2f-4e8a-b6c4-2d0f8e6a4c19',
  orderId: ORDER_ID,
  amount: 2500,
  currency: 'USD',
};

const { statusName: _word, ...orderWithoutWord } = order;
export const captureAnswer = {
  ...orderWithoutWord,
  ...envelope,
  status: 'APPROVED',
  orderStatus: 7,
  orderStatusName: 'SUCCESS',
};

export const cancelRequest = { idempotencyKey: '3b5d7f9a-1c2e-4a4b-8c6d-8e0f2a4b6c8d' };

export const refundRequest = {
  idempotencyKey: '9c1e3a5b-7d9f-4b2d-a4e6-0f8b2d4f6a8c',
  amountToRefund: 1000,
  isPartialRefund: true,
};

export const refundAnswer = {
  orderId: ORDER_ID,
  orderSessionKey: ORDER_SESSION_KEY,
  transactionId: '2d4f6a8c-0e2b-4d6f-8a1c-3e5a7c9e1b3d',
  amount: 1000,
  refundedAmount: 1000,
  currency: 'USD',
  status: 'APPROVED',
  orderStatus: 7,
  orderStatusName: 'SUCCESS',
  ...envelope,
};

export const outcomeRequest = { orderId: ORDER_ID };
