/**
 * The first import of each process entry (src/api/server.ts, src/worker.ts): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, hooks the HTTP and pg modules before anything else loads them
 * (the instrumentations patch modules as they are required). Without it, this does nothing. The
 * endpoint is validated, and the provider started, with the rest of the configuration.
 */
import { registerInstrumentations } from './tracing';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) registerInstrumentations();
