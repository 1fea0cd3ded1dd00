import { z } from 'zod';
import { SCOPES } from '../../domain/scopes';
import { SERVICE_VERSION } from '../../release';
import { envelopeExample } from './examples/events';
import { RESPONSE_HEADERS } from './headers';
import { type Json, operationObject } from './operation-object';
import { OPERATIONS } from './operations';
import { openApiPath } from './registry';
import { errorBody, oauthErrorBody } from './schemas';
import { envelopeOf, SIGNATURE_HEADERS, WEBHOOK_EVENTS } from './webhooks';

/**
 * Builds the OpenAPI 3.1 document from the route registry (./operations): request schemas are
 * the zod schemas the routes parse with, converted by zod's own JSON Schema output (2020-12,
 * OpenAPI 3.1's dialect); errors come from the catalogue. Named schemas (`.meta({ id })`) go to
 * `components.schemas`.
 */
export function buildOpenApiDocument(options: { serverUrl?: string; version?: string } = {}): Json {
  const components: Record<string, unknown> = {};
  const schemaOf = (schema: z.ZodType): Json => {
    const json = z.toJSONSchema(schema, {
      io: 'input',
      target: 'draft-2020-12',
      unrepresentable: 'any',
      reused: 'inline',
      override: ({ jsonSchema }) => {
        // zod's GUID pattern beside `format: uuid` only repeats the format; keep documents readable.
        if (jsonSchema.format === 'uuid' || jsonSchema.format === 'date-time') delete jsonSchema.pattern;
      },
    }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, unknown>;
    delete json.$defs;
    Object.assign(components, rewriteRefs(defs));
    const id = json.id as string | undefined;
    if (id) {
      delete json.id;
      components[id] = rewriteRefs(json);
      return { $ref: `#/components/schemas/${id}` };
    }
    return rewriteRefs(json) as Json;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const path = openApiPath(op.path);
    paths[path] ??= {};
    (paths[path] as Json)[op.method] = operationObject(op, schemaOf);
  }
  const errorRef = schemaOf(errorBody);
  schemaOf(oauthErrorBody);

  const webhooks: Json = {};
  for (const event of WEBHOOK_EVENTS) {
    webhooks[event] = {
      post: {
        operationId: camelCase(event),
        summary: event,
        tags: ['Webhook events'],
        // Not called with a credential of ours: each delivery is signed (the headers below).
        security: [],
        description:
          'Sent to your endpoint as JSON text (`content-type: text/plain; charset=utf-8`), signed (docs/webhooks.md). Answer 2xx.',
        parameters: Object.entries(SIGNATURE_HEADERS).map(([name, description]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'text/plain': { schema: schemaOf(envelopeOf(event)), example: envelopeExample(event) } },
        },
        responses: { '2XX': { description: 'Received; anything else is retried (docs/webhooks.md#delivery).' } },
      },
    };
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'Payment Rescue Service',
      version: options.version ?? SERVICE_VERSION,
      description:
        'Rescues declined card payments. Errors: one JSON shape (`Error`) with a six-digit `id` (docs/errors.md); ' +
        'each operation lists the identifiers it can answer. Webhooks: signed envelopes, one per event (`webhooks`).',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    // The default the reference selects; each operation states its own (none, key, OAuth2 scope).
    security: [{ oauth2: [] }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      schemas: { ...components, Error: components.Error ?? errorRef },
      headers: RESPONSE_HEADERS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'An API key id and secret exchanged at POST /v1/oauth2/token for a bearer access token ' +
            '(docs/authentication.md); each operation names the scope it needs.',
          flows: {
            clientCredentials: {
              tokenUrl: '/v1/oauth2/token',
              scopes: Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])),
            },
          },
        },
        tokenizationKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-tokenization-key',
          description: "A merchant's tokenization key (`tk_…`), safe in a browser: it can only tokenize.",
        },
        admin: {
          type: 'http',
          scheme: 'bearer',
          description: 'Operators only: `authorization: Bearer <ADMIN_API_TOKEN>`.',
        },
      },
    },
  };
}

const SCOPE_DESCRIPTIONS: Record<(typeof SCOPES)[number], string> = {
  payments: 'Evaluate, capture, cancel, refund and look up orders.',
  api_keys: 'Manage API keys and tokenization keys.',
  settings: 'Merchant settings, sites and the widget.',
  webhooks: 'Webhook endpoints, deliveries and events.',
};

/** `order.capturerequired` as `orderCapturerequired`, `payment.early_warning.received` as `paymentEarlyWarningReceived`. */
function camelCase(event: string): string {
  return event.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function rewriteRefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;
}
