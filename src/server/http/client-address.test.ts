import { describe, expect, it } from 'vitest';
import { formatIpv6, integrityBlock, limitAddress } from './client-address.js';

describe('limitAddress', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(limitAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(limitAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(limitAddress('0.0.0.0')).toBe('0.0.0.0');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 client it is, however it is written', () => {
    expect(limitAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limitAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(limitAddress('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(limitAddress('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, in canonical form', () => {
    expect(limitAddress('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:db8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:db8::1')).toBe('2001:db8::/64');
    expect(limitAddress('2001:db8:0:0:1::1')).toBe('2001:db8::/64');
    expect(limitAddress('2001:db8:0:1::9')).toBe('2001:db8:0:1::/64');
    expect(limitAddress('::1')).toBe('::/64');
    expect(limitAddress('fe80::1%eth0')).toBe('fe80::/64');
    expect(limitAddress('fe80::abcd:1%25')).toBe('fe80::/64');
    // An IPv4 tail on an address that is not IPv4-mapped is part of the IPv6 address.
    expect(limitAddress('64:ff9b::203.0.113.7')).toBe('64:ff9b::/64');
  });

  it('gives every address of one /64 the same key, and addresses of two /64s two keys', () => {
    const oneNetwork = ['2001:db8:aa:bb::1', '2001:db8:aa:bb:ffff::', '2001:db8:aa:bb:1234:5678:9abc:def0'];
    expect(new Set(oneNetwork.map(limitAddress)).size).toBe(1);
    expect(limitAddress('2001:db8:aa:bb::1')).not.toBe(limitAddress('2001:db8:aa:bc::1'));
  });

  it('counts what is not an address as it is written', () => {
    expect(limitAddress('')).toBe('');
    expect(limitAddress('not an address')).toBe('not an address');
  });
});

describe('integrityBlock', () => {
  it('puts an IPv4 address in its /24', () => {
    expect(integrityBlock('203.0.113.7')).toBe('203.0.113.0/24');
    expect(integrityBlock('203.0.113.255')).toBe('203.0.113.0/24');
    expect(integrityBlock('203.0.114.1')).toBe('203.0.114.0/24');
  });

  it('puts an IPv4-mapped address in the IPv4 /24', () => {
    expect(integrityBlock('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(integrityBlock('::ffff:cb00:71ff')).toBe('203.0.113.0/24');
  });

  it('puts an IPv6 address in its /48, in canonical form', () => {
    expect(integrityBlock('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1::/48');
    expect(integrityBlock('2001:0db8:0001:ffff::1')).toBe('2001:db8:1::/48');
    expect(integrityBlock('2001:db8::1')).toBe('2001:db8::/48');
    expect(integrityBlock('2001:db8:0:ff::1%wlan0')).toBe('2001:db8::/48');
    expect(integrityBlock('::1')).toBe('::/48');
  });
});

describe('formatIpv6', () => {
  const value = (groups: number[]) => groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);

  it('writes RFC 5952 canonical text', () => {
    expect(formatIpv6(0n)).toBe('::');
    expect(formatIpv6(1n)).toBe('::1');
    expect(formatIpv6(value([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]))).toBe('2001:db8::1');
    // A single zero group is not shortened.
    expect(formatIpv6(value([0x2001, 0xdb8, 0, 1, 1, 1, 1, 1]))).toBe('2001:db8:0:1:1:1:1:1');
    // The longest run is shortened; of equal runs, the first.
    expect(formatIpv6(value([0x2001, 0, 0, 1, 0, 0, 0, 1]))).toBe('2001:0:0:1::1');
    expect(formatIpv6(value([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]))).toBe('2001:db8::1:0:0:1');
    expect(formatIpv6(value([0xabcd, 0, 0, 0, 0, 0, 0, 0]))).toBe('abcd::');
    expect(formatIpv6(value([1, 2, 3, 4, 5, 6, 7, 8]))).toBe('1:2:3:4:5:6:7:8');
  });
});
