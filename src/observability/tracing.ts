import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TracingConfig } from '../config';

/**
 * OpenTelemetry traces, exported over OTLP/HTTP (docs/deployment.md#traces). Off unless
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: then nothing here is even loaded (the SDK modules are
 * required inside startTracing), no provider is registered and every span is the API's no-op.
 *
 * The OpenTelemetry packages are the 1.x SDK line on purpose: @temporalio/interceptors-opentelemetry
 * builds the workflow's spans with it, and the exporter must read the spans in that shape.
 */

export interface Tracing {
  provider: NodeTracerProvider;
  /** Batches this process's spans to the OTLP endpoint; the workflow sandbox's spans too. */
  processor: SpanProcessor;
  resource: Resource;
}

let active: Tracing | undefined;

/** The running tracing of this process, or undefined when off. */
export function activeTracing(): Tracing | undefined {
  return active;
}

/** The OTLP/HTTP traces URL for a collector's base URL (the spec's `<endpoint>/v1/traces`). */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Hooks the HTTP and pg modules; done by src/observability/instrument.ts, the first import of
 * each process entry, so the hooks are in place before anything loads those modules. Their
 * spans record once startTracing has registered the provider.
 */
export function registerInstrumentations(): void {
  const { registerInstrumentations: register } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  register({
    instrumentations: [
      // Outgoing calls too (webhooks, processors); the exporter's own calls are left out by the SDK.
      // Their URLs without the query: a merchant's webhook URL may carry a token there.
      new HttpInstrumentation({ requestHook: withoutQuery }),
      // Statements without their parameters (the instrumentation's default): no card data in spans.
      new PgInstrumentation(),
    ],
  });
}

/** An outgoing request's span records its URL without the query string (incoming: trace-route.ts). */
export function withoutQuery(span: Span, request: ClientRequest | IncomingMessage): void {
  // Not `instanceof`: node:http stays unloaded here until the instrumentation hooks it.
  if (!('path' in request)) return; // an incoming request: its span is trace-route.ts's
  const path = request.path.split('?')[0] ?? '';
  span.setAttribute('http.target', path);
  span.setAttribute('http.url', `${request.protocol}//${request.host}${path}`);
}

/**
 * Starts this process's tracing when the configuration names an OTLP endpoint: a tracer provider
 * (W3C trace context, async-local context) batching spans to `<endpoint>/v1/traces`. Returns
 * undefined, having loaded nothing, when it does not. Once per process.
 */
export function startTracing(config: TracingConfig, defaultServiceName: string): Tracing | undefined {
  if (!config.otlpEndpoint) return undefined;
  if (active) return active;
  const { NodeTracerProvider: Provider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { Resource: ResourceClass } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const resource = ResourceClass.default().merge(
    new ResourceClass({ 'service.name': config.serviceName ?? defaultServiceName }),
  );
  const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(config.otlpEndpoint) }));
  const provider = new Provider({ resource, spanProcessors: [processor] });
  provider.register();
  active = { provider, processor, resource };
  return active;
}

/** Sends what is still batched and stops; for a process's orderly shutdown. */
export async function stopTracing(): Promise<void> {
  const tracing = active;
  active = undefined;
  // Spans are best effort: a collector that is down must not hold up or fail the shutdown.
  await tracing?.provider.shutdown().catch(() => undefined);
}
