import { readFileSync } from 'node:fs';
import { Client, Connection, type TLSConfig } from '@temporalio/client';
import type { TemporalSecurity } from '../config';
import { clientTracingInterceptors } from '../observability/temporal-tracing';

/** What both the client's Connection and the worker's NativeConnection take for TLS and auth. */
export interface TemporalConnectionSecurity {
  tls?: TLSConfig | boolean;
  apiKey?: string;
}

/**
 * TLS and API-key options from the configuration (Temporal's own variable names: TEMPORAL_API_KEY,
 * TEMPORAL_TLS, TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH,
 * TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME). As in Temporal's environment
 * configuration, an API key turns TLS on unless TEMPORAL_TLS=false says otherwise; so does any
 * TLS file or a server name. The files are read once, here: a missing file stops start-up with
 * its variable's name rather than failing later at the first call.
 */
export function temporalConnectionSecurity(security: TemporalSecurity | undefined): TemporalConnectionSecurity {
  if (!security) return {};
  const read = (variable: string, file: string | undefined): Buffer | undefined => {
    if (!file) return undefined;
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`${variable}=${file}: cannot read it (${(err as Error).message})`);
    }
  };
  const crt = read('TEMPORAL_TLS_CLIENT_CERT_PATH', security.clientCertPath);
  const key = read('TEMPORAL_TLS_CLIENT_KEY_PATH', security.clientKeyPath);
  const ca = read('TEMPORAL_TLS_SERVER_CA_CERT_PATH', security.serverCaCertPath);
  const anyTlsSetting = Boolean(crt || ca || security.serverName);
  const tlsOn = security.tls ?? (anyTlsSetting || Boolean(security.apiKey));
  const result: TemporalConnectionSecurity = {};
  if (security.apiKey) result.apiKey = security.apiKey;
  if (tlsOn) {
    const tls: TLSConfig = {};
    if (crt && key) tls.clientCertPair = { crt, key };
    if (ca) tls.serverRootCACertificate = ca;
    if (security.serverName) tls.serverNameOverride = security.serverName;
    result.tls = Object.keys(tls).length ? tls : true;
  }
  return result;
}

/** The client-side connection used by the API (and by tests) to reach Temporal. */
export async function connectTemporalClient(
  address: string,
  namespace: string,
  security?: TemporalSecurity,
): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({
    address,
    connectTimeout: 10_000,
    ...temporalConnectionSecurity(security),
  });
  // With tracing on, each start, Update and signal carries the caller's trace context.
  return { connection, client: new Client({ connection, namespace, interceptors: clientTracingInterceptors() }) };
}

/** Waits until a Temporal frontend answers, up to timeoutMs. */
export async function waitForTemporal(address: string, timeoutMs: number, security?: TemporalSecurity): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({
        address,
        connectTimeout: 2_000,
        ...temporalConnectionSecurity(security),
      });
      try {
        await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Temporal at ${address} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}
