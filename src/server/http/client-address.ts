/**
 * What a client address counts as. One household or school gets one IPv6 /64 (RFC 6177) and
 * picks any address in it at will (privacy addresses change daily, and a script can take a new
 * one per request), so the limits count an IPv6 client by its /64, as they count an IPv4 client
 * by its address. Vote integrity looks at wider blocks, the /24 and the /48, where a school or a
 * stuffer's addresses cluster. An IPv4 client that reaches a dual-stack socket shows as
 * `::ffff:a.b.c.d`, and is the IPv4 client it is.
 */
import { isIP } from 'node:net';
import { ipv4Value, ipv6Value } from '../proxy-ranges.js';

type Address = { family: 4; value: bigint } | { family: 6; value: bigint };

/** The address as a number, an IPv4-mapped one as IPv4; null when `ip` is no address. */
function parse(ip: string): Address | null {
  const zone = ip.indexOf('%');
  const address = zone === -1 ? ip : ip.slice(0, zone);
  const kind = isIP(address);
  if (kind === 4) return { family: 4, value: ipv4Value(address) };
  if (kind !== 6) return null;
  const value = ipv6Value(address);
  return value >> 32n === 0xffffn ? { family: 4, value: value & 0xffffffffn } : { family: 6, value };
}

function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/**
 * The RFC 5952 form: lower case, no leading zeros, the longest run of two or more zero groups
 * (the first of equal runs) written `::`.
 */
export function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start += 1) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length += 1;
    if (length > best.length) best = { start, length };
  }
  const hex = (part: number[]) => part.map((group) => group.toString(16)).join(':');
  if (best.start === -1) return hex(groups);
  return `${hex(groups.slice(0, best.start))}::${hex(groups.slice(best.start + best.length))}`;
}

/** The block of `bits` leading bits holding the address, as `address/bits`. */
function block(address: Address, bits: number): string {
  const width = address.family === 4 ? 32 : 128;
  const hostBits = BigInt(width - bits);
  const first = (address.value >> hostBits) << hostBits;
  return `${address.family === 4 ? formatIpv4(first) : formatIpv6(first)}/${bits}`;
}

/**
 * The client a per-address limit counts: an IPv4 address as it is (an IPv4-mapped one as its
 * IPv4), an IPv6 address as its /64 (`2001:db8:1:2::/64`), zone id dropped. What is not an
 * address (Fastify always gives one) is counted as it is written.
 */
export function limitAddress(ip: string): string {
  const address = parse(ip);
  if (address === null) return ip;
  return address.family === 4 ? formatIpv4(address.value) : block(address, 64);
}

/** The block vote integrity looks at: IPv4 /24 (`203.0.113.0/24`), IPv6 /48 (`2001:db8:1::/48`). */
export function integrityBlock(ip: string): string {
  const address = parse(ip);
  if (address === null) return ip;
  return block(address, address.family === 4 ? 24 : 48);
}

/**
 * The wider network a per-address limit also counts, at a looser limit: an IPv6 address's /48
 * (65,536 /64s, one tunnel broker's gift); null for IPv4, whose /24 is often many clients.
 */
export function wideNetwork(ip: string): string | null {
  const address = parse(ip);
  return address?.family === 6 ? block(address, 48) : null;
}
