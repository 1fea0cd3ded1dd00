import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorPage } from '../../src/api/error-page';
import { ERROR_DOCS_PATH } from '../../src/domain/error-catalogue/doc-url';
import { ApiError, ERROR_CATALOGUE, type ErrorName, errorBody } from '../../src/domain/errors';

const doc = readFileSync(path.resolve(__dirname, '../../docs/errors.md'), 'utf8');
const documentedRows = [...doc.matchAll(/^\|\s*<a id="(\d{6})"><\/a>\d{6}\s*\|\s*(\w+)\s*\|\s*(\d{3})\s*\|/gm)].map(
  (m) => ({
    id: m[1],
    name: m[2],
    status: Number(m[3]),
  }),
);

describe('the error catalogue', () => {
  it('gives every error a six-digit id that starts with its HTTP status, used once', () => {
    const ids = Object.values(ERROR_CATALOGUE).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of Object.values(ERROR_CATALOGUE)) {
      expect(e.id).toMatch(/^\d{6}$/);
      expect(e.id.slice(0, 3)).toBe(String(e.status));
    }
  });

  it('is documented in docs/errors.md exactly: same ids, names and statuses, no more, no fewer', () => {
    const inCode = Object.entries(ERROR_CATALOGUE)
      .map(([name, e]) => ({ id: e.id, name, status: e.status }))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(documentedRows.sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''))).toEqual(inCode);
  });

  it('gives every error a doc_url that reaches its row on the error page, and its row in docs/errors.md', () => {
    const page = errorPage();
    for (const [name, e] of Object.entries(ERROR_CATALOGUE)) {
      const body = errorBody(new ApiError(name as ErrorName), 'req-1') as { error: { doc_url: string } };
      const [path, anchor] = body.error.doc_url.split('#');
      expect([name, path, anchor]).toEqual([name, ERROR_DOCS_PATH, e.id]);
      expect([name, page.includes(`<tr id="${e.id}">`) && page.includes(`<code>${name}</code>`)]).toEqual([name, true]);
      expect([name, doc.includes(`| <a id="${anchor}"></a>${e.id} |`)]).toEqual([name, true]);
    }
  });

  it('builds the one error body shape', () => {
    const body = errorBody(new ApiError('validation_failed', { field: 'transaction.amount' }), 'req-1');
    expect(body).toEqual({
      // Beside the error object, the fields FlexCharge clients read (docs/compatibility.md).
      title: ERROR_CATALOGUE.validation_failed.message,
      TraceId: 'req-1',
      error: {
        id: '400002',
        name: 'validation_failed',
        message: ERROR_CATALOGUE.validation_failed.message,
        field: 'transaction.amount',
        doc_url: `${ERROR_DOCS_PATH}#400002`,
        requestId: 'req-1',
      },
    });
  });

  it('distinguishes the two 503 kinds', () => {
    const names: ErrorName[] = ['idempotency_store_unavailable', 'rescue_unavailable'];
    const [store, rescue] = names.map((n) => ERROR_CATALOGUE[n]);
    expect(store?.status).toBe(503);
    expect(rescue?.status).toBe(503);
    expect(store?.id).not.toBe(rescue?.id);
    expect(store?.retry).toBe('retry-after');
    expect(rescue?.retry).toBe('no');
  });
});
