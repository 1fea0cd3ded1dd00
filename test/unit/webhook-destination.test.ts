import { isPrivateAddress } from '../../src/domain/webhooks/destination';

describe('webhook destinations (SSRF protection)', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['169.254.169.254', true], // cloud metadata
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['not-an-address', true],
    ['172.32.0.1', false],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::ffff:8.8.8.8', false],
    ['2001:4860:4860::8888', false],
  ])('%s is private or reserved: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
