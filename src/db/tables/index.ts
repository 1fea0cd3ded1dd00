import type { AccessTokensTable } from './access-tokens';
import type { ApiProcessesTable } from './api-processes';
import type { CardVaultTable } from './card-vault';
import type { ChargesTable } from './charges';
import type { DisputesTable } from './disputes';
import type { EventsTable } from './events';
import type { IdempotencyKeysTable } from './idempotency-keys';
import type { OrderTransitionsTable } from './order-transitions';
import type { OrdersTable } from './orders';
import type { RefundsTable } from './refunds';
import type { WorkerHeartbeatsTable } from './worker-heartbeats';

/**
 * The tables knex knows the rows of (knex's Tables registry): those of the order path and the
 * bearer tokens, the outbox and the worker heartbeats, so `db('orders')` is typed. One file per table, its row as read and as written;
 * a new column goes in with its migration. Tables not listed here are still untyped (any rows).
 */
declare module 'knex/types/tables' {
  interface Tables {
    orders: OrdersTable;
    order_transitions: OrderTransitionsTable;
    refunds: RefundsTable;
    idempotency_keys: IdempotencyKeysTable;
    api_processes: ApiProcessesTable;
    access_tokens: AccessTokensTable;
    card_vault: CardVaultTable;
    charges: ChargesTable;
    disputes: DisputesTable;
    events: EventsTable;
    worker_heartbeats: WorkerHeartbeatsTable;
  }
}

export type { AccessTokenRecord } from './access-tokens';
export type { ApiProcessRecord } from './api-processes';
export type { CardVaultRecord } from './card-vault';
export type { ChargeRecord } from './charges';
export type { DisputeRecord } from './disputes';
export type { EventRecord } from './events';
export type { IdempotencyKeyRecord } from './idempotency-keys';
export type { OrderTransitionRecord } from './order-transitions';
export type { OrderRecord } from './orders';
export type { RefundRecord } from './refunds';
export type { WorkerHeartbeatRecord } from './worker-heartbeats';
