import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The order use cases (src/orders/) return what happened: a decision, an order, a typed failure
 * (src/domain/orders/order-failure.ts). HTTP is src/api's: an `ApiError`, an HTTP status used as
 * a status (`status: 409`, `.status = 200`), a Koa `ctx`, or an import from src/api in
 * src/orders fails this test (docs/architecture.md).
 */
const HTTP_IN_USE_CASES: Array<[string, RegExp]> = [
  ['ApiError', /\bApiError\b/],
  ['an HTTP status used as a status', /\bstatus(?:Code)?\s*(?::|=|===|!==)\s*[1-5]\d\d\b/],
  ['a Koa context', /\bctx\b/],
  ['an import from src/api', /from\s+['"](?:\.\.\/)+api(?:\/|['"])/],
];

const root = path.resolve(__dirname, '../..');
const ORDERS = 'src/orders';

/** The file's code lines that speak HTTP, as `file:line: what: text`; comments are prose. */
function httpIn(rel: string): string[] {
  return readFileSync(path.join(root, rel), 'utf8')
    .split('\n')
    .map((text, index) => ({ code: text.replace(/^\s*(\/\/|\/?\*).*$/, '').replace(/\s\/\/ .*$/, ''), index }))
    .flatMap(({ code, index }) =>
      HTTP_IN_USE_CASES.filter(([, pattern]) => pattern.test(code)).map(
        ([what]) => `${rel}:${index + 1}: ${what}: ${code.trim()}`,
      ),
    );
}

describe('HTTP stays out of the order use cases', () => {
  it('finds HTTP in a line of code', () => {
    const caught = [
      "throw new ApiError('order_busy');",
      'return { status: 200, body };',
      'ctx.status = 409;',
      'if (answer.status === 503) retry();',
      'ctx.body = decision;',
      "import { idempotent } from '../api/idempotency';",
      "import type { Answer } from '../../api';",
    ];
    for (const line of caught) expect(HTTP_IN_USE_CASES.some(([, p]) => p.test(line))).toBe(true);
    const passed = [
      "throw new OrderFailure({ reason: 'order_busy' });",
      'return { status: order.status_name, orderId };',
      'const BUSY_BACKOFF_MS = [25, 50, 100, 200, 400, 800];',
      "import { findOrder } from '../db/repositories/orders';",
      'const ctxt = 1;',
    ];
    for (const line of passed) expect(HTTP_IN_USE_CASES.some(([, p]) => p.test(line))).toBe(false);
  });

  it('has none in src/orders', () => {
    const files = readdirSync(path.join(root, ORDERS), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${ORDERS}/${name}`);
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap(httpIn)).toEqual([]);
  });
});
