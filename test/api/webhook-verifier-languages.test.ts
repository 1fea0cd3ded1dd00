import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Received, startReceiver } from '../../scripts/receivers/https-receiver';
import { postWebhook } from '../../src/activities/webhook-post';
import { signWebhook } from '../../src/domain/webhooks/signature';
import { vendorVector as v } from '../helpers/vendor-webhook-vector';
import {
  LANGUAGES,
  missingTools,
  type PreparedVerifier,
  prepareVerifiers,
  VERIFIERS_DIR,
  type VerifierCase,
} from '../helpers/webhook-verifiers';

/**
 * The merchant-side verifiers of docs/webhooks.md (one program per language under
 * docs/webhook-verifiers/) against the commercial service's published signed delivery, tampered and
 * stale variants of it, and deliveries signed by our own signer (one sent over real HTTPS).
 * A language whose toolchain is missing is skipped locally (reported as skipped) and fails under
 * CI=true: .ci/run installs the Debian packages.
 */
const available = LANGUAGES.filter((l) => missingTools(l).length === 0);
const missing = LANGUAGES.filter((l) => missingTools(l).length > 0);

const vector: VerifierCase = { body: v.payload, headers: v.headers, secretBase64: v.secretBase64, host: v.host };

const secretBase64 = Buffer.from('a signing secret of 32 bytes!!!!').toString('base64');
/** An envelope as our service sends it, with non-ASCII text: the body is signed as UTF-8 bytes. */
function envelope(): string {
  return JSON.stringify({
    IdempotencyKey: randomUUID(),
    Event: 'order.completed',
    TimeStamp: new Date().toISOString(),
    EventData: null,
    Mid: randomUUID(),
    Pid: null,
    ExternalOrderId: 'commande-numéro-42 ✓',
    OrderId: randomUUID(),
    ConfirmationId: 'C0FFEE42',
    IsTestMode: true,
    IsResent: false,
  });
}

describe('webhook verifiers in the merchant languages (docs/webhook-verifiers)', () => {
  let verifiers: Map<string, PreparedVerifier>;
  let cleanup: () => void = () => {};
  const signed = (() => {
    const body = envelope();
    const host = 'shop.example.com';
    const headers = signWebhook({ body, secretBase64, host, nonce: randomUUID(), date: new Date().toUTCString() });
    return { body, host, headers };
  })();
  let captured: { received: Received; host: string };

  beforeAll(async () => {
    const receiver = await startReceiver(204);
    const sending = (async () => {
      try {
        const url = new URL(receiver.url);
        const body = envelope();
        const headers = signWebhook({
          body,
          secretBase64,
          host: url.host,
          nonce: randomUUID(),
          date: new Date().toUTCString(),
        });
        const status = await postWebhook(url, {
          headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
          body,
          timeoutMs: 10_000,
          privateNetworks: 'loopback',
        });
        if (status !== 204 || !receiver.received[0]) throw new Error(`the local receiver answered ${status}`);
        return { received: receiver.received[0], host: receiver.host };
      } finally {
        await receiver.stop();
      }
    })();
    const [prep, delivery] = await Promise.all([prepareVerifiers(available), sending]);
    verifiers = new Map(prep.prepared.map((p) => [p.language, p]));
    cleanup = prep.cleanup;
    captured = delivery;
  }, 120_000);
  afterAll(() => cleanup());

  const verify = (language: string, c: VerifierCase) => {
    const verifier = verifiers.get(language);
    if (!verifier) throw new Error(`${language} was not prepared`);
    return verifier.verify(c);
  };

  describe.each(available.map((l) => l.language))('%s', (language) => {
    it('verifies the vendor vector with the clock pinned to its date, and with the date check off', async () => {
      const [pinned, off] = await Promise.all([
        verify(language, { ...vector, now: v.sentAt }),
        verify(language, { ...vector, toleranceSeconds: 0 }),
      ]);
      expect([pinned, off]).toEqual(['ok', 'ok']);
    });

    it('rejects the vendor vector tampered (body, x-fc-signature, x-fc-authorization, host) or stale', async () => {
      const at = (ms: number) => new Date(v.sentAt.getTime() + ms);
      const verdicts = await Promise.all([
        verify(language, {
          ...vector,
          now: v.sentAt,
          body: v.payload.replace('"IsTestMode":true', '"IsTestMode":false'),
        }),
        verify(language, { ...vector, now: v.sentAt, body: `${v.payload}\n` }),
        verify(language, {
          ...vector,
          now: v.sentAt,
          headers: { ...v.headers, 'x-fc-signature': `A${v.headers['x-fc-signature'].slice(1)}` },
        }),
        verify(language, {
          ...vector,
          now: v.sentAt,
          headers: { ...v.headers, 'x-fc-authorization': v.headers['x-fc-authorization'].replace('+HXN', '+HXM') },
        }),
        verify(language, { ...vector, now: v.sentAt, host: 'example.com' }),
        // Stale: 5 minutes and 1 second after x-fc-date (the default tolerance is 5 minutes) ...
        verify(language, { ...vector, now: at(301_000) }),
        // ... and with the real clock (2023 is long gone), and a date from the future.
        verify(language, vector),
        verify(language, { ...vector, now: at(-301_000) }),
      ]);
      expect(verdicts).toEqual(Array(8).fill('fail'));
      // Inside the tolerance it is still accepted.
      expect(await verify(language, { ...vector, now: at(300_000) })).toBe('ok');
    });

    it('verifies a delivery our signer produced just now (real clock, default tolerance), not for another host', async () => {
      const c = { body: signed.body, headers: signed.headers, secretBase64, host: signed.host };
      const verdicts = await Promise.all([
        verify(language, c),
        verify(language, { ...c, host: 'other.example.com' }),
        verify(language, { ...c, body: signed.body.replace('numéro', 'numero') }),
      ]);
      expect(verdicts).toEqual(['ok', 'fail', 'fail']);
    });

    it('verifies a delivery captured by a local HTTPS receiver, with its own host and port', async () => {
      const c = { body: captured.received.body, headers: captured.received.headers, secretBase64, host: captured.host };
      expect(await verify(language, c)).toBe('ok');
      expect(await verify(language, { ...c, secretBase64: v.secretBase64 })).toBe('fail');
    });
  });

  // A language this machine cannot run is reported as skipped here, and fails under CI=true.
  for (const lang of missing) {
    const needs = `${missingTools(lang).join(', ')} (Debian package ${lang.debian})`;
    (process.env.CI === 'true' ? it : it.skip)(`${lang.language}: toolchain missing: ${needs}`, () => {
      throw new Error(`${lang.language}: ${needs} missing under CI=true; .ci/run installs it`);
    });
  }
});

describe('docs/webhooks.md shows the verifier files verbatim', () => {
  const doc = readFileSync(path.resolve(__dirname, '../../docs/webhooks.md'), 'utf8');

  it.each(LANGUAGES.map((l) => [l.language, l]))('%s', (_language, lang) => {
    const source = readFileSync(path.join(VERIFIERS_DIR, lang.file), 'utf8');
    const block = `\`\`\`${lang.fence}\n${source}\`\`\`\n`;
    // On a mismatch: paste the file into its block in docs/webhooks.md (or the block into the file).
    expect(doc.includes(block)).toBe(true);
    expect(doc).toContain(`docs/webhook-verifiers/${lang.file}`);
  });

  it("shows the commercial service's published vector as the tests use it", () => {
    for (const value of [v.secretBase64, v.host, v.payload, ...Object.values(v.headers)]) {
      expect(doc).toContain(`\`${value}\``);
    }
  });

  it('documents every file under docs/webhook-verifiers', () => {
    const files = readdirSync(VERIFIERS_DIR).flatMap((dir) =>
      statSync(path.join(VERIFIERS_DIR, dir)).isDirectory()
        ? readdirSync(path.join(VERIFIERS_DIR, dir)).map((f) => `${dir}/${f}`)
        : [dir],
    );
    expect(files.sort()).toEqual(LANGUAGES.map((l) => l.file).sort());
  });
});
