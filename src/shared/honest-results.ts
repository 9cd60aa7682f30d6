/**
 * "How we keep results honest": the FAQ's section on what the site checks (DESIGN.md, Vote
 * integrity), which every "votes set aside after review" note links to (results.ts words the
 * note). Its address stays, since notes in feeds, e-mails and printed sheets outlive a release.
 */
export const HONEST_RESULTS = {
  id: 'honest-results',
  title: 'How we keep results honest',
  path: '/faq#honest-results',
} as const;

/** The section's address on the site at `publicUrl` (PUBLIC_URL): for what is read off the site. */
export const honestResultsUrl = (publicUrl: string) => `${publicUrl}${HONEST_RESULTS.path}`;
