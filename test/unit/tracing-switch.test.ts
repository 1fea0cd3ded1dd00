import { trace } from '@opentelemetry/api';
import { ConfigError, loadConfig } from '../../src/config';
import {
  clientTracingInterceptors,
  WORKFLOW_INTERCEPTOR_MODULES,
  workerTracingOptions,
  workflowInterceptorModules,
  workflowSpanSinks,
} from '../../src/observability/temporal-tracing';
import { activeTracing, startTracing, stopTracing, tracesUrl } from '../../src/observability/tracing';

/** Traces are off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/deployment.md#traces). */
describe('the tracing switch', () => {
  afterEach(() => stopTracing());

  it('starts nothing without OTEL_EXPORTER_OTLP_ENDPOINT: no provider, no interceptors, no-op workflow sink', () => {
    for (const env of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }, { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }]) {
      const config = loadConfig(env);
      expect(config.tracing.otlpEndpoint).toBeUndefined();
      expect(startTracing(config.tracing, 'payment-rescue-api')).toBeUndefined();
    }
    expect(activeTracing()).toBeUndefined();
    // The API's global tracer is still the no-op one: spans record nothing, carry no trace id.
    const span = trace.getTracer('test').startSpan('anything');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toBe('00000000000000000000000000000000');
    span.end();
    expect(clientTracingInterceptors()).toBeUndefined();
    const worker = workerTracingOptions();
    expect(worker.interceptors).toEqual({});
    // The workflows are bundled without tracing's interceptors; a bundle with them (the traced
    // replay's) still finds their sink, which drops what they send.
    expect(workflowInterceptorModules()).toEqual([]);
    expect(worker.sinks.exporter.export.fn({} as never, [])).toBeUndefined();
    expect(worker.sinks).toBe(workflowSpanSinks());
  });

  it('starts a provider and the Temporal interceptors with an endpoint, once per process', () => {
    const discarding = workflowSpanSinks();
    const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SERVICE_NAME: 'rescue-x' });
    const tracing = startTracing(config.tracing, 'payment-rescue-api');
    expect(tracing).toBeDefined();
    expect(startTracing(config.tracing, 'payment-rescue-api')).toBe(tracing);
    expect(tracing?.resource.attributes['service.name']).toBe('rescue-x');
    const span = trace.getTracer('test').startSpan('recorded');
    expect(span.isRecording()).toBe(true);
    expect(clientTracingInterceptors()?.workflow).toHaveLength(1);
    expect(workerTracingOptions().interceptors.activity).toHaveLength(1);
    expect(workflowSpanSinks()).not.toBe(discarding); // the workflow's spans go to the processor
    expect(workflowInterceptorModules()).toEqual(WORKFLOW_INTERCEPTOR_MODULES); // bundled with the workflows
    span.end();
  });

  it('names the process by default, and posts to <endpoint>/v1/traces', () => {
    const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example:4318/' });
    expect(startTracing(config.tracing, 'payment-rescue-worker')?.resource.attributes['service.name']).toBe(
      'payment-rescue-worker',
    );
    expect(tracesUrl('https://collector.example:4318/')).toBe('https://collector.example:4318/v1/traces');
    expect(tracesUrl('http://otel:4318')).toBe('http://otel:4318/v1/traces');
  });

  it('rejects an endpoint that is not an http(s) URL', () => {
    for (const endpoint of ['collector:4318', 'grpc://collector:4317']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(ConfigError);
    }
  });
});
