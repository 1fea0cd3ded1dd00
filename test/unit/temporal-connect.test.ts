import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { temporalConnectionSecurity } from '../../src/temporal/connect';

/** TLS and API-key options from Temporal's environment-configuration names (docs/deployment.md). */
describe('Temporal connection security from the environment', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
  const file = (name: string, content: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, content);
    return p;
  };
  const crt = file('client.crt', 'CERT');
  const key = file('client.key', 'KEY');
  const ca = file('ca.crt', 'CA');
  const security = (env: Record<string, string>) => temporalConnectionSecurity(loadConfig(env).temporal.security);

  it('is plain gRPC when nothing is set (the dev server)', () => {
    expect(security({})).toEqual({});
  });

  it('an API key turns TLS on (Temporal Cloud), unless TEMPORAL_TLS=false', () => {
    expect(security({ TEMPORAL_API_KEY: 'k-123' })).toEqual({ apiKey: 'k-123', tls: true });
    expect(security({ TEMPORAL_API_KEY: 'k-123', TEMPORAL_TLS: 'false' })).toEqual({ apiKey: 'k-123' });
  });

  it('mTLS: the client pair, the server CA and the server name, read from their files', () => {
    const options = security({
      TEMPORAL_TLS_CLIENT_CERT_PATH: crt,
      TEMPORAL_TLS_CLIENT_KEY_PATH: key,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca,
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    expect(options.apiKey).toBeUndefined();
    expect(options.tls).toEqual({
      clientCertPair: { crt: Buffer.from('CERT'), key: Buffer.from('KEY') },
      serverRootCACertificate: Buffer.from('CA'),
      serverNameOverride: 'temporal.internal',
    });
    expect(security({ TEMPORAL_TLS: 'true' })).toEqual({ tls: true });
  });

  it('refuses a certificate without its key, and names a file it cannot read', () => {
    expect(() => loadConfig({ TEMPORAL_TLS_CLIENT_CERT_PATH: crt })).toThrow(ConfigError);
    expect(() => security({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(dir, 'missing.pem') })).toThrow(
      /TEMPORAL_TLS_SERVER_CA_CERT_PATH=.*missing\.pem/,
    );
  });

  it('validates the worker metrics address and the metrics token', () => {
    expect(loadConfig({ TEMPORAL_METRICS_BIND_ADDRESS: '0.0.0.0:9464' }).temporal.metricsBindAddress).toBe(
      '0.0.0.0:9464',
    );
    expect(() => loadConfig({ TEMPORAL_METRICS_BIND_ADDRESS: '9464' })).toThrow(/TEMPORAL_METRICS_BIND_ADDRESS/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({}).migrateOnStart).toBe(false);
    expect(loadConfig({ MIGRATE_ON_START: 'true' }).migrateOnStart).toBe(true);
  });
});
