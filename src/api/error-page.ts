import { ERROR_CATALOGUE, type RetryAdvice } from '../domain/errors';

/** What a caller does on each kind of error, in words (the interface's retry rules). */
const RETRY_ADVICE: Record<RetryAdvice, string> = {
  no: 'Do not retry: the same request fails the same way.',
  'after-fix': 'Fix the request or the credential, then send it again.',
  backoff: 'Retry with exponential backoff, at most 3 attempts, with the same idempotencyKey.',
  'retry-after': 'Retry after the Retry-After period.',
  'refresh-token-once': 'Refresh the access token once, then retry.',
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * GET /docs/errors: the catalogue of error identifiers as a page, one row per error whose anchor is
 * its six-digit id: where every error body's `doc_url` points (src/domain/error-catalogue/doc-url.ts).
 * Built from the catalogue itself, so it lists exactly the errors the API answers.
 */
export function errorPage(): string {
  const rows = Object.entries(ERROR_CATALOGUE)
    .sort(([, a], [, b]) => a.id.localeCompare(b.id))
    .map(
      ([name, e]) =>
        `<tr id="${e.id}"><th scope="row"><a href="#${e.id}">${e.id}</a></th><td><code>${name}</code></td>` +
        `<td>${e.status}</td><td>${escapeHtml(e.message)}</td><td>${RETRY_ADVICE[e.retry]}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Payment Rescue Service errors</title>
    <link rel="icon" href="data:," />
    <style>
      body { font-family: system-ui, sans-serif; margin: 2rem; color: #1a1a1a; }
      table { border-collapse: collapse; }
      th, td { border: 1px solid #999; padding: 0.4rem 0.6rem; text-align: left; vertical-align: top; }
      tr:target { background: #fff3b0; }
    </style>
  </head>
  <body>
    <h1>Errors</h1>
    <p>Every error answer carries <code>error.id</code> (the HTTP status, then three digits), <code>error.name</code>
      and <code>error.doc_url</code>, a link to its row here. Branch on the id or the name, never on the message.
      The API reference is at <a href="/docs">/docs</a>.</p>
    <table>
      <caption>The catalogue of error identifiers</caption>
      <thead><tr><th scope="col">id</th><th scope="col">name</th><th scope="col">HTTP</th><th scope="col">meaning</th><th scope="col">what to do</th></tr></thead>
      <tbody>
${rows}
      </tbody>
    </table>
  </body>
</html>
`;
}
