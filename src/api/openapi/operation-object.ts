import type { z } from 'zod';
import { ApiError, ERROR_CATALOGUE, type ErrorName, errorBody } from '../../domain/errors';
import { EXAMPLE_REQUEST_ID } from './examples/values';
import { headersOf } from './headers';
import { type Answer, type Auth, type Json, type Operation, pathParams } from './registry';

export type { Json } from './registry';

/**
 * One operation of the OpenAPI document: its parameters, request body, responses (the errors it
 * can answer grouped by status) and security. `schemaOf` converts a zod schema and collects the
 * named ones into the document's components (./document.ts).
 */
const SECURITY: Record<Auth, Json[] | undefined> = {
  none: [],
  bearer: undefined, // set per scope below
  tokenizationKey: [{ tokenizationKey: [] }],
  tokenizationKeyOrBearer: [{ tokenizationKey: [] }, { oauth2: [] }],
  admin: [{ admin: [] }],
  // The token endpoint is where credentials are exchanged: client_id and secret in the body or as Basic.
  clientCredentials: [],
};

export function operationObject(op: Operation, schemaOf: (s: z.ZodType) => Json): Json {
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
  for (const [status, answer] of Object.entries(op.responses)) {
    responses[status] = response(answer, headersOf(op, Number(status)), schemaOf);
  }
  for (const [status, names] of errorsByStatus(op.errors)) {
    const isOAuth = op.path === '/v1/oauth2/token';
    const first = names[0] as ErrorName;
    responses[status] = {
      description: names.map((n) => `\`${ERROR_CATALOGUE[n].id}\` ${n}`).join(', '),
      headers: headersOf(op, Number(status)),
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${isOAuth ? 'OAuthError' : 'Error'}` },
          // The body the service sends for the first of them, built by the code that sends it.
          example: errorBody(new ApiError(first, isOAuth ? { oauthError: 'invalid_request' } : {}), EXAMPLE_REQUEST_ID),
        },
      },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(op.deprecated ? { deprecated: true } : {}),
    security: SECURITY[op.auth] ?? [{ oauth2: op.scope ? [op.scope] : [] }],
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
  return {
    required,
    content: { [mediaType]: { schema, ...(op.example === undefined ? {} : { example: op.example }) } },
  };
}

function acceptsUndefined(schema: z.ZodType): boolean {
  try {
    return schema.safeParse(undefined).success;
  } catch {
    return false;
  }
}

function response(answer: Answer, common: Json, schemaOf: (s: z.ZodType) => Json): Json {
  const own = Object.entries(answer.headers ?? {}).map(([n, d]) => [n, { description: d, schema: { type: 'string' } }]);
  const headers = { ...common, ...Object.fromEntries(own) };
  const example = answer.example === undefined ? {} : { example: answer.example };
  const content =
    answer.body === undefined
      ? undefined
      : 'mediaType' in answer.body
        ? { [answer.body.mediaType]: { schema: { type: 'string' } } }
        : { 'application/json': { schema: schemaOf(answer.body), ...example } };
  return { description: answer.description, headers, ...(content ? { content } : {}) };
}

function errorsByStatus(names: ErrorName[]): Map<string, ErrorName[]> {
  const byStatus = new Map<string, ErrorName[]>();
  for (const name of [...new Set(names)]) {
    const status = String(ERROR_CATALOGUE[name].status);
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a.localeCompare(b)));
}
