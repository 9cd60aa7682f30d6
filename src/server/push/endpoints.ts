/**
 * Only real push services: a subscription's endpoint must be an https URL on one of the
 * configured push services' hosts (PUSH_SERVICE_HOSTS), on the standard https port. Anything else
 * would make the site post to an address a visitor chose: a server on our network, someone else's
 * site, another service on a push host's machine (`:22`). A PUSH_SERVICE_HOSTS entry that names a
 * port (`localhost:8443`, a test's push service) allows that port only.
 */
import { createHash } from 'node:crypto';

/**
 * Whether `host` (lower case) on `port` ('' for 443, as URL writes it) is one of `allowed`, where
 * `*.example.com` allows any subdomain and `name:port` allows that port instead of 443.
 */
function hostAllowed(host: string, port: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const colon = entry.lastIndexOf(':');
    const name = colon === -1 ? entry : entry.slice(0, colon);
    if (port !== (colon === -1 ? '' : entry.slice(colon + 1))) return false;
    return name.startsWith('*.') ? host.endsWith(name.slice(1)) && host.length > name.length - 1 : host === name;
  });
}

/** Why an endpoint is refused, as a sentence; null when it names a known push service. */
export function endpointProblem(endpoint: string, allowed: readonly string[]): string | null {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
  if (!url || url.protocol !== 'https:') return 'The push endpoint must be an https address.';
  if (url.username || url.password || url.hash) return 'The push endpoint is not a push service’s address.';
  if (!hostAllowed(url.hostname.toLowerCase(), url.port, allowed)) {
    return url.port === '' || !hostAllowed(url.hostname.toLowerCase(), '', allowed)
      ? 'The push endpoint is not on a push service this site sends to.'
      : 'The push endpoint must use the standard https port.';
  }
  return null;
}

/** What logs say instead of an endpoint, which is personal data: a short hash that still tells rows apart. */
export const endpointHash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
