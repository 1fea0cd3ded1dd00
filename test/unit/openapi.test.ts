import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import type { Client, Connection } from '@temporalio/client';
import { createApp } from '../../src/api/app';
import { buildOpenApiDocument } from '../../src/api/openapi/document';
import { envelopeExample } from '../../src/api/openapi/examples/events';
import { OPERATIONS } from '../../src/api/openapi/operations';
import { openApiPath } from '../../src/api/openapi/registry';
import { EVENT_DATA, envelopeOf } from '../../src/api/openapi/webhooks';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/knex';
import { isSandboxTestCard } from '../../src/domain/cards';
import { ERROR_CATALOGUE } from '../../src/domain/errors';
import { type OrderDomainEvent, publicEventData } from '../../src/domain/orders/domain-events';
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

type Op = {
  operationId: string;
  security: unknown;
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema?: Json; example?: unknown }> }
  >;
};
type Json = Record<string, unknown>;

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();
  const paths = document.paths as Record<string, Record<string, Op>>;
  const opAt = (path: string, method: string) => paths[path]?.[method] as Op;
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

  it("is versioned as the running release: package.json's version", () => {
    const { version } = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8'));
    expect((document.info as { version: string }).version).toBe(version);
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
      expect.arrayContaining(['oauth2', 'tokenizationKey', 'admin']),
    );
    expect(components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        clientCredentials: {
          tokenUrl: '/v1/oauth2/token',
          scopes: expect.objectContaining({ payments: expect.any(String) }),
        },
      },
    });
    expect(components.securitySchemes.tokenizationKey).toMatchObject({ in: 'header', name: 'x-tokenization-key' });
    const webhooks = document.webhooks as Record<string, { post: { requestBody: unknown } }>;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    expect(JSON.stringify(webhooks['order.refunded'])).toContain('InitialTransactionReference');
  });

  it('types every documented JSON answer and shows an example of it and of every request body', () => {
    const untyped: string[] = [];
    const withoutExample: string[] = [];
    const components = (document.components as { schemas: Record<string, Json> }).schemas;
    const resolve = (schema: Json): Json =>
      typeof schema.$ref === 'string' ? (components[schema.$ref.split('/').pop() as string] as Json) : schema;
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          const json = answer.content?.['application/json'];
          if (!json) continue;
          const schema = resolve(json.schema ?? {});
          const typed = Object.keys((schema.properties as Json | undefined) ?? {}).length > 0 || 'anyOf' in schema;
          if (/^2/.test(status) && !typed) untyped.push(`${method} ${path} ${status}`);
          if (json.example === undefined) withoutExample.push(`${method} ${path} ${status}`);
        }
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          if (media.example === undefined) withoutExample.push(`${method} ${path} request ${type}`);
        }
      }
    }
    for (const [event, item] of Object.entries(document.webhooks as Record<string, { post: Op }>)) {
      if (item.post.requestBody?.content['text/plain']?.example === undefined) withoutExample.push(`webhook ${event}`);
    }
    expect(untyped).toEqual([]);
    expect(withoutExample).toEqual([]);
  });

  it("shows examples that the routes' own schemas accept, so they cannot drift from the code", () => {
    const rejected: string[] = [];
    for (const op of OPERATIONS) {
      if (op.body && !op.body.safeParse(op.example).success) rejected.push(`${op.operationId} request`);
      for (const [status, answer] of Object.entries(op.responses)) {
        const body = answer.body;
        if (body && !('mediaType' in body) && !body.safeParse(answer.example).success) {
          rejected.push(`${op.operationId} ${status}: ${JSON.stringify(body.safeParse(answer.example).error?.issues)}`);
        }
      }
    }
    for (const event of EVENT_NAMES) {
      if (!envelopeOf(event).safeParse(envelopeExample(event)).success) rejected.push(`webhook ${event}`);
    }
    expect(rejected).toEqual([]);
  });

  it("types every order event's EventData as the read model builds it (publicEventData)", () => {
    const at = '2026-11-29T10:00:00.000Z';
    const events: OrderDomainEvent[] = [
      { name: 'order.completed' },
      { name: 'order.cancelled' },
      { name: 'order.expired' },
      { name: 'order.expired', endedBy: 'retry_budget', rule: 'visa-cat2-15-in-30d', retryAllowedAt: at },
      { name: 'order.capturerequired', amount: 1999, currency: 'USD', captureBefore: at },
      { name: 'challenge.presented', expiresAt: at },
      { name: 'challenge.attempted', attempt: 1, attemptedAt: at },
      { name: 'challenge.failed', failedAt: at },
      { name: 'challenge.passed', passedAt: at },
    ];
    const rejected = events.filter((e) => !EVENT_DATA[e.name].safeParse(publicEventData(e)).success);
    expect(rejected).toEqual([]);
  });

  it('uses the sandbox test cards of docs/sandbox.md in its card examples', () => {
    const evaluate = OPERATIONS.find((op) => op.operationId === 'evaluate')?.example as { paymentMethod: Json };
    const tokenize = OPERATIONS.find((op) => op.operationId === 'tokenize')?.example as Json;
    for (const pan of [evaluate.paymentMethod.cardNumber, tokenize.cardNumber]) {
      expect(isSandboxTestCard(pan as string)).toBe(true);
    }
  });

  it('names operations by what they do, for generated clients', () => {
    const ids = Object.values(paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'evaluate',
        'capture',
        'cancelOrder',
        'externalCancelOrder',
        'refundOrder',
        'getOrder',
        'tokenize',
        'createApiKey',
        'listEvents',
      ]),
    );
    for (const id of ids) expect([id, /^[a-z][A-Za-z]+$/.test(id) && !/V1/.test(id)]).toEqual([id, true]);
  });

  it('secures bearer operations with OAuth2 client credentials and their scope; health and token need none', () => {
    expect(opAt('/v1/evaluate', 'post').security).toEqual([{ oauth2: ['payments'] }]);
    expect(opAt('/v1/webhooks', 'post').security).toEqual([{ oauth2: ['webhooks'] }]);
    expect(opAt('/v1/tokenize', 'post').security).toEqual([{ tokenizationKey: [] }, { oauth2: [] }]);
    for (const [path, method] of [
      ['/v1/health', 'get'],
      ['/v1/oauth2/token', 'post'],
    ] as const) {
      expect(opAt(path, method).security).toEqual([]);
    }
    const webhooks = document.webhooks as Record<string, { post: Op }>;
    for (const item of Object.values(webhooks)) expect(item.post.security).toEqual([]);
  });

  it('describes the response headers the service sets', () => {
    for (const methods of Object.values(paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          expect([op.operationId, status, answer.headers?.['x-request-id']]).toEqual([
            op.operationId,
            status,
            { $ref: '#/components/headers/RequestId' },
          ]);
        }
      }
    }
    const evaluate = opAt('/v1/evaluate', 'post').responses;
    expect(Object.keys(evaluate['200']?.headers ?? {})).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Idempotent-Replayed']),
    );
    expect(Object.keys(evaluate['429']?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(evaluate['503']?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(opAt('/v1/orders/{id}', 'get').responses['200']?.headers ?? {})).not.toContain(
      'Idempotent-Replayed',
    );
    const headers = (document.components as { headers: Record<string, unknown> }).headers;
    expect(Object.keys(headers).sort()).toEqual(
      [
        'IdempotentReplayed',
        'RateLimitLimit',
        'RateLimitRemaining',
        'RateLimitReset',
        'RequestId',
        'RetryAfter',
      ].sort(),
    );
  });

  it("links each error example to its row on the API's error page", () => {
    const example = opAt('/v1/evaluate', 'post').responses['400']?.content?.['application/json']?.example as {
      error: { id: string; doc_url: string };
    };
    expect(example.error.doc_url).toBe(`/docs/errors#${example.error.id}`);
  });
});
