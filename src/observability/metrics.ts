import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus registry (prom-client), one per process: the process metrics
 * (`process_*`, `nodejs_*`), the API's request metrics and the business counters below. Any
 * module adds its own counters with `counter(...)` / `histogram(...)`, which return the metric
 * already registered under that name, so a module loaded twice (tests, hot paths) never throws
 * "already registered". Names follow Prometheus conventions (`_total` counters, `_seconds`).
 * Served at `/metrics` on each process's METRICS_PORT (src/observability/http.ts;
 * docs/deployment.md#metrics). The worker's Temporal SDK metrics (`temporal_*`) come from the
 * SDK's own exporter and are appended there (src/observability/sdk-metrics.ts).
 */
export const registry = new Registry();
registry.setDefaultLabels({ service: 'payment-rescue' });
/**
 * How often the event-loop lag histogram samples (prom-client's default is every 10 ms). That
 * timer woke every process 100 times a second: 6 ms of CPU a second each, idle or not. Sampled
 * every 100 ms, the `nodejs_eventloop_lag_*` figures still show a loop stalled for longer (the
 * runbook alerts at a p99 of 0.5 s).
 */
const EVENT_LOOP_SAMPLE_MS = 100;
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });

export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  buckets?: number[],
): Histogram<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Histogram<L>;
  return new Histogram({ name, help, labelNames, registers: [registry], ...(buckets ? { buckets } : {}) });
}

export function gauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  collect?: (this: Gauge<L>) => Promise<void>,
): Gauge<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Gauge<L>;
  return new Gauge({ name, help, labelNames, registers: [registry], ...(collect ? { collect } : {}) });
}

/** API: every request, labelled by the router's route pattern (never the raw path), method and status. */
export const httpRequests = counter('http_requests_total', 'HTTP requests answered by the API.', [
  'method',
  'route',
  'status',
]);
export const httpRequestDuration = histogram(
  'http_request_duration_seconds',
  'Time the API took to answer, from the first middleware to the response.',
  ['method', 'route', 'status'],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);

/** Business counters (docs/runbook.md#metrics-and-alerts says what each means). */
export const evaluates = counter(
  'rescue_evaluates_total',
  'POST /v1/evaluate answers the use case gave (idempotent replays excluded), by outcome and flow.',
  ['outcome', 'flow'],
);
export const recoveredAmount = counter(
  'rescue_recovered_amount_total',
  'Amount recovered, in minor units of the currency: the captured amount of each order that reached Completed (every order is a declined payment), by currency and flow.',
  ['currency', 'flow'],
);
export const refunds = counter(
  'rescue_refunds_total',
  'Refunds, by result (succeeded, failed) and kind (full, partial).',
  ['result', 'kind'],
);
export const webhookAttempts = counter(
  'rescue_webhook_attempts_total',
  'Webhook delivery attempts, by result (delivered, failed, refused) and status class (2xx..5xx, network).',
  ['result', 'status_class'],
);
export const webhookDeliveriesFailed = counter(
  'rescue_webhook_deliveries_failed_total',
  'Webhook deliveries given up: every attempt of the retry schedule failed (the delivery is failed until resent).',
);
export const webhookEndpointsDisabled = counter(
  'rescue_webhook_endpoints_disabled_total',
  'Webhook endpoints disabled after failing for WEBHOOK_DISABLE_AFTER_HOURS.',
);
export const orderEvents = counter(
  'rescue_order_events_total',
  'Order events recorded (order.completed = a rescue or sale completed, order.expired = a rescue window ended unrescued, ...), by event and flow.',
  ['event', 'flow'],
);
export const orderTransitions = counter(
  'rescue_order_transitions_total',
  'Order status transitions written, by the status moved to (problem: an operator must look, docs/runbook.md) and flow.',
  ['to', 'flow'],
);
export const idempotencyOutcomes = counter(
  'rescue_idempotency_outcomes_total',
  'Idempotent requests by what the key store answered: replayed, in_flight (409), mismatch (409), unavailable (503).',
  ['outcome'],
);

/** Helpers for the call sites, so labels stay consistent (lower case, bounded sets). */
export const businessMetrics = {
  evaluate(outcome: string, flow: string): void {
    evaluates.inc({ outcome: outcome.toLowerCase(), flow: flow.toLowerCase() });
  },
  refund(result: 'succeeded' | 'failed', kind: 'full' | 'partial'): void {
    refunds.inc({ result, kind });
  },
  webhookAttempt(result: 'delivered' | 'failed' | 'refused', status: number | undefined): void {
    webhookAttempts.inc({ result, status_class: status ? `${Math.floor(status / 100)}xx` : 'network' });
  },
  orderEvent(event: string, flow: string): void {
    orderEvents.inc({ event, flow: flow.toLowerCase() });
  },
  recovered(amount: number, currency: string, flow: string): void {
    if (amount > 0) recoveredAmount.inc({ currency: currency.toUpperCase(), flow: flow.toLowerCase() }, amount);
  },
  webhookDeliveryFailed(): void {
    webhookDeliveriesFailed.inc();
  },
  orderTransition(to: string, flow: string): void {
    orderTransitions.inc({ to: to.toLowerCase(), flow: flow.toLowerCase() });
  },
  webhookEndpointDisabled(): void {
    webhookEndpointsDisabled.inc();
  },
  idempotency(outcome: 'replayed' | 'in_flight' | 'mismatch' | 'unavailable'): void {
    idempotencyOutcomes.inc({ outcome });
  },
};

/** The text exposition (`text/plain; version=0.0.4`) and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
