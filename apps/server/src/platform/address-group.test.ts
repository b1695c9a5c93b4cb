import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressGroup } from './address-group';

describe('addressGroup', () => {
  it('keeps IPv4 addresses, and the IPv4 address inside an IPv4-mapped IPv6 one', () => {
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::FFFF:198.51.100.7')).toBe('198.51.100.7');
  });

  it('groups IPv6 addresses by /64, whatever their spelling', () => {
    const group = '2001:db8:ab:cd::/64';
    for (const address of [
      '2001:db8:ab:cd::1',
      '2001:0db8:00ab:00cd:0000:0000:0000:0001',
      '2001:DB8:AB:CD:ffff:ffff:ffff:ffff',
      '2001:db8:ab:cd:1:2:3:4',
      '2001:db8:ab:cd::1%eth0',
    ]) {
      expect(addressGroup(address), address).toBe(group);
    }
    expect(addressGroup('2001:db8:ab:ce::1')).toBe('2001:db8:ab:ce::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1:2')).toBe('fe80:0:0:0::/64');
  });

  it('puts every address of one /64 in the same group, and addresses of different /64s apart (property)', () => {
    const group16 = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const prefix = fc.array(group16, { minLength: 4, maxLength: 4 });
    const suffix = fc.array(group16, { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(prefix, suffix, suffix, prefix, (net, a, b, other) => {
        const one = addressGroup([...net, ...a].join(':'));
        expect(addressGroup([...net, ...b].join(':'))).toBe(one);
        const sameNet = other.every((g, i) => parseInt(g, 16) === parseInt(net[i]!, 16));
        if (!sameNet) expect(addressGroup([...other, ...a].join(':'))).not.toBe(one);
      }),
    );
  });
});
