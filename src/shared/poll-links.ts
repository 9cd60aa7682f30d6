/**
 * The address of a poll's page, /poll-N. Every link to a poll is built here: the e-mails, the
 * open data, the embeds, the print sheet and its QR code, the link previews, and the app's
 * share links and archive.
 */

/** Poll N's page, as a path: `/poll-N`. */
export const pollPath = (pollNumber: number) => `/poll-${pollNumber}`;

/** Poll N's page on the site at `publicUrl` (PUBLIC_URL, no trailing slash): what links carry. */
export const pollUrlOf = (publicUrl: string, pollNumber: number) => `${publicUrl}${pollPath(pollNumber)}`;
