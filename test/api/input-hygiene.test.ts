import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { createApp } from '../../src/api/app';
import { merchantSettingsUpdate } from '../../src/domain/merchant-settings';
import { evaluateRequest } from '../../src/domain/orders/evaluate-request';
import { widgetConfigUpdate } from '../../src/domain/widget-config';
import { widgetBatch } from '../../src/domain/widget-signals';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { orderRow } from '../helpers/order-row';
import { startTestStack, type TestStack } from '../helpers/stack';
import { storedState } from '../helpers/stored-state';

/**
 * Issue 9 D3: U+0000 and an unpaired surrogate in every string of every endpoint (JSON body at
 * any depth, path parameters, query string, the widget's own bodies, the token endpoint's form)
 * answer 400 validation_failed naming the field, store nothing and start no workflow. Plus card
 * numbers typed into free-text fields (docs/errors.md, "Text the API refuses").
 *
 * The cases are a table: one row per route (its router path doubles as the URL template), with a
 * valid base body whose string fields are poisoned one at a time. String fields are derived from
 * the zod schemas where the schema is exported; a last test checks that every route the app has
 * is in the table, so a new route cannot be added without its hygiene case.
 */

const ADMIN = `admin-${randomUUID()}-${randomUUID()}`;
const ORIGIN = 'https://shop.example';
const nextYear = new Date().getUTCFullYear() + 1;

/** The two poisons, as they arrive: a JSON escape in the body, a percent-encoding in a URL. */
const POISONS = [
  { name: 'U+0000', json: '\\u0000', url: '%00' },
  // JSON.stringify would keep "\ud800" as an escape, but the raw text makes the point plainly;
  // in a URL a lone surrogate can only be written as its (invalid) UTF-8 bytes.
  { name: 'lone surrogate \\ud800', json: '\\ud800', url: '%ED%A0%80' },
] as const;
type Poison = (typeof POISONS)[number];

type Auth = 'merchant' | 'partner' | 'admin' | 'tokenize' | 'widget' | 'none';

interface Endpoint {
  /** `METHOD /router/path`, as the app's router has it. */
  route: string;
  auth: Auth;
  /** Values of the path parameters (valid ones: only the poisoned one is bad). */
  params?: () => Record<string, string>;
  query?: () => Record<string, string>;
  body?: () => Record<string, unknown>;
  /** Dotted string fields of the body to poison. */
  fields?: string[];
  form?: boolean;
}

/** Dotted paths of every string leaf of a zod schema (array elements as index 0). */
function stringFields(schema: z.ZodType): string[] {
  const out = new Set<string>();
  const walk = (s: unknown, path: string[]): void => {
    const def = (s as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
    switch (def.type) {
      case 'string':
      case 'enum':
        out.add(path.join('.'));
        return;
      case 'literal':
        if ((def.values as unknown[]).some((v) => typeof v === 'string')) out.add(path.join('.'));
        return;
      case 'object':
        for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) walk(child, [...path, key]);
        return;
      case 'array':
        walk(def.element, [...path, '0']);
        return;
      case 'union':
        for (const option of def.options as unknown[]) walk(option, path);
        return;
      case 'record':
        out.add([...path, 'anyKey'].join('.'));
        return;
      case 'pipe':
        walk(def.in, path);
        return;
      default:
        if (def.innerType) walk(def.innerType, path);
    }
  };
  walk(schema, []);
  return [...out];
}

function withField(body: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = field.split('.');
  let node: Record<string, unknown> = copy;
  for (const [i, key] of keys.slice(0, -1).entries()) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = /^\d+$/.test(keys[i + 1] ?? '') ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
  return copy;
}

/** Raw JSON text with `field` set to the poison's escape, written literally. */
function poisonedJson(body: Record<string, unknown>, field: string, poison: Poison): string {
  const marker = `__poison_${randomUUID()}__`;
  return JSON.stringify(withField(body, field, marker)).replace(`"${marker}"`, `"${poison.json}"`);
}

describe('input hygiene: control characters, unpaired surrogates and card numbers in free text', () => {
  let stack: TestStack;
  let merchant: Awaited<ReturnType<typeof seedMerchant>>;
  let merchantKey: { clientId: string; clientSecret: string };
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const api = (method: string, path: string, body?: unknown, as = tokens.merchant) =>
    callApi(stack.baseUrl, as, method, path, body);

  const evaluateBody = () => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `shop-${randomUUID()}`,
    senseKey: randomUUID(),
    transaction: { amount: 1999, currency: 'USD', responseCode: '51', declinedAtUtc: new Date().toISOString() },
    paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear, holderName: 'Ann Lee' },
    payer: { email: 'ann@example.com', ipAddress: '203.0.113.7' },
    threeDSecure: { eci: '05' },
  });
  const batch = () => ({
    v: 1,
    senseKey: randomUUID(),
    externalOrderId: 'shop-1',
    signals: [{ kind: 'fingerprint', t: 120, hash: 'a'.repeat(64), traits: 12 }],
  });
  const uuid = () => randomUUID();

  const ENDPOINTS: Endpoint[] = [
    // ---- orders (docs/orders.md)
    {
      route: 'POST /v1/evaluate',
      auth: 'merchant',
      body: evaluateBody,
      fields: [...stringFields(evaluateRequest), 'unknownField', 'threeDSecure.nested.deep.0'],
    },
    {
      route: 'POST /v1/capture',
      auth: 'merchant',
      body: () => ({ idempotencyKey: uuid(), orderId: ids.order as string }),
      fields: ['idempotencyKey', 'orderId'],
    },
    {
      route: 'POST /v1/orders/:id/cancel',
      auth: 'merchant',
      params: () => ({ id: ids.order as string }),
      body: () => ({ idempotencyKey: uuid() }),
      fields: ['idempotencyKey'],
    },
    {
      route: 'POST /v1/orders/:externalOrderId/external-cancel',
      auth: 'merchant',
      params: () => ({ externalOrderId: ids.externalOrderId as string }),
      body: () => ({ idempotencyKey: uuid() }),
      fields: ['idempotencyKey'],
    },
    {
      route: 'POST /v1/orders/:id/refund',
      auth: 'merchant',
      params: () => ({ id: ids.order as string }),
      body: () => ({ idempotencyKey: uuid(), amountToRefund: '1.00' }),
      fields: ['idempotencyKey', 'amountToRefund'],
    },
    { route: 'GET /v1/orders/:id', auth: 'merchant', params: () => ({ id: ids.order as string }) },
    {
      route: 'GET /v1/orders/:id/webhook-deliveries',
      auth: 'merchant',
      params: () => ({ id: ids.order as string }),
    },
    // ---- reports and the dashboard (docs/reports.md, docs/dashboard.md)
    {
      route: 'GET /v1/reports/rescues',
      auth: 'merchant',
      query: () => ({ groupBy: 'declineCode', from: '2024-01-01T00:00:00Z', format: 'csv' }),
    },
    { route: 'GET /v1/admin/reports/rescues', auth: 'admin', query: () => ({ groupBy: 'flow', partnerId: uuid() }) },
    {
      route: 'POST /v1/dashboard/links',
      auth: 'merchant',
      body: () => ({ expiresInSeconds: 600 }),
      fields: ['expiresInSeconds', 'unknownField'],
    },
    { route: 'GET /dashboard', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /dashboard/dashboard.js', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /dashboard/currencies.js', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /dashboard/dashboard.css', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /dashboard/chart.js', auth: 'none', query: () => ({ v: '1' }) },
    {
      route: 'GET /v1/orders',
      auth: 'merchant',
      query: () => ({ externalOrderId: 'shop-1001', status: 'Completed,8', createdFrom: '2024-01-01T00:00:00Z' }),
    },
    {
      route: 'POST /v1/outcome',
      auth: 'merchant',
      body: () => ({ orderId: ids.order as string }),
      fields: ['orderId'],
    },
    // ---- tokenization and the token endpoint
    {
      route: 'POST /v1/tokenize',
      auth: 'tokenize',
      body: () => ({ cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear, holderName: 'Ann' }),
      fields: ['cardNumber', 'holderName'],
    },
    {
      route: 'POST /v1/oauth2/token',
      auth: 'none',
      body: () => ({
        grant_type: 'client_credentials',
        client_id: merchantKey.clientId,
        client_secret: merchantKey.clientSecret,
      }),
      fields: ['grant_type', 'client_id', 'client_secret'],
    },
    {
      route: 'POST /v1/oauth2/token',
      auth: 'none',
      form: true,
      body: () => ({
        grant_type: 'client_credentials',
        client_id: merchantKey.clientId,
        client_secret: merchantKey.clientSecret,
      }),
      fields: ['grant_type', 'client_id', 'client_secret'],
    },
    { route: 'GET /v1/health', auth: 'none', query: () => ({ verbose: '1' }) },
    { route: 'GET /v1/health/live', auth: 'none', query: () => ({ verbose: '1' }) },
    { route: 'GET /v1/health/ready', auth: 'none', query: () => ({ verbose: '1' }) },
    { route: 'GET /v1/health/workers', auth: 'none', query: () => ({ verbose: '1' }) },
    // ---- API keys
    {
      route: 'POST /v1/api-keys',
      auth: 'merchant',
      body: () => ({ mid: merchant.mid, name: 'ci', description: 'for ci', scopes: ['payments'] }),
      fields: ['mid', 'name', 'description', 'scopes.0'],
    },
    { route: 'GET /v1/api-keys', auth: 'merchant', query: () => ({ mid: merchant.mid }) },
    { route: 'GET /v1/api-keys/:id', auth: 'merchant', params: () => ({ id: ids.apiKey as string }) },
    {
      route: 'PUT /v1/api-keys/:id',
      auth: 'merchant',
      params: () => ({ id: ids.apiKey as string }),
      body: () => ({ name: 'renamed', description: 'd', scopes: ['payments'] }),
      fields: ['name', 'description', 'scopes.0'],
    },
    { route: 'DELETE /v1/api-keys/:id', auth: 'merchant', params: () => ({ id: ids.apiKey as string }) },
    // ---- merchant settings, sites, site widget settings
    { route: 'GET /v1/merchants/:mid/settings', auth: 'merchant', params: () => ({ mid: merchant.mid }) },
    {
      route: 'PUT /v1/merchants/:mid/settings',
      auth: 'merchant',
      params: () => ({ mid: merchant.mid }),
      body: () => ({ technicalContactEmail: 'tech@shop.example', mitEvaluation: 'async' }),
      fields: stringFields(merchantSettingsUpdate),
    },
    { route: 'GET /v1/merchants/:mid/sites', auth: 'merchant', params: () => ({ mid: merchant.mid }) },
    {
      route: 'POST /v1/merchants/:mid/sites',
      auth: 'merchant',
      params: () => ({ mid: merchant.mid }),
      body: () => ({ name: 'Second shop', allowedOrigins: ['https://second.example'] }),
      fields: ['name', 'allowedOrigins.0'],
    },
    {
      route: 'GET /v1/merchants/:mid/sites/:siteId',
      auth: 'merchant',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
    },
    {
      route: 'PUT /v1/merchants/:mid/sites/:siteId',
      auth: 'merchant',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
      body: () => ({ name: 'Renamed shop', allowedOrigins: [ORIGIN] }),
      fields: ['name', 'allowedOrigins.0'],
    },
    // ---- tokenization keys (docs/authentication.md#tokenization-keys)
    {
      route: 'POST /v1/merchants/:mid/tokenization-keys',
      auth: 'merchant',
      params: () => ({ mid: merchant.mid }),
      body: () => ({ name: 'checkout' }),
      fields: ['name'],
    },
    { route: 'GET /v1/merchants/:mid/tokenization-keys', auth: 'merchant', params: () => ({ mid: merchant.mid }) },
    ...(['GET', 'DELETE'] as const).map(
      (method): Endpoint => ({
        route: `${method} /v1/merchants/:mid/tokenization-keys/:id`,
        auth: 'merchant',
        params: () => ({ mid: merchant.mid, id: ids.tokenizationKey as string }),
      }),
    ),
    {
      route: 'GET /v1/merchants/:mid/sites/:siteId/widget',
      auth: 'merchant',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
    },
    {
      route: 'PUT /v1/merchants/:mid/sites/:siteId/widget',
      auth: 'merchant',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
      body: () => ({ collect: { formScraping: true }, selectors: { email: ['#email'], forms: ['#checkout'] } }),
      fields: stringFields(widgetConfigUpdate),
    },
    // ---- webhooks and events
    {
      route: 'POST /v1/webhooks',
      auth: 'merchant',
      body: () => ({ url: 'https://127.0.0.1:9/hook', events: ['order.completed'], description: 'ops' }),
      fields: ['url', 'events.0', 'description'],
    },
    { route: 'GET /v1/webhooks', auth: 'merchant', query: () => ({ page: '1' }) },
    { route: 'GET /v1/webhooks/:id', auth: 'merchant', params: () => ({ id: ids.webhook as string }) },
    {
      route: 'PUT /v1/webhooks/:id',
      auth: 'merchant',
      params: () => ({ id: ids.webhook as string }),
      body: () => ({ url: 'https://127.0.0.1:9/other', events: ['order.refunded'], description: 'ops' }),
      fields: ['url', 'events.0', 'description'],
    },
    { route: 'DELETE /v1/webhooks/:id', auth: 'merchant', params: () => ({ id: ids.webhook as string }) },
    {
      route: 'POST /v1/webhooks/:id/rotate-secret',
      auth: 'merchant',
      params: () => ({ id: ids.webhook as string }),
    },
    {
      route: 'POST /v1/webhooks/:id/test',
      auth: 'merchant',
      params: () => ({ id: ids.webhook as string }),
      body: () => ({ event: 'order.completed' }),
    },
    {
      route: 'GET /v1/webhooks/:id/deliveries',
      auth: 'merchant',
      params: () => ({ id: ids.webhook as string }),
      query: () => ({ limit: '10' }),
    },
    { route: 'GET /v1/events', auth: 'merchant', query: () => ({ since: '2024-01-01T00:00:00Z', limit: '5' }) },
    { route: 'POST /v1/events/:eventId/resend', auth: 'merchant', params: () => ({ eventId: ids.event as string }) },
    // ---- partner applications and the back office
    {
      route: 'POST /v1/applications',
      auth: 'partner',
      body: () => ({
        business: {
          legalName: 'Shop Ltd',
          contactEmail: 'ops@shop.example',
          website: 'https://shop.example',
          country: 'GB',
          siteOrigins: ['https://shop.example'],
        },
      }),
      fields: [
        'business.legalName',
        'business.contactEmail',
        'business.website',
        'business.country',
        'business.siteOrigins.0',
      ],
    },
    { route: 'GET /v1/applications', auth: 'partner', query: () => ({ status: 'DRAFT' }) },
    { route: 'GET /v1/applications/:id', auth: 'partner', params: () => ({ id: ids.application as string }) },
    ...(['submit', 'cancel'] as const).map(
      (action): Endpoint => ({
        route: `POST /v1/applications/:id/${action}`,
        auth: 'partner',
        params: () => ({ id: ids.application as string }),
        body: () => ({ reason: 'because' }),
        fields: ['reason'],
      }),
    ),
    ...(['approve', 'decline', 'convert'] as const).map(
      (action): Endpoint => ({
        route: `POST /v1/admin/applications/:id/${action}`,
        auth: 'admin',
        params: () => ({ id: ids.application as string }),
        body: () => ({ reason: 'because' }),
        fields: ['reason'],
      }),
    ),
    ...(['chargebacks', 'early-warnings'] as const).map(
      (kind): Endpoint => ({
        route: `POST /v1/admin/orders/:orderId/${kind}`,
        auth: 'admin',
        params: () => ({ orderId: ids.order as string }),
        body: () => ({ reason: 'Fraud', amount: 100 }),
        fields: ['reason'],
      }),
    ),
    { route: 'POST /v1/admin/chargebacks/:id/reverse', auth: 'admin', params: () => ({ id: uuid() }) },
    {
      route: 'POST /v1/admin/partners',
      auth: 'admin',
      body: () => ({ name: 'Acme Payments', apiKey: { name: 'first' } }),
      fields: ['name', 'apiKey.name'],
    },
    // ---- the cardholder challenge component and the widget (public)
    {
      route: 'POST /v1/challenges/:orderSessionKey/:result',
      auth: 'none',
      params: () => ({ orderSessionKey: ids.orderSessionKey as string, result: 'passed' }),
    },
    {
      route: 'GET /v1/widget/:mid/:siteId/config',
      auth: 'widget',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
    },
    {
      route: 'OPTIONS /v1/widget/:mid/:siteId/config',
      auth: 'widget',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
    },
    {
      route: 'POST /v1/widget/:mid/:siteId/signals',
      auth: 'widget',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
      body: batch,
      fields: stringFields(widgetBatch),
    },
    {
      route: 'OPTIONS /v1/widget/:mid/:siteId/signals',
      auth: 'widget',
      params: () => ({ mid: merchant.mid, siteId: ids.site as string }),
    },
    { route: 'GET /widget/fc.js', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /widget/fc.:hash.js', auth: 'none', params: () => ({ hash: 'abc123' }) },
    { route: 'GET /v1/openapi.json', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /docs', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /docs/reference.js', auth: 'none', query: () => ({ v: '1' }) },
    { route: 'GET /docs/errors', auth: 'none', query: () => ({ v: '1' }) },
  ];

  interface Case {
    title: string;
    endpoint: Endpoint;
    field: string;
    request: () => { path: string; body?: string };
  }

  /** The URL of `endpoint` with its parameters, one of them (or a query value) replaced by raw text. */
  function url(endpoint: Endpoint, raw: { param?: string; query?: string; text: string } = { text: '' }): string {
    const params = endpoint.params?.() ?? {};
    const template = endpoint.route.split(' ')[1] as string;
    const path = template.replace(/:([A-Za-z]+)/g, (_, name: string) =>
      name === raw.param ? raw.text : encodeURIComponent(params[name] as string),
    );
    const query = Object.entries(endpoint.query?.() ?? {})
      .map(([k, v]) => `${k}=${k === raw.query ? raw.text : encodeURIComponent(v)}`)
      .join('&');
    return query ? `${path}?${query}` : path;
  }

  function cases(endpoint: Endpoint): Case[] {
    const out: Case[] = [];
    const title = `${endpoint.route}${endpoint.form ? ' (form)' : ''}`;
    const validBody = () => {
      const body = endpoint.body?.();
      if (!body) return undefined;
      return endpoint.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
    };
    for (const poison of POISONS) {
      for (const [, name] of (endpoint.route.match(/:([A-Za-z]+)/g) ?? []).map((m) => [m, m.slice(1)] as const)) {
        out.push({
          title: `${title}: path.${name} with ${poison.name}`,
          endpoint,
          field: `path.${name}`,
          request: () => ({ path: url(endpoint, { param: name, text: poison.url }), body: validBody() }),
        });
      }
      for (const key of Object.keys(endpoint.query?.() ?? {})) {
        out.push({
          title: `${title}: query.${key} with ${poison.name}`,
          endpoint,
          field: `query.${key}`,
          request: () => ({ path: url(endpoint, { query: key, text: poison.url }), body: validBody() }),
        });
      }
      for (const field of endpoint.fields ?? []) {
        out.push({
          title: `${title}: ${field} with ${poison.name}`,
          endpoint,
          field,
          request: () => {
            const body = endpoint.body?.() ?? {};
            if (!endpoint.form) return { path: url(endpoint), body: poisonedJson(body, field, poison) };
            const pairs = Object.entries(body).map(
              ([k, v]) => `${k}=${k === field ? poison.url : encodeURIComponent(String(v))}`,
            );
            return { path: url(endpoint), body: pairs.join('&') };
          },
        });
      }
    }
    // A bad object key: refused too, named with the key escaped.
    if (endpoint.body && !endpoint.form) {
      out.push({
        title: `${title}: a key with U+0000`,
        endpoint,
        field: 'k\\u0000',
        request: () => ({
          path: url(endpoint),
          body: JSON.stringify(endpoint.body?.()).replace(/^\{/, '{"k\\u0000":1,'),
        }),
      });
    }
    return out;
  }

  async function send(endpoint: Endpoint, request: { path: string; body?: string }) {
    const method = endpoint.route.split(' ')[0] as string;
    const headers: Record<string, string> = {};
    if (endpoint.auth === 'merchant') headers.authorization = `Bearer ${tokens.merchant}`;
    if (endpoint.auth === 'partner') headers.authorization = `Bearer ${tokens.partner}`;
    if (endpoint.auth === 'admin') headers.authorization = `Bearer ${ADMIN}`;
    if (endpoint.auth === 'tokenize') headers['x-tokenization-key'] = merchant.tokenizationKey;
    if (endpoint.auth === 'widget') {
      headers.origin = ORIGIN;
      if (method === 'OPTIONS') headers['access-control-request-method'] = 'POST';
    }
    if (request.body !== undefined) {
      headers['content-type'] = endpoint.form
        ? 'application/x-www-form-urlencoded'
        : endpoint.auth === 'widget'
          ? 'text/plain;charset=UTF-8'
          : 'application/json';
    }
    const res = await fetch(`${stack.baseUrl}${request.path}`, { method, headers, body: request.body });
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text };
  }

  /** What was stored (test/helpers/stored-state.ts): equal before and after means nothing changed. */
  const stored = () => storedState(stack.db);

  /** Workflows on the stack's task queues (order and webhook workflows). */
  async function workflowCount(): Promise<number> {
    const queues = [stack.taskQueue, (stack.config.temporal as { webhookTaskQueue?: string }).webhookTaskQueue]
      .filter((q): q is string => Boolean(q))
      .map((q) => `TaskQueue = "${q}"`)
      .join(' OR ');
    return (await stack.client.workflow.count(queues)).count;
  }
  /** Visibility is eventually consistent: the count once two reads 500 ms apart agree. */
  async function settledWorkflowCount(): Promise<number> {
    let previous = -1;
    const { count } = await eventually(
      async () => {
        const reads = { previous, count: await workflowCount() };
        previous = reads.count;
        return reads;
      },
      (reads) => reads.count === reads.previous,
      { describe: 'the workflow count on the stack task queues to stop changing', intervalMs: 500, timeoutMs: 20_000 },
    );
    return count;
  }

  beforeAll(async () => {
    stack = await startTestStack({
      env: {
        ADMIN_API_TOKEN: ADMIN,
        OPEN_RATE_LIMIT_BURST: '100000',
        OPEN_RATE_LIMIT_PER_SECOND: '100000',
      },
    });
    merchant = await seedMerchant(stack.db);
    merchantKey = await seedKey(stack.db, merchant);
    tokens.merchant = await accessToken(stack.baseUrl, merchantKey);
    tokens.partner = await accessToken(stack.baseUrl, await seedKey(stack.db, { pid: merchant.pid }));

    ids.apiKey = (await api('POST', '/v1/api-keys', { name: 'fixture' })).body.id;
    ids.site = (
      await api('POST', `/v1/merchants/${merchant.mid}/sites`, { name: 'Shop', allowedOrigins: [ORIGIN] })
    ).body.siteId;
    ids.tokenizationKey = (await api('POST', `/v1/merchants/${merchant.mid}/tokenization-keys`, {})).body.id;
    ids.webhook = (
      await api('POST', '/v1/webhooks', {
        url: 'https://127.0.0.1:9/hook',
        events: ['payment.early_warning.received'],
      })
    ).body.id;
    ids.application = (
      await api(
        'POST',
        '/v1/applications',
        { business: { legalName: 'Shop Ltd', contactEmail: 'ops@shop.example' } },
        tokens.partner,
      )
    ).body.id;
    const order = await api('POST', '/v1/evaluate', evaluateBody());
    expect(order.status).toBe(200);
    ids.order = order.body.orderId;
    ids.orderSessionKey = order.body.orderSessionKey;
    ids.externalOrderId = (await orderRow(stack.db, String(ids.order))).external_order_id;
    ids.event = (await stack.db('events').where({ order_id: ids.order }).first())?.id ?? ''; // '' fails the check below
    for (const id of Object.values(ids)) expect(id).toBeTruthy();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses U+0000 and \\ud800 in every string field of every endpoint: 400 naming it, nothing stored, no workflow', async () => {
    const all = ENDPOINTS.flatMap(cases);
    expect(all.length).toBeGreaterThan(200);
    const workflowsBefore = await settledWorkflowCount();
    expect(workflowsBefore).toBeGreaterThan(0); // the query sees the fixture order's workflow
    const failures: string[] = [];
    for (const c of all) {
      const before = await stored();
      const res = await send(c.endpoint, c.request());
      // The token endpoint answers in the RFC 6749 shape; every other endpoint in the one error shape.
      const error = (typeof res.body?.error === 'object' ? res.body.error : res.body) as Record<string, unknown>;
      const after = await stored();
      const problems = [
        res.status !== 400 && `status ${res.status}`,
        error?.id !== '400002' && `id ${String(error?.id)}`,
        error?.name !== 'validation_failed' && `name ${String(error?.name)}`,
        error?.field !== c.field && `field ${String(error?.field)}`,
        JSON.stringify(before) !== JSON.stringify(after) && 'something was stored',
      ].filter(Boolean);
      if (problems.length) failures.push(`${c.title}: ${problems.join(', ')} ${res.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(await settledWorkflowCount()).toBe(workflowsBefore);
  }, 300_000);

  it('the token endpoint answers in its RFC 6749 shape, with the field', async () => {
    const res = await send(ENDPOINTS.find((e) => e.route === 'POST /v1/oauth2/token') as Endpoint, {
      path: '/v1/oauth2/token',
      body: `{"grant_type":"client_credentials","client_id":"\\u0000","client_secret":"x"}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'invalid_request',
      id: '400002',
      name: 'validation_failed',
      field: 'client_id',
    });
  });

  it('the same bodies without the poison are accepted (the table poisons valid requests)', async () => {
    for (const route of ['POST /v1/evaluate', 'POST /v1/widget/:mid/:siteId/signals', 'PUT /v1/api-keys/:id']) {
      const endpoint = ENDPOINTS.find((e) => e.route === route) as Endpoint;
      const res = await send(endpoint, { path: url(endpoint), body: JSON.stringify(endpoint.body?.()) });
      expect([200, 202]).toContain(res.status);
    }
  });

  it('covers every route of the app', async () => {
    const app = createApp({
      config: stack.config,
      db: stack.db,
      temporal: stack.connection,
      temporalClient: stack.client,
      logger: stack.logs.logger,
    });
    const dispatch = app.middleware.find((m) => (m as { router?: unknown }).router) as unknown as {
      router: { stack: Array<{ methods: string[]; path: string }> };
    };
    const routes = dispatch.router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`),
    );
    const covered = new Set(ENDPOINTS.map((e) => e.route));
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
  });

  describe('TAB, LF and CR', () => {
    it('are refused in identifiers, names and query values, with the field', async () => {
      for (const [path, body, field] of [
        ['/v1/api-keys', '{"name":"a\\nb"}', 'name'],
        ['/v1/evaluate', JSON.stringify(evaluateBody()).replace('"51"', '"5\\t1"'), 'transaction.responseCode'],
      ] as const) {
        const res = await send({ route: `POST ${path}`, auth: 'merchant' }, { path, body });
        expect(res.status).toBe(400);
        expect((res.body?.error as Record<string, unknown> | undefined)?.field).toBe(field);
      }
      const list = await api('GET', `/v1/api-keys?mid=${merchant.mid}%0A`);
      expect(list.body.error).toMatchObject({ id: '400002', field: 'query.mid' });
    });

    it('are kept in descriptions and reasons', async () => {
      const res = await api('POST', '/v1/api-keys', { name: 'multi-line', description: 'line one\r\n\tline two' });
      expect(res.status).toBe(201);
      expect(res.body.description).toBe('line one\r\n\tline two');
    });
  });

  describe('card numbers typed into free-text fields', () => {
    const CARD = '4111 1111 1111 1111';
    it.each([
      ['POST', '/v1/api-keys', () => ({ name: `key ${CARD}` }), 'name'],
      ['POST', '/v1/api-keys', () => ({ name: 'k', description: `card 4111-1111-1111-1111` }), 'description'],
      ['PUT', '/v1/api-keys/:apiKey', () => ({ description: CARD }), 'description'],
      ['POST', '/v1/merchants/:mid/sites', () => ({ name: CARD, allowedOrigins: [ORIGIN] }), 'name'],
      ['PUT', '/v1/merchants/:mid/sites/:site', () => ({ name: CARD }), 'name'],
      ['POST', '/v1/merchants/:mid/tokenization-keys', () => ({ name: `tk ${CARD}` }), 'name'],
      [
        'POST',
        '/v1/webhooks',
        () => ({ url: 'https://127.0.0.1:9/x', events: ['*'], description: CARD }),
        'description',
      ],
      ['PUT', '/v1/webhooks/:webhook', () => ({ description: `see ${CARD}` }), 'description'],
    ])('%s %s refuses one in %#', async (method, template, body, field) => {
      const path = template
        .replace(':apiKey', ids.apiKey as string)
        .replace(':mid', merchant.mid)
        .replace(':site', ids.site as string)
        .replace(':webhook', ids.webhook as string);
      const before = await stored();
      const res = await api(method, path, body());
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ id: '400002', name: 'validation_failed', field });
      expect(res.body.error.message).toMatch(/card number/);
      expect(res.text).not.toContain('4111');
      expect(await stored()).toEqual(before);
    });

    it('refuses one in application legalName, application and dispute reasons, partner and key names', async () => {
      const legal = await api(
        'POST',
        '/v1/applications',
        { business: { legalName: '4111111111111111', contactEmail: 'ops@shop.example' } },
        tokens.partner,
      );
      expect(legal.body.error).toMatchObject({ id: '400002', field: 'business.legalName' });
      const submit = await api('POST', `/v1/applications/${ids.application}/submit`, { reason: CARD }, tokens.partner);
      expect(submit.body.error).toMatchObject({ id: '400002', field: 'reason' });
      const dispute = await callApi(stack.baseUrl, ADMIN, 'POST', `/v1/admin/orders/${ids.order}/chargebacks`, {
        reason: `cardholder says ${CARD}`,
      });
      expect(dispute.body.error).toMatchObject({ id: '400002', field: 'reason' });
      for (const [body, field] of [
        [{ name: CARD }, 'name'],
        [{ name: 'Acme', apiKey: { name: CARD } }, 'apiKey.name'],
      ] as const) {
        const partner = await callApi(stack.baseUrl, ADMIN, 'POST', '/v1/admin/partners', body);
        expect(partner.body.error).toMatchObject({ id: '400002', field });
      }
    });

    it('never screens identifiers or the card fields: a numeric order id and a card number still work', async () => {
      const numeric = '4111111111111111'; // a merchant's numeric order id that happens to pass Luhn
      const body = { ...evaluateBody(), externalOrderId: numeric };
      const res = await api('POST', '/v1/evaluate', body);
      expect(res.status).toBe(200);
      const cancel = await api('POST', `/v1/orders/${numeric}/external-cancel`, {});
      expect(cancel.body?.error?.id).not.toBe('400002');
      const tokenize = await fetch(`${stack.baseUrl}/v1/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tokenization-key': merchant.tokenizationKey },
        body: JSON.stringify({ cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear }),
      });
      expect(tokenize.status).not.toBe(400);
      // Ordinary numbers in a description are fine.
      const ok = await api('POST', '/v1/api-keys', { name: 'Order 12345', description: 'call +1 555-123-4567' });
      expect(ok.status).toBe(201);
    });
  });
});
