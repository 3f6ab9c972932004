import { describe, expect, it } from 'vitest';
import { clientOf, networkOf } from './clientIdentity.js';

describe('a client', () => {
  it.each([
    ['2001:db8:1:2:3:4:5:6', 64, '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', 64, '2001:db8:1:2::/64'],
    ['2001:db8::1', 64, '2001:db8::/64'],
    ['2001:db8:0:0:1::', 64, '2001:db8::/64'],
    ['fe80::1%eth0', 64, 'fe80::/64'],
    ['::1', 64, '::/64'],
    ['2001:db8:1:2:3:4:5:6', 48, '2001:db8:1::/48'],
    ['2001:db8:1:2ab:3:4:5:6', 56, '2001:db8:1:200::/56'],
    ['2001:db8:1:2:3:4:5:6', 128, '2001:db8:1:2:3:4:5:6'],
    ['::ffff:10.1.2.3', 64, '10.1.2.3'],
    ['::ffff:a01:203', 64, '10.1.2.3'],
    ['10.1.2.3', 64, '10.1.2.3'],
    ['2001:db8:1:2::1.2.3.4', 64, '2001:db8:1:2::/64'],
  ])('%s, IPv6 by /%i, is %s', (address, prefix, client) => {
    expect(clientOf(address, prefix)).toBe(client);
  });
});

describe("a client's network", () => {
  it.each([
    ['10.1.2.3', '10.1.2.0/24'],
    ['2001:db8:1:2::/64', '2001:db8:1::/48'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1::/48'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['a test client', 'a test client'],
  ])('of %s is %s', (client, network) => {
    expect(networkOf(client)).toBe(network);
  });
});
