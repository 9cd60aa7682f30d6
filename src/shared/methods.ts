/**
 * /methods, where every weighted line leads (weighted-line.ts words the line). Apart from the
 * line's words, so that the footer's link to it loads none of them on a first visit.
 */
/** The methods page, which every weighted line links to. */
export const METHODS = {
  path: '/methods',
  title: 'How we adjust results',
  /** The link after every weighted line. */
  linkText: 'How we adjust',
  /** The footer's link, beside FAQ, Terms of Service and Privacy & Cookies. */
  footerLabel: 'Methods',
} as const;

/** The methods page's address on the site at `publicUrl` (PUBLIC_URL): for what is read off the site. */
export const methodsUrl = (publicUrl: string) => `${publicUrl}${METHODS.path}`;
