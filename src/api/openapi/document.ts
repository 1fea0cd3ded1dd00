import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorName } from '../../domain/errors';
import { OPERATIONS } from './operations';
import { type Answer, type Auth, type Operation, openApiPath, pathParams } from './registry';
import { errorBody, oauthErrorBody } from './schemas';
import { envelopeOf, SIGNATURE_HEADERS, WEBHOOK_EVENTS } from './webhooks';

type Json = Record<string, unknown>;

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
        operationId: `webhook_${event.replace(/[^a-z]+/g, '_')}`,
        summary: event,
        tags: ['Webhook events'],
        description:
          'Sent to your endpoint as JSON text (`content-type: text/plain; charset=utf-8`), signed (docs/webhooks.md). Answer 2xx.',
        parameters: Object.entries(SIGNATURE_HEADERS).map(([name, description]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
        })),
        requestBody: { required: true, content: { 'text/plain': { schema: schemaOf(envelopeOf(event)) } } },
        responses: { '2XX': { description: 'Received; anything else is retried (docs/webhooks.md#delivery).' } },
      },
    };
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'Payment Rescue Service',
      version: options.version ?? '1',
      description:
        'Rescues declined card payments. Errors: one JSON shape (`Error`) with a six-digit `id` (docs/errors.md); ' +
        'each operation lists the identifiers it can answer. Webhooks: signed envelopes, one per event (`webhooks`).',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      schemas: { ...components, Error: components.Error ?? errorRef },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An access token from POST /v1/oauth2/token (docs/authentication.md).',
        },
        tokenizationKey: { type: 'apiKey', in: 'header', name: 'x-tokenization-key' },
        admin: {
          type: 'http',
          scheme: 'bearer',
          description: 'Operators only: `authorization: Bearer <ADMIN_API_TOKEN>`.',
        },
        clientCredentials: { type: 'http', scheme: 'basic', description: 'client_id:client_secret (or in the body).' },
      },
    },
  };
}

const SECURITY: Record<Auth, Json[] | undefined> = {
  none: [],
  bearer: undefined, // set per scope below
  tokenizationKey: [{ tokenizationKey: [] }],
  tokenizationKeyOrBearer: [{ tokenizationKey: [] }, { bearer: [] }],
  admin: [{ admin: [] }],
  clientCredentials: [{}, { clientCredentials: [] }],
};

function operationObject(op: Operation, schemaOf: (s: z.ZodType) => Json): Json {
  const parameters: Json[] = pathParams(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: op.params?.[name] ? schemaOf(op.params[name]) : { type: 'string' },
  }));
  if (op.query) {
    for (const [name, schema] of Object.entries(op.query.shape)) {
      const optional = acceptsUndefined(schema as z.ZodType);
      parameters.push({ name, in: 'query', required: !optional, schema: schemaOf(schema as z.ZodType) });
    }
  }
  const responses: Json = {};
  for (const [status, answer] of Object.entries(op.responses)) responses[status] = response(answer, schemaOf);
  for (const [status, names] of errorsByStatus(op.errors)) {
    const isOAuth = op.path === '/v1/oauth2/token';
    responses[status] = {
      description: names.map((n) => `\`${ERROR_CATALOGUE[n].id}\` ${n}`).join(', '),
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${isOAuth ? 'OAuthError' : 'Error'}` },
        },
      },
    };
  }
  return {
    operationId: operationId(op),
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(op.deprecated ? { deprecated: true } : {}),
    security: SECURITY[op.auth] ?? [{ bearer: op.scope ? [op.scope] : [] }],
    ...(op.scope ? { 'x-scope': op.scope } : {}),
    'x-error-ids': op.errors.map((n) => ERROR_CATALOGUE[n].id),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: requestBody(op, op.body, schemaOf) } : {}),
    responses,
  };
}

function requestBody(op: Operation, body: z.ZodType, schemaOf: (s: z.ZodType) => Json): Json {
  const schema = schemaOf(body);
  // A body whose every field is optional may be left out (cancel's optional idempotencyKey).
  const required = '$ref' in schema || !('properties' in schema) || Array.isArray(schema.required);
  const mediaType = op.form ? 'application/x-www-form-urlencoded' : 'application/json';
  return { required, content: { [mediaType]: { schema } } };
}

function acceptsUndefined(schema: z.ZodType): boolean {
  try {
    return schema.safeParse(undefined).success;
  } catch {
    return false;
  }
}

function response(answer: Answer, schemaOf: (s: z.ZodType) => Json): Json {
  const headers = answer.headers
    ? Object.fromEntries(
        Object.entries(answer.headers).map(([n, d]) => [n, { description: d, schema: { type: 'string' } }]),
      )
    : undefined;
  const content =
    answer.body === undefined
      ? undefined
      : 'mediaType' in answer.body
        ? { [answer.body.mediaType]: { schema: { type: 'string' } } }
        : { 'application/json': { schema: schemaOf(answer.body) } };
  return { description: answer.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
}

function errorsByStatus(names: ErrorName[]): Map<string, ErrorName[]> {
  const byStatus = new Map<string, ErrorName[]>();
  for (const name of [...new Set(names)]) {
    const status = String(ERROR_CATALOGUE[name].status);
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a.localeCompare(b)));
}

function operationId(op: Operation): string {
  const words = `${op.method} ${op.path}`
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ');
  return words.map((w, i) => (i === 0 ? w : `${w[0]?.toUpperCase()}${w.slice(1)}`)).join('');
}

function rewriteRefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;
}
