import type { ClientInterceptors } from '@temporalio/client';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import { activeTracing } from './tracing';

/**
 * Temporal's OpenTelemetry interceptors (@temporalio/interceptors-opentelemetry): the client puts
 * the caller's trace context in the headers of a start, Update or signal; the workflow and its
 * activities continue that trace (docs/deployment.md#traces).
 *
 * The workflow's interceptors run in its sandbox, so they are bundled with the workflows
 * (bundleWorkflowCode's workflowInterceptorModules), and only while tracing is on: they make a
 * span of every run, Update, activity and timer even when nothing exports it: about a third of an
 * `npm start` worker's CPU per async MIT evaluate (docs/benchmarks.md). Spans travel in headers,
 * never in commands, so a history replays the same with or without them, either way round
 * (test/workflows/replay.test.ts): tracing can be turned on or off under running orders.
 */
export const WORKFLOW_INTERCEPTOR_MODULES: string[] = [
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
];

/** The workflow interceptor modules of this process's bundle: tracing's while it is on, else none. */
export function workflowInterceptorModules(traced = activeTracing() !== undefined): string[] {
  return traced ? WORKFLOW_INTERCEPTOR_MODULES : [];
}

type ExporterSink = InjectedSinks<import('@temporalio/interceptors-opentelemetry').OpenTelemetrySinks>;

const discardWorkflowSpans: ExporterSink = { exporter: { export: { fn: () => undefined } } };

/** The client's interceptors: the trace context into Temporal; none while tracing is off. */
export function clientTracingInterceptors(): ClientInterceptors | undefined {
  if (!activeTracing()) return undefined;
  const { OpenTelemetryWorkflowClientInterceptor } =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/**
 * The sink the workflow interceptors export through: into this process's span processor, or
 * nowhere while tracing is off (a bundle built with them, such as the traced replay's, still finds
 * it). Replay workers take it too (replayed spans are not exported).
 */
export function workflowSpanSinks(): ExporterSink {
  const tracing = activeTracing();
  if (!tracing) return discardWorkflowSpans;
  const { makeWorkflowExporter } =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  return { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) };
}

/** The worker's tracing options: activity spans (and trace ids in their logs), workflow spans' sink. */
export function workerTracingOptions(): { interceptors: WorkerInterceptors; sinks: ExporterSink } {
  if (!activeTracing()) return { interceptors: {}, sinks: workflowSpanSinks() };
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: workflowSpanSinks(),
  };
}
