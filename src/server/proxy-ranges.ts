/**
 * The proxies' addresses and CIDR ranges that TRUST_PROXY names, read as Fastify's proxy-addr
 * reads them, so that the configuration refuses what it would refuse (with a stack trace, at
 * start) and what would believe every client's X-Forwarded-For: ranges that together hold
 * every IPv4 or every IPv6 address.
 */
import { isIP } from 'node:net';

interface AddressRange {
  family: 4 | 6;
  first: bigint;
  last: bigint;
}

const BITS = { 4: 32, 6: 128 } as const;

/** An address or an address/prefix-length; null when it is neither. A prefix of 0 is allowed here. */
export function parseProxyRange(entry: string): AddressRange | null {
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const prefixText = slash === -1 ? null : entry.slice(slash + 1);
  const kind = isIP(address);
  if (kind === 0 || (prefixText !== null && !/^\d{1,3}$/.test(prefixText))) return null;
  let family: 4 | 6 = kind === 4 ? 4 : 6;
  let value = family === 4 ? ipv4Value(address) : ipv6Value(address);
  let prefix = prefixText === null ? BITS[family] : Number(prefixText);
  if (prefix > BITS[family]) return null;
  // proxy-addr applies an IPv4-mapped IPv6 address (::ffff:10.0.0.1), and a range of them, to IPv4.
  if (family === 6 && value >> 32n === 0xffffn && prefix >= 96) {
    family = 4;
    value &= 0xffffffffn;
    prefix -= 96;
  }
  const hostBits = BigInt(BITS[family] - prefix);
  const first = (value >> hostBits) << hostBits;
  return { family, first, last: first + (1n << hostBits) - 1n };
}

/** Whether the ranges together hold every IPv4 address or every IPv6 address. */
export function coversEveryAddress(ranges: AddressRange[]): boolean {
  return ([4, 6] as const).some((family) => {
    const sorted = ranges.filter((r) => r.family === family).sort((a, b) => (a.first < b.first ? -1 : 1));
    let next = 0n; // the lowest address not yet covered
    for (const range of sorted) {
      if (range.first > next) return false;
      if (range.last + 1n > next) next = range.last + 1n;
    }
    return next === 1n << BigInt(BITS[family]);
  });
}

/** A dotted IPv4 address (already checked by isIP) as a number. */
export function ipv4Value(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/**
 * An IPv6 address (already checked by isIP) as a number: `::` expanded, a dotted IPv4 tail read,
 * a zone id (`%eth0`) dropped.
 */
export function ipv6Value(address: string): bigint {
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const v4 = ipv4Value(dotted);
    text = `${text.slice(0, -dotted.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const written = [...groups(head), ...(tail === undefined ? [] : groups(tail))];
  const all =
    tail === undefined ? written : [...groups(head), ...Array<string>(8 - written.length).fill('0'), ...groups(tail)];
  return all.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}
