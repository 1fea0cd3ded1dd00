import type { Knex } from 'knex';
import type { ChargeKind, ChargeState } from '../../domain/orders/charge-attempts';
import type { Flow } from '../../domain/orders/status';
import { allColumns, type Instant } from './columns';

/** A row of `charges`, the charges ledger: one processor call of an order (src/db/repositories/charges.ts). */
export interface ChargeRecord {
  /** Also the idempotency key the processor was sent. */
  id: string;
  order_id: string;
  merchant_id: string;
  external_order_id: string;
  kind: ChargeKind;
  attempt: number;
  amount: number;
  currency: string;
  state: ChargeState;
  /** What the processor answered: approved, declined, challenge_required, unavailable, done. */
  result: string | null;
  /** The network's response code of a decline (ISO 8583 field 39 style). */
  network_code: string | null;
  /** What the decline says of trying again (src/processors/port.ts, Advice). */
  advice: string | null;
  /** Mastercard's Merchant Advice Code of a decline (02, 03, 21, 24-30: docs/network-rules.md). */
  merchant_advice_code: string | null;
  /** The card's vault fingerprint (a charge's; one per card and merchant): the networks count retries by it. */
  card_fingerprint: string | null;
  /** When the attempt was made, on the workflow's clock (a charge's): the rolling counts' time. */
  attempted_at: Date | null;
  /** The processor's own decline code (Stripe's decline_code), for support. */
  processor_decline_code: string | null;
  /** The processor's id for what it did (authorization, capture, refund): what a reversal needs. */
  processor_reference: string | null;
  /** What a charge (sale, authorization) was sent with, to send it again under its key. */
  request: ChargeRequestRecord | null;
  created_at: Date;
  sent_at: Date | null;
  answered_at: Date | null;
  reversed_at: Date | null;
}

/** Every column of a ChargeRecord, for statements that name their result's (src/db/prepared.ts). */
export const CHARGE_COLUMNS = allColumns<ChargeRecord>()([
  'id',
  'order_id',
  'merchant_id',
  'external_order_id',
  'kind',
  'attempt',
  'amount',
  'currency',
  'state',
  'result',
  'network_code',
  'advice',
  'merchant_advice_code',
  'card_fingerprint',
  'attempted_at',
  'processor_decline_code',
  'processor_reference',
  'request',
  'created_at',
  'sent_at',
  'answered_at',
  'reversed_at',
]);

/** A charge's request as the ledger keeps it: tokens only, no card number (src/activities/processor.ts). */
export interface ChargeRequestRecord {
  cardToken: string;
  mode: 'sale' | 'authorize';
  flow: Flow;
  threeDSecure: Record<string, unknown> | null;
  challengeCompleted?: boolean;
}

type Timestamps = 'created_at' | 'sent_at' | 'answered_at' | 'reversed_at' | 'attempted_at';

export type ChargeInsert = Omit<ChargeRecord, Timestamps> & { created_at: Instant } & {
  [K in Exclude<Timestamps, 'created_at'>]?: Instant | null;
};

export type ChargesTable = Knex.CompositeTableType<ChargeRecord, ChargeInsert, Partial<ChargeInsert>>;
