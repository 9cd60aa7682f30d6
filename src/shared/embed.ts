/**
 * The embed's iframe code, as the oEmbed answer and the share overlay's "Embed" both give it.
 * A poll's embed and QR code are addressed in poll-links.ts.
 */

/** The iframe's width when the embedding page sets no limit; the embed itself follows its frame. */
export const EMBED_WIDTH = 480;
/** The narrowest width the embed is made for. */
export const EMBED_MIN_WIDTH = 300;

/** A height that shows a poll of `optionCount` options without the iframe scrolling. */
export const embedHeight = (optionCount: number) => 150 + 62 * optionCount;

/** The embed of today's poll, whichever it is. */
export const TODAY_EMBED_PATH = '/embed/today';

const escapeAttribute = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The iframe code to paste into a page. */
export function iframeCode({
  src,
  title,
  width,
  height,
}: {
  src: string;
  title: string;
  width: number;
  height: number;
}): string {
  return `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" width="${width}" height="${height}" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}
