/**
 * The part of a client's address that limits and integrity key on (DESIGN.md, Privacy).
 * TEMPORARY copy: the signed-ids branch brings the tested version of this file.
 */
import { isIPv4, isIPv6 } from 'node:net';

function mappedV4(ip: string): string | null {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return match?.[1] ?? null;
}

function ipv6Groups(ip: string): number[] {
  const [head = '', tail] = (ip.split('%')[0] ?? '').split('::');
  const parts = (text: string) => (text === '' ? [] : text.split(':').map((group) => parseInt(group, 16)));
  const written = [...parts(head), ...(tail === undefined ? [] : parts(tail))];
  return tail === undefined ? written : [...parts(head), ...Array<number>(8 - written.length).fill(0), ...parts(tail)];
}

/** IPv4 as is; IPv6 by its /64. */
export function limitAddress(ip: string): string {
  const v4 = isIPv4(ip) ? ip : mappedV4(ip);
  if (v4 !== null) return v4;
  if (!isIPv6(ip)) return ip;
  return `${ipv6Groups(ip)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** IPv4 by its /24, IPv6 by its /48. */
export function integrityBlock(ip: string): string {
  const v4 = isIPv4(ip) ? ip : mappedV4(ip);
  if (v4 !== null) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return ip;
  return `${ipv6Groups(ip)
    .slice(0, 3)
    .map((group) => group.toString(16))
    .join(':')}::/48`;
}
