/**
 * The addresses that name one poll: its page /poll-N, and what is made from it (the print
 * sheet, the embed, the QR code, the link-preview image). Each is built and read here, so an
 * address the site writes is one it answers, and every reader refuses the same junk. Every link
 * to a poll is built here: the e-mails, the open data, the embeds, the print sheet and its QR
 * code, the link previews, and the app's share links and archive.
 */
import { ID_MAX } from './limits.js';

export interface PollAddress {
  /** The address of poll N. */
  path: (pollNumber: number) => string;
  /**
   * The poll number `path` (a path without its query) names; null for any other path. A number
   * is written as the builder writes it: digits, no sign, no leading zero, at most ID_MAX (no
   * poll can have a larger number), so what is read is exactly what was written.
   */
  parse: (path: string) => number | null;
}

/** As many digits as ID_MAX has: a longer number is no poll's, and is refused before reading it. */
const NUMBER = new RegExp(`^[1-9]\\d{0,${String(ID_MAX).length - 1}}$`);

/**
 * The address `before` + N + `after`. A page's address may end in a slash, as people type it
 * (the server ignores a trailing slash); a file's may not.
 */
function pollAddress(before: string, after = '', { file = false } = {}): PollAddress {
  return {
    path: (pollNumber) => `${before}${pollNumber}${after}`,
    parse: (path) => {
      const end = !file && path.length > 1 && path.endsWith('/') ? path.length - 1 : path.length;
      if (!path.startsWith(before) || !path.slice(0, end).endsWith(after)) return null;
      const digits = path.slice(before.length, end - after.length);
      if (!NUMBER.test(digits)) return null;
      const pollNumber = Number(digits);
      return pollNumber <= ID_MAX ? pollNumber : null;
    },
  };
}

/** Poll N's page: `/poll-N`. */
export const pollPage = pollAddress('/poll-');
/** Its staff-room sheet, to print: `/poll-N/print`. */
export const printSheet = pollAddress('/poll-', '/print');
/** Its embed, which other sites frame: `/embed/poll-N`. */
export const pollEmbed = pollAddress('/embed/poll-');
/** A QR code (SVG) that opens its page: `/qr/poll-N.svg`. */
export const pollQrCode = pollAddress('/qr/poll-', '.svg', { file: true });
/** Its link-preview image: `/og/poll-N.png`. */
export const pollPreviewImage = pollAddress('/og/poll-', '.png', { file: true });

/** Poll N in the app's query string: `?redirect=poll-N` (an old form of its page's address). */
export const redirectToPoll = pollAddress('poll-', '', { file: true });
/** Poll N in the app's query string: `?poll=N` (the poll an embed's pick was made for). */
export const pollParameter = pollAddress('', '', { file: true });

/** Poll N's page, as a path: `/poll-N`. */
export const pollPath = pollPage.path;

/** The poll number of a poll's page (`/poll-N`, or `/poll-N/`); null for any other path. */
export const parsePollPath = pollPage.parse;

/** Poll N's page on the site at `publicUrl` (PUBLIC_URL, no trailing slash): what links carry. */
/**
 * The number an unknown poll number's page is drawn for, once (server pages/client.ts): the
 * largest a poll may have, which no poll reaches. The browser takes the drawing's refusal as its
 * own address's (main.tsx).
 */
export const UNKNOWN_POLL_NUMBER = ID_MAX;

export const pollUrlOf = (publicUrl: string, pollNumber: number) => `${publicUrl}${pollPath(pollNumber)}`;
