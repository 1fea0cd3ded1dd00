import { readFileSync } from 'node:fs';
import path from 'node:path';
import { containsCardNumber } from '../../src/domain/sensitive-data';
import {
  FREE_TEXT_FIELDS,
  findUnsafeFormText,
  findUnsafeText,
  percentDecodeStrict,
  printable,
  textProblem,
} from '../../src/domain/text-hygiene';

describe('textProblem: the characters the API refuses', () => {
  it('refuses every C0 control but TAB, LF and CR, which only prose allows', () => {
    for (let c = 0; c < 0x20; c++) {
      const text = `a${String.fromCharCode(c)}b`;
      expect(textProblem(text)).toBe('control_character');
      const whitespace = c === 0x09 || c === 0x0a || c === 0x0d;
      expect(textProblem(text, { lineBreaks: true })).toBe(whitespace ? undefined : 'control_character');
    }
  });

  it('refuses DEL and the C1 controls, even in prose', () => {
    for (let c = 0x7f; c <= 0x9f; c++) {
      expect(textProblem(`x${String.fromCharCode(c)}`, { lineBreaks: true })).toBe('control_character');
    }
  });

  it('refuses unpaired surrogates wherever they are, and keeps well-formed pairs', () => {
    expect(textProblem('\ud800')).toBe('unpaired_surrogate');
    expect(textProblem('\udc00')).toBe('unpaired_surrogate');
    expect(textProblem('a\ud800b')).toBe('unpaired_surrogate');
    expect(textProblem('end\ud83d')).toBe('unpaired_surrogate');
    expect(textProblem('\ude00\ud83d')).toBe('unpaired_surrogate'); // reversed pair
    expect(textProblem('smile \ud83d\ude00')).toBeUndefined();
  });

  it('accepts ordinary text, accents, other scripts, U+00A0 and U+FFFD', () => {
    for (const text of ['', 'Shop Ltd', 'Café Zoë – “quotes”', '東京の店', 'a\u00a0b', '\ufffd', '€ 12,50']) {
      expect(textProblem(text)).toBeUndefined();
    }
  });

  it('prints refused characters as escapes (field names are shown safely)', () => {
    expect(printable('a\u0000b')).toBe('a\\u0000b');
    expect(printable('\ud800')).toBe('\\ud800');
    expect(printable('ok\ud83d\ude00')).toBe('ok\ud83d\ude00');
  });
});

describe('containsCardNumber: 13-19 Luhn-valid digits, spaces and dashes allowed', () => {
  it.each([
    ['4111111111111111'],
    ['4111 1111 1111 1111'],
    ['4111-1111-1111-1111'],
    ['card: 4111 1111 1111 1111 exp 12/30'],
    ['amex 3782 822463 10005'],
    ['5555555555554444 is the card'],
    ['4222222222222'], // 13 digits
    ['6011 0009 9013 9424'],
    ['order 123 4111 1111 1111 1111'], // the card starts at a group boundary
    ['4111\u00a01111\u00a01111\u00a01111'],
  ])('finds a card number in %j', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    ['4111111111111112'], // fails the check digit
    ['order 12345'],
    ['+1 (555) 123-4567'],
    ['2024-01-31 12:00'],
    ['000000000000000'], // Luhn-valid zeros: no issued card starts with 0
    ['41111111111111111111'], // 20 unbroken digits: too long to be a card, nothing is looked for inside
    ['4111  1111  1111  1111'], // two spaces between groups are not one number
    ['invoice 2024-0001, 3 items, total 1234.56'],
    ['ref 79927398713'], // Luhn-valid but 11 digits
  ])('finds none in %j', (text) => {
    expect(containsCardNumber(text)).toBe(false);
  });
});

describe('findUnsafeText: any depth, keys included, free text screened', () => {
  it('names the dotted path of the first refused string', () => {
    expect(findUnsafeText({ transaction: { responseCode: '\u0000' } })).toEqual({
      field: 'transaction.responseCode',
      problem: 'control_character',
    });
    expect(findUnsafeText({ a: [{ b: 'ok' }, { b: '\ud800' }] })).toEqual({
      field: 'a.1.b',
      problem: 'unpaired_surrogate',
    });
    expect(findUnsafeText({ mid: 'x\u0001' }, { prefix: 'query' })?.field).toBe('query.mid');
  });

  it('refuses a bad key and names it escaped', () => {
    expect(findUnsafeText({ threeDSecure: { 'k\u0000': 'v' } })).toEqual({
      field: 'threeDSecure.k\\u0000',
      problem: 'control_character',
    });
  });

  it('reports the first problem in document order', () => {
    expect(findUnsafeText({ a: '\u0000', b: { c: '\u0000' } })?.field).toBe('a');
    expect(findUnsafeText({ a: 'ok', b: ['ok', '\u0000'], c: '\u0000' })?.field).toBe('b.1');
  });

  it('ignores numbers, booleans and nulls, and survives deep nesting', () => {
    expect(findUnsafeText({ n: 1, t: true, z: null })).toBeUndefined();
    let deep: unknown = '\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(findUnsafeText(deep)?.problem).toBe('control_character');
  });

  it('allows line breaks and screens card numbers only in the route’s free-text fields', () => {
    const freeText = FREE_TEXT_FIELDS['POST /v1/api-keys'];
    expect(findUnsafeText({ name: 'ci', description: 'line one\r\n\tline two' }, { freeText })).toBeUndefined();
    expect(findUnsafeText({ name: 'a\nb' }, { freeText })).toEqual({ field: 'name', problem: 'control_character' });
    expect(findUnsafeText({ description: 'card 4111 1111 1111 1111' }, { freeText })).toEqual({
      field: 'description',
      problem: 'card_number',
    });
    // Not a free-text field here: a merchant's numeric order id is never refused.
    expect(findUnsafeText({ externalOrderId: '4111111111111111' }, { freeText })).toBeUndefined();
    expect(findUnsafeText({ name: '4111111111111111' })).toBeUndefined();
    expect(
      findUnsafeText(
        { business: { legalName: '4111111111111111' } },
        { freeText: FREE_TEXT_FIELDS['POST /v1/applications'] },
      ),
    ).toEqual({ field: 'business.legalName', problem: 'card_number' });
  });

  it('docs/errors.md lists exactly the free-text fields the code screens', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/errors.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Text the API refuses'));
    const documented = [...section.matchAll(/^\| `([A-Z]+ [^`]+)` +\| `([^`]+)` +\| (line|prose) +\|$/gm)].map(
      (m) => `${m[1]} ${m[2]} ${m[3]}`,
    );
    const coded = Object.entries(FREE_TEXT_FIELDS).flatMap(([route, fields]) =>
      Object.entries(fields).map(([field, kind]) => `${route} ${field} ${kind}`),
    );
    expect(documented.sort()).toEqual(coded.sort());
  });

  it('keeps the free-text list to names, descriptions and reasons', () => {
    for (const fields of Object.values(FREE_TEXT_FIELDS)) {
      for (const field of Object.keys(fields)) expect(field).toMatch(/(^|\.)(name|description|legalName|reason)$/);
    }
  });
});

describe('percent-decoding and form text', () => {
  it('decodes UTF-8 and refuses what is not', () => {
    expect(percentDecodeStrict('caf%C3%A9')).toBe('café');
    expect(percentDecodeStrict('%00')).toBe('\u0000');
    expect(percentDecodeStrict('100%')).toBe('100%');
    expect(percentDecodeStrict('%zz')).toBe('%zz');
    expect(percentDecodeStrict('%ED%A0%80')).toBeUndefined(); // an encoded lone surrogate
    expect(percentDecodeStrict('%C0%80')).toBeUndefined(); // overlong
    expect(percentDecodeStrict('%80')).toBeUndefined();
    expect(percentDecodeStrict('a+b', { plusIsSpace: true })).toBe('a b');
  });

  it('names the pair at fault', () => {
    expect(findUnsafeFormText('grant_type=client_credentials&client_id=%00', '')).toEqual({
      field: 'client_id',
      problem: 'control_character',
    });
    expect(findUnsafeFormText('mid=%ED%A0%80', 'query')).toEqual({ field: 'query.mid', problem: 'invalid_utf8' });
    expect(findUnsafeFormText('a%01=1', 'query')).toEqual({ field: 'query.a\\u0001', problem: 'control_character' });
    expect(findUnsafeFormText('since=2024-01-01T00%3A00%3A00Z&limit=5', 'query')).toBeUndefined();
    expect(findUnsafeFormText('', 'query')).toBeUndefined();
  });
});
