import { z } from 'zod';
import { type EnvOf, optionalUrl } from './env';

/**
 * Traces (docs/deployment.md#traces): OpenTelemetry's own variable names. Without an endpoint no
 * tracing SDK is loaded or started at all.
 */

export const tracingEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_SERVICE_NAME: optionalUrl.pipe(z.string().max(200).optional()),
};

export interface TracingConfig {
  /** The OTLP/HTTP collector's base URL; spans go to its /v1/traces. Unset: tracing off. */
  otlpEndpoint: string | undefined;
  /** The service.name of this process's spans; unset: payment-rescue-api or payment-rescue-worker. */
  serviceName: string | undefined;
}

export function tracingSettings(e: EnvOf<typeof tracingEnv>): TracingConfig {
  return { otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME };
}
