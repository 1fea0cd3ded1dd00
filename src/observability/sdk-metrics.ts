import { createServer } from 'node:net';
import type { MetricsSource } from './http';

/** How long a scrape waits on the SDK's exporter before serving the process's own series alone. */
const SDK_SCRAPE_DEADLINE_MS = 2_000;

/**
 * The Temporal SDK exports the worker's own metrics (`temporal_*`: task slots, polls,
 * schedule-to-start latency) through a Prometheus endpoint of its own, run by the SDK's core on
 * its own threads. The worker serves them on its METRICS_PORT beside its counters: the exporter
 * listens where TEMPORAL_METRICS_BIND_ADDRESS says (also reachable there), or, when only
 * METRICS_PORT is set, on a free loopback port nobody else sees. Undefined: no SDK metrics.
 */
export async function sdkMetricsAddress(
  bindAddress: string | undefined,
  metricsPort: number | undefined,
): Promise<string | undefined> {
  if (bindAddress) return bindAddress;
  return metricsPort === undefined ? undefined : `127.0.0.1:${await freeLoopbackPort()}`;
}

/** Reads the SDK exporter at `bindAddress` (host:port), for startMetricsServer's `more`. */
export function sdkMetricsSource(bindAddress: string): MetricsSource {
  const at = bindAddress.lastIndexOf(':');
  const host = bindAddress.slice(0, at);
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bindAddress.slice(at + 1)}/metrics`;
  return async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(SDK_SCRAPE_DEADLINE_MS) });
    if (!res.ok) throw new Error(`the SDK's metrics exporter answered ${res.status}`);
    return res.text();
  };
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
