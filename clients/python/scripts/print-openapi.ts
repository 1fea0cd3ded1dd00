/**
 * Prints the service's OpenAPI document as the code builds it (the one GET /v1/openapi.json
 * serves), for `npm run client:python:types` to pipe into generate_types.py without a server.
 */
import { buildOpenApiDocument } from '../../../src/api/openapi/document';

process.stdout.write(`${JSON.stringify(buildOpenApiDocument())}\n`);
