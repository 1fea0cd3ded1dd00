import { validate } from '@readme/openapi-parser';
import type { Client, Connection } from '@temporalio/client';
import { createApp } from '../../src/api/app';
import { buildOpenApiDocument } from '../../src/api/openapi/document';
import { OPERATIONS } from '../../src/api/openapi/operations';
import { openApiPath } from '../../src/api/openapi/registry';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/knex';
import { ERROR_CATALOGUE } from '../../src/domain/errors';
import { EVENT_NAMES } from '../../src/domain/webhooks/event-names';
import { createLogger } from '../../src/logger';

/** Every route the Koa app registers, as `METHOD /path` (Koa's spelling), walking the root router's stack. */
function appRoutes(): string[] {
  const db = createDb('postgres://unused@127.0.0.1:1/unused', 1); // never connected: routes are only listed
  const app = createApp({
    config: loadConfig({}),
    db,
    temporal: {} as Connection,
    temporalClient: { options: { namespace: 'default' } } as Client,
    logger: createLogger({ level: 'silent' }),
  });
  void db.destroy();
  const dispatch = app.middleware.find((m) => (m as { router?: unknown }).router) as unknown as {
    router: { stack: Array<{ methods: string[]; path: string }> };
  };
  return dispatch.router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`),
  );
}

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();
  const documented = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`);

  it('documents every route the app serves, and only those', () => {
    const served = appRoutes();
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !served.includes(route))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length); // each operation once
  });

  it('is valid OpenAPI 3.1', async () => {
    // The validator dereferences in place: give it a copy.
    const result = await validate(structuredClone(document) as never);
    expect(result).toMatchObject({ valid: true, warnings: [] });
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('lists the six-digit error ids each operation can answer, from the catalogue', () => {
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    const evaluate = paths['/v1/evaluate']?.post as { 'x-error-ids': string[]; responses: Record<string, unknown> };
    expect(evaluate['x-error-ids']).toEqual(expect.arrayContaining(['400002', '409002', '503001', '503002']));
    expect(Object.keys(evaluate.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '409', '503']));
    const ids = new Set<string>(Object.values(ERROR_CATALOGUE).map((e) => e.id));
    for (const op of Object.values(paths).flatMap((p) => Object.values(p))) {
      for (const id of op['x-error-ids'] as string[]) expect(ids.has(id)).toBe(true);
    }
    for (const op of OPERATIONS) expect(paths[openApiPath(op.path)]?.[op.method]).toBeDefined();
  });

  it('has the security schemes and a webhook per event, with its envelope', () => {
    const components = document.components as { securitySchemes: Record<string, unknown> };
    expect(Object.keys(components.securitySchemes)).toEqual(
      expect.arrayContaining(['bearer', 'tokenizationKey', 'admin']),
    );
    expect(components.securitySchemes.tokenizationKey).toMatchObject({ in: 'header', name: 'x-tokenization-key' });
    const webhooks = document.webhooks as Record<string, { post: { requestBody: unknown } }>;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    expect(JSON.stringify(webhooks['order.refunded'])).toContain('InitialTransactionReference');
  });
});
