import type { SiteRow } from '../db/repositories/sites';
import type { Principal } from '../domain/scopes';
import type { WidgetBatch } from '../domain/widget-signals';

/**
 * What the API's middleware puts on `ctx.state`, typed once for every handler: Koa's DefaultState
 * is extended below, so no handler casts `ctx.state.x as Y`.
 */
export interface ApiState {
  /** Set first (middleware/request-id.ts): every answer and log line carries it. */
  requestId: string;
  /** The bearer's principal (middleware/authenticate.ts); read it with principalOf. */
  principal?: Principal;
  /** The merchant of a request without a bearer (tokenize's key, a challenge's order): limits and logs. */
  merchantId?: string;
  /** The order a request concerns, for the access log. */
  orderId?: string;
  /** A refund's kind as the route decided it (the amount against the captured): its metric's label. */
  refundKind?: 'full' | 'partial';
  /** The order reference /v1/outcome was sent, for its handler (never logged). */
  orderReference?: string;
  /** The widget's site, checked by middleware/site-cors.ts. */
  site?: SiteRow;
  /** The widget's parsed signals batch. */
  batch?: WidgetBatch;
}

declare module 'koa' {
  interface DefaultState extends ApiState {}
}

/**
 * A state field that an earlier middleware of the same route sets. Missing, the route is wired
 * wrongly: a 500 (internal_error), never a guess.
 */
export function stateOf<K extends keyof ApiState>(state: ApiState, key: K): NonNullable<ApiState[K]> {
  const value = state[key];
  if (value === undefined || value === null) throw new Error(`ctx.state.${key} is not set on this route`);
  return value;
}
