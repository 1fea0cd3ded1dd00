import type { ApiProcessesTable } from './api-processes';
import type { IdempotencyKeysTable } from './idempotency-keys';
import type { OrderTransitionsTable } from './order-transitions';
import type { OrdersTable } from './orders';
import type { RefundsTable } from './refunds';

/**
 * The tables knex knows the rows of: `db('orders')` is typed from here (knex's Tables registry).
 * One file per table, its row as read and as written; a new column goes in with its migration.
 * Tables not listed here are still untyped (any rows).
 */
declare module 'knex/types/tables' {
  interface Tables {
    orders: OrdersTable;
    order_transitions: OrderTransitionsTable;
    refunds: RefundsTable;
    idempotency_keys: IdempotencyKeysTable;
    api_processes: ApiProcessesTable;
  }
}

export type { ApiProcessRecord } from './api-processes';
export type { IdempotencyKeyRecord } from './idempotency-keys';
export type { OrderTransitionRecord } from './order-transitions';
export type { OrderRecord } from './orders';
export type { RefundRecord } from './refunds';
