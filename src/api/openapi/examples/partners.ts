import { tokenizationKeyWithKey } from './merchants';
import {
  APPLICATION_ID,
  APPROVING_MASTERCARD,
  CARD_TOKEN,
  CREATED_AT,
  DISPUTE_ID,
  MID,
  ORDER_ID,
  PID,
  SITE_ID,
  UPDATED_AT,
} from './values';

/** Examples of tokenization, challenges, applications and disputes (docs/compatibility.md, docs/webhooks.md). */
export const tokenizeRequest = {
  cardNumber: APPROVING_MASTERCARD.cardNumber,
  expiryMonth: 12,
  expiryYear: 2030,
  holderName: 'Ada Lovelace',
};
export const vaultedCard = {
  token: CARD_TOKEN,
  brand: APPROVING_MASTERCARD.brand,
  bin: APPROVING_MASTERCARD.bin,
  last4: APPROVING_MASTERCARD.last4,
  expiryMonth: 12,
  expiryYear: 2030,
};

export const challengeAnswer = { orderId: ORDER_ID, status: 7, statusName: 'Completed', outcome: 'APPROVED' };

const business = {
  legalName: 'Shop Example Ltd',
  contactEmail: 'owner@shop.example',
  website: 'https://shop.example',
  country: 'GB',
  siteOrigins: ['https://shop.example'],
};
export const applicationRequest = { business };
export const application = {
  id: APPLICATION_ID,
  pid: PID,
  status: 'DRAFT',
  business,
  mid: null,
  decisionReason: null,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};
export const submitted = { ...application, status: 'SUBMITTED', updatedAt: UPDATED_AT };
export const applicationList = { data: [submitted] };
export const decisionRequest = { reason: 'Documents checked' };
export const decided = {
  ...application,
  status: 'APPROVED',
  decisionReason: 'Documents checked',
  updatedAt: UPDATED_AT,
};
export const converted = {
  ...decided,
  status: 'CONVERTED',
  mid: MID,
  merchant: {
    mid: MID,
    site: {
      siteId: SITE_ID,
      mid: MID,
      name: 'shop.example',
      allowedOrigins: ['https://shop.example'],
      createdAt: UPDATED_AT,
    },
    tokenizationKey: { ...tokenizationKeyWithKey, createdAt: UPDATED_AT },
  },
};

export const disputeRequest = { reason: 'Fraudulent transaction (card not present)', amount: 2500 };
const disputeData = {
  DisputeDateTime: UPDATED_AT,
  Reason: disputeRequest.reason,
  TransactionId: '2d4f6a8c-0e2b-4d6f-8a1c-3e5a7c9e1b3d',
  InitialTransactionReference: null,
  Amount: 2500,
  Currency: 'USD',
};
export const dispute = {
  id: DISPUTE_ID,
  kind: 'chargeback',
  orderId: ORDER_ID,
  status: 'received',
  eventData: disputeData,
};
const { DisputeDateTime, ...warningData } = disputeData;
export const earlyWarning = {
  ...dispute,
  kind: 'early_warning',
  eventData: { WarningDateTime: DisputeDateTime, ...warningData, Reason: 'Issuer fraud report (TC40)' },
};
export const reversed = {
  id: DISPUTE_ID,
  kind: 'chargeback',
  status: 'reversed',
  eventData: { ...disputeData, ReversalDateTime: '2025-03-20T12:00:00.000Z' },
};
