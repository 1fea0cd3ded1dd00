import { checkCardNumber, isExpired, SANDBOX_TEST_CARDS } from '../../src/domain/cards';
import { TokenBuckets } from '../../src/domain/token-bucket';
import {
  cardFingerprints,
  openCard,
  parseVaultKeys,
  requestCardFingerprint,
  sealCard,
  type VaultKey,
} from '../../src/domain/vault-cipher';
import { findSensitive } from '../helpers/sensitive-scan';

describe('card numbers', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['30569309025904', 'diners'],
    ['3530111333300000', 'jcb'],
  ])('recognises %s as %s', (pan, brand) => {
    expect(checkCardNumber(pan)).toEqual({ ok: true, pan, brand });
  });

  it.each([
    ['4111111111111112', 'luhn'],
    ['411111111111111a', 'format'],
    ['37828224631000', 'length'], // amex is 15 digits
    ['9111111111111111', 'brand'],
  ])('rejects %s (%s)', (pan, problem) => {
    expect(checkCardNumber(pan)).toEqual({ ok: false, problem });
  });

  it('treats a card as valid through the last day of its expiry month (UTC)', () => {
    expect(isExpired(2, 2030, new Date('2030-02-28T23:59:59Z'))).toBe(false);
    expect(isExpired(2, 2030, new Date('2030-03-01T00:00:00Z'))).toBe(true);
    expect(isExpired(12, 2030, new Date('2030-12-31T12:00:00Z'))).toBe(false);
    expect(isExpired(12, 2030, new Date('2031-01-01T00:00:00Z'))).toBe(true);
  });
});

describe('the vault cipher (AES-256-GCM)', () => {
  const keys = parseVaultKeys(
    `k2:${Buffer.alloc(32, 2).toString('base64')},k1:${Buffer.alloc(32, 1).toString('base64')}`,
  );

  it('round-trips under the active key and decrypts rows sealed under an older configured key', () => {
    const sealed = sealCard('4111111111111111', 'm1', 't1', keys);
    expect(sealed.keyId).toBe('k2');
    expect(openCard(sealed, 'm1', 't1', keys)).toBe('4111111111111111');
    const old = sealCard('4111111111111111', 'm1', 't1', keys.slice(1));
    expect(openCard(old, 'm1', 't1', keys)).toBe('4111111111111111');
  });

  it('refuses a tampered ciphertext and a row moved to another merchant or token', () => {
    const sealed = sealCard('4111111111111111', 'm1', 't1', keys);
    const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) };
    tampered.ciphertext[0] = (tampered.ciphertext[0] ?? 0) ^ 1;
    expect(() => openCard(tampered, 'm1', 't1', keys)).toThrow();
    expect(() => openCard(sealed, 'm2', 't1', keys)).toThrow();
    expect(() => openCard(sealed, 'm1', 't2', keys)).toThrow();
    // A tag cut short (a database write) would weaken the check to its length: refused.
    expect(sealed.authTag).toHaveLength(16);
    expect(() => openCard({ ...sealed, authTag: sealed.authTag.subarray(0, 4) }, 'm1', 't1', keys)).toThrow();
  });

  it('fingerprints per merchant and per key, active key first', () => {
    const [a, b] = cardFingerprints('4111111111111111', 'm1', keys);
    expect(a).not.toBe(b);
    expect(cardFingerprints('4111111111111111', 'm2', keys)[0]).not.toBe(a);
    expect(cardFingerprints('4111111111111111', 'm1', keys.slice(1))[0]).toBe(b);
  });

  it("hashes a request's card number the same before and after a key rotation (the new key prepended)", () => {
    const [newer, older] = keys as [VaultKey, VaultKey];
    const before = requestCardFingerprint('4111111111111111', 'm1', [older]);
    expect(requestCardFingerprint('4111111111111111', 'm1', [newer, older])).toBe(before);
    expect(requestCardFingerprint('4111111111111111', 'm2', [older])).not.toBe(before);
    expect(requestCardFingerprint('4000000000000002', 'm1', [older])).not.toBe(before);
  });

  it('accepts only keyId:base64 pairs of 32 bytes', () => {
    expect(() => parseVaultKeys('k:short')).toThrow();
    expect(() => parseVaultKeys('')).toThrow();
    // A rotation that reuses an id would open every value sealed under the old key with the new one.
    const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
    expect(() => parseVaultKeys(`vault-1:${key(2)},vault-1:${key(1)}`)).toThrow(/vault-1 is given twice/);
    expect(parseVaultKeys(`vault-2:${key(2)},vault-1:${key(1)}`).map((k) => k.id)).toEqual(['vault-2', 'vault-1']);
  });
});

describe('token buckets', () => {
  it('allows a burst, then refills at the rate', () => {
    const buckets = new TokenBuckets(2, 3);
    const at = (ms: number) => buckets.take('m', ms);
    expect([at(0), at(0), at(0)].map((d) => d.allowed)).toEqual([true, true, true]);
    const refused = at(0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(at(500).allowed).toBe(true); // 0.5 s at 2/s = one token
    expect(buckets.take('other', 0).allowed).toBe(true);
  });

  it('forgets the least recently used keys beyond its capacity', () => {
    const buckets = new TokenBuckets(1, 1, 2);
    buckets.take('a', 0);
    buckets.take('b', 0);
    buckets.take('c', 0); // evicts a
    expect(buckets.take('a', 0).allowed).toBe(true);
    expect(buckets.take('c', 0).allowed).toBe(false);
  });
});

describe('the log scanner used on the whole test run', () => {
  it('finds issued secrets and card numbers without quoting them', () => {
    const secret = `sk_sandbox_${'A'.repeat(43)}`;
    const findings = findSensitive(
      `{"msg":"x","a":"${secret}","b":"4111111111111111","c":"1763746000000","d":"${'a'.repeat(10)}"}`,
    );
    expect(findings).toHaveLength(2);
    expect(findings.join()).not.toContain(secret);
    expect(findings.join()).not.toContain('4111111111111111');
  });

  it("passes over the workflow bundle's content hash, and nothing else", () => {
    // A webpack bundle hash of a CI run: 86525414074065 passes Luhn.
    expect(findSensitive('asset workflow-bundle-6d55e86525414074065a.js 1.75 MiB')).toEqual([]);
    expect(findSensitive('card4111111111111111 x')).toHaveLength(1);
    expect(findSensitive('id 6d55e4111111111111111a')).toHaveLength(1);
  });
});

describe('docs/sandbox.md', () => {
  it('lists exactly the whitelisted test cards', () => {
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    const doc = readFileSync(require('node:path').resolve(__dirname, '../../docs/sandbox.md'), 'utf8');
    const listed = [...doc.matchAll(/^\|\s*(\d{13,19})\s*\|/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(Object.keys(SANDBOX_TEST_CARDS).sort());
  });
});
