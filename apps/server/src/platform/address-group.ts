import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit per-address limits count: an IPv4 address as it is, an IPv6 address by its /64 network. One IPv6
 * subscriber (a home line, a phone, a cloud server) is handed a whole /64 and can pick any of its 2^64 addresses,
 * so counting single IPv6 addresses would give an attacker unlimited fresh "addresses". IPv4-mapped IPv6
 * (`::ffff:198.51.100.7`) is the IPv4 address it carries.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case without leading zeros (a zone index is dropped). */
function ipv6Groups(address: string): string[] {
  const bare = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = bare.split('::') as [string, string | undefined];
  const parts = (text: string) => (text ? text.split(':') : []);
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) counts as two groups.
  const expand = (groups: string[]) =>
    groups.flatMap((group) => {
      if (!group.includes('.')) return [group];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const left = expand(parts(head));
  const right = tail === undefined ? [] : expand(parts(tail));
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}

/** The rate-limit subject of a client address (see `addressGroup`). */
export const addressSubject = (address: string) => `ip:${addressGroup(address)}`;
