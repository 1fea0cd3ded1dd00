import type { z } from 'zod';
import type { ErrorName } from '../../domain/errors';

export type Json = Record<string, unknown>;

export type Method = 'get' | 'post' | 'put' | 'delete' | 'options';

/** Who may call an operation: the security schemes of docs/authentication.md. */
export type Auth = 'none' | 'bearer' | 'tokenizationKey' | 'tokenizationKeyOrBearer' | 'admin' | 'clientCredentials';

/** One answer other than an error: its description and, when it has a JSON body, its schema and an example. */
export interface Answer {
  description: string;
  /** A zod schema (JSON body), or a media type with no schema (e.g. `text/javascript`). */
  body?: z.ZodType | { mediaType: string };
  /** A realistic body, parsed by `body` in test/unit/openapi.test.ts so it cannot drift. */
  example?: unknown;
  headers?: Record<string, string>;
}

/**
 * One operation of the API, listed once: the Koa route it documents is `method` + `path` (Koa's
 * `:param` spelling), its request schemas are the ones the route parses with, and `errors` names
 * catalogue entries (src/domain/errors.ts), which give the six-digit ids and HTTP statuses.
 */
export interface Operation {
  /** What generated clients name the call: a verb and a noun (`refundOrder`), never the path. */
  operationId: string;
  method: Method;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  /** The API key scope the bearer token needs (docs/authentication.md). */
  scope?: string;
  body?: z.ZodType;
  /** A realistic request body (./examples), parsed by `body` in test/unit/openapi.test.ts. */
  example?: unknown;
  /** `application/x-www-form-urlencoded` instead of JSON (the token endpoint). */
  form?: boolean;
  query?: z.ZodObject;
  /** Path parameters with a schema; the others are documented as plain strings. */
  params?: Record<string, z.ZodType>;
  responses: Record<number, Answer>;
  errors: ErrorName[];
  deprecated?: boolean;
  /** The route runs once per idempotencyKey and marks a replayed answer (src/api/idempotency.ts). */
  idempotent?: boolean;
}

/** Koa's `/v1/orders/:id` and `/widget/fc.:hash.js` as OpenAPI's `/v1/orders/{id}`, `/widget/fc.{hash}.js`. */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The path parameters of a Koa path, in order. */
export function pathParams(koaPath: string): string[] {
  return [...koaPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
}

/** Errors most authenticated operations can answer, beside their own. */
export const BEARER_ERRORS: ErrorName[] = ['invalid_token', 'token_expired', 'insufficient_scope', 'internal_error'];
/** A payment call: a merchant key's only (a partner key gets 403001). */
export const PAYMENT_ERRORS: ErrorName[] = [
  ...BEARER_ERRORS,
  'merchant_forbidden',
  'rate_limited',
  'idempotency_store_unavailable',
];
/** A JSON body's own refusals, before any route reads it (docs/errors.md). */
export const BODY_ERRORS: ErrorName[] = ['malformed_json', 'payload_too_large', 'unsupported_media_type'];
