import { openApiDocument } from '../answers/events';
import type { Operation } from '../registry';

const ref = { tag: 'Reference', auth: 'none', errors: [] } as const;

/** This document, its rendered page and the error page (src/api/routes/reference.ts). */
export const referenceOperations: Operation[] = [
  {
    ...ref,
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: {
        description: 'The document',
        body: openApiDocument,
        example: { openapi: '3.1.1', info: { title: 'Payment Rescue Service', version: '1' }, paths: {} },
      },
    },
    errors: [],
  },
  {
    ...ref,
    method: 'get',
    path: '/docs',
    operationId: 'getReferencePage',
    summary: 'The rendered API reference',
    responses: { 200: { description: 'HTML', body: { mediaType: 'text/html' } } },
    errors: [],
  },
  {
    ...ref,
    method: 'get',
    path: '/docs/errors',
    operationId: 'getErrorPage',
    summary: "The error catalogue: one row per error, anchored by its id (every error's doc_url)",
    responses: { 200: { description: 'HTML', body: { mediaType: 'text/html' } } },
    errors: [],
  },
  {
    ...ref,
    method: 'get',
    path: '/docs/reference.js',
    operationId: 'getReferenceRenderer',
    summary: 'The reference renderer (Scalar), served locally',
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: [],
  },
];
