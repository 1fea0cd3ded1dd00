/**
 * Where each error is explained: its row of docs/errors.md in the published repository, which
 * carries an anchor named by the six-digit id (`<a id="400002"></a>`). One constant, so a fork
 * or a renamed repository changes one line; test/unit/error-catalogue.test.ts checks every
 * catalogue id has its anchor.
 */
export const ERROR_DOCS_URL = 'https://github.com/payment-rescue/payment-rescue-service/blob/main/docs/errors.md';

export function errorDocUrl(id: string): string {
  return `${ERROR_DOCS_URL}#${id}`;
}
