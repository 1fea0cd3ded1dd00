import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config';
import { ABANDONED_AFTER_MS } from '../../src/db/repositories/idempotency';

describe('configuration', () => {
  it('has working defaults: sandbox, port 3000, embedded Postgres and dev server', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      environment: 'sandbox',
      port: 3000,
      publicBaseUrl: 'http://127.0.0.1:3000',
      database: { url: undefined, embeddedPort: 54320 },
      temporal: {
        address: undefined,
        namespace: 'default',
        uiPort: 8233,
        devServerPort: 7233,
        workflowCacheSize: 1000,
      },
    });
  });

  it('reads the variables it documents', () => {
    const config = loadConfig({
      FC_ENVIRONMENT: 'production',
      CARD_VAULT_KEYS: `live-2:${Buffer.alloc(32, 7).toString('base64')}`,
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/rescue',
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_TASK_QUEUE: 'orders',
      WORKFLOW_CACHE_SIZE: '4000',
      PUBLIC_BASE_URL: 'https://api.example.com',
    });
    expect(config).toMatchObject({
      environment: 'production',
      port: 8080,
      publicBaseUrl: 'https://api.example.com',
      database: { url: 'postgres://u:p@db:5432/rescue' },
      temporal: { address: 'temporal:7233', taskQueue: 'orders', workflowCacheSize: 4000 },
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['FC_ENVIRONMENT', 'staging'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['WORKFLOW_CACHE_SIZE', '0'],
    ['HTTP_MAX_CONNECTIONS_PER_ADDRESS', '0'],
    ['WORKER_HEALTH_PORT', 'none'],
    ['WORKER_DEPLOYMENT_NAME', 'payment.rescue'],
    ['WORKER_BUILD_ID', '__unversioned__'],
  ])('rejects a bad %s (%s), naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toContain(name);
      expect((err as Error).message).toContain(name);
    }
  });

  it('versions the worker only with both a deployment name and a build id', () => {
    expect(loadConfig({}).temporal.workerDeployment).toBeUndefined();
    expect(
      loadConfig({ WORKER_DEPLOYMENT_NAME: 'payment-rescue', WORKER_BUILD_ID: '1.0.0' }).temporal.workerDeployment,
    ).toEqual({ deploymentName: 'payment-rescue', buildId: '1.0.0' });
    expect(() => loadConfig({ WORKER_BUILD_ID: '1.0.0' })).toThrow(/WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID/);
    expect(() => loadConfig({ WORKER_DEPLOYMENT_NAME: 'payment-rescue' })).toThrow(/WORKER_BUILD_ID/);
  });

  it('caps connections per client address well below the total, and never above it', () => {
    const defaults = loadConfig({}).http;
    expect(defaults.maxConnectionsPerAddress).toBe(500);
    expect(defaults.maxConnections).toBeGreaterThanOrEqual(4 * defaults.maxConnectionsPerAddress);
    expect(loadConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '40' }).http.maxConnectionsPerAddress).toBe(40);
    expect(
      loadConfig({ HTTP_MAX_CONNECTIONS: '300', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '500' }).http
        .maxConnectionsPerAddress,
    ).toBe(300);
  });

  it("keeps a workflow call's deadline under the idempotency claim's backstop, so no retry takes a live claim", () => {
    expect(loadConfig({ WORKFLOW_CALL_DEADLINE_MS: '90000' }).temporal.callDeadlineMs).toBe(90_000);
    expect(() => loadConfig({ WORKFLOW_CALL_DEADLINE_MS: '120000' })).toThrow(/WORKFLOW_CALL_DEADLINE_MS/);
    expect(90_000 + 1_500).toBeLessThan(ABANDONED_AFTER_MS);
  });

  it('refuses to start production without its own card vault keys', () => {
    expect(() => loadConfig({ FC_ENVIRONMENT: 'production' })).toThrow(/CARD_VAULT_KEYS/);
    expect(() => loadConfig({ FC_ENVIRONMENT: 'sandbox', CARD_VAULT_KEYS: 'k:dG9vLXNob3J0' })).toThrow(
      /CARD_VAULT_KEYS/,
    );
    expect(
      loadConfig({ FC_ENVIRONMENT: 'production', CARD_VAULT_KEYS: `a:${Buffer.alloc(32).toString('base64')}` })
        .vaultKeys[0]?.id,
    ).toBe('a');
  });

  it('treats an empty DATABASE_URL or TEMPORAL_ADDRESS as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', TEMPORAL_ADDRESS: ' ' });
    expect(config.database.url).toBeUndefined();
    expect(config.temporal.address).toBeUndefined();
  });
});

describe('README configuration table', () => {
  it('documents every variable the configuration reads', () => {
    const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/^\|\s*`([A-Z0-9_]+)`/gm)].map((m) => m[1]));
    expect(CONFIG_VARIABLES.filter((v) => !documented.has(v))).toEqual([]);
  });
});
