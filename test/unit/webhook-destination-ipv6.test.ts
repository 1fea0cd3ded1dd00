import { destinationProblem } from '../../src/activities/destination-check';
import { isPrivateAddress, literalAddress } from '../../src/domain/webhooks/destination';

/** Issue 9: IPv6 forms that embed or translate IPv4, and the non-global IPv6 ranges. */
describe('webhook destinations: IPv6 forms (SSRF protection)', () => {
  it.each([
    // The examples, as URL hosts
    'https://[::127.0.0.1]/hook',
    'https://[2002:7f00:1::1]/hook',
    'https://[fec0::1]/hook',
    'https://[::ffff:0:7f00:1]/hook',
    'https://[100::1]/hook',
  ])('refuses %s in production', async (url) => {
    expect(literalAddress(new URL(url))).toBeDefined();
    expect(await destinationProblem(new URL(url), 'none')).toMatch(/private or reserved/);
  });

  it.each([
    // IPv4-mapped, IPv4-translated, IPv4-compatible
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:a9fe:a9fe', true], // 169.254.169.254
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:10.0.0.1', true],
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::10.1.2.3', true],
    ['::ffff:0:8.8.8.8', false],
    ['::8.8.8.8', false],
    // NAT64
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::8.8.8.8', false],
    ['64:ff9b:1::8.8.8.8', true], // local-use NAT64 prefix: never global
    // 6to4
    ['2002:7f00:1::1', true],
    ['2002:a00:1::', true],
    ['2002:c0a8:101::1', true],
    ['2002:808:808::1', false],
    // Teredo: server 2001:0:SSSS:SSSS, client obfuscated in the last 32 bits
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true], // RFC 4380's example: client 192.0.2.45 (documentation)
    ['2001:0:7f00:1::', true], // server 127.0.0.1
    ['2001:0:808:808:0:0:80ff:fffe', true], // client 127.0.0.1
    ['2001:0:808:808:0:0:f7f7:f7f7', false], // server and client 8.8.8.8
    // Non-global IPv6
    ['::', true],
    ['::1', true],
    ['fec0::1', true],
    ['100::1', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['ff02::1', true],
    ['ff0e::1', true],
    ['2001:db8::1', true],
    ['3fff::1', true],
    ['2001:2::1', true], // benchmarking
    ['2001:10::1', true], // ORCHID
    ['5f00::1', true],
    ['4000::1', true],
    // Global
    ['2001:4860:4860::8888', false],
    ['2606:4700:4700::1111', false],
    ['2a00:1450:4001:80b::200e', false],
  ])('%s is refused: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it.each([
    ['192.0.2.1', true],
    ['198.51.100.7', true],
    ['203.0.113.9', true],
    ['255.255.255.255', true],
    ['192.88.99.1', true],
    ['1.1.1.1', false],
  ])('IPv4 %s is refused: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
