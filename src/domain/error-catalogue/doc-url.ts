/**
 * Where each error is explained: the API's own error page (GET /docs/errors, built from this
 * catalogue, one anchor per six-digit id), so the link is right on every host the API answers on
 * and never points at a page that does not exist. It is a reference relative to the API's base
 * URL (RFC 3986 URI-reference, which RFC 6749 allows for `error_uri`).
 */
export const ERROR_DOCS_PATH = '/docs/errors';

export function errorDocUrl(id: string): string {
  return `${ERROR_DOCS_PATH}#${id}`;
}
