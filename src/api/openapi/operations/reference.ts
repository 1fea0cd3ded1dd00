import type { Operation } from '../registry';
import { object } from '../schemas';

const ref = { tag: 'Reference', auth: 'none', errors: [] } as const;

/** This document and its rendered page (src/api/routes/reference.ts). */
export const referenceOperations: Operation[] = [
  {
    ...ref,
    method: 'get',
    path: '/v1/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'The document', body: object('OpenAPI 3.1.') } },
    errors: [],
  },
  {
    ...ref,
    method: 'get',
    path: '/docs',
    summary: 'The rendered API reference',
    responses: { 200: { description: 'HTML', body: { mediaType: 'text/html' } } },
    errors: [],
  },
  {
    ...ref,
    method: 'get',
    path: '/docs/reference.js',
    summary: 'The reference renderer (Scalar), served locally',
    responses: { 200: { description: 'JavaScript', body: { mediaType: 'text/javascript' } } },
    errors: [],
  },
];
