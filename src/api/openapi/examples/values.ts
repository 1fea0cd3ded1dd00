/**
 * The ids, instants and cards the reference's examples share, so that one example's answer is
 * the next one's request (evaluate's orderId is what capture and refund send). Cards are the
 * sandbox test cards of docs/sandbox.md.
 */
export const EXAMPLE_REQUEST_ID = '9a88b3c3-d5a7-4e42-91b8-6e0665a0566e';
export const MID = '3f1c2a9e-5b7d-4c2e-9a61-0d8e4b7f2c13';
export const PID = 'b6e0d1a4-2f3c-4e5d-8a9b-7c6d5e4f3a21';
export const SITE_ID = '7d2e9c41-8b3a-4f6e-a1d5-2c9b8e7f6a04';
export const ORDER_ID = 'c0a8e4f2-6d1b-4b7a-9e3c-5f2d1a0b9c87';
export const ORDER_SESSION_KEY = 'e4b1c7d9-3a2f-4c8e-b5d6-9f0a1e2b3c45';
export const IDEMPOTENCY_KEY = '5d3f8b2a-1c4e-4a6b-9d7f-0e2c4a6b8d1f';
export const SENSE_KEY = '2b7c9e1d-4f6a-4b8c-8d0e-1a3c5e7f9b24';
export const API_KEY_ID = 'a9d4e6f1-7b2c-4d8e-9f3a-4b5c6d7e8f90';
export const TOKENIZATION_KEY_ID = 'd8c7b6a5-4e3f-4a1b-9c2d-e1f0a9b8c7d6';
export const ENDPOINT_ID = '1e2d3c4b-5a69-4788-97a6-b5c4d3e2f1a0';
export const EVENT_ID = '6f5e4d3c-2b1a-4098-8f7e-6d5c4b3a2918';
export const DELIVERY_ID = '0a1b2c3d-4e5f-4607-8819-2a3b4c5d6e7f';
export const APPLICATION_ID = '4c3b2a19-0f8e-47d6-a5b4-c3d2e1f0a9b8';
export const DISPUTE_ID = '8e7d6c5b-4a39-4281-b0c9-d8e7f6a5b4c3';
export const CARD_TOKEN = 'f3e2d1c0-b9a8-4776-a5b4-c3d2e1f0a9b8';
export const CREATED_AT = '2025-03-14T09:26:53.589Z';
export const UPDATED_AT = '2025-03-14T09:27:02.114Z';
/** Sandbox: approves (docs/sandbox.md). */
export const APPROVING_CARD = { cardNumber: '4111111111111111', bin: '411111', last4: '1111', brand: 'visa' } as const;
/** Sandbox: Mastercard that approves (docs/sandbox.md). */
export const APPROVING_MASTERCARD = {
  cardNumber: '5454545454545454',
  bin: '545454',
  last4: '5454',
  brand: 'mastercard',
} as const;
