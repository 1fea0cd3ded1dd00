const crypto = require('node:crypto');

/**
 * True when a webhook is authentic, unmodified and fresh.
 * body: the raw request body (a Buffer, before any JSON parsing); headers: lower-case names;
 * secretBase64: the endpoint's signing secret; host: your endpoint's host (with its port when not 443);
 * toleranceSeconds: how far x-fc-date may be from now (0 disables); now: Unix seconds.
 */
function verifyWebhook(body, headers, secretBase64, host, toleranceSeconds = 300, now = Date.now() / 1000) {
  const nonce = headers['x-fc-nonce'] || '';
  const date = headers['x-fc-date'] || '';
  const authorization = headers['x-fc-authorization'] || '';
  const at = authorization.indexOf('&Signature=');
  if (!nonce || !date || at < 0) return false;
  if (toleranceSeconds > 0 && !(Math.abs(now - Date.parse(date) / 1000) <= toleranceSeconds)) return false;

  const key = Buffer.from(secretBase64, 'base64');
  const contentHash = crypto.createHash('sha512').update(body).digest('base64');
  const toSign = `POST\n${nonce};${date};${host};${contentHash}`;
  const signature = crypto.createHmac('sha512', key).update(toSign, 'utf8').digest('base64');
  const bodySignature = crypto.createHmac('sha512', key).update(body).digest('base64');
  return (
    equal(contentHash, headers['x-fc-content-sha512']) &&
    equal(signature, authorization.slice(at + '&Signature='.length)) &&
    equal(bodySignature, headers['x-fc-signature'])
  );
}

/** Constant-time comparison of two strings. */
function equal(expected, given) {
  const a = Buffer.from(expected);
  const b = Buffer.from(given || '');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

module.exports = { verifyWebhook };

// Test harness: node verify.js secret=… host=… [tolerance=300] [now=<Unix seconds>] x-fc-…=… < body
if (require.main === module) {
  const args = {};
  for (const arg of process.argv.slice(2)) {
    const eq = arg.indexOf('=');
    args[arg.slice(0, eq)] = arg.slice(eq + 1);
  }
  const body = require('node:fs').readFileSync(0);
  const tolerance = Number(args.tolerance ?? 300);
  const now = args.now === undefined ? Date.now() / 1000 : Number(args.now);
  process.stdout.write(verifyWebhook(body, args, args.secret, args.host, tolerance, now) ? 'ok\n' : 'fail\n');
}
