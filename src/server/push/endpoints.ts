/**
 * Only real push services: a subscription's endpoint must be an https URL on one of the
 * configured push services' hosts (PUSH_SERVICE_HOSTS). Anything else would make the site post
 * to an address a visitor chose: a server on our network, someone else's site.
 */
import { createHash } from 'node:crypto';

/** Whether `host` (lower case) is one of `allowed`, where `*.example.com` allows any subdomain. */
function hostAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) =>
    entry.startsWith('*.') ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry,
  );
}

/** Why an endpoint is refused, as a sentence; null when it names a known push service. */
export function endpointProblem(endpoint: string, allowed: readonly string[]): string | null {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
  if (!url || url.protocol !== 'https:') return 'The push endpoint must be an https address.';
  if (url.username || url.password || url.hash) return 'The push endpoint is not a push service’s address.';
  if (!hostAllowed(url.hostname.toLowerCase(), allowed)) {
    return 'The push endpoint is not on a push service this site sends to.';
  }
  return null;
}

/** What logs say instead of an endpoint, which is personal data: a short hash that still tells rows apart. */
export const endpointHash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
