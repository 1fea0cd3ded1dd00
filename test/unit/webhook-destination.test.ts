import { isPrivateAddress, isRefusedAddress } from '../../src/domain/webhooks/destination';

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

  // The sandbox's default takes this machine's receivers, never the network around it.
  it.each([
    ['127.0.0.1', false],
    ['127.8.9.10', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['10.1.2.3', true],
    ['169.254.169.254', true],
    ['192.168.1.1', true],
    ['fd12:3456::1', true],
    ['::127.0.0.1', false], // the IPv4-compatible form of 127.0.0.1: this machine too
    ['8.8.8.8', false],
  ])('with loopback only, %s is refused: %s', (address, expected) => {
    expect(isRefusedAddress(address, 'loopback')).toBe(expected);
  });

  it('refuses every private address with none, and none with all', () => {
    for (const address of ['127.0.0.1', '::1', '10.1.2.3']) {
      expect([isRefusedAddress(address, 'none'), isRefusedAddress(address, 'all')]).toEqual([true, false]);
    }
    expect(isRefusedAddress('8.8.8.8', 'none')).toBe(false);
  });
});
