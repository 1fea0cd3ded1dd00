import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { ApiError } from '../../domain/errors';
import {
  FREE_TEXT_FIELDS,
  type FreeTextKind,
  findingMessage,
  findUnsafeFormText,
  findUnsafeText,
  percentDecodeStrict,
  type TextFinding,
  textProblem,
} from '../../domain/text-hygiene';

/** The 400 validation_failed of a refused string (RFC 6749-shaped on the token endpoint). */
function refusal(finding: TextFinding, oauth: boolean): ApiError {
  return new ApiError('validation_failed', {
    field: finding.field,
    message: findingMessage(finding),
    ...(oauth ? { oauthError: 'invalid_request' } : {}),
  });
}

/**
 * A parsed body at any depth (keys included), with the free-text rules of its route
 * (src/domain/text-hygiene.ts). Throws 400 validation_failed naming the field. For routes that
 * parse their own bodies (the widget's signals), after parsing.
 */
export function assertSafeBody(body: unknown, freeText?: Readonly<Record<string, FreeTextKind>>): void {
  const finding = findUnsafeText(body, { freeText });
  if (finding) throw refusal(finding, false);
}

/** The raw (still percent-encoded) value of each path parameter, as the router captured it. */
function pathFinding(ctx: Context, paramNames: string[]): TextFinding | undefined {
  const captures = (ctx as unknown as { captures?: Array<string | undefined> }).captures ?? [];
  for (const [index, name] of paramNames.entries()) {
    const raw = captures[index];
    if (!raw) continue;
    const decoded = percentDecodeStrict(raw);
    if (decoded === undefined) return { field: `path.${name}`, problem: 'invalid_utf8' };
    const problem = textProblem(decoded);
    if (problem) return { field: `path.${name}`, problem };
  }
  return undefined;
}

function bodyFinding(ctx: Context, freeText: Readonly<Record<string, FreeTextKind>> | undefined) {
  const request = ctx.request as { body?: unknown; rawBody?: unknown };
  // A form body (the token endpoint): its raw text, since the form parser hides invalid UTF-8.
  if (typeof request.rawBody === 'string' && ctx.is('urlencoded')) {
    const finding = findUnsafeFormText(request.rawBody);
    if (finding) return finding;
  }
  return findUnsafeText(request.body, { freeText });
}

/**
 * Puts the input hygiene check first on every route of `router` (call it on the root router,
 * after every resource router is mounted): path parameters (`path.<name>`), the query string
 * (`query.<name>`) and the parsed body (dotted field path) must be valid text without control
 * characters, and the route's free-text fields must not hold a card number; otherwise 400
 * validation_failed naming the field, before authentication, rate limits or anything is stored
 * or started. Path parameters are known only once the router matched, hence a check per route
 * rather than one app-level middleware. Bodies a route parses itself are checked by that route
 * (assertSafeBody). `oauthPaths` answer in the RFC 6749 error shape (error: invalid_request).
 */
export function screenRouteInputs(router: Router, options: { oauthPaths?: string[] } = {}): void {
  const oauthPaths = new Set(options.oauthPaths ?? []);
  for (const layer of router.stack) {
    if (!layer.methods.length || typeof layer.path !== 'string') continue;
    const path = layer.path;
    const paramNames = layer.paramNames.map((key) => String(key.name));
    const oauth = oauthPaths.has(path);
    const screen: Middleware = async (ctx, next) => {
      const finding =
        pathFinding(ctx, paramNames) ??
        findUnsafeFormText(ctx.querystring, 'query') ??
        bodyFinding(ctx, FREE_TEXT_FIELDS[`${ctx.method} ${path}`]);
      if (finding) throw refusal(finding, oauth);
      await next();
    };
    layer.stack.unshift(screen as (typeof layer.stack)[number]);
  }
}
