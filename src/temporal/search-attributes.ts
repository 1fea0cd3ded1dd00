import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES, type SearchAttributeType } from '../domain/search-attributes';

const INDEXED: Record<SearchAttributeType, temporal.api.enums.v1.IndexedValueType> = {
  Keyword: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Bool: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
};

/**
 * Registers the order search attributes on the namespace (only the missing ones, so it is safe
 * on every start). Returns the names it added.
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const known = new Set(Object.keys((await listCustom(connection, namespace)) ?? {}));
  const missing = Object.values(SEARCH_ATTRIBUTES).filter((a) => !known.has(a.name));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((a) => [a.name, INDEXED[a.type]])),
  });
  return missing.map((a) => a.name);
}

const GRPC_UNIMPLEMENTED = 12;

/** The namespace's custom attributes; undefined where the server cannot list them (the Java test server). */
async function listCustom(connection: Connection, namespace: string) {
  try {
    return (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes;
  } catch (err) {
    if ((err as { code?: number }).code === GRPC_UNIMPLEMENTED) return undefined;
    throw err;
  }
}
