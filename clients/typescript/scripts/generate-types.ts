/**
 * Generates src/generated/openapi.ts from the service's OpenAPI 3.1 document with
 * json-schema-to-typescript (a maintained generator; openapi-typescript needs the TypeScript 5
 * compiler API, which TypeScript 7 no longer ships). The document's schemas are JSON Schema
 * 2020-12 already, so one synthetic schema holds them all: `components.schemas` as named
 * definitions, each operation's path/query parameters, request body and success answer under its
 * operationId, and each webhook event's envelope under its event name.
 *
 *   npm run client:types                       # from the code (src/api/openapi), no server needed
 *   npm run client:types -- --url http://127.0.0.1:3000/v1/openapi.json [--out file]
 *
 * test/client/client.test.ts fails when the committed file differs from what this makes out of
 * the document a running stack serves (it runs this script: the generator's formatter loads
 * modules dynamically, which jest's CommonJS sandbox does not allow).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { buildOpenApiDocument } from '../../../src/api/openapi/document';

type Json = Record<string, unknown>;

export const GENERATED_FILE = path.join(__dirname, '..', 'src', 'generated', 'openapi.ts');

const BANNER = `/* eslint-disable */
/**
 * Generated from the service's OpenAPI document (GET /v1/openapi.json) by
 * clients/typescript/scripts/generate-types.ts. Do not edit: run \`npm run client:types\`.
 */`;

/** `#/components/schemas/X` becomes `#/definitions/X`, everywhere in `value`. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/definitions/') : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

const objectOf = (properties: Json, required: string[]): Json => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

function parametersOf(op: Json, where: 'path' | 'query'): Json | undefined {
  const params = ((op.parameters ?? []) as Json[]).filter((p) => p.in === where);
  if (params.length === 0) return undefined;
  const properties: Json = {};
  for (const p of params) properties[p.name as string] = p.schema ?? {};
  return objectOf(
    properties,
    params.filter((p) => p.required).map((p) => p.name as string),
  );
}

/** The first 2xx answer's JSON schema; an answer without a JSON body is `null` (cancel: empty). */
function successOf(op: Json): Json {
  const responses = (op.responses ?? {}) as Record<string, Json>;
  const code = Object.keys(responses).find((c) => /^2/.test(c));
  const content = code ? (responses[code]?.content as Record<string, Json> | undefined) : undefined;
  const schema = content?.['application/json']?.schema as Json | undefined;
  return schema ?? { type: 'null' };
}

function operationSchema(op: Json): Json {
  const properties: Json = {};
  const required: string[] = ['response'];
  const pathParams = parametersOf(op, 'path');
  if (pathParams) {
    properties.path = pathParams;
    required.push('path');
  }
  const query = parametersOf(op, 'query');
  if (query) properties.query = query;
  const body = op.requestBody as Json | undefined;
  const content = body?.content as Record<string, Json> | undefined;
  const bodySchema = content && Object.values(content)[0]?.schema;
  if (bodySchema) {
    properties.requestBody = bodySchema;
    if (body?.required) required.push('requestBody');
  }
  properties.response = successOf(op);
  return objectOf(properties, required);
}

/** The TypeScript source for `document` (an OpenAPI 3.1 document as JSON). */
export async function generateTypes(document: Json): Promise<string> {
  const definitions: Json = {};
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) definitions[name] = { ...schema, title: name };

  const operations: Json = {};
  for (const methods of Object.values((document.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(methods)) operations[op.operationId as string] = operationSchema(op);
  }
  const webhookEvents: Json = {};
  for (const [event, item] of Object.entries((document.webhooks ?? {}) as Record<string, Json>)) {
    const content = ((item.post as Json).requestBody as Json).content as Record<string, Json>;
    webhookEvents[event] = Object.values(content)[0]?.schema;
  }
  const root = rewriteRefs({
    title: 'PaymentRescueApi',
    description: `OpenAPI ${document.openapi}: ${(document.info as Json).title} (version ${(document.info as Json).version}).`,
    ...objectOf(
      {
        operations: objectOf(operations, Object.keys(operations)),
        webhookEvents: objectOf(webhookEvents, Object.keys(webhookEvents)),
      },
      ['operations', 'webhookEvents'],
    ),
    definitions,
  }) as JSONSchema;
  return compile(root, 'PaymentRescueApi', {
    bannerComment: BANNER,
    additionalProperties: false,
    unreachableDefinitions: true,
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
    style: { singleQuote: true, printWidth: 120, trailingComma: 'all' },
  });
}

/** Value of `--name value` on the command line. */
const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

async function main(): Promise<void> {
  const url = option('--url');
  const out = option('--out') ?? GENERATED_FILE;
  let document: Json;
  if (url) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    document = (await res.json()) as Json;
  } else {
    document = buildOpenApiDocument() as Json;
  }
  await writeFile(out, await generateTypes(document));
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
