/**
 * Who a client is, for every per-client limit (issue 26, item 2): its
 * address, but an IPv6 address counted by its network prefix (/64 by
 * default, `limits.ipv6ClientPrefix`, SUITORS_IPV6_CLIENT_PREFIX): one
 * subscriber or host is given a whole /64, which is 2^64 addresses, so
 * counting each apart would give one client as many limits as it likes.
 * IPv4 addresses, and IPv4 addresses written as IPv6 (::ffff:1.2.3.4), are
 * each a client, as before.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The client `address` belongs to: the address itself, or its IPv6 network written `2001:db8:0:1::/64`. */
export function clientOf(address: string, ipv6PrefixBits: number): string {
  const unzoned = address.split('%')[0];
  if (!isIPv6(unzoned)) return address;
  const groups = ipv6Groups(unzoned);
  // ::ffff:a.b.c.d is an IPv4 client seen through an IPv6 socket.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  if (ipv6PrefixBits >= 128) return unzoned;
  const network = groups.map((group, index) => {
    const bitsKept = Math.max(0, Math.min(16, ipv6PrefixBits - index * 16));
    return bitsKept === 0 ? 0 : group & (0xffff << (16 - bitsKept)) & 0xffff;
  });
  return `${compressed(network)}/${ipv6PrefixBits}`;
}

/** The eight 16-bit groups of an IPv6 address (valid, without a zone). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (isIPv4(tail)) {
    const [a, b, c, d] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - restGroups.length;
  const all = rest === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...restGroups];
  return all.map((group) => Number.parseInt(group, 16));
}

/** An address's groups written as RFC 5952 has it: lower case, the longest run of two or more zero groups as `::`. */
function compressed(groups: readonly number[]): string {
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > best.length) best = { start, length: end - start };
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.length < 2) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/**
 * The network a client (as `clientOf` names it) belongs to, for the shares of
 * global caps: an IPv4 /24, an IPv6 /48 (a site's allocation). Addresses a
 * single party can take many of come from one such range; anything else
 * (a name a test gives) is its own network.
 */
export function networkOf(client: string): string {
  if (isIPv4(client)) return `${client.split('.').slice(0, 3).join('.')}.0/24`;
  const [address, bits] = client.split('/');
  if (!isIPv6(address)) return client;
  const prefix = bits === undefined ? 128 : Number(bits);
  return prefix <= 48 ? client : clientOf(address, 48);
}
